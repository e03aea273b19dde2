#!/bin/sh
# four_users.sh - what four new users met (issue 44: a teacher, an HPC
# engineer with PGAS code, a game researcher, an engineer with C code),
# pinned so it stays fixed.  Each block names the issue's point.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
pass=0
must() {    # must NAME PATTERN FILE
    if grep -q -- "$2" "$3"; then pass=$((pass + 1)); else
        echo "FAIL [$1]: expected '$2' in:"; sed 's/^/    /' "$3" | head -40; fail=$((fail + 1)); fi
}
mustnot() {
    if grep -q -- "$2" "$3"; then
        echo "FAIL [$1]: did not expect '$2' in:"; sed 's/^/    /' "$3" | head -40; fail=$((fail + 1))
    else pass=$((pass + 1)); fi
}
rc_is() {   # rc_is NAME WANT GOT FILE
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
        echo "FAIL [$1]: exit $3, expected $2:"; sed 's/^/    /' "$4" | head -20; fail=$((fail + 1)); fi
}
cd "$root"

# 5. outcomes name array cells, in every form doc/language.md gives, in
# --outcome and in `until`; an array without an index is an error
cat > "$tmp/entered.wmx" <<'W'
var entered[2];
thread P0 { entered[0] = 1; r0 = entered[1]; }
thread P1 { entered[1] = 1; r0 = entered[0]; }
exists (P0:r0 = 0 /\ P1:r0 = 0)
W
"$WMX" check "$tmp/entered.wmx" --outcome 'entered[0]=1 /\ entered[1]=1' > "$tmp/o1.out" 2>&1
rc_is outcome-cells 0 $? "$tmp/o1.out"
must outcome-cells-reached 'Outcome entered\[0\]=1 /\\ entered\[1\]=1 of entered under tso: reachable' "$tmp/o1.out"
"$WMX" check "$tmp/entered.wmx" --outcome '[entered[1]]=1' > "$tmp/o2.out" 2>&1
rc_is outcome-bracket 0 $? "$tmp/o2.out"
must outcome-bracket-reached 'reachable (consistent)' "$tmp/o2.out"
# the cells are read, not their array's first cell: SB's outcome with both
# flags set is TSO's, not SC's
o='entered[0]=1 /\ [entered[1]]=1 /\ P0:r0=0 /\ P1:r0=0'
"$WMX" check "$tmp/entered.wmx" --outcome "$o" --model sc > "$tmp/o3.out" 2>&1
rc_is outcome-sc 1 $? "$tmp/o3.out"
must outcome-sc-not 'under sc: not reachable' "$tmp/o3.out"
"$WMX" check "$tmp/entered.wmx" --outcome "$o" --model tso > "$tmp/o4.out" 2>&1
rc_is outcome-tso 0 $? "$tmp/o4.out"
"$WMX" check "$tmp/entered.wmx" --outcome 'entered=1' > "$tmp/o5.out" 2>&1
rc_is outcome-array 2 $? "$tmp/o5.out"
must outcome-array-msg "column 1: array 'entered' needs an index: entered\[0\] to entered\[1\]" "$tmp/o5.out"
"$WMX" check "$tmp/entered.wmx" --outcome 'entered[2]=1' > "$tmp/o6.out" 2>&1
rc_is outcome-bounds 2 $? "$tmp/o6.out"
must outcome-bounds-msg "column 9: index 2 out of bounds for 'entered' (length 2)" "$tmp/o6.out"
printf 'until [entered[1]]=1 /\\ entered[0]=1\nuntil entered=1\n' > "$tmp/u5.wmxs"
"$WMX" --script "$tmp/u5.wmxs" "$tmp/entered.wmx" > "$tmp/u5.out" 2>&1
must until-cells 'reached \[entered\[1\]\]=1 /\\ entered\[0\]=1 in' "$tmp/u5.out"
must until-array "until: column 1: array 'entered' needs an index" "$tmp/u5.out"

echo "four_users: $pass passed, $fail failed"
[ $fail -eq 0 ]

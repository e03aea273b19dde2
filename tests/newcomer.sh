#!/bin/sh
# newcomer.sh - what a new user met (issue 14), pinned so it stays fixed:
# the REPL's check --outcome uses the loaded program, no temporary paths,
# singular counts, the textbook cycle for MP, an honest IRIW answer, and a
# capped executions list that says so.
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
cd "$root"

# 1. check --outcome in the REPL with no file checks the loaded program
printf "check --outcome 'P0:r0=0 /\\\\ P1:r0=0' --model sc\nstep P0\ncheck --model sc\n" > "$tmp/c.wmxs"
"$WMX" --script "$tmp/c.wmxs" examples/sb.wmx > "$tmp/c.out" 2>&1
must outcome-default 'P1:r0=0 of SB under sc: not reachable' "$tmp/c.out"
mustnot no-temp-names 'wmx-current' "$tmp/c.out"
mustnot no-temp-names2 'unexpected character' "$tmp/c.out"
must singular 'The current execution (1 event of SB)' "$tmp/c.out"
must singular-step 'Witness (1 step;' "$tmp/c.out"

# 2. MP: the cycle through both variables, not a one-variable co cycle
for m in tso sc; do
    "$WMX" check examples/mp.wmx --outcome 'P1:r0=1 /\ P1:r1=0' --model $m > "$tmp/mp-$m.out" 2>&1
    must "mp-$m-rf" 'is read by (rf)' "$tmp/mp-$m.out"
    must "mp-$m-fr" 'overwritten by (fr)' "$tmp/mp-$m.out"
    must "mp-$m-y" 'w y=1' "$tmp/mp-$m.out"
    mustnot "mp-$m-onevar" 'among accesses to one variable' "$tmp/mp-$m.out"
done

# 3. IRIW: no false "under any model"
"$WMX" check examples/iriw.wmx --model tso > "$tmp/iriw.out" 2>&1
must iriw-models 'any model wmx knows (SC, TSO, PSO)' "$tmp/iriw.out"
must iriw-power 'Power, ARM' "$tmp/iriw.out"

# 5. a capped executions list says so, and repeats its summary last
{ echo "name many"; echo "var x = 0, y = 0;"
  for i in 1 2 3 4 5; do echo "thread P$i { x = $i; r0 = y; y = $i; r1 = x; }"; done; } > "$tmp/many.wmx"
printf 'explore --model sc --max-traces 12000\n' > "$tmp/many.wmxs"
"$WMX" --script "$tmp/many.wmxs" "$tmp/many.wmx" > "$tmp/many.out" 2>&1
must capped 'list capped at 10000: 2000 traces of other outcomes not listed' "$tmp/many.out"
tail -n 1 "$tmp/many.out" > "$tmp/many.last"
must summary-last '^Summary: 10000 final states.*12000 traces.*PARTIAL' "$tmp/many.last"

echo "newcomer: $pass passed, $fail failed"
[ $fail -eq 0 ]

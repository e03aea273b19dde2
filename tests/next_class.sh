#!/bin/sh
# next_class.sh - the REPL's `next-class` steps through the reads-from
# classes of RF-SMC one at a time: SB has 3 classes under SC and 4 under TSO,
# each replayed in the stepping panes with a distinct final state, then
# "no more classes"; --restart and a model change start over.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
cat > "$tmp/s.wmxs" <<'EOS'
model sc
next-class
next-class
next-class
next-class
model tso
next-class
next-class
next-class
next-class
next-class
next-class --restart
EOS
(cd "$root" && env HOME="$tmp" LC_ALL=C COLUMNS=80 LINES=24 "$WMX" --script "$tmp/s.wmxs" examples/sb.wmx) \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
check() {
    if ! grep -q "$1" "$tmp/out"; then
        echo "FAIL: expected '$1' in the output"
        fail=1
    fi
}
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; cat "$tmp/err"; fail=1; }
check 'class 3 under sc (4 steps)'
check 'no more classes: 3 reads-from classes under sc'
check 'class 4 under tso (6 steps)'
check 'no more classes: 4 reads-from classes under tso'
# the final states shown: 3 distinct under SC, 4 under TSO (both r0=0 only there)
sc=$(sed -n '/^wmx> model sc/,/^wmx> model tso/p' "$tmp/out" | grep '^final state' | sort -u | wc -l)
tso=$(sed -n '/^wmx> model tso/,$p' "$tmp/out" | grep '^final state' | sed -n '1,4p' | sort -u | wc -l)
[ "$sc" -eq 3 ] || { echo "FAIL: $sc distinct final states under sc, expected 3"; fail=1; }
[ "$tso" -eq 4 ] || { echo "FAIL: $tso distinct final states under tso, expected 4"; fail=1; }
# after --restart the first class comes again
last=$(grep '^class ' "$tmp/out" | tail -1)
[ "$last" = "class 1 under tso (6 steps):" ] || { echo "FAIL: after --restart got '$last'"; fail=1; }
if [ $fail -ne 0 ]; then
    cat "$tmp/out"
    exit 1
fi
echo "next_class: ok"

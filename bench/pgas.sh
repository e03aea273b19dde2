#!/bin/sh
# bench/pgas.sh - `wmx robust` on PGAS programs, both methods: 1to1 (not
# robust) and the token ring (robust) at N = 2..8, and every example at
# N = its default; time and states per row.  A row stops at 60 s
# (--timeout) and then shows "limit".  Fails only if wmx fails (exit 2).
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
rc=0
row() {  # file N method
    out=$("$WMX" robust "$1" --ranks "$2" --method "$3" --json --timeout 60 2>/dev/null)
    code=$?
    [ "$code" = 2 ] && rc=1
    t=$(printf '%s' "$out" | sed -n 's/.*"time_s": \([0-9.]*\).*/\1/p')
    s=$(printf '%s' "$out" | sed -n 's/.*"states": \([0-9]*\).*/\1/p')
    case $code in 0) v=robust ;; 1) v="not robust" ;; 3) v=limit ;; *) v=error ;; esac
    printf '%-16s %2s  %-7s %-11s %10s states %9s s\n' "$(basename "$1" .wmx)" "$2" "$3" "$v" "$s" "$t"
}
for f in examples/pgas/1to1.wmx examples/pgas/ring.wmx; do
    for n in 2 3 4 5 6 7 8; do
        for m in search nf; do
            row "$f" "$n" "$m"
        done
    done
done
for f in examples/pgas/*.wmx; do
    n=$(sed -n 's/^ranks \([0-9]*\);.*/\1/p' "$f")
    for m in search nf; do
        row "$f" 4 "$m"
    done
done
exit $rc

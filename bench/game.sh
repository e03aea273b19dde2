#!/bin/sh
# bench/game.sh - TSO safety games: positions, edges, build and solve time
# and peak memory (bytes per position) for growing ring games
# (bench/game-gen.sh) and buffer bounds.  Target: a million positions solved
# in under 2 s and under 100 bytes a position.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/game-gen.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '%-6s %-14s %3s %10s %10s %8s %8s %8s %9s %6s\n' game variant k positions edges build_s solve_s wall_s peak_MB B/pos
row() {   # N A-UPDATE B-UPDATE K
    ring "$1" > "$tmp/g.game"
    kopt="--k $4"; [ "$4" = exact ] && kopt=""
    if ! measure "$tmp/out" "$WMX" game "$tmp/g.game" --a-update "$2" --b-update "$3" $kopt --json; then
        echo "FAIL: ring$1 $2/$3 k=$4"; cat "$tmp/out.err"; return 1
    fi
    pos=$(json_field "$tmp/out" positions)
    printf '%-6s %-14s %3s %10s %10s %8s %8s %8s %9s %6s\n' "ring$1" "$2/$3" "$4" "$pos" \
        "$(json_field "$tmp/out" edges)" "$(json_field "$tmp/out" build_s)" "$(json_field "$tmp/out" solve_s)" \
        "$SECS" "$((KB / 1024))" "$((KB * 1024 / (pos > 0 ? pos : 1)))"
}
rc=0
row 4 never never exact || rc=1
row 6 never never exact || rc=1
for k in 1 2 3; do row 4 always always $k || rc=1; done
row 5 always always 1 || rc=1
row 5 always always 2 || rc=1
row 5 after before 2 || rc=1
exit $rc

#!/bin/sh
# tui_pgas.sh - the interactive explorer on a PGAS program, driven in tmux
# at 100x30: load 1to1, see both ranks with code, memory and both queue
# levels; `step R0`, `popa R0 q0`, `step R1`, `barrier`, `step 1`, undo (key -)
# and redo; `explore`; `robust` replays the violating computation in the
# timeline; `graph hb` draws it with the ranks as clusters; quit cleanly.
set -u
WMX=${WMX:-$(pwd)/wmx}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_pgas: tmux is not installed - skipped"
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxtest-pgas-$$
size=100x30
cleanup() {
    tmux -L "$sock" kill-server 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail=0
. "$root/tests/tui/lib.sh"

mkdir -p "$tmp/home"
tmux -L "$sock" new-session -d -x 100 -y 30 \
    "cd '$root' && env HOME='$tmp/home' LC_ALL=C.UTF-8 NO_COLOR= '$WMX' examples/pgas/1to1.wmx; echo WMX-EXIT=\$?; sleep 600"
run() {
    wait_for 'wmx>' || return
    wait_for 'PGAS 1to1: 2 ranks, step 0/0' || return
    must 'R0  ready'
    must 'R1  ready'
    must 'write(x, (rank + 1) % nranks, y, 0)'
    must 'q0 fa: -  fb: -'
    text 'step R0'; keys Enter
    wait_for 'step 1/1' || return
    must 'q0 fa: R0:x->R1:y  fb: -'
    must 'R0  at barrier'
    text 'popa R0 q0'; keys Enter
    wait_for 'step 2/2' || return
    must 'q0 fa: -  fb: R1:y=1'
    text 'step R1'; keys Enter
    wait_for 'step 3/3' || return
    text 'barrier'; keys Enter
    wait_for 'step 4/4' || return
    must '4  R1: bar'
    text 'step 1'; keys Enter
    wait_for 'step 5/5' || return
    must 'R1  assert failed'
    keys -
    wait_for 'step 4/5' || return
    text 'redo'; keys Enter
    wait_for 'step 5/5' || return
    text 'popb R0 q7'; keys Enter
    wait_for "no queue 'q7'" || return
    # explore with no option typed: no --algo of the session slips in
    # (issue 44 point 2)
    text 'explore'; keys Enter
    wait_for 'Terminated states (1):' || return
    must_not "option '--algo' does not apply"
    text 'robust'; keys Enter
    wait_for 'PGAS 1to1: 2 ranks, step 8/8' || return
    must 'Not robust'
    must "rank 1's remote write into R0:y (step 6)"
    text 'undo 8'; keys Enter
    wait_for 'step 0/8' || return
    text 'graph hb'; keys Enter
    wait_for 'Graph \[zoom\]' || return
    must 'rank 0'
    must 'rank 1'
    must '\[hb, zoom'
    text "export $tmp/hb.dot"; keys Enter
    i=0
    while [ ! -s "$tmp/hb.dot" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    grep -q 'cluster' "$tmp/hb.dot" || { echo "FAIL: exported graph has no rank clusters"; fail=1; }
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
}
run
[ "$fail" = 0 ] && echo "tui_pgas: ok ($size)"
exit $fail

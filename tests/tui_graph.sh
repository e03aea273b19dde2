#!/bin/sh
# tui_graph.sh - end-to-end test of the graph pane, driven in tmux at 80x24
# (ASCII) and 120x40 (UTF-8): load SB, step it under TSO to the outcome SC
# forbids (both loads read 0, both stores still buffered), `graph hb`, and
# the pane shows the four events with the rf and fr edges of the cycle; the
# SC check is reported as inconsistent.  Then pane mode: n selects a node
# (its event in the status line), Enter moves the stepping panes to its
# step; `export` writes an SVG.  Only stable text is compared, never
# coordinates (Graphviz's layout may differ between versions).
set -u
WMX=${WMX:-$(pwd)/wmx}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_graph: tmux is not installed - skipped"
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
base=wmxgraph-$$
sock=$base-0
cleanup() {
    for s in 0 1 2; do tmux -L "$base-$s" kill-server 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail=0
. "$root/tests/tui/lib.sh"

# at_least N WORD: the screen shows WORD (as a word) N times or more
at_least() {
    grab "$tmp/screen"
    n=$(grep -ow -- "$2" "$tmp/screen" | wc -l)
    if [ "$n" -lt "$1" ]; then
        echo "FAIL [$size]: expected '$2' at least $1 times, saw $n; the screen was:"
        cat "$tmp/screen"
        fail=1
    fi
}

run_session() {    # WIDTH HEIGHT LOCALE SERVER
    size="$1x$2"
    sock=$base-$4
    mkdir -p "$tmp/home"
    tmux -L "$sock" new-session -d -x "$1" -y "$2" \
        "cd '$root' && env HOME='$tmp/home' LC_ALL=$3 NO_COLOR= '$WMX' examples/sb.wmx 2>'$tmp/stderr-$4'; echo WMX-EXIT=\$?; sleep 600"
    wait_for 'Program SB' || return
    text 'model tso'; keys Enter
    wait_for 'model tso (unchanged)' || return
    keys 0; wait_for 'step 1/1' || return
    keys 1; wait_for 'step 2/2' || return
    keys 0; wait_for 'step 3/3' || return
    keys 1; wait_for 'step 4/4' || return

    text 'graph hb'; keys Enter
    wait_for 'Graph' || return
    wait_for 'INCONSISTENT under sc' || return
    # the four events (labels shrink on small panes: match what stays)
    must 'P0.0 wB x=1\|wB x=1'
    must 'P0.1 r y=0\|r y=0'
    must 'P1.0 wB y=1\|wB y=1'
    must 'P1.1 r x=0\|r x=0'
    # the edges of the cycle SC forbids: fr twice (each read is
    # overwritten by the other thread's store), rf from the initial values,
    # and program order
    at_least 2 fr
    at_least 2 rf
    at_least 2 po
    must 'init x=0\|x=0'

    # pane mode: the first node's event in the status line, Enter goes to
    # its step
    keys Escape; sleep 0.2
    must '\[pane mode\]'
    keys n; sleep 0.2
    keys n; sleep 0.2
    keys n; sleep 0.2
    keys Enter
    wait_for 'step [0-9]/4 | running | step [0-9]:' || return
    keys :
    sleep 0.2

    # export the view
    text "export $tmp/sb-$4.svg"; keys Enter
    sleep 0.5
    if ! grep -q '<svg' "$tmp/sb-$4.svg" 2>/dev/null; then
        echo "FAIL [$size]: export wrote no SVG"
        fail=1
    fi
    if ls "$tmp" | grep -q 'tmp'; then
        echo "FAIL [$size]: export left a temporary file"
        fail=1
    fi

    # back to the stepping panes
    text 'zoom'; keys Enter
    wait_for 'Program SB' || return
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
    if [ -s "$tmp/stderr-$4" ]; then
        echo "FAIL [$size]: something was written to stderr behind curses:"
        cat "$tmp/stderr-$4"
        fail=1
    fi
}

run_session 80 24 C 1
tmux -L "$sock" kill-server 2>/dev/null
run_session 120 40 C.UTF-8 2
tmux -L "$sock" kill-server 2>/dev/null

if [ $fail -eq 0 ]; then
    echo "tui_graph: ok (80x24 and 120x40)"
fi
exit $fail

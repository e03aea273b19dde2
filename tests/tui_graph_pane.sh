#!/bin/sh
# tui_graph_pane.sh - the graph pane's keys and text (issue 44, points 7
# and 13), in tmux at 80x24 (ASCII, NO_COLOR=1), 120x40 (UTF-8, colours)
# and 120x40 (ASCII, NO_COLOR=1).
#  7. keys typed at the prompt are commands: `-` there undoes a step and
#     leaves the zoom alone; the pane's header says where the zoom keys work
#     ("Esc +/-"), pane mode's prompt line lists them, and in pane mode `-`
#     and `+` zoom without stepping.  `help graph` and `keys` say so too.
# 13. no stray clipped names of clusters with no events (SB before any
#     step; a PGAS ring where only rank 0 has an event: no "k 3"), and a
#     status message too long for the line keeps its words whole and ends
#     with "..." (not "... 6 edges; I").
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
base=wmxgpane-$$
sock=$base-0
fail=0
cleanup() {
    for s in 1 2 3; do tmux -L "$base-$s" kill-server 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# batch: the help texts (no terminal needed)
"$WMX" help graph > "$tmp/help" 2>&1
for want in 'pane mode (Esc' '+ zooms in' '- zooms out' 'At the prompt keys are commands: - is undo, + redo'; do
    if ! tr '\n' ' ' < "$tmp/help" | grep -qF -- "$want"; then
        echo "FAIL: \`help graph\` does not say '$want':"
        cat "$tmp/help"
        fail=1
    fi
done
printf 'keys\n' > "$tmp/keys.wmxs"
(cd "$root" && env HOME="$tmp" "$WMX" --script "$tmp/keys.wmxs" examples/sb.wmx) > "$tmp/keys" 2>&1
if ! grep -q 'In the graph pane: + zoom in, - zoom out' "$tmp/keys"; then
    echo "FAIL: \`keys\` does not list the graph pane's zoom keys:"
    cat "$tmp/keys"
    fail=1
fi

if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_graph_pane: tmux is not installed - screens skipped"
    exit $fail
fi
. "$root/tests/tui/lib.sh"

# the graph pane's body: the lines between its header and its bottom frame
body() {
    grab "$tmp/screen"
    awk '/Graph/ { on = 1; skip = 1; next } on && skip { skip = 0; next }
         on && /^[+└]/ { exit } on { print }' "$tmp/screen"
}
status_line() { grab "$tmp/screen"; tail -n 2 "$tmp/screen" | head -n 1 | sed 's/ *$//'; }
zoom_of() { grab "$tmp/screen"; sed -n 's/.*zoom \([0-9]\)\/3.*/\1/p' "$tmp/screen" | head -n 1; }

session() {    # WIDTH HEIGHT LOCALE NO_COLOR SERVER FILE
    size="$1x$2${4:+ NO_COLOR}"
    sock=$base-$5
    mkdir -p "$tmp/home"
    tmux -L "$sock" new-session -d -x "$1" -y "$2" \
        "cd '$root' && env HOME='$tmp/home' LC_ALL=$3 NO_COLOR=$4 '$WMX' $6 2>'$tmp/stderr-$5'; echo WMX-EXIT=\$?; sleep 600"
}

run_sb() {    # WIDTH HEIGHT LOCALE NO_COLOR SERVER
    session "$@" examples/sb.wmx
    wait_for 'Program SB' || return
    text 'model tso'; keys Enter
    wait_for 'model tso (unchanged)' || return

    # 13: no events yet: the pane is empty (P0 and P1 have no box to name)
    text 'graph hb'; keys Enter
    wait_for '0 nodes' || return
    if body | grep -q '[A-Za-z0-9]'; then
        echo "FAIL [$size]: stray text in the graph pane of an execution with no events:"
        cat "$tmp/screen"
        fail=1
    fi
    # 7: the header says where the zoom keys work
    must 'zoom [0-9]/3 (Esc +/-)'

    text 'zoom'; keys Enter               # back to the stepping panes
    wait_for 'Program SB' || return
    keys 0; wait_for 'step 1/1' || return
    keys 1; wait_for 'step 2/2' || return
    keys 0; wait_for 'step 3/3' || return
    keys 1; wait_for 'step 4/4' || return
    text 'graph hb'; keys Enter
    wait_for 'INCONSISTENT under sc' || return

    # 13: the message keeps its words: whole, or cut at a word with "..."
    st=$(status_line)
    case "$st" in
    *'INCONSISTENT under sc: the 4 highlighted edges form the cycle') ;;
    *'INCONSISTENT under sc'*...) ;;
    *) echo "FAIL [$size]: the status message is cut without a mark: '$st'"; fail=1 ;;
    esac

    # 7: at the prompt `-` is undo; the zoom stays
    z=$(zoom_of)
    text '-'
    wait_for 'step 3/4' || return
    if [ "$(zoom_of)" != "$z" ]; then
        echo "FAIL [$size]: '-' at the prompt changed the zoom ($z -> $(zoom_of))"
        fail=1
    fi
    must 'Graph'                          # the graph pane stays
    # in pane mode `-` and `+` zoom, and the prompt line says so
    keys Escape; sleep 0.3
    must '-- graph -- +/- zoom'
    must 'zoom [0-9]/3 (+/-)'
    z=$(zoom_of)
    if [ "$z" -gt 1 ]; then
        text '-'; sleep 0.5
        want=$((z - 1))
    else
        text '+'; sleep 0.5
        want=$((z + 1))
    fi
    if [ "$(zoom_of)" != "$want" ]; then
        echo "FAIL [$size]: pane mode zoom went from $z to $(zoom_of), expected $want"
        cat "$tmp/screen"
        fail=1
    fi
    must 'step 3/4'                       # no stepping in pane mode
    keys Escape; sleep 0.2
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
    if [ -s "$tmp/stderr-$5" ]; then
        echo "FAIL [$size]: something was written to stderr behind curses:"
        cat "$tmp/stderr-$5"
        fail=1
    fi
}

run_ring() {    # WIDTH HEIGHT LOCALE NO_COLOR SERVER
    session "$@" examples/pgas/ring.wmx
    wait_for 'ring' || return
    text 'step R0'; keys Enter
    sleep 0.5
    text 'graph hb'; keys Enter
    wait_for '1 nodes' || return
    must 'rank 0'
    # ranks 1..3 have no events: no name of theirs, whole or cut
    if body | grep -q 'rank [1-3]\|k [1-3]\|nk [1-3]'; then
        echo "FAIL [$size]: the graph names ranks that have no events:"
        cat "$tmp/screen"
        fail=1
    fi
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
}

run_sb 80 24 C 1 1
run_ring 80 24 C 1 1
tmux -L "$base-1" kill-server 2>/dev/null
run_sb 120 40 C.UTF-8 '' 2
run_ring 120 40 C.UTF-8 '' 2
tmux -L "$base-2" kill-server 2>/dev/null
run_sb 120 40 C 1 3
tmux -L "$base-3" kill-server 2>/dev/null

[ $fail -eq 0 ] && echo "tui_graph_pane: ok (80x24, 120x40; NO_COLOR=1 and colours)"
exit $fail

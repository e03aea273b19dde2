#!/bin/sh
# tui_game.sh - play mode in the interactive explorer, driven in tmux at
# 80x24: open a .game, `play A` under A-after updates, make moves, see the
# computer's replies, and see the verdict turn to B after a wrong move
# (ending the turn without flushing P's write); undo it and win instead.
set -u
WMX=${WMX:-$(pwd)/wmx}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_game: tmux is not installed - skipped"
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxgame-$$
size=80x24
cleanup() {
    tmux -L "$sock" kill-server 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail=0
. "$root/tests/tui/lib.sh"
cmd() { text "$1"; keys Enter; }

run() {
    mkdir -p "$tmp/home"
    tmux -L "$sock" new-session -d -x 80 -y 24 \
        "cd '$root' && env HOME='$tmp/home' LC_ALL=C.UTF-8 NO_COLOR= '$WMX' examples/games/flush-race.game; echo WMX-EXIT=\$?; sleep 600"
    wait_for 'wmx>' || return
    wait_for 'Game' || return
    must 'flush-race | A never, B never | exact'
    must 'verdict: B wins from here'

    cmd 'play A after never'
    wait_for 'you play A; the computer plays B' || return
    must 'verdict: A wins from here'
    must 'A to move; A may update after her instruction'
    must '>1 p0->p1 wr(x,1)'
    must 'Q    q0     buffer \[\]   final: q1'

    cmd 'move P 1'
    wait_for 'A: P.1 p0->p1 wr(x,1)' || return
    must 'P    p1     buffer \[x=1\]'
    must 'A to move (updating after)'
    must 'verdict: A wins from here'
    cmd 'hint'
    wait_for 'hint: A wins from here; the strategy plays update P' || return

    # the wrong move: end the turn with x=1 still buffered
    cmd 'end'
    wait_for 'B (computer): Q.1 q0->q1 rd(x,0)' || return
    must 'B has won: a process is in a final state'
    must 'B wins: a process is in a final state with A to move'

    # undo the wrong move (and B's reply): A's winning verdict is back
    cmd 'undo'
    wait_for 'at move 1 of 3' || return
    must 'verdict: A wins from here'
    cmd 'update P'
    wait_for 'A: update P' || return
    must 'memory: x=1 y=0'
    cmd 'end'
    wait_for 'B (computer): P.2 p1->p2 skip' || return
    wait_for 'neither player can move' || return
    # the play is over (issue 44 point 14): the pane says A has won, not
    # whose move it is, and a move is refused as such
    must 'A has won: neither player can move (the play is over)'
    must 'move 6/6 | A has won'
    must_not ' to move; '
    must_not 'verdict: '
    cmd 'move P 1'
    wait_for 'the play is over: A has won, neither player can move' || return
    must_not 'is not enabled now'

    # programs' commands with a game loaded say what to do instead; `game`
    # (listed in help) solves the loaded game in the variant played (points
    # 2 and 4): with A updating after, A wins flush-race
    cmd 'explore'
    wait_for 'explore works on programs, and a game is loaded' || return
    must '`game` solves it (the winner and a strategy), `play A` or `play B` plays it'
    cmd 'game --rows 1'
    wait_for 'winner: A (A keeps every process out' || return
    must 'game flush-race: 2 processes, 2 variables; A updates after, B updates never'
    must_not 'unknown command'

    # B's side under never/never: the computer (A) loses whatever it does
    cmd 'play B never never'
    wait_for 'you play B; the computer plays A' || return
    wait_for 'A (computer):' || return
    must 'verdict: B wins from here'
    cmd 'redo'
    wait_for 'nothing to redo' || return

    cmd 'quit'
    wait_for 'WMX-EXIT=0' || return
}
run
[ "$fail" = 0 ] && echo "tui_game: ok"
exit $fail

#!/bin/sh
# tui_load_error.sh - a program with a parse error, in the interactive
# explorer (tmux, 80x24): starting on it and `load`ing it show the error as
# file:line:col without leaving; the program on screen stays; after fixing
# the file a `load` works.  Also: Tab completion of commands and thread names,
# a bad command, stepping a finished thread, and keys that mean nothing - no
# crash, a message.
set -u
WMX=${WMX:-$(pwd)/wmx}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_load_error: tmux is not installed - skipped"
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxtest-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
fail=0
. "$root/tests/tui/lib.sh"
size=80x24

cat > "$tmp/prog.wmx" <<'EOF'
name Broken
var x;

thread T0 {
  x = ;
}
EOF

cat > "$tmp/fixed.wmx" <<'EOF'
name Fixed
var x;

thread T0 {
  x = 1;
}

thread T1 {
  r0 = x;
}

exists (T1:r0 = 1)
EOF

mkdir -p "$tmp/home"
tmux -L "$sock" new-session -d -x 80 -y 24 \
    "cd '$tmp' && env HOME='$tmp/home' LC_ALL=C '$WMX' prog.wmx; echo WMX-EXIT=\$?; sleep 600"

session() {
    # started on a broken program: the error is on screen, wmx is still there
    wait_for 'prog.wmx:5:7: expected an expression' || return
    wait_for 'no program: `load FILE`' || return
    wait_for '^wmx>' || return

    # a good program, then the broken one again: error shown, program kept
    text "load $root/examples/sb.wmx"; keys Enter
    wait_for 'Program SB' || return
    text 'load prog.wmx'; keys Enter
    wait_for 'prog.wmx:5:7: expected an expression' || return
    wait_for '(still showing' || return
    wait_for 'Program SB' || return

    # fix the file and load it again
    cp "$tmp/fixed.wmx" "$tmp/prog.wmx"
    text 'load prog.wmx'; keys Enter
    wait_for 'Program Fixed' || return
    wait_for 'loaded Fixed (prog.wmx): 2 threads' || return

    # completion from the command table: "unt<Tab>" -> "until ", thread names
    text 'unt'; keys Tab
    wait_for '^wmx> until *$' || return
    keys C-u
    text 'step T'; keys Tab
    wait_for 'completions:' || return
    wait_for '  T0  *T1' || return
    text '1'; keys Enter
    wait_for 'T1: r0 = x' || return

    # mistakes give messages, not crashes
    text 'frobnicate'; keys Enter
    wait_for "unknown command 'frobnicate'" || return
    text 'step T1'; keys Enter
    wait_for 'T1 cannot step: it is done' || return
    text 'goto 99'; keys Enter
    wait_for 'goto: step 99 is outside the timeline' || return
    keys F12 F11 C-t C-o M-x Escape x y Escape 7 8 9 PageDown PageUp BTab F3 F3 Escape
    sleep 0.3
    # Ctrl-C twice: out of pane mode, and an empty command line
    keys C-c; sleep 0.1; keys C-c
    text 'model sc'; keys Enter
    wait_for 'model sc: restarted' || return
    keys 0
    wait_for 'step 1/1' || return
    text 'until T1:r0=1'; keys Enter
    wait_for 'reached T1:r0=1 in' || return

    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
    must_not 'Program'
}
session

if [ $fail -eq 0 ]; then
    echo "tui_load_error: ok"
fi
exit $fail

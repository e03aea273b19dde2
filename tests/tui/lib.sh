# tests/tui/lib.sh - tmux helpers shared by the tests/tui_*.sh scripts
# (sourced, not run).  The caller sets $sock (the tmux server), $tmp and
# $size, and `fail`; a script may redefine grab (e.g. to mask timings).

keys() { tmux -L "$sock" send-keys "$@"; }
text() { tmux -L "$sock" send-keys -l -- "$1"; }
grab() { tmux -L "$sock" capture-pane -p > "$1"; }

# wait_for PATTERN: until the screen shows it (5 s)
wait_for() {
    i=0
    while [ $i -lt 50 ]; do
        grab "$tmp/screen"
        if grep -q -- "$1" "$tmp/screen"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "FAIL [$size]: timed out waiting for '$1'; the screen was:"
    cat "$tmp/screen"
    fail=1
    return 1
}

# must LINE-PATTERN: the current screen has a line matching it
must() {
    grab "$tmp/screen"
    if ! grep -q -- "$1" "$tmp/screen"; then
        echo "FAIL [$size]: expected a line matching '$1'; the screen was:"
        cat "$tmp/screen"
        fail=1
    fi
}

# must_not PATTERN: the current screen does not show it
must_not() {
    grab "$tmp/screen"
    if grep -q -- "$1" "$tmp/screen"; then
        echo "FAIL [$size]: the screen should not show '$1':"
        cat "$tmp/screen"
        fail=1
    fi
}

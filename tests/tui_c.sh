#!/bin/sh
# tui_c.sh - the interactive explorer on a C program, driven in tmux at
# 100x30: the threads have the program's own names (main, worker.1,
# worker.2), and the Events pane's hint names one that can step (issue 44
# point 16: it said `step P0`, a thread such a program does not have).
set -u
WMX=${WMX:-$(pwd)/wmx}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui_c: tmux is not installed - skipped"
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxtest-c-$$
size=100x30
cleanup() {
    tmux -L "$sock" kill-server 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail=0
. "$root/tests/tui/lib.sh"

cat > "$tmp/workers.c" <<'C'
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *worker(void *arg)
{
    long me = (long)arg;
    atomic_store_explicit(me ? &y : &x, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
C
if "$WMX" explore "$tmp/workers.c" 2>&1 | grep -q 'C input not built'; then
    echo "tui_c: C input not built - skipped"
    exit 0
fi

mkdir -p "$tmp/home"
tmux -L "$sock" new-session -d -x 100 -y 30 \
    "cd '$tmp' && env HOME='$tmp/home' LC_ALL=C.UTF-8 NO_COLOR= '$WMX' workers.c; echo WMX-EXIT=\$?; sleep 600"
run() {
    wait_for 'wmx>' || return
    wait_for 'worker.1 (ready)' || return
    must 'no steps yet: `step worker.1`'
    must_not 'step P0'
    text 'step worker.1'; keys Enter
    wait_for 'worker.1: ' || return
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
}
run
[ "$fail" = 0 ] && echo "tui_c: ok ($size)"
exit $fail

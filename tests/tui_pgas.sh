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
    must 'R1  assert failed, line 14'
    # the failed assert is said in the output, not only as a status
    must 'R1 assertion failed at line 14: assert(r == 1)   regs: r=0'
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
    must "Rank 0's barrier (step 4) comes before (po) its load of y (step 5)"
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
tmux -L "$sock" kill-server 2>/dev/null

# -- three ranks at 80x24 and 120x40: every queue line is shown, a line
# that is cut is marked, registers are not under mem:, and a step that is
# not enabled says why (who has not arrived, whose queue holds what)
cat > "$tmp/three.wmx" <<'EOF'
// three ranks: data and a flag to the right neighbour
name three
ranks 3;
var data = 1, one = 1, flag;
spmd {
  write(data, (rank + 1) % nranks, data, 0);
  write(one, (rank + 1) % nranks, flag, 0);
  write(one, (rank + 1) % nranks, one, 1);
  barrier;
  f = flag;
  assert(f == 1);
}
EOF
# the Output pane's text as one line (its wrapped lines joined)
output_text() {
    sed -n '/Output/,$p' "$tmp/screen" | sed 's/^│//; s/│$//' | tr '\n' ' ' | tr -s ' '
}
run_three() {
    wait_for 'PGAS three: 3 ranks, step 0/0' || return
    text 'step R0'; keys Enter
    wait_for 'step 1/1' || return
    text 'step R0'; keys Enter
    wait_for 'step 2/2' || return
    text 'step R0'; keys Enter
    wait_for 'step 3/3' || return
    # R0's q0 holds two requests: too long for one line at 80 columns
    must 'R0  at barrier   regs: f=0'
    must_not 'mem:.*f='
    grab "$tmp/screen"
    n=$(grep -c 'q1 fa:' "$tmp/screen")
    [ "$n" = 3 ] || { echo "FAIL [$size]: $n of 3 'q1' queue lines shown:"; cat "$tmp/screen"; fail=1; }
    must 'R2  ready'
    if [ "$size" = 80x24 ]; then
        # cut lines end in a mark; the queue too long for one line goes on
        # with its fb level on the next
        must 'write(data, (rank + 1) % …'
        grab "$tmp/screen"
        grep -A1 'q0 fa: R0:data->R1:data R0:one->R1:…│' "$tmp/screen" | grep -q 'barrier  *fb: - *│$' ||
            { echo "FAIL [$size]: R0's q0 is not split over two marked lines:"; cat "$tmp/screen"; fail=1; }
    else
        must 'q0 fa: R0:data->R1:data R0:one->R1:flag  fb: -'
    fi
    text 'barrier'; keys Enter
    wait_for 'barrier is not enabled now' || return
    grab "$tmp/screen"
    flat=$(output_text)
    case "$flat" in *"R1 has not arrived (ready at line 6"*"R2 has not arrived"*) ;;
        *) echo "FAIL [$size]: barrier does not say who has not arrived:"; cat "$tmp/screen"; fail=1 ;; esac
    text 'popb R0 q0'; keys Enter
    wait_for 'popb R0 q0 is not enabled now' || return
    grab "$tmp/screen"
    flat=$(output_text)
    case "$flat" in *"R0's queue q0 has nothing in fb (no value is in flight); it holds fa: R0:data->R1:data R0:one->R1:flag fb: -: \`popa R0 q0\` first"*) ;;
        *) echo "FAIL [$size]: popb does not say whose queue holds what:"; cat "$tmp/screen"; fail=1 ;; esac
    text 'step R0'; keys Enter
    wait_for 'step R0 is not enabled now' || return
    grab "$tmp/screen"
    flat=$(output_text)
    case "$flat" in *"R0 waits at the barrier of line 9; all ranks pass it together with \`barrier\` once R1, R2 are there too"*) ;;
        *) echo "FAIL [$size]: step at a barrier does not say why:"; cat "$tmp/screen"; fail=1 ;; esac
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
}
total=$fail
for size in 80x24 120x40; do
    w=${size%x*}; h=${size#*x}
    sock=wmxtest-pgas-$$-$w
    tmux -L "$sock" new-session -d -x "$w" -y "$h" \
        "cd '$tmp' && env HOME='$tmp/home' LC_ALL=C.UTF-8 NO_COLOR=1 '$WMX' three.wmx; echo WMX-EXIT=\$?; sleep 600"
    fail=0
    run_three
    [ "$fail" = 0 ] && echo "tui_pgas: three ranks ok ($size)"
    [ "$fail" = 0 ] || total=1
    tmux -L "$sock" kill-server 2>/dev/null
done
fail=$total

# -- after `robust` the violating computation is listed by the timeline's
# steps (a barrier is one step), so its numbers match `step N/M`
printf 'robust\n' > "$tmp/robust.wmxs"
"$WMX" --script "$tmp/robust.wmxs" "$root/examples/pgas/1to1.wmx" > "$tmp/out" 2>&1
grep -q '^ *8  R0: popb q0 writes R1:y := 1' "$tmp/out" && ! grep -q '^ *9  R' "$tmp/out" &&
    grep -q 'Violating computation (8 steps' "$tmp/out" && grep -q 'timeline now (8 steps)' "$tmp/out" ||
    { echo "FAIL: robust lists events, not the timeline's steps:"; cat "$tmp/out"; fail=1; }
# -- quiet in the explorer: a rank at `quiet;` steps only once its queues
# are empty, and says what it waits for until then
printf 'step R0\nstep R0\npopa R0 q0\npopb R0 q0\nstep R0\nrobust --method nf\n' > "$tmp/quiet.wmxs"
"$WMX" --script "$tmp/quiet.wmxs" "$root/examples/pgas/barrier-all.wmx" > "$tmp/out" 2>&1
grep -q 'step R0 is not enabled now: R0 waits at quiet (line 13) until its queues are empty: q0 holds 1 request (fa)' "$tmp/out" &&
    grep -q '^ *4  R0: quiet' "$tmp/out" && grep -q "does not support 'quiet'" "$tmp/out" ||
    { echo "FAIL: quiet in the explorer:"; cat "$tmp/out"; fail=1; }
exit $fail

#!/bin/sh
# c_spin.sh - the C front end's spin-loop rules (doc/c-input.md: a loop that
# only waits becomes an assume; a CAS retry loop or a loop that carries what
# it last read of one location too, when it starts from a load of that
# location made just before it; an exchange loop's time round that changed
# nothing) may block executions but never change what can happen: random
# programs built from those shapes, with stores, loads and constants put
# between the load and the loop, give the same final states with the rules
# and with --no-spin-assume (every time round explored up to the bound),
# under SC, TSO and PSO; and the rules must block something.
# WMX_C_SPIN (default 30) programs; seed fixed (WMX_C_SPIN_SEED).
set -u
WMX=${WMX:-$(pwd)/wmx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
. "$(cd "$(dirname "$0")" && pwd)/lib/c_twins.sh"
c_input_or_skip c_spin
nprog=${WMX_C_SPIN:-30}
case "${WMX_BUILD:-}" in *asan*) nprog=${WMX_C_SPIN:-12} ;; esac

seed=${WMX_C_SPIN_SEED:-5}
pick_var() { rnd 2; case $R in 0) V=x ;; *) V=y ;; esac; }

# what may stand between a loop's first load and the loop
gap() {
    rnd 4
    case $R in
    0) pick_var; G=" atomic_store(&$V, 2);" ;;
    1) pick_var; G=" r = atomic_load(&$V);" ;;
    *) G="" ;;
    esac
}

# one waiting shape, appended to $C
shape() {
    pick_var; X=$V
    rnd 8
    case $R in
    0) gap; rnd 2; C="$C e = atomic_load(&$X);$G while (!atomic_compare_exchange_strong(&$X, &e, e + $((R + 1)))) ;" ;;
    1) rnd 3; k=$R; rnd 2
       if [ "$R" = 0 ]; then C="$C e = $k; while (!atomic_compare_exchange_strong(&$X, &e, 2)) e = $k;"
       else C="$C e = $k; while (!atomic_compare_exchange_strong(&$X, &e, 2)) ;"; fi ;;
    2) gap; rnd 3; C="$C e = atomic_load(&$X);$G while (e == $R) e = atomic_load(&$X);" ;;
    3) rnd 3; k=$R; rnd 2
       if [ "$R" = 0 ]; then C="$C while (atomic_load(&$X) == $k) atomic_thread_fence(memory_order_seq_cst);"
       else C="$C while (atomic_load(&$X) == $k) ;"; fi ;;
    4) C="$C while (atomic_exchange(&$X, 1) == 1) ;" ;;
    5) # a test-and-test-and-set lock: wait, then exchange; round again on k2
       rnd 3; k=$R; rnd 3; v=$R; rnd 3; k2=$R
       C="$C for (;;) { while (atomic_load(&$X) == $k) ; if (atomic_exchange(&$X, $v) != $k2) break; }" ;;
    6) # a compare-exchange lock after a wait (expected value reset, or not)
       rnd 3; k=$R; rnd 3; v=$R; rnd 2
       if [ "$R" = 0 ]; then C="$C do { while (atomic_load(&$X) != $k) ; e = $k; } while (!atomic_compare_exchange_strong(&$X, &e, $v));"
       else C="$C e = $k; for (;;) { while (atomic_load(&$X) != $k) ; if (atomic_compare_exchange_strong(&$X, &e, $v)) break; }"; fi ;;
    *) pick_var; rnd 3; C="$C atomic_store(&$V, $((R + 1)));" ;;
    esac
}

gen() {
    rnd 2; nt=$((R + 2))
    { echo "#include <pthread.h>"; echo "#include <stdatomic.h>"; echo "atomic_int x, y;"; } > "$tmp/p.c"
    t=0; names=""
    while [ $t -lt $nt ]; do
        C=" int e = 0, r = 0;"
        rnd 2; ns=$((R + 1)); s=0
        while [ $s -lt $ns ]; do shape; s=$((s + 1)); done
        # a writer's part, so that the waits can end
        pick_var; rnd 3; C="$C atomic_store(&$V, $R);"
        echo "int P${t}_e, P${t}_r;" >> "$tmp/p.c"
        echo "void *P$t(void *arg) {$C P${t}_e = e; P${t}_r = r; return arg; }" >> "$tmp/p.c"
        names="$names P$t"
        t=$((t + 1))
    done
    c_main $nt $names
}

i=0; runs=0; plain=0; optioned=0
while [ $i -lt $nprog ]; do
    gen
    same_states_with "--no-spin-assume --no-plp" c_spin $i "with the spin rules and without"
    i=$((i + 1))
done
with=$plain; without=$optioned
[ "$with" -lt "$without" ] || bad "the spin rules blocked nothing: $with complete executions with them, $without without"

# A ticket lock's waiter under SC and TSO: RF-SMC runs one trace per class
# and none where a waiter stays at its await (only its predecessor writes
# the cell it waits on, and that write lets it pass): 5040 runs for 5040
# classes of 7 threads; with "absent" queued up front it ran 40320, 35280
# of them no class.
cat > "$tmp/tl.c" <<'EOF'
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int next_ticket, owner;
int inside;
static void wait_turn(int t) { while (atomic_load_explicit(&owner, memory_order_acquire) != t) ; }
void *worker(void *arg) {
  int t = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
  wait_turn(t);
  assert(inside == 0); inside = 1; inside = 0;
  atomic_store_explicit(&owner, t + 1, memory_order_release);
  return arg;
}
int main(void) {
  pthread_t t[5];
  for (int i = 0; i < 5; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 5; i++) pthread_join(t[i], 0);
  return 0;
}
EOF
for m in sc tso; do
    out=$(WMX_RFSMC_STATS=1 "$WMX" explore "$tmp/tl.c" --model $m --algo rfsmc 2>&1)
    echo "$out" | grep -q "120 traces, 0 blocked" || bad "ticket lock ($m): not 120 classes, 0 blocked: $(echo "$out" | tail -3)"
    echo "$out" | grep -q "rfsmc: 120 traces run, 0 of them no class" || bad "ticket lock ($m): runs that were no class: $(echo "$out" | grep rfsmc:)"
done

# Under TSO a thread that reads its own store before the other thread sees
# it is a class of TSO only; the greedy TSO witness orders them (stores
# buffered, flushed when nothing still needs the value they overwrite), so
# no alternative goes to the full check, and the classes are rfstate's.
cat > "$tmp/fib.c" <<'EOF'
#include <pthread.h>
#include <stdatomic.h>
atomic_int x = 1, y = 1;
void *t1(void *a) { for (int i = 0; i < 2; i++) { int p = atomic_load(&x), q = atomic_load(&y); atomic_store_explicit(&x, p + q, memory_order_release); } return a; }
void *t2(void *a) { for (int i = 0; i < 2; i++) { int p = atomic_load(&x), q = atomic_load(&y); atomic_store_explicit(&y, p + q, memory_order_release); } return a; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }
EOF
out=$(WMX_RFSMC_STATS=1 "$WMX" explore "$tmp/fib.c" --model tso --algo rfsmc 2>&1)
ref=$("$WMX" explore "$tmp/fib.c" --model tso --algo rfstate 2>&1)
n1=$(echo "$out" | sed -n 's/^ *\([0-9]*\) traces, 0 blocked.*/\1/p'); n2=$(echo "$ref" | sed -n 's/^ *\([0-9]*\) traces, 0 blocked.*/\1/p')
[ -n "$n1" ] && [ "$n1" = "$n2" ] || bad "fib under TSO: rfsmc ${n1:-?} classes, rfstate ${n2:-?}"
[ "$(echo "$out" | sed '/^rfsmc:/d; /traces,/d')" = "$(echo "$ref" | sed '/traces,/d; s/algorithm rfstate/algorithm rfsmc/')" ] || bad "fib under TSO: rfsmc's states differ from rfstate's"
echo "$out" | grep -q "; 0 checks," || bad "fib under TSO: alternatives went to the full check: $(echo "$out" | grep rfsmc:)"

[ "$fail" = 0 ] && echo "c_spin: $runs runs ($nprog random programs x sc/tso/pso): the same states with the spin rules ($with complete executions) as with --no-spin-assume --no-plp ($without)"
exit $fail

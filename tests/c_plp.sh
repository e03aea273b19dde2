#!/bin/sh
# c_plp.sh - `--plp` on C input (seed 003's partial loop purity, applied by
# the C front end): a time round of a loop that wrote nothing and left its
# carried values as they were is blocked.  That must never change what can
# happen: random C programs whose loops have pure and impure paths (loads,
# stores on some paths, a counter that moves on some paths, breaks) give
# the same final states and the same failing asserts with and without
# --plp, under SC, TSO and PSO, while --plp blocks some executions.  Then
# Dekker's lock with a wait loop that writes on one path: 4 complete
# executions instead of tens of thousands.  WMX_C_PLP (default 24) programs.
set -u
WMX=${WMX:-$(pwd)/wmx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
. "$(cd "$(dirname "$0")" && pwd)/lib/c_twins.sh"
c_input_or_skip c_plp
nprog=${WMX_C_PLP:-24}
case "${WMX_BUILD:-}" in *asan*) nprog=${WMX_C_PLP:-12} ;; esac

seed=${WMX_C_PLP_SEED:-7}
pick_var() { rnd 3; case $R in 0) V=x ;; 1) V=y ;; *) V=z ;; esac; }

# one statement of a loop body, appended to $B
body_stmt() {
    rnd 7
    case $R in
    0|1) pick_var; B="$B r = atomic_load_explicit(&$V, memory_order_relaxed);" ;;
    2)   pick_var; rnd 3; k=$R; rnd 3; B="$B if (r == $k) atomic_store_explicit(&$V, $((R + 1)), memory_order_relaxed);" ;;
    3)   rnd 3; B="$B if (r == $R) n = n + 1;" ;;
    4)   rnd 3; B="$B if (r == $R) break;" ;;
    5)   pick_var; rnd 2; k=$R; rnd 3; B="$B if (r == $R) atomic_fetch_add_explicit(&$V, $k, memory_order_relaxed);" ;;
    *)   B="$B if (n >= 2) break;" ;;
    esac
}

# a body that reads shared memory first (a loop on locals alone would be
# decided while translating) and can leave on the value read
loop_body() {
    pick_var; B=" r = atomic_load_explicit(&$V, memory_order_relaxed);"
    rnd 3; ns=$((R + 1)); s=0
    while [ $s -lt $ns ]; do body_stmt; s=$((s + 1)); done
    rnd 3; B="$B if (r == $R) break;"
}

gen() {
    rnd 2; nt=$((R + 2))
    { echo "#include <pthread.h>"; echo "#include <stdatomic.h>"; echo "atomic_int x, y, z;"; } > "$tmp/p.c"
    t=0; names=""
    while [ $t -lt $nt ]; do
        C=" long r = 0, n = 0;"
        rnd 2
        if [ "$R" = 0 ]; then   # a loop first, then a store
            loop_body
            pick_var; C="$C while (1) {$B } atomic_store_explicit(&$V, 3, memory_order_relaxed);"
        else                    # a store, then a loop
            pick_var; rnd 3; C="$C atomic_store_explicit(&$V, $((R + 1)), memory_order_relaxed);"
            loop_body
            C="$C while (1) {$B }"
        fi
        echo "long P${t}_r, P${t}_n;" >> "$tmp/p.c"
        echo "void *P$t(void *arg) {$C P${t}_r = r; P${t}_n = n; return arg; }" >> "$tmp/p.c"
        names="$names P$t"
        t=$((t + 1))
    done
    c_main $nt $names
}

i=0; runs=0; plain=0; optioned=0
TWIN_BASE=--no-plp      # partial loop purity is on by default for C
while [ $i -lt $nprog ]; do
    gen
    same_states_with --plp c_plp $i "without (--no-plp) and with --plp"
    i=$((i + 1))
done
TWIN_BASE=
without=$plain; with=$optioned
# --plp must have blocked something, or this test checked nothing
[ "$with" -lt "$without" ] || bad "--plp blocked nothing: $with complete executions with it, $without without"

# Dekker's lock whose wait loop writes on one path (it lowers its flag and
# waits for its turn): without --plp every pure time round of the outer
# loop is explored (thousands); with it, 4 complete executions under TSO
cat > "$tmp/dekker.c" <<'EOC'
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int want[2], turn, cs;
void *p(void *arg) {
  int i = arg != 0;
  atomic_store(&want[i], 1);
  while (atomic_load(&want[!i])) {
    if (atomic_load(&turn) != i) {
      atomic_store(&want[i], 0);
      while (atomic_load(&turn) != i) ;
      atomic_store(&want[i], 1);
    }
  }
  atomic_store(&cs, i);
  assert(atomic_load(&cs) == i);
  atomic_store(&turn, !i);
  atomic_store(&want[i], 0);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p, (void *)0);
  pthread_create(&b, 0, p, (void *)1);
  return 0;
}
EOC
"$WMX" explore "$tmp/dekker.c" --model tso --plp --json > "$tmp/c"; rc=$?
[ "$rc" = 0 ] && [ "$(twin_counts "$tmp/c" | cut -d' ' -f1)" = 4 ] && grep -q '"errors": \[\]' "$tmp/c" \
    || bad "Dekker with --plp under TSO: rc=$rc $(twin_counts "$tmp/c"), want 4 complete executions and no failed assert"
"$WMX" explore "$tmp/dekker.c" --model tso --unroll 4 --no-plp --json > "$tmp/c"
set -- $(twin_counts "$tmp/c")
[ "${1:-0}" -gt 4 ] || bad "Dekker with --no-plp at --unroll 4: $1 complete executions, want more than 4"
# partial loop purity is the default for C (as in GenMC and Nidhugg), and
# the report says so
"$WMX" explore "$tmp/dekker.c" --model tso --json > "$tmp/c"; rc=$?
[ "$rc" = 0 ] && [ "$(twin_counts "$tmp/c" | cut -d' ' -f1)" = 4 ] && grep -q '"plp": true' "$tmp/c" \
    || bad "Dekker by default: rc=$rc $(twin_counts "$tmp/c"), want 4 complete executions and \"plp\": true"
"$WMX" explore "$tmp/dekker.c" --model tso > "$tmp/c"
head -1 "$tmp/c" | grep -q 'partial loop purity on, --no-plp turns it off' || bad "the header does not say PLP is on: $(head -1 "$tmp/c")"

[ "$fail" = 0 ] && echo "c_plp: $runs runs ($nprog random programs x sc/tso/pso): the same states with --plp ($with complete executions) as without ($without); Dekker with --plp: 4"
exit $fail

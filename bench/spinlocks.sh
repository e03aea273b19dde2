#!/bin/sh
# bench/spinlocks.sh - C spin locks of the kind GenMC's data-structure
# benchmarks hold (our own programs, not GenMC's files): a ticket lock (the
# wait `while (load(&owner) != ticket)` in an inlined helper), a
# test-and-test-and-set lock, a compare-exchange lock after a wait (GenMC's
# spinlock shape), and an array queue lock whose waiters spin on
# `while (!load(&slot[k]))`.  N threads each take the lock once around a
# plain increment; the classes are the N! orders.  Their spin loops are
# awaits (core/spin_await.c): no run reads a value that would make a thread
# spin, and the TTAS exchange and the compare-exchange wait for a value
# that takes the lock, so "blocked" is 0 for every lock.  The GenMC column quotes the issue's
# measurements of GenMC 0.10.3 on its own ticketlock (7 threads) on this
# machine class; GenMC is not installed here.  Each row: seconds, peak KB,
# complete/blocked executions ("*" when the timeout stopped it).
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=${TMPDIR:-/tmp}/wmx-bench-spinlocks.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
TIMEOUT=${TIMEOUT:-60}
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" transform "$tmp/empty.c" 2>&1 | grep -q 'C input not built'; then
  echo "spinlocks: C input not built; skipped"; exit 0
fi
prog() { # KIND N: the program on stdout
  cat <<EOF
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#define N $2
int inside, total;
EOF
  case $1 in
  ticket) cat <<'EOF'
struct tl { atomic_int next, owner; } L;
static void wait_turn(struct tl *l, int t) { while (atomic_load_explicit(&l->owner, memory_order_acquire) != t) ; }
static void lock(void) { int t = atomic_fetch_add_explicit(&L.next, 1, memory_order_relaxed); wait_turn(&L, t); }
static void unlock(void) { int o = atomic_load_explicit(&L.owner, memory_order_relaxed); atomic_store_explicit(&L.owner, o + 1, memory_order_release); }
EOF
  ;;
  ttas) cat <<'EOF'
atomic_int held;
static void lock(void) { for (;;) { while (atomic_load_explicit(&held, memory_order_relaxed)) ; if (!atomic_exchange_explicit(&held, 1, memory_order_acquire)) return; } }
static void unlock(void) { atomic_store_explicit(&held, 0, memory_order_release); }
EOF
  ;;
  cas) cat <<'EOF'
atomic_int held;
static void lock(void) { int e; do { while (atomic_load_explicit(&held, memory_order_relaxed) != 0) ; e = 0; } while (!atomic_compare_exchange_strong_explicit(&held, &e, 1, memory_order_acquire, memory_order_acquire)); }
static void unlock(void) { atomic_store_explicit(&held, 0, memory_order_release); }
EOF
  ;;
  queue) cat <<'EOF'
atomic_int tail, slot[N + 1] = { 1 };
static _Thread_local int mine;
static void lock(void) { mine = atomic_fetch_add_explicit(&tail, 1, memory_order_relaxed); while (!atomic_load_explicit(&slot[mine], memory_order_acquire)) ; }
static void unlock(void) { atomic_store_explicit(&slot[mine + 1], 1, memory_order_release); }
EOF
  ;;
  esac
  cat <<'EOF'
void *worker(void *arg) { (void)arg; lock(); assert(inside == 0); inside = 1; total++; inside = 0; unlock(); return 0; }
int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  assert(total == N);
  return 0;
}
EOF
}
cell() { # OUTFILE: "secs KB complete/blocked" (* when partial)
  part=""; grep -q '"complete": true' "$1" || part="*"
  printf '%ss %sKB %s/%s%s' "$SECS" "$KB" "$(json_field "$1" traces)" "$(json_field "$1" blocked)" "$part"
}
rc=0
printf '%-8s %-3s %-30s %-30s %s\n' lock N "sc odpor s/KB/complete/blocked" "tso rfsmc s/KB/complete/blocked" "GenMC 0.10.3 sc / tso"
for row in "ticket 7" "ticket 5" "ttas 4" "cas 4" "queue 6"; do
  set -- $row
  prog "$1" "$2" > "$tmp/$1.c"
  "$WMX" transform "$tmp/$1.c" > /dev/null 2>&1     # kept translation: time the search
  measure "$tmp/sc" "$WMX" explore "$tmp/$1.c" --model sc --algo odpor --json --timeout "$TIMEOUT"
  s=$?; [ $s -le 1 ] || [ $s -eq 3 ] || rc=1
  a=$(cell "$tmp/sc")
  measure "$tmp/tso" "$WMX" explore "$tmp/$1.c" --model tso --json --timeout "$TIMEOUT"
  s=$?; [ $s -le 1 ] || [ $s -eq 3 ] || rc=1
  b=$(cell "$tmp/tso")
  g="-"; [ "$1 $2" = "ticket 7" ] && g="0.85s / 0.67s (5040/0)"
  printf '%-8s %-3s %-30s %-30s %s\n' "$1" "$2" "$a" "$b" "$g"
done
exit $rc

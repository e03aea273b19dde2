#!/bin/sh
# bench/cloops.sh - issue 42 §1: a probing table in C in the style of GenMC's
# `indexer` (N threads insert 4 keys each into a 128-cell table by
# compare-exchange, probing the next cell while the exchange fails), run at
# --unroll 256: the C front end keeps the probing loop a loop, so neither the
# translation nor the exploration grows with the bound.  Each row: seconds
# and peak KB, the complete and blocked executions (GenMC's counts: 8 for
# N=12, 4096 for N=15), and GenMC 0.10.3's time as the issue quotes it
# (GenMC is not installed here).
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=${TMPDIR:-/tmp}/wmx-bench-cloops.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" transform "$tmp/empty.c" 2>&1 | grep -q 'C input not built'; then
  echo "cloops: C input not built; skipped"; exit 0
fi
cat > "$tmp/indexer.c" <<'EOF'
#include <pthread.h>
#include <stdatomic.h>
#define SIZE 128
#define MAX 4
atomic_int table[SIZE];
int ids[N];
void *insert(void *arg)
{
    int tid = *(int *)arg;
    for (int m = 1; m <= MAX; m++) {
        int w = m * 11 + tid;
        int h = (w * 7) % SIZE;
        int expected = 0;
        while (!atomic_compare_exchange_strong(&table[h], &expected, w)) {
            h = (h + 1) % SIZE;
            expected = 0;
        }
    }
    return 0;
}
int main(void)
{
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        ids[i] = i;
        pthread_create(&t[i], 0, insert, &ids[i]);
    }
    return 0;
}
EOF
rc=0
# cold: clang and libLLVM each run (WMX_CACHE=off); kept: the translation an
# earlier run kept (every run after the first of an unchanged file)
export WMX_CACHE_DIR="$tmp/cache"
printf '%-12s %-10s %-16s %-16s %-9s %-8s %-9s %s\n' program run "cold s/KB" "kept s/KB" complete blocked "IR lines" "GenMC 0.10.3 (issue 42)"
for n in 12 15; do
  lines=$("$WMX" transform "$tmp/indexer.c" -DN=$n --unroll 256 | wc -l)
  for run in "sc odpor" "tso rfsmc"; do
    set -- $run
    if ! measure "$tmp/o" env WMX_CACHE=off "$WMX" explore "$tmp/indexer.c" -DN=$n --unroll 256 --model "$1" --algo "$2" --json; then
      echo "cloops: indexer N=$n $1 $2 failed: $(head -c 300 "$tmp/o.err")"; rc=1; continue
    fi
    cold="$SECS/$KB"
    "$WMX" explore "$tmp/indexer.c" -DN=$n --unroll 256 --model "$1" --algo "$2" --json > /dev/null 2>&1
    measure "$tmp/k" "$WMX" explore "$tmp/indexer.c" -DN=$n --unroll 256 --model "$1" --algo "$2" --json || rc=1
    kept="$SECS/$KB"
    tr=$(json_field "$tmp/o" traces); bl=$(json_field "$tmp/o" blocked)
    want=8; [ $n = 15 ] && want=4096
    g='-'; [ "$1" = sc ] && { g='0.18 s'; [ $n = 15 ] && g='1.5 s'; }
    note=""; [ "$tr" = "$want" ] || note="  (GenMC's count is $want)"
    printf '%-12s %-10s %-16s %-16s %-9s %-8s %-9s %s%s\n' "indexer-$n" "$1 $2" "$cold" "$kept" "$tr" "$bl" "$lines" "$g" "$note"
  done
done
exit $rc

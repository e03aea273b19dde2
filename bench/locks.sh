#!/bin/sh
# bench/locks.sh - C programs built of mutexes: N threads, each taking one
# mutex R times around a non-atomic increment (in the "t" row main also
# tries the mutex once).  The classes are the orders of the critical
# sections, (N*R)!/(R!)^N without the trylock.  RF-SMC takes a mutex chain's
# other orders directly (a lock takes another's release, a failed trylock
# writes back); where a mutex is no chain (also loaded or stored, or locked
# through a pointer read at run time) it detours through graphs where a
# lock failed (never a class), and its "runs no class" column counts them.  rfstate and
# Optimal-DPOR find the same classes.  Each row: seconds, peak
# KB, classes (with "*" when the timeout stopped it).  Needs the C input.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=${TMPDIR:-/tmp}/wmx-bench-locks.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
TIMEOUT=${TIMEOUT:-60}
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" transform "$tmp/empty.c" 2>&1 | grep -q 'C input not built'; then
  echo "locks: C input not built; skipped"; exit 0
fi
rc=0
printf '%-12s %-6s %-26s %-22s %-22s %s\n' program model "rfsmc s/KB/classes" "rfsmc runs no class" \
  "rfstate s/KB/classes" "odpor s/KB/classes"
cell() { # OUTFILE: "secs KB classes" (classes + blocked, * when partial)
  part=""; grep -q '"complete": true' "$1" || part="*"
  t=$(json_field "$1" traces); b=$(json_field "$1" blocked)
  printf '%ss %sKB %s%s' "$SECS" "$KB" "$((t + b))" "$part"
}
# a "t" row: main also tries the mutex once (pthread_mutex_trylock)
for row in "4 2 sc" "4 2 tso" "7 1 sc" "5 2 sc" "3 3 sc" "4 2 sc t"; do
  set -- $row
  n=$1; rounds=$2; model=$3; try=${4:-}
  tl=""; [ -n "$try" ] && tl="if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);"
  cat > "$tmp/p.c" <<EOF
#include <pthread.h>
pthread_mutex_t m;
int x;
void *t(void *p) { for (int i = 0; i < $rounds; i++) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); } return p; }
int main(void) { pthread_t a[$n]; for (int i = 0; i < $n; i++) pthread_create(&a[i], 0, t, 0); $tl for (int i = 0; i < $n; i++) pthread_join(a[i], 0); return 0; }
EOF
  "$WMX" transform "$tmp/p.c" > /dev/null 2>&1   # the translation is kept: not timed below
  measure "$tmp/r" env WMX_RFSMC_STATS=1 "$WMX" explore "$tmp/p.c" --model "$model" --algo rfsmc --json --timeout "$TIMEOUT"
  [ -s "$tmp/r" ] || { echo "locks-$n-$rounds: rfsmc failed"; cat "$tmp/r.err"; rc=1; continue; }
  c1=$(cell "$tmp/r")
  nocls=$(sed -n 's/^rfsmc: [0-9]* traces run, \([0-9]*\) of them no class.*/\1/p' "$tmp/r.err")
  measure "$tmp/s" "$WMX" explore "$tmp/p.c" --model "$model" --algo rfstate --json --timeout "$TIMEOUT"
  [ -s "$tmp/s" ] || { echo "locks-$n-$rounds: rfstate failed"; cat "$tmp/s.err"; rc=1; continue; }
  c2=$(cell "$tmp/s")
  c3="-"
  if [ "$model" = sc ]; then
    measure "$tmp/o" "$WMX" explore "$tmp/p.c" --model sc --algo odpor --json --timeout "$TIMEOUT"
    [ -s "$tmp/o" ] || { echo "locks-$n-$rounds: odpor failed"; cat "$tmp/o.err"; rc=1; continue; }
    c3=$(cell "$tmp/o")
  fi
  printf '%-12s %-6s %-26s %-22s %-22s %s\n' "locks-${n}x$rounds$try" "$model" "$c1" "${nocls:-?}" "$c2" "$c3"
done
exit $rc

#!/bin/sh
# bench/mpi.sh - issue 43: one exploration over MPI ranks.  Per row: one
# process, --jobs 2, and mpirun -np 1 and -np 2 (seconds: wmx's own time_s,
# without mpirun's start-up of about a second), the speed-up of 2 ranks over
# 1, and from WMX_NET_STATS what moved: units, bytes per unit, odpor's
# wakeup-sequence messages, and units per second of the run.
# rfsmc's messages are the keys it offers to another rank's decisions.
# Skipped when wmx was built without MPI.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/rfsmc-gen.sh
. bench/c-gen.sh
if ! grep -q '^MPI_DEF *= *-DWMX_HAVE_MPI' Makefile 2>/dev/null || ! command -v mpirun >/dev/null 2>&1; then
  echo "mpi: skipped (wmx built without MPI, or no mpirun)"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TMP=${TMPDIR:-/tmp}/wmx-bench-mpi.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
TIMEOUT=${TIMEOUT:-60}
rc=0
printf '%-16s %-6s %8s %8s %8s %8s %8s %6s %9s %8s %9s\n' program algo one jobs2 np1 np2 speed-up units B/unit msgs units/s
tsecs() { json_field "$1" time_s; }
row() { # NAME FILE ALGO
  "$WMX" explore --model sc --algo "$3" --json --timeout "$TIMEOUT" "$2" > "$TMP/one" 2>/dev/null || [ -s "$TMP/one" ] || { echo "wmx failed on $1"; rc=1; return; }
  "$WMX" explore --model sc --algo "$3" --json --jobs 2 --timeout "$TIMEOUT" "$2" > "$TMP/j2" 2>/dev/null
  for np in 1 2; do
    mpirun --oversubscribe -np $np env WMX_NET_STATS=1 "$WMX" explore --model sc --algo "$3" --json \
      --timeout "$TIMEOUT" "$2" > "$TMP/np$np" 2> "$TMP/np$np.err"
  done
  t1=$(tsecs "$TMP/np1"); t2=$(tsecs "$TMP/np2")
  stats=$(sed -n 's/.*: \([0-9]*\) units sent (\([0-9]*\) bytes), [0-9]* received, \([0-9]*\) messages.*/\1 \2 \3/p' "$TMP/np2.err" |
          awk '{ u += $1; b += $2; m += $3 } END { printf "%d %s %d", u, u ? int(b / u) : "-", m }')
  set -- "$1" "$3" $stats
  printf '%-16s %-6s %8s %8s %8s %8s %8s %6s %9s %8s %9s\n' "$1" "$2" "$(tsecs "$TMP/one")" "$(tsecs "$TMP/j2")" \
    "$t1" "$t2" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')" \
    "$3" "$4" "$5" "$(awk -v u="$3" -v t="$t2" 'BEGIN { if (t > 0) printf "%.1f", u / t; else print "-" }')"
}
readers 18 > "$TMP/readers18.wmx"
lastzero 14 > "$TMP/lastzero14.wmx"
c_longwriter 2048 > "$TMP/longwriter2048.c"
for algo in ${ALGOS:-odpor rfsmc}; do
  row readers-18 "$TMP/readers18.wmx" $algo
  row lastzero-14 "$TMP/lastzero14.wmx" $algo
  row longwriter-2048c "$TMP/longwriter2048.c" $algo
done
exit $rc

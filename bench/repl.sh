#!/bin/sh
# bench/repl.sh - `explore` in the interactive explorer against the batch
# command on the same program (issue 44, point 3).  The REPL side runs as a
# script (`wmx --script`: the same command table, output pane and executions
# list as the explorer on a terminal, without drawing); the batch side is
# `wmx explore FILE`.  Two measures, each the best of REPEAT runs (default 3:
# the machine may be shared): "search", the exploration time wmx reports
# (the core's search with the REPL's executions-list bookkeeping in its
# callback), and "cpu", user + system seconds of the whole process (load,
# search, report, the list).  The ratios are REPL / batch; the target is at
# most 1.2.  The programs are bench/rfsmc-gen.sh's readers N.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/rfsmc-gen.sh
TMP=${TMPDIR:-/tmp}/wmx-bench-repl.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP" "$TMP.out" "$TMP.err" "$TMP.time"' EXIT
trap 'exit 130' HUP INT PIPE TERM
REPEAT=${REPEAT:-3}
rc=0
printf 'explore\n' > "$TMP/explore.wmxs"

# best CMD...: runs CMD REPEAT times; sets SEARCH (the time on wmx's
# "N traces, ..., T s" line), WALL and CPU (user + system) to the smallest
# seen; returns 1 if a run failed (a failed `time` leaves its status)
best() {
  SEARCH= WALL= CPU=
  i=0
  while [ $i -lt "$REPEAT" ]; do
    # bash's `time` reads getrusage to the millisecond; /usr/bin/time's
    # 10 ms ticks are a tenth of a readers-16 run
    bash -c 'TIMEFORMAT="%3R %3U %3S"; t=$1; shift
             { time "$@" > "$t.out" 2> "$t.err"; } 2> "$t.time"' best "$TMP" "$@"
    st=$?
    if [ $st -ne 0 ]; then
      echo "repl.sh: exit $st: $*" >&2
      sed 's/^/  /' "$TMP.err" >&2
      return 1
    fi
    t=$(sed -n 's/.* events, \([0-9.]*\) s$/\1/p' "$TMP.out" | head -n 1)
    SEARCH=$(awk -v a="$SEARCH" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    w=$(tail -n 1 "$TMP.time" | cut -d' ' -f1)
    c=$(tail -n 1 "$TMP.time" | awk '{ printf "%.3f", $2 + $3 }')
    WALL=$(awk -v a="$WALL" -v b="$w" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    CPU=$(awk -v a="$CPU" -v b="$c" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    i=$((i + 1))
  done
  return 0
}

fmt='%-11s | %8s %8s %8s | %8s %8s %8s | %6s %6s\n'
echo "best of $REPEAT; search = exploration time wmx reports; wall, cpu (user + system) = whole process; ratios = REPL / batch (target <= 1.2)"
printf "$fmt" program "search" "wall" "cpu" "search" "wall" "cpu" "search" "cpu"
printf "$fmt" "" "batch" "" "" "REPL" "" "" "ratio" "ratio"
for n in 14 16 18; do
  f="$TMP/readers$n.wmx"
  readers "$n" > "$f"
  best "$WMX" explore "$f" || { rc=1; continue; }
  bs=$SEARCH bw=$WALL bc=$CPU
  best "$WMX" --script "$TMP/explore.wmxs" "$f" || { rc=1; continue; }
  rs=$SEARCH rw=$WALL rcpu=$CPU
  sratio=$(awk -v r="$rs" -v b="$bs" 'BEGIN { if (b > 0) printf "%.2f", r / b; else print "-" }')
  cratio=$(awk -v r="$rcpu" -v b="$bc" 'BEGIN { if (b > 0) printf "%.2f", r / b; else print "-" }')
  printf "$fmt" "readers($n)" "${bs}s" "${bw}s" "${bc}s" "${rs}s" "${rw}s" "${rcpu}s" "$sratio" "$cratio"
done
exit $rc

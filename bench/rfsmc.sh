#!/bin/sh
# bench/rfsmc.sh - reads-from SMC (rfsmc) against naive enumeration on nine
# program families under SC, TSO and PSO.  One row per (family(N), model):
# complete + blocked traces, seconds and peak memory of both, and rfsmc's
# classes and events per second.  The programs are generated as .wmx text by
# bench/rfsmc-gen.sh.
#
# naive runs are capped by NAIVE_TIMEOUT seconds (default 10) and rfsmc runs
# by RFSMC_TIMEOUT (default 120); a capped run shows ">Ts".  Once naive hits
# its cap on a family and model, the larger sizes of that family are not run
# under that model (they only have more interleavings) and show ">Ts*";
# NAIVE_ALL=1 runs them anyway.  Benchmarks never fail on time: the script
# exits non-zero only when wmx fails (usage or input error, a crash, or an
# exit code other than 0 or 1 without a limit having stopped the run).
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/rfsmc-gen.sh
TMP=${TMPDIR:-/tmp}/wmx-bench-rfsmc.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' HUP INT PIPE TERM
NAIVE_TIMEOUT=${NAIVE_TIMEOUT:-10}
RFSMC_TIMEOUT=${RFSMC_TIMEOUT:-120}
NAIVE_ALL=${NAIVE_ALL:-0}
rc=0
capped=" "     # "family:model" pairs on which naive hit its cap

# run ALGO MODEL FILE TIMEOUT: explores FILE and sets T (traces + blocked,
# or "-" when a limit stopped the run), S (seconds, or ">TIMEOUTs"), MB (peak
# memory), CPS and EPS (classes and events per second, "-" when stopped),
# STOPPED (1 when a limit stopped the run); returns 1 if wmx failed.
run() {
  algo=$1 model=$2 file=$3 to=$4
  measure "$TMP/out" "$WMX" explore "$file" --model "$model" --algo "$algo" \
    --json --timeout "$to"
  st=$?
  T=- S=- MB=- CPS=- EPS=- STOPPED=0
  case $st in 0|1|3) ;; *) st=fail ;; esac
  tr=$(json_field "$TMP/out" traces)
  bl=$(json_field "$TMP/out" blocked)
  ev=$(json_field "$TMP/out" events)
  ts=$(json_field "$TMP/out" time_s)
  if [ "$st" = fail ] || [ -z "$tr" ] || [ -z "$bl" ] || [ -z "$ev" ] || [ -z "$ts" ]; then
    echo "rfsmc.sh: wmx failed (exit $st): $algo $model $file" >&2
    sed 's/^/  /' "$TMP/out.err" >&2
    T=ERR S=ERR
    return 1
  fi
  MB=$(awk -v k="$KB" 'BEGIN { printf "%.1f", k / 1024 }')
  if grep -q '"complete": false' "$TMP/out"; then
    STOPPED=1 S=">${to}s"
    return 0
  fi
  if [ "$st" = 3 ]; then   # 3 means "stopped by a limit", yet complete
    echo "rfsmc.sh: wmx exit 3 on a complete run: $algo $model $file" >&2
    T=ERR S=ERR
    return 1
  fi
  T=$((tr + bl))
  S=$(awk -v t="$ts" 'BEGIN { printf "%.3f", t }')
  CPS=$(awk -v n="$T" -v t="$ts" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }')
  EPS=$(awk -v n="$ev" -v t="$ts" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }')
  return 0
}

fmt='%-19s %-5s | %9s %8s %7s | %9s %8s %7s %11s %12s\n'
echo "traces = complete + blocked executions (for rfsmc: one per class); s = exploration time reported by wmx; MB = peak resident memory; rates = rfsmc classes (events) / s; >Ts = stopped by the timeout, >Ts* = not run (a smaller size already hit the timeout)"
printf "$fmt" family model "naive" secs MB "rfsmc" secs MB classes/s events/s
for fam in "readers 8" "readers 10" "readers 12" \
           "lastzero 5" "lastzero 8" "lastzero 10" \
           "lastwrite 4" "lastwrite 6" "lastwrite 8" \
           "nwriters1reader 4" "nwriters1reader 8" \
           "indexer 10" "indexer 12" "indexer 13" \
           "dekker 1" "dekker 2" "dekker 3" \
           "peterson 1" "peterson 2" "peterson 3" \
           "szymanski 1" "szymanski 2" \
           "fib_bench 2" "fib_bench 3" "fib_bench 4"; do
  set -- $fam
  f="$TMP/$1$2.wmx"
  "$1" "$2" > "$f"
  for model in sc tso pso; do
    skip=0
    if [ "$NAIVE_ALL" != 1 ]; then
      case $capped in *" $1:$model "*) skip=1 ;; esac
    fi
    if [ "$skip" = 1 ]; then
      nT=- nS=">${NAIVE_TIMEOUT}s*" nMB=-
    else
      run naive "$model" "$f" "$NAIVE_TIMEOUT" || rc=1
      nT=$T nS=$S nMB=$MB
      [ "$STOPPED" = 1 ] && capped="$capped$1:$model "
    fi
    run rfsmc "$model" "$f" "$RFSMC_TIMEOUT" || rc=1
    printf "$fmt" "$1($2)" "$model" "$nT" "$nS" "$nMB" "$T" "$S" "$MB" "$CPS" "$EPS"
  done
done
exit $rc

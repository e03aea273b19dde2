#!/bin/sh
# bench/rfsmc.sh - reads-from families (readers, lastzero, lastwrite) under
# SC, TSO and PSO: classes, seconds and peak memory for naive (with a
# timeout), rfstate and rfsmc.  The programs are generated as .wmx text.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
TMP=${TMPDIR:-/tmp}/wmx-bench-rfsmc.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
NAIVE_TIMEOUT=${NAIVE_TIMEOUT:-20}
TIMEOUT=${RFSMC_TIMEOUT:-120}

# readers(N): one thread stores x = 42, N threads load x
readers() {
  n=$1
  echo "name readers$n"
  echo "var x;"
  echo "thread W { x = 42; }"
  i=1; while [ $i -le $n ]; do echo "thread R$i { r = x; }"; i=$((i + 1)); done
}
# lastzero(N): a[0..N] = 0; P0 scans i = N downwards while a[i] != 0;
# Pj (j = 1..N) stores a[j] = a[j-1] + 1
lastzero() {
  n=$1
  echo "name lastzero$n"
  echo "var a[$((n + 1))];"
  echo "thread P0 { i = $n; r = a[i]; while (r != 0) bound $n { i = i - 1; r = a[i]; } }"
  j=1; while [ $j -le $n ]; do echo "thread P$j { r = a[$((j - 1))]; a[$j] = r + 1; }"; j=$((j + 1)); done
}
# lastwrite(N): thread i stores x = i; the final value of x is observed
lastwrite() {
  n=$1
  echo "name lastwrite$n"
  echo "var x;"
  i=1; while [ $i -le $n ]; do echo "thread P$i { x = $i; }"; i=$((i + 1)); done
  echo "locations [x];"
}

# run ALGO MODEL FILE [timeout]: prints "classes secs MB" (or "- >T -")
run() {
  algo=$1 model=$2 file=$3 to=$4
  if measure "$TMP/out" "$WMX" explore "$file" --model "$model" --algo "$algo" --timeout "$to"; then :; fi
  # GNU time puts "Command exited with non-zero status N" first on a timeout
  SECS=$(tail -1 "$TMP/out.time" | cut -d' ' -f1)
  KB=$(tail -1 "$TMP/out.time" | cut -d' ' -f2)
  line=$(sed -n 's/^ *\([0-9]*\) traces, \([0-9]*\) blocked.*/\1 \2/p' "$TMP/out" | head -1)
  if grep -qi "timeout\|incomplete\|stopped" "$TMP/out" "$TMP/out.err" 2>/dev/null || [ -z "$line" ]; then
    printf '%12s %8s %7s' ">${to}s" "-" "$((KB / 1024))"
  else
    set -- $line
    printf '%12s %8s %7s' "$(( $1 + $2 ))" "$SECS" "$((KB / 1024))"
  fi
}

printf '%-13s %-4s | %12s %8s %7s | %12s %8s %7s | %12s %8s %7s\n' family model \
  naive secs MB rfstate secs MB rfsmc secs MB
for fam in "readers 4" "readers 8" "readers 10" "lastzero 3" "lastzero 5" "lastwrite 4" "lastwrite 6"; do
  set -- $fam
  f="$TMP/$1$2.wmx"
  $1 $2 > "$f"
  for model in sc tso pso; do
    printf '%-13s %-4s | ' "$1($2)" "$model"
    run naive "$model" "$f" "$NAIVE_TIMEOUT"; printf ' | '
    run rfstate "$model" "$f" "$TIMEOUT"; printf ' | '
    run rfsmc "$model" "$f" "$TIMEOUT"; printf '\n'
  done
done

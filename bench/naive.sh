#!/bin/sh
# bench/naive.sh - the naive explorer on SB rings of 2..6 threads (thread i
# stores x_i=1 then loads x_{i+1}), under SC, TSO and PSO.
# Prints traces/s and events/s with time and peak memory per row.
set -u
WMX=${WMX:-./wmx}
. "$(dirname "$0")/lib.sh"
tmp=${TMPDIR:-/tmp}/wmx-bench-naive.$$
mkdir -p "$tmp"
gen_ring() { # N
  n=$1
  printf 'name sb-ring-%s\nvar' "$n"
  i=0; while [ $i -lt "$n" ]; do printf '%s x%s' "$([ $i -gt 0 ] && echo ,)" $i; i=$((i+1)); done
  printf ';\n'
  i=0; while [ $i -lt "$n" ]; do
    printf 'thread P%s {\n  x%s = 1;\n  r0 = x%s;\n}\n' $i $i $(( (i+1) % n ))
    i=$((i+1))
  done
}
printf '%-12s %-5s %12s %12s %9s %14s %14s %9s\n' family model traces events seconds traces/s events/s peakKB
for n in 2 3 4 5 6; do
  gen_ring $n > "$tmp/ring$n.wmx"
  for model in sc tso pso; do
    # the 6-thread rings are large under TSO/PSO: cap them at 60 s
    measure "$tmp/out" "$WMX" explore --model $model --algo naive --json --timeout 60 "$tmp/ring$n.wmx"
    tr=$(json_field "$tmp/out" traces); ev=$(json_field "$tmp/out" events)
    t=$(json_field "$tmp/out" time_s)
    complete=$(grep -q '"complete": true' "$tmp/out" && echo "" || echo " (partial)")
    awk -v f="sb-ring-$n" -v m=$model -v tr="$tr" -v ev="$ev" -v t="$t" -v kb="$KB" -v c="$complete" \
      'BEGIN { tt = (t > 0 ? t : 1e-6); printf "%-12s %-5s %12d %12d %9.3f %14.0f %14.0f %9d%s\n", f, m, tr, ev, t, tr/tt, ev/tt, kb, c }'
  done
done
rm -rf "$tmp"

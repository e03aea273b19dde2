#!/bin/sh
# bench/longwriter.sh - issue 16's long-thread family: longwriter-N is one
# thread storing x = 1 N times and one thread reading x once (N + 1 traces
# under every model).  Per row: traces, events explored, seconds (whole
# process), events per second and peak memory, for SC odpor, SC rfsmc and
# TSO rfsmc.  TIMEOUT (default 20) caps each run; "*" marks a partial count.
# GenMC 0.10.3's figures (issue 16, quoted, not measured here):
# longwriter-1024 SC 0.55 s, longwriter-2048 SC 0.49 s, --tso 0.80 s.
set -u
WMX=${WMX:-./wmx}
TIMEOUT=${TIMEOUT:-20}
. "$(dirname "$0")/lib.sh"
tmp=${TMPDIR:-/tmp}/wmx-bench-longwriter.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
rc=0

gen() { # N
  printf 'name longwriter-%s\nvar x;\nthread w {\n' "$1"
  i=0; while [ $i -lt "$1" ]; do printf '  x = 1;\n'; i=$((i+1)); done
  printf '}\nthread r { a = x; }\n'
}

# secs: whole process (wall); explore_s: wmx's own time_s, which the
# events/s rate uses (small sizes finish within the wall clock's 10 ms)
printf '%-18s %-10s %8s %10s %8s %10s %12s %9s\n' program run traces events secs explore_s events/s peakKB
for n in ${LONGWRITER_SIZES:-256 512 1024 2048 4096}; do
  gen "$n" > "$tmp/p.wmx"
  for cfg in "sc odpor" "sc rfsmc" "tso rfsmc"; do
    set -- $cfg
    if ! measure "$tmp/out" "$WMX" explore --model "$1" --algo "$2" --json --timeout "$TIMEOUT" "$tmp/p.wmx"; then
      [ -s "$tmp/out" ] || { echo "longwriter-$n $1 $2: wmx failed"; cat "$tmp/out.err"; rc=1; continue; }
    fi
    tr=$(json_field "$tmp/out" traces); ev=$(json_field "$tmp/out" events)
    part=""; grep -q '"complete": true' "$tmp/out" || part="*"
    xs=$(json_field "$tmp/out" time_s)
    rate=$(awk -v e="$ev" -v s="$xs" 'BEGIN { if (s > 0) printf "%.0f", e / s; else print "-" }')
    printf '%-18s %-10s %8s %10s %8s %10s %12s %9s\n' "longwriter-$n" "$1 $2" "$tr$part" "$ev" "$SECS" "$xs" "$rate" "$KB"
  done
done
exit $rc

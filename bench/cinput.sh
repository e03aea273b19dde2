#!/bin/sh
# bench/cinput.sh - issue 13's C input: the front end's cost (clang, libLLVM
# and the translation: `wmx transform prog.c`, whole process) and explore
# time of the bench families written in C (bench/c-gen.sh) beside their .wmx
# versions (bench/rfsmc-gen.sh); counts must be equal.  Each row: seconds and
# peak KB, cold (no kept translation) and kept.  Target: front end under
# 50 ms; C at most 1.2x the .wmx time.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/rfsmc-gen.sh
. bench/c-gen.sh
tmp=${TMPDIR:-/tmp}/wmx-bench-cinput.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
rc=0
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" transform "$tmp/empty.c" 2>&1 | grep -q 'C input not built'; then
  echo "cinput: C input not built; skipped"; exit 0
fi
# cold: WMX_CACHE=off, clang and libLLVM every run; kept: the translation
# kept by an earlier run (core/cfront_cache.h), as every run after the first
export WMX_CACHE_DIR="$tmp/cache"
printf '%-14s %-6s %-17s %-17s %-6s %-17s %-6s %-17s %s\n' program algo ".wmx s/KB" "C cold s/KB" "/.wmx" \
  "C kept s/KB" "/.wmx" "front cold s/KB" "front kept s/KB"
for row in "readers 16 odpor" "readers 16 rfsmc" "lastzero 12 odpor" "lastzero 12 rfsmc" "lastwrite 9 odpor"; do
  set -- $row
  "$1" "$2" > "$tmp/p.wmx"
  "c_$1" "$2" > "$tmp/p.c"
  measure "$tmp/fe" env WMX_CACHE=off "$WMX" transform "$tmp/p.c" || { echo "$1-$2: transform failed"; cat "$tmp/fe.err"; rc=1; continue; }
  fe="${SECS}s ${KB}KB"
  "$WMX" transform "$tmp/p.c" > /dev/null 2>&1
  measure "$tmp/fk" "$WMX" transform "$tmp/p.c" || { echo "$1-$2: transform failed"; rc=1; continue; }
  fk="${SECS}s ${KB}KB"
  measure "$tmp/w" "$WMX" explore "$tmp/p.wmx" --model sc --algo "$3" --json; ws=$SECS; wk=$KB
  measure "$tmp/c" env WMX_CACHE=off "$WMX" explore "$tmp/p.c" --unroll "$2" --model sc --algo "$3" --json; cs=$SECS; ck=$KB
  "$WMX" explore "$tmp/p.c" --unroll "$2" --model sc --algo "$3" --json > /dev/null 2>&1
  measure "$tmp/k" "$WMX" explore "$tmp/p.c" --unroll "$2" --model sc --algo "$3" --json; ks=$SECS; kk=$KB
  wt=$(json_field "$tmp/w" traces); ct=$(json_field "$tmp/c" traces); kt=$(json_field "$tmp/k" traces)
  [ -n "$wt" ] && [ "$wt" = "$ct" ] && [ "$wt" = "$kt" ] || { echo "$1-$2 $3: counts differ (.wmx $wt, C $ct, kept $kt)"; rc=1; }
  ratio=$(awk -v a="$cs" -v b="$ws" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
  kratio=$(awk -v a="$ks" -v b="$ws" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
  printf '%-14s %-6s %-17s %-17s %-6s %-17s %-6s %-17s %s\n' "$1-$2" "$3" "${ws}s ${wk}KB" "${cs}s ${ck}KB" "$ratio" \
    "${ks}s ${kk}KB" "$kratio" "$fe" "$fk"
done

# Issue 42: the families as people run them, without --unroll (loops that
# end by themselves run to their end): C cold (clang, libLLVM and the
# translation every run) within the .wmx time + 0.15 s, and a run from a
# kept translation within 2x the .wmx run's peak memory.
echo
echo "without --unroll (issue 42): target C cold <= .wmx + 0.15 s, C kept peak < 2x .wmx peak"
printf '%-16s %-6s %-17s %-17s %-8s %-17s %s\n' program algo ".wmx s/KB" "C cold s/KB" "+s" "C kept s/KB" "peak/.wmx"
for row in "readers 16 rfsmc" "lastzero 12 rfsmc" "lastzero 14 rfsmc" "lastwrite 9 odpor" "longwriter 2048 odpor"; do
  set -- $row
  if [ "$1" = longwriter ]; then
    # the .wmx twin of c_longwriter: one thread storing x = 1 N times, one reading it
    { printf 'name longwriter-%s\nvar x;\nthread w {\n' "$2"
      i=0; while [ $i -lt "$2" ]; do printf '  x = 1;\n'; i=$((i + 1)); done
      printf '}\nthread r { a = x; }\n'; } > "$tmp/p.wmx"
  else
    "$1" "$2" > "$tmp/p.wmx"
  fi
  "c_$1" "$2" > "$tmp/p.c"
  rm -rf "$tmp/cache"
  measure "$tmp/w" "$WMX" explore "$tmp/p.wmx" --model sc --algo "$3" --json; ws=$SECS; wk=$KB
  measure "$tmp/c" env WMX_CACHE=off "$WMX" explore "$tmp/p.c" --model sc --algo "$3" --json; cs=$SECS; ck=$KB
  "$WMX" explore "$tmp/p.c" --model sc --algo "$3" --json > /dev/null 2>&1
  measure "$tmp/k" "$WMX" explore "$tmp/p.c" --model sc --algo "$3" --json; ks=$SECS; kk=$KB
  wt=$(json_field "$tmp/w" traces); ct=$(json_field "$tmp/c" traces); kt=$(json_field "$tmp/k" traces)
  [ -n "$wt" ] && [ "$wt" = "$ct" ] && [ "$wt" = "$kt" ] || { echo "$1-$2 $3: counts differ (.wmx $wt, C $ct, kept $kt)"; rc=1; }
  extra=$(awk -v a="$cs" -v b="$ws" 'BEGIN { printf "%+.2f", a - b }')
  peak=$(awk -v a="$kk" -v b="$wk" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
  printf '%-16s %-6s %-17s %-17s %-8s %-17s %s\n' "$1-$2" "$3" "${ws}s ${wk}KB" "${cs}s ${ck}KB" "$extra" \
    "${ks}s ${kk}KB" "$peak"
done
exit $rc

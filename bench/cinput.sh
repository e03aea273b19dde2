#!/bin/sh
# bench/cinput.sh - issue 13's C input: the front end's cost (clang, libLLVM
# and the translation: `wmx transform prog.c`, whole process) and explore
# time of the bench families written in C (bench/c-gen.sh) beside their .wmx
# versions (bench/rfsmc-gen.sh); counts must be equal.  Each row: seconds and
# peak KB.  Target: front end under 50 ms; C at most 1.2x the .wmx time.
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
printf '%-14s %-7s %-22s %-22s %-8s %s\n' program algo ".wmx s/KB" "C s/KB" "C/.wmx" "front end s/KB"
for row in "readers 16 odpor" "readers 16 rfsmc" "lastzero 12 odpor" "lastzero 12 rfsmc" "lastwrite 9 odpor"; do
  set -- $row
  "$1" "$2" > "$tmp/p.wmx"
  "c_$1" "$2" > "$tmp/p.c"
  measure "$tmp/fe" "$WMX" transform "$tmp/p.c" || { echo "$1-$2: transform failed"; cat "$tmp/fe.err"; rc=1; continue; }
  fe="${SECS}s ${KB}KB"
  measure "$tmp/w" "$WMX" explore "$tmp/p.wmx" --model sc --algo "$3" --json; ws=$SECS; wk=$KB
  measure "$tmp/c" "$WMX" explore "$tmp/p.c" --unroll "$2" --model sc --algo "$3" --json; cs=$SECS; ck=$KB
  wt=$(json_field "$tmp/w" traces); ct=$(json_field "$tmp/c" traces)
  [ -n "$wt" ] && [ "$wt" = "$ct" ] || { echo "$1-$2 $3: counts differ (.wmx $wt, C $ct)"; rc=1; }
  ratio=$(awk -v a="$cs" -v b="$ws" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
  printf '%-14s %-7s %-22s %-22s %-8s %s\n' "$1-$2" "$3" "${ws}s ${wk}KB" "${cs}s ${ck}KB" "$ratio" "$fe"
done
exit $rc

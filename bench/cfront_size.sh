#!/bin/sh
# bench/cfront_size.sh - issue 47 §4: the C front end's cost (`wmx transform
# prog.c`, clang and the translation, no kept translation) on programs that
# grow in one dimension (bench/cfront-size-gen.sh): struct fields, globals,
# functions, statements.  Each row: seconds and peak KB, and the time over
# the row of half the size: linear is at most 2x (the fixed cost of clang
# and libLLVM makes it less); a struct of 4000 fields took > 30 s when the
# translation was cubic in them.
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/cfront-size-gen.sh
tmp=${TMPDIR:-/tmp}/wmx-bench-cfront-size.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" transform "$tmp/empty.c" 2>&1 | grep -q 'C input not built'; then
  echo "cfront_size: C input not built; skipped"; exit 0
fi
rc=0
printf '%-11s %6s %8s %10s %s\n' kind n seconds "peak KB" "/half"
for kind in fields globals functions statements; do
  prev=""
  for n in 1000 2000 4000 8000 16000; do
    "cs_$kind" "$n" > "$tmp/p.c"
    measure "$tmp/t" env WMX_CACHE=off "$WMX" transform "$tmp/p.c" ||
      { echo "$kind $n: transform failed"; head -n 5 "$tmp/t.err"; rc=1; continue; }
    ratio=$(awk -v a="$SECS" -v b="$prev" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
    printf '%-11s %6d %8s %10s %s\n' "$kind" "$n" "$SECS" "$KB" "$ratio"
    prev=$SECS
  done
done
exit $rc

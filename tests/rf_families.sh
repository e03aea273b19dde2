#!/bin/sh
# rf_families.sh - the published class counts of the reads-from benchmark
# families (bench/rfsmc-gen.sh) with the default explorer (RF-SMC):
# readers(N) 2^N, lastzero(10) 3328 under SC, lastwrite(N) N, indexer(12) 8.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/rfsmc-gen.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
expect() {   # FAMILY N MODEL CLASSES
    $1 "$2" > "$tmp/p.wmx"
    "$WMX" explore "$tmp/p.wmx" --model "$3" --json > "$tmp/out" 2>"$tmp/err"
    got=$(sed -n 's/.*"traces": \([0-9]*\).*/\1/p' "$tmp/out")
    blk=$(sed -n 's/.*"blocked": \([0-9]*\).*/\1/p' "$tmp/out")
    if ! grep -q '"complete": true' "$tmp/out" || [ "${got:-x}" != "$4" ] || [ "${blk:-x}" != 0 ]; then
        echo "FAIL: $1($2) under $3: ${got:-?} classes + ${blk:-?} blocked, expected $4"
        cat "$tmp/err"
        fail=1
    fi
    n=$((n + 1))
}
for m in sc tso pso; do
    expect readers 12 $m 4096
    expect lastwrite 8 $m 8
    expect indexer 12 $m 8
done
expect lastzero 10 sc 3328
expect readers 8 tso 256
[ $fail -eq 0 ] || exit 1
echo "rf_families: $n counts as published"

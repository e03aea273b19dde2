#!/bin/sh
# rfsmc_warm.sh - steady-state RF-SMC rates on the reads-from families
# (bench/rfsmc-gen.sh): each row repeats the exploration for at least 0.5 s
# (bench/rfsmc_warm.c) and prints classes per run, runs, classes/s and
# events/s over all of them, and peak memory.  The single-run table of
# bench/rfsmc.sh includes process start, which dominates small families.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/libwmxcore.a
[ -f "$lib" ] || lib=$root/libwmxcore.a
if [ ! -f "$lib" ]; then echo "rfsmc_warm.sh: build the library first (make)"; exit 2; fi
. "$root/bench/rfsmc-gen.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$root/core" -o "$tmp/warm" "$root/bench/rfsmc_warm.c" "$lib" $(sed -n "s/^LLVM_LIBS *= *//p" "$root/Makefile" 2>/dev/null) -lm
printf '%-18s %-4s | %8s %6s %10s %11s %6s\n' family model classes runs classes/s events/s MB
for fam in "readers 12" "lastzero 10" "lastwrite 8" "nwriters1reader 8" "indexer 13" "szymanski 2" "fib_bench 4"; do
  set -- $fam
  $1 "$2" > "$tmp/p.wmx"
  for model in sc tso pso; do
    printf '%-18s %-4s | ' "$1($2)" "$model"
    "$tmp/warm" "$tmp/p.wmx" "$model" 0.5
  done
done

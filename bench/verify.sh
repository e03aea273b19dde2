#!/bin/sh
# verify.sh - benchmark of the reads-from consistency checkers: VTSO-rf and
# VPSO-rf against the naive baseline on generated consistent and
# inconsistent executions, k = 2, 3, 4 threads, n = 20 .. NMAX events.
# Usage: sh bench/verify.sh [NMAX (default 1000)] [NAIVE-BUDGET (default 2)]
# Needs libwmxcore.a (run `make` first).  Standalone; bench/run.sh calls it.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/libwmxcore.a
[ -f "$lib" ] || lib=$root/libwmxcore.a
if [ ! -f "$lib" ]; then echo "verify.sh: build the library first (make)"; exit 2; fi
out=${TMPDIR:-/tmp}/wmx_verify_bench.$$
trap 'rm -f "$out"' EXIT
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$root/core" -o "$out" "$root/bench/verify_bench.c" "$lib" $(sed -n "s/^LLVM_LIBS *= *//p" "$root/Makefile" 2>/dev/null) -lm
"$out" "${1:-1000}" "${2:-2}"

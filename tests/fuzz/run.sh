#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c as a libFuzzer target (clang, with ASan and
# UBSan) against the core sources and runs each one briefly on its seed
# corpus.  FUZZ_SECONDS sets the time per target (default 20).
set -eu
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-20}
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang not found (apt-get install -y clang libclang-rt-14-dev); skipping" >&2
  exit 0
fi
out=build-fuzz
mkdir -p "$out"
for src in tests/fuzz/fuzz_*.c; do
  [ -f "$src" ] || continue
  name=$(basename "$src" .c)
  clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -D_POSIX_C_SOURCE=200809L -Icore -o "$out/$name" "$src" core/*.c
  seeds=tests/fuzz/seeds/${name#fuzz_}
  work=$out/corpus-$name
  mkdir -p "$work"
  echo "fuzz: $name for ${secs}s"
  "$out/$name" -max_total_time="$secs" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=0 "$work" $( [ -d "$seeds" ] && echo "$seeds" ) 2>"$out/$name.log" || {
      tail -n 40 "$out/$name.log" >&2; echo "fuzz: $name FAILED" >&2; exit 1; }
  echo "fuzz: $name ok ($(grep -c . "$out/$name.log" || true) log lines)"
done

#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c as a libFuzzer target (clang, with ASan and
# UBSan) against the core sources and runs each one for FUZZ_TIME seconds
# (default 20; FUZZ_SECONDS is an older name) on its seeds
# (tests/fuzz/seeds/NAME) and committed corpus (tests/fuzz/corpus/NAME),
# printing the executions and coverage it reached.
#
# The mutation seed is fixed (FUZZ_SEED, default 1; 0 lets libFuzzer pick)
# so that a CI run explores the same inputs each time, within the time limit;
# fuzz with FUZZ_SEED=0 and a long FUZZ_TIME to look for new bugs.
#
# FUZZ_TARGETS (names without fuzz_, blank-separated) picks some targets.
# FUZZ_MERGE=1 also minimises what was found into tests/fuzz/corpus/NAME
# (libFuzzer's set-cover merge keeps inputs that add coverage; then files over
# 2 KB are dropped and at most 300 kept), ready to commit; tests/fuzz_replay.sh
# replays that corpus through the CLI in `make check` and `make check-asan`.
set -eu
cd "$(dirname "$0")/../.."
secs=${FUZZ_TIME:-${FUZZ_SECONDS:-20}}
seed=${FUZZ_SEED:-1}
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang not found (apt-get install -y clang libclang-rt-14-dev); skipping" >&2
  exit 0
fi
out=build-fuzz
mkdir -p "$out"
# the MPI team needs mpi.h and is built only when configure found MPI; the
# targets are built without it (as with WMX_NO_MPI=1)
core_src=$(ls core/*.c | grep -v '^core/team_mpi\.c$')
flags="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L -Icore"
# the core is compiled once (instrumented for coverage, without libFuzzer's
# main) and linked into every target
mkdir -p "$out/core"
core_obj=""
for c in $core_src; do
  o=$out/core/$(basename "$c" .c).o
  # shellcheck disable=SC2086
  clang $flags -fsanitize=fuzzer-no-link -c -o "$o" "$c"
  core_obj="$core_obj $o"
done
for src in tests/fuzz/fuzz_*.c; do
  [ -f "$src" ] || continue
  name=$(basename "$src" .c)
  short=${name#fuzz_}
  # FUZZ_TARGETS="cond cfront": only those (default: every target)
  case " ${FUZZ_TARGETS:-$short} " in *" $short "*) ;; *) continue ;; esac
  # shellcheck disable=SC2086
  clang $flags -fsanitize=fuzzer -o "$out/$name" "$src" $core_obj
  work=$out/work-$short
  mkdir -p "$work"
  dirs=""
  for d in tests/fuzz/seeds/$short tests/fuzz/corpus/$short; do
    [ -d "$d" ] && dirs="$dirs $d"
  done
  echo "fuzz: $name for ${secs}s"
  # shellcheck disable=SC2086
  "$out/$name" -seed="$seed" -max_total_time="$secs" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" $dirs 2>"$out/$name.log" || {
      tail -n 40 "$out/$name.log" >&2; echo "fuzz: $name FAILED" >&2; exit 1; }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$out/$name.log" | tail -n 1)
  echo "fuzz: $name ok: ${execs:-?} executions, ${cov:-cov: ?}, $(ls "$work" | wc -l) inputs in $work"
  if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    dest=tests/fuzz/corpus/$short
    fresh=$out/merge-$short
    rm -rf "$fresh"
    mkdir -p "$fresh"
    # a greedy set cover keeps fewer files than -merge (libFuzzer >= 14)
    "$out/$name" -set_cover_merge=1 -max_len=2048 "$fresh" "$work" $dirs >"$out/$name.merge.log" 2>&1 ||
      "$out/$name" -merge=1 -max_len=2048 "$fresh" "$work" $dirs >"$out/$name.merge.log" 2>&1
    find "$fresh" -type f -size +2k -delete
    ls -S -r "$fresh" | tail -n +301 | while read -r f; do rm -f "$fresh/$f"; done
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$fresh"/* "$dest"/ 2>/dev/null || true
    echo "fuzz: $name corpus minimised into $dest ($(ls "$dest" | wc -l) files, $(du -sk "$dest" | cut -f1) KB)"
  fi
done

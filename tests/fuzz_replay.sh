#!/bin/sh
# tests/fuzz_replay.sh - replays the committed fuzz corpora
# (tests/fuzz/corpus/<target>/) through the CLI, as a user's files would
# arrive: litmus and .wmx inputs through `wmx explore`, traces through
# `wmx check` and `wmx graph` (next to a copy of the fuzz target's program),
# games through `wmx game`, PGAS programs through `wmx explore` and both
# `wmx robust` methods, conditions through `wmx check --outcome`.
# (The kept-translation decoder's corpus, tests/fuzz/corpus/cache, has no
# CLI way in: tests/unit/test_cache.c replays it, every byte changed; the
# generated entries of tests/fuzz/corpus/cfront and the conditions again go
# through their targets' checks in tests/unit/test_fuzz_corpus.c.)
# Under `make check-asan` WMX is the gcc ASan+UBSan build, so this is where a
# memory error found by libFuzzer's clang build must also show up in ours.
# Fails on a sanitizer report, a crash (signal) or an exit code above 3.
set -u
WMX=${WMX:-./wmx}
case "$WMX" in /*) ;; *) WMX=$(pwd)/$WMX ;; esac
corpus=tests/fuzz/corpus
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmx-replay.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0; bad=0
# every file under the sanitizer build; a third of them in the release
# build's `make check` (it is the sanitizers that find memory errors)
step=3
case "${WMX_BUILD:-build}" in *asan*) step=1 ;; esac
k=0
pick() { k=$((k + 1)); [ $((k % step)) -eq 0 ]; }

# the program fuzz_trace.c replays traces on (keep the two in step)
cat > "$tmp/fuzz.wmx" <<'EOF'
var x = 0, y = 0;
thread P0 { x = 1; r0 = y; }
thread P1 { y = 1; r0 = x; while (r0 == 0) bound 2 { r0 = x; } }
EOF

run() {   # run FILE-LABEL ARGS...: one CLI run, judged
  label=$1; shift
  n=$((n + 1))
  "$WMX" "$@" >"$tmp/out" 2>&1
  rc=$?
  why=""
  if [ $rc -gt 3 ]; then why="exit $rc"; fi
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer' "$tmp/out"; then
    why="${why:+$why, }sanitizer report"
  fi
  if [ -n "$why" ]; then
    bad=$((bad + 1))
    echo "fuzz_replay: FAIL $label: $why" >&2
    head -n 30 "$tmp/out" | sed 's/^/    /' >&2
  fi
}

for target in litmus lang; do
  [ -d "$corpus/$target" ] || continue
  for f in "$corpus/$target"/*; do
    [ -f "$f" ] || continue
    pick || continue
    # the reader is chosen by content; the extension only names it
    ext=$([ $target = litmus ] && echo litmus || echo wmx)
    cp "$f" "$tmp/input.$ext"
    run "$f" explore "$tmp/input.$ext" --timeout 1 --max-traces 200
  done
done
if [ -d "$corpus/trace" ]; then
  for f in "$corpus/trace"/*; do
    [ -f "$f" ] || continue
    pick || continue
    cp "$f" "$tmp/input.trace"
    run "$f" check "$tmp/input.trace" --timeout 1
    run "$f (graph)" graph "$tmp/input.trace" --check none -o "$tmp/out.dot"
  done
fi
if [ -d "$corpus/game" ]; then
  for f in "$corpus/game"/*; do
    [ -f "$f" ] || continue
    pick || continue
    cp "$f" "$tmp/input.game"
    run "$f" game "$tmp/input.game" --json --max-positions 20000 --k-max 2
    run "$f (always/before)" game "$tmp/input.game" --a-update always --b-update before --first B \
      --format dot --max-positions 20000 --k-max 2
  done
fi
if [ -d "$corpus/pgas" ]; then
  for f in "$corpus/pgas"/*; do
    [ -f "$f" ] || continue
    pick || continue
    cp "$f" "$tmp/input.wmx"
    # the fuzz target's limits: at most 3 ranks, 4000 states
    run "$f" explore "$tmp/input.wmx" --ranks 3 --max-states 4000 --timeout 1
    run "$f (robust nf)" robust "$tmp/input.wmx" --method nf --ranks 3 --max-states 4000 --timeout 1
    run "$f (robust search)" robust "$tmp/input.wmx" --method search --ranks 3 --max-states 4000 --timeout 1 --json
  done
fi
# conditions (fuzz_cond.c) as `check --outcome` takes them, on the target's
# program (keep the two in step); an argument holds no NUL byte
cat > "$tmp/cond.wmx" <<'EOF'
var x = 0, y = 0, a[3];
thread P0 { x = 1; r0 = y; a[1] = 2; }
thread P1 { y = 1; r0 = x; r1 = a[2]; }
EOF
if [ -d "$corpus/cond" ]; then
  for f in "$corpus/cond"/*; do
    [ -f "$f" ] || continue
    pick || continue
    run "$f" check "$tmp/cond.wmx" --outcome "$(tr -d '\000' < "$f")" --timeout 1
  done
fi
echo "fuzz_replay: $((n - bad)) of $n runs clean"
[ $bad -eq 0 ]

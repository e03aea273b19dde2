#!/bin/sh
# jobs.sh - `explore --jobs N` (issue 15): on several workers the counts,
# states (in the same order), verdicts and violations are those of one
# worker, over the litmus corpus, the examples, the C twins and the bench
# families; limits stop every worker; a bad --jobs is a usage error.
# WMX_TEST_SPLIT=1 makes busy workers split off work at every step, so that
# even programs of a few traces are explored by both workers.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/rfsmc-gen.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
runs=0

strip() { sed 's/"time_s": [0-9.e+-]*//' "$1"; }
# odpor's "events" (the explorer's own work) differs on several workers:
# units replay their prefix and may meet executions cut by foreign sleepers
stripev() { sed 's/"time_s": [0-9.e+-]*//; s/"events": [0-9]*//' "$1"; }

same() {   # FILE MODEL ALGO [split]
    "$WMX" explore "$1" --model "$2" --algo "$3" --json > "$tmp/one" 2>/dev/null
    r1=$?
    if [ "${4:-}" = split ]; then
        WMX_TEST_SPLIT=1 "$WMX" explore "$1" --model "$2" --algo "$3" --json --jobs 2 > "$tmp/two" 2>/dev/null
    else
        "$WMX" explore "$1" --model "$2" --algo "$3" --json --jobs 2 > "$tmp/two" 2>/dev/null
    fi
    r2=$?
    runs=$((runs + 1))
    cmp=strip
    [ "$3" = odpor ] && cmp=stripev
    if [ $r1 != $r2 ] || [ "$($cmp "$tmp/one")" != "$($cmp "$tmp/two")" ]; then
        echo "FAIL: $1 --model $2 --algo $3 ${4:-}: --jobs 2 differs from one worker (exit $r1 vs $r2)"
        head -c 400 "$tmp/one"; echo; head -c 400 "$tmp/two"; echo
        fail=1
    fi
}

for f in $(find "$root/../shared/litmus/x86" -name '*.litmus' 2>/dev/null | sort); do
    same "$f" tso rfsmc split
    same "$f" sc rfsmc split
done
for f in "$root"/examples/*.wmx "$root"/tests/c/*.c; do
    [ -f "$f" ] || continue
    # the long ones (a minute and more under TSO/PSO) are left to corpus.sh
    case "$f" in */dekker.c|*/spinlock.c) continue ;; esac
    for m in sc tso pso; do
        same "$f" $m rfsmc split
    done
    # naive enumerates every interleaving: the small .wmx examples only
    case "$f" in */peterson.wmx|*/dekker.wmx|*/peterson-fence.wmx) ;; *.wmx) same "$f" tso naive split ;; esac
done
# bench families: real splitting (no test hook), where the second worker
# comes in while the first is deep in the search
readers 12 > "$tmp/readers.wmx"
lastzero 8 > "$tmp/lastzero.wmx"
indexer 12 > "$tmp/indexer.wmx"
for p in readers lastzero indexer; do
    for m in sc tso; do
        same "$tmp/$p.wmx" $m rfsmc
    done
done
# 65536 states: the JSON "states" array is formatted on the workers' threads
# in 64 chunks, more than the writer's ring of 8 holds
readers 16 > "$tmp/readers16.wmx"
same "$tmp/readers16.wmx" sc rfsmc
lastzero 4 > "$tmp/lz4.wmx"
same "$tmp/lz4.wmx" sc naive

# --max-traces counts every worker's traces, and the run says PARTIAL
# (a worker's clock once started with a stale count of traces already
# reported, and odpor's workers never stopped)
for algo in rfsmc odpor naive; do
    "$WMX" explore "$tmp/readers.wmx" --model sc --algo $algo --jobs 2 --max-traces 100 --json > "$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(sed -n 's/.*"traces": \([0-9]*\).*/\1/p' "$tmp/out")
    if [ $rc != 3 ] || ! grep -q '"stop_reason": "max-traces"' "$tmp/out" || [ "${got:-0}" -lt 100 ] || [ "${got:-0}" -gt 120 ]; then
        echo "FAIL: --algo $algo --jobs 2 --max-traces 100: exit $rc, ${got:-?} traces"; cat "$tmp/err"; fail=1
    fi
    runs=$((runs + 1))
done
# odpor splits too: the same counts, states and verdicts as one worker,
# and no note that it runs on one
"$WMX" explore "$tmp/readers.wmx" --model sc --algo odpor --json --jobs 2 > /dev/null 2>"$tmp/err"
if grep -q "one worker" "$tmp/err"; then
    echo "FAIL: odpor --jobs 2 says it does not split"; cat "$tmp/err"; fail=1
fi
runs=$((runs + 1))
for f in $(find "$root/../shared/litmus/x86" -name '*.litmus' 2>/dev/null | sort | head -60) \
         "$root"/examples/*.wmx "$root"/tests/c/*.c; do
    case "$f" in */dekker.c|*/spinlock.c) continue ;; esac
    [ -f "$f" ] && same "$f" sc odpor split
done
for p in readers lastzero indexer; do
    same "$tmp/$p.wmx" sc odpor
done
# the odpor --ifaa variant splits the same way
"$WMX" explore "$tmp/indexer.wmx" --model sc --algo odpor --ifaa --json > "$tmp/one" 2>/dev/null
WMX_TEST_SPLIT=1 "$WMX" explore "$tmp/indexer.wmx" --model sc --algo odpor --ifaa --json --jobs 2 > "$tmp/two" 2>/dev/null
if [ "$(stripev "$tmp/one")" != "$(stripev "$tmp/two")" ]; then
    echo "FAIL: odpor --ifaa --jobs 2 differs from one worker"; fail=1
fi
runs=$((runs + 1))
# an algorithm that does not split says so
"$WMX" explore "$tmp/readers.wmx" --model sc --algo rfstate --json --jobs 2 > /dev/null 2>"$tmp/err"
if ! grep -q "rfstate explores on one worker" "$tmp/err"; then
    echo "FAIL: rfstate --jobs 2: no note"; cat "$tmp/err"; fail=1
fi
runs=$((runs + 1))
# --jobs 0 is every core; a bad value is a usage error (exit 2)
"$WMX" explore "$tmp/readers.wmx" --model sc --jobs 0 > /dev/null 2>&1 || { echo "FAIL: --jobs 0"; fail=1; }
for bad in -1 x 100000; do
    "$WMX" explore "$tmp/readers.wmx" --jobs "$bad" > /dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc != 2 ] || ! grep -q -- "--jobs" "$tmp/err"; then
        echo "FAIL: --jobs $bad: exit $rc, expected 2 with a message naming --jobs"; cat "$tmp/err"; fail=1
    fi
    runs=$((runs + 1))
done
[ $fail -eq 0 ] || exit 1
echo "jobs: $runs runs, --jobs 2 as one worker"

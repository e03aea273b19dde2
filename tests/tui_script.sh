#!/bin/sh
# tui_script.sh - scripted mode (`wmx --script FILE.wmxs PROGRAM`): runs the
# REPL commands of tests/tui/mp-pso.wmxs on MP without a terminal and
# compares what they print and the `save-screen` dump with the expected
# tests/tui/mp-pso.out and .screen (timings and temporary paths masked).
# TUI_RECORD=DIR writes the actual files there instead.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
exp="$root/tests/tui"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

sed "s|SCREEN|$tmp/mp.screen|" "$exp/mp-pso.wmxs" > "$tmp/mp.wmxs"
(cd "$root" && env HOME="$tmp" LC_ALL=C COLUMNS=80 LINES=24 "$WMX" --script "$tmp/mp.wmxs" examples/mp.wmx) \
    > "$tmp/out.raw" 2> "$tmp/err"
rc=$?
sed -e "s|$tmp|TMP|g" -e 's/[0-9][0-9]*\.[0-9][0-9]* s/T s/g' "$tmp/out.raw" > "$tmp/mp-pso.out"
sed -e "s|$tmp|TMP|g" "$tmp/mp.screen" > "$tmp/mp-pso.screen" 2>/dev/null

if [ -n "${TUI_RECORD:-}" ]; then
    mkdir -p "$TUI_RECORD"
    cp "$tmp/mp-pso.out" "$tmp/mp-pso.screen" "$TUI_RECORD/"
    exit 0
fi
# two commands of the script fail on purpose (step P7, flush of an empty buffer)
if [ $rc -ne 2 ]; then
    echo "FAIL: wmx --script exited with $rc, expected 2"
    cat "$tmp/err"
    fail=1
fi
if ! grep -q 'mp.wmxs:17: command failed' "$tmp/err"; then
    echo "FAIL: the failing command (line 17) was not reported on stderr:"
    cat "$tmp/err"
    fail=1
fi
for f in mp-pso.out mp-pso.screen; do
    if ! diff -u "$exp/$f" "$tmp/$f"; then
        echo "FAIL: $f differs from tests/tui/$f"
        fail=1
    fi
done

# the screen follows COLUMNS x LINES; UTF-8 locales get box-drawing frames
printf 'save-screen %s\n' "$tmp/big.screen" > "$tmp/big.wmxs"
(cd "$root" && env HOME="$tmp" LC_ALL=C.UTF-8 COLUMNS=200 LINES=60 "$WMX" --script "$tmp/big.wmxs" examples/sb.wmx) > /dev/null 2>&1
lines=$(wc -l < "$tmp/big.screen")
width=$(head -1 "$tmp/big.screen" | tr -d '\n' | wc -m)
if [ "$lines" -ne 60 ] || [ "$width" -ne 200 ]; then
    echo "FAIL: a 200x60 save-screen gave ${width}x$lines"
    fail=1
fi
if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' && ! head -1 "$tmp/big.screen" | grep -q '┌─ Program SB'; then
    echo "FAIL: no box-drawing frame under C.UTF-8:"
    head -3 "$tmp/big.screen"
    fail=1
fi

# without a terminal and without --script: a clear message, exit 2
(cd "$root" && "$WMX" examples/sb.wmx < /dev/null > "$tmp/notty" 2>&1)
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'needs a terminal' "$tmp/notty"; then
    echo "FAIL: without a terminal wmx should say so and exit 2 (got $rc):"
    cat "$tmp/notty"
    fail=1
fi

[ $fail -eq 0 ] && echo "tui_script: ok"
exit $fail

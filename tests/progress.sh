#!/bin/sh
# tests/progress.sh - a long batch run says how far it got on stderr when
# stderr is a terminal, even with stdout redirected (one line, redrawn and
# erased before the report); with stderr not a terminal nothing is added.
# Needs util-linux's `script` for the terminal; skipped without it.
set -u
WMX=${WMX:-./wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/rfsmc-gen.sh"
tmp=${TMPDIR:-/tmp}/wmx-progress.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if ! command -v script >/dev/null 2>&1; then
    echo "progress: no script(1); skipped"; exit 0
fi
readers 17 > "$tmp/r.wmx"
# long enough to pass the first second (a time limit keeps it bounded)
script -qc "'$WMX' explore '$tmp/r.wmx' --model sc --algo naive --timeout 2.5 > '$tmp/out'" /dev/null > "$tmp/tty" 2>&1
grep -q 'exploring: [0-9]* complete, [0-9]* blocked' "$tmp/tty" || bad "no progress line on a terminal: $(head -c 300 "$tmp/tty")"
grep -q 'Test readers17 under sc' "$tmp/out" || bad "no report on stdout: $(head -c 300 "$tmp/out")"
grep -q 'exploring:' "$tmp/out" && bad "the progress line went to stdout"
"$WMX" explore "$tmp/r.wmx" --model sc --algo naive --timeout 2.5 > "$tmp/out" 2> "$tmp/err"
grep -q 'exploring:' "$tmp/err" && bad "a progress line on a stderr that is no terminal: $(head -c 300 "$tmp/err")"
[ $fail = 0 ] && echo "progress: ok (a line on a terminal's stderr, none elsewhere)"
exit $fail

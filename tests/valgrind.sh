#!/bin/sh
# tests/valgrind.sh - a few CLI commands under valgrind's memcheck, so that a
# read past a buffer (one that happens not to crash, such as issue 47's
# wmx_path_relative over-read) fails the suite; and the save/check round trip
# of a trace written beside its program (that over-read made it name
# `../line.wmx`).  The round trip runs everywhere; the valgrind part is
# skipped when valgrind is missing or the build is the sanitizer one (the two
# do not mix).
set -u
WMX=${WMX:-./wmx}
case "$WMX" in /*) ;; *) WMX=$(pwd)/$WMX ;; esac
ex=$(pwd)/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmx-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0; n=0
bad() { fail=$((fail + 1)); echo "valgrind: FAIL $*" >&2; }

# 1. save + check in one directory: the trace names `line.wmx`, and checks
cp "$ex/sb.wmx" "$tmp/line.wmx"
mkdir "$tmp/sub"
n=$((n + 1))
(cd "$tmp" && "$WMX" run line.wmx --save q.trace >/dev/null 2>&1 &&
  "$WMX" run line.wmx --save sub/q.trace >/dev/null 2>&1)
if ! grep -qx 'program line.wmx' "$tmp/q.trace" 2>/dev/null; then
  bad "a trace saved beside its program: $(grep '^program' "$tmp/q.trace" 2>/dev/null)"
elif ! grep -qx 'program ../line.wmx' "$tmp/sub/q.trace" 2>/dev/null; then
  bad "a trace saved below its program: $(grep '^program' "$tmp/sub/q.trace" 2>/dev/null)"
elif ! (cd "$tmp" && "$WMX" check q.trace >/dev/null 2>&1 && cd sub && "$WMX" check q.trace >/dev/null 2>&1); then
  bad "check of the saved traces"
else
  echo "valgrind: ok   save + check round trip in one directory and below it"
fi

if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind: valgrind not found; skipping the memcheck runs"
  echo "valgrind: $((n - fail)) of $n as expected"; [ $fail -eq 0 ]; exit
fi
case "${WMX_BUILD:-build}" in *asan*)
  echo "valgrind: sanitizer build; skipping the memcheck runs"
  echo "valgrind: $((n - fail)) of $n as expected"; [ $fail -eq 0 ]; exit ;;
esac

# vg NAME ARGS...: wmx ARGS (run in $tmp) under memcheck: no error reported
# (exit 99 is memcheck's), wmx's own exit at most 3
vg() {
  name=$1; shift
  n=$((n + 1))
  (cd "$tmp" && valgrind -q --error-exitcode=99 --track-origins=no "$WMX" "$@") >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -gt 3 ] || grep -q '^==[0-9]*==' "$tmp/out"; then
    bad "$name (exit $rc)"
    grep '^==[0-9]*==' "$tmp/out" | head -n 20 | sed 's/^/    /' >&2
  else
    echo "valgrind: ok   $name (exit $rc)"
  fi
}
vg "run --save beside the program" run line.wmx --save v.trace
vg "check a trace" check q.trace
vg "explore sb" explore line.wmx
vg "check --outcome" check line.wmx --outcome "P0:r0=0 /\\ P1:r0=0"
vg "graph a trace" graph q.trace -o g.dot
vg "game" game "$ex/games/two-processes.game" --timeout 5
vg "robust a PGAS program" robust "$ex/pgas/1to1.wmx" --timeout 5
echo "valgrind: $((n - fail)) of $n as expected"
[ $fail -eq 0 ]

#!/bin/sh
# verify_diff.sh - `wmx check PROGRAM` (reads-from consistency of the
# condition's outcome) must agree with `wmx explore` (exhaustive) on the x86
# litmus corpus, under SC and TSO: the proposition is reachable exactly when
# herd's observation is not "Never".  Also checks that bad input exits 2.
# Usage: WMX=path/to/wmx sh tests/verify_diff.sh [LITMUS-DIR]
WMX=${WMX:-./wmx}
DIR=${1:-$(dirname "$0")/../../shared/litmus/x86}
tmp=${TMPDIR:-/tmp}/wmx_verify_diff.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
if [ -d "$DIR" ]; then
  for f in $(find "$DIR" -name '*.litmus' | sort); do
    for m in sc tso; do
      obs=$("$WMX" explore "$f" --model $m --format herd --timeout 20 2>/dev/null | awk '/^Observation/ {print $3}')
      if [ -z "$obs" ]; then skip=$((skip + 1)); continue; fi
      "$WMX" check "$f" --model $m > "$tmp/out" 2>&1
      rc=$?
      if [ $rc -eq 2 ] || [ $rc -eq 3 ]; then skip=$((skip + 1)); continue; fi
      if [ "$obs" = Never ]; then want=1; else want=0; fi
      if [ $rc -eq $want ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "MISMATCH $f ($m): explore says $obs, check exits $rc"; sed 's/^/    /' "$tmp/out" | head -20
      fi
    done
  done
else
  echo "verify_diff: no corpus at $DIR (skipped)"
fi
# bad input: exit 2 with a file:line message, never a crash
printf 'program nowhere.wmx\nmodel tso\nevents\nP0 w x 1\nend\n' > "$tmp/bad1.trace"
printf 'garbage\n' > "$tmp/bad2.trace"
for b in "$tmp/bad1.trace" "$tmp/bad2.trace" "$tmp/missing.trace"; do
  "$WMX" check "$b" > /dev/null 2>&1; rc=$?
  if [ $rc -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "bad input $b: exit $rc, expected 2"; fi
  "$WMX" graph "$b" > /dev/null 2>&1; rc=$?
  if [ $rc -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "graph bad input $b: exit $rc, expected 2"; fi
done
echo "verify_diff: $pass agree, $fail differ, $skip skipped"
[ $fail -eq 0 ]

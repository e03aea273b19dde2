#!/bin/sh
# bench/run.sh WMX - runs every bench/*.sh family script (each prints its own
# table: time and peak memory per row).  Benchmarks never fail the build on
# time; they fail only if wmx itself fails.
set -u
WMX=${1:-./wmx}
export WMX
cd "$(dirname "$0")/.."
rc=0
for b in bench/[a-z]*.sh; do
  [ "$b" = bench/run.sh ] && continue
  [ "$b" = bench/lib.sh ] && continue
  case "$b" in *-gen.sh) continue ;; esac   # program generators, not benchmarks
  echo "== $b"
  sh "$b" || rc=1
done
exit $rc

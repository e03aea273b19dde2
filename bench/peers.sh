#!/bin/sh
# bench/peers.sh - issue 15's table: wmx (odpor and rfsmc, SC, whole process)
# beside GenMC 0.10.3 `--sc` and Nidhugg `--sc --optimal` / `--sc --rf` on the
# same families.  wmx's columns are measured here (seconds, peak KB, traces).
# The peers' columns are measured when `genmc` / `nidhuggc` are on PATH, on
# the family's C version (bench/c-gen.sh, the same program wmx reads as C);
# otherwise they are the figures quoted in issue 15
# (this machine class, clang's compile included), labelled "(quoted)".
set -u
WMX=${WMX:-./wmx}
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/rfsmc-gen.sh
. bench/c-gen.sh
TMP=${TMPDIR:-/tmp}/wmx-bench-peers.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
TIMEOUT=${TIMEOUT:-60}
rc=0

quoted() { # FAMILY N COLUMN -> the issue's figure
  case "$1-$2:$3" in
    lastwrite-9:genmc) echo "3.97s" ;;  lastwrite-9:nidhugg) echo "33.9s" ;;  lastwrite-9:nidhugg-rf) echo "0.36s" ;;
    readers-16:genmc) echo "1.42s" ;;   readers-16:nidhugg) echo "20.9s" ;;   readers-16:nidhugg-rf) echo "10.4s" ;;
    lastzero-12:genmc) echo "0.74s" ;;  lastzero-12:nidhugg) echo "3.52s" ;;  lastzero-12:nidhugg-rf) echo "2.83s" ;;
    lastzero-14:genmc) echo "3.43s" ;;  readers-18:genmc) echo "8.47s" ;;
    *) echo "-" ;;
  esac
}

cell() { # ALGO FILE -> "secs peakKB traces"
  if ! measure "$TMP/out" "$WMX" explore --model sc --algo "$1" --json --timeout "$TIMEOUT" "$2"; then
    if [ ! -s "$TMP/out" ]; then echo "wmx failed on $2 ($1):" >&2; cat "$TMP/out.err" >&2; rc=1; echo "FAIL"; return; fi
  fi
  tr=$(json_field "$TMP/out" traces)
  part=""; grep -q '"complete": true' "$TMP/out" || part="*"
  echo "${SECS}s ${KB}KB $tr$part"
}

peer() { # FAMILY N COLUMN
  c="$TMP/$1-$2.c"
  "c_$1" "$2" > "$c"
  case "$3" in
    genmc) tool=genmc; args="--sc" ;;
    nidhugg) tool=nidhuggc; args="--sc --optimal" ;;
    nidhugg-rf) tool=nidhuggc; args="--sc --rf" ;;
  esac
  if command -v "$tool" > /dev/null 2>&1 && [ -f "$c" ]; then
    measure "$TMP/peer" "$tool" $args "$c" || true
    echo "${SECS}s (measured)"
  else
    q=$(quoted "$1" "$2" "$3")
    [ "$q" = "-" ] && echo "-" || echo "$q (quoted)"
  fi
}

printf '%-14s %-24s %-24s %-18s %-20s %-18s\n' program "wmx odpor" "wmx rfsmc" "GenMC --sc" "Nidhugg --optimal" "Nidhugg --rf"
for row in "lastwrite 9" "readers 16" "lastzero 12" "lastzero 14" "readers 18"; do
  set -- $row
  "$1" "$2" > "$TMP/p.wmx"
  printf '%-14s %-24s %-24s %-18s %-20s %-18s\n' "$1-$2" "$(cell odpor "$TMP/p.wmx")" "$(cell rfsmc "$TMP/p.wmx")" \
    "$(peer "$1" "$2" genmc)" "$(peer "$1" "$2" nidhugg)" "$(peer "$1" "$2" nidhugg-rf)"
done
exit $rc

#!/bin/sh
# bench/odpor.sh - Optimal-DPOR (seed 003) on native-language families under
# SC: T+B (complete + blocked executions) and seconds for naive, odpor,
# odpor+PLP (assume), odpor+PLP+await and +IFAA.  Columns whose option the
# wmx binary does not know yet print "n/a"; runs are capped by TIMEOUT
# seconds (default 30) and marked "*" when partial.
set -u
WMX=${WMX:-./wmx}
TIMEOUT=${TIMEOUT:-30}
. "$(dirname "$0")/lib.sh"
tmp=${TMPDIR:-/tmp}/wmx-bench-odpor.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

gen_readers() { # N: one writer, N readers
  printf 'name readers-%s\nvar x;\nthread w { x = 42; }\n' "$1"
  i=0; while [ $i -lt "$1" ]; do printf 'thread r%s { a = x; }\n' $i; i=$((i+1)); done
}
gen_lastwrite() { # N threads each store x = i
  printf 'name lastwrite-%s\nvar x;\n' "$1"
  i=1; while [ $i -le "$1" ]; do printf 'thread t%s { x = %s; }\n' $i $i; i=$((i+1)); done
}
gen_lastzero() { # N: t0 scans a[N..0] for the last zero; tj: a[j] = a[j-1] + 1
  n=$1
  printf 'name lastzero-%s\nvar a[%s];\n' "$n" $((n+1))
  printf 'thread t0 {\n  i = %s;\n  while (a[i] != 0) bound %s { i = i - 1; }\n}\n' "$n" $((n+1))
  j=1; while [ $j -le "$n" ]; do
    printf 'thread t%s { v = a[%s]; a[%s] = v + 1; }\n' $j $((j-1)) $j; j=$((j+1)); done
}
gen_indexer() { # N threads, 4 insertions each into a 128-cell table by CAS
  printf 'name indexer-%s\nvar table[128];\n' "$1"
  t=0; while [ $t -lt "$1" ]; do
    printf 'thread t%s {\n' $t
    m=0; while [ $m -lt 4 ]; do
      w=$(( (m+1)*11 + t )); h=$(( (w*7) % 128 ))
      printf '  h = %s; ok = 0;\n  while (ok == 0) bound 128 { r, ok = cas(table[h], 0, %s); h = (h + 1) %% 128; }\n' $h $w
      m=$((m+1)); done
    printf '}\n'; t=$((t+1)); done
}
gen_ttaslock() { # N threads: test-and-test-and-set lock around an increment
  printf 'name ttaslock-%s\nvar lock, c;\n' "$1"
  t=0; while [ $t -lt "$1" ]; do
    printf 'thread t%s {\n  r = 1;\n  while (r != 0) bound %s {\n' $t $(($1+1))
    printf '    do { l = lock; } while (l != 0) bound %s;\n    r = xchg(lock, 1);\n  }\n' $(($1+1))
    printf '  v = c;\n  c = v + 1;\n  lock = 0;\n}\n'
    t=$((t+1)); done
}
gen_seqlock() { # 1 writer (2 updates), N readers retrying until a stable even sequence
  printf 'name seqlock-%s\nvar seq, d1, d2;\n' "$1"
  printf 'thread w {\n  s = seq; seq = s + 1; d1 = 1; d2 = 1; seq = s + 2;\n'
  printf '  s = seq; seq = s + 1; d1 = 2; d2 = 2; seq = s + 2;\n}\n'
  t=0; while [ $t -lt "$1" ]; do
    printf 'thread r%s {\n  do { s1 = seq; a = d1; b = d2; s2 = seq; } while (s1 != s2 || (s1 %% 2) != 0) bound 3;\n  assert(a == b);\n}\n' $t
    t=$((t+1)); done
}
gen_fig5() { # seed 003 Fig. 5 scaled: N FAAs with unused results, s awaits x == 1
  printf 'name faa-await-%s\nvar x;\n' "$1"
  t=0; while [ $t -lt "$1" ]; do printf 'thread p%s { faa(x, 1); }\n' $t; t=$((t+1)); done
  printf 'thread s { await(x == 1); }\n'
}

run() { # FILE ALGO EXTRA... -> prints "T+B secs" cell
  f=$1; algo=$2; shift 2
  if ! measure "$tmp/out" "$WMX" explore --model sc --algo "$algo" --json --timeout "$TIMEOUT" "$@" "$f"; then
    if [ "$(cat "$tmp/out")" = "" ]; then printf '%22s' "n/a"; return; fi
  fi
  tr=$(json_field "$tmp/out" traces); bl=$(json_field "$tmp/out" blocked); t=$(json_field "$tmp/out" time_s)
  [ -z "$tr" ] && { printf '%22s' "n/a"; return; }
  part=""; grep -q '"complete": true' "$tmp/out" || part="*"
  printf '%22s' "$(printf '%s+%s%s %.2fs' "$tr" "$bl" "$part" "$t")"
}

printf '%-14s%22s%22s%22s%22s%22s\n' family naive odpor odpor+PLP odpor+PLP+await +IFAA
row() { # NAME GEN ARG [skip-naive]
  name=$1; gen=$2; arg=$3
  $gen "$arg" > "$tmp/p.wmx"
  printf '%-14s' "$name($arg)"
  if [ "${4:-}" = skip ]; then printf '%22s' "-"; else run "$tmp/p.wmx" naive; fi
  run "$tmp/p.wmx" odpor
  run "$tmp/p.wmx" odpor --plp
  run "$tmp/p.wmx" odpor --plp=await
  run "$tmp/p.wmx" odpor --plp=await --ifaa
  printf '\n'
}
row readers gen_readers 8
row readers gen_readers 12 skip
row lastwrite gen_lastwrite 8
row lastzero gen_lastzero 5
row lastzero gen_lastzero 10 skip
row indexer gen_indexer 12 skip
row indexer gen_indexer 15 skip
row ttaslock gen_ttaslock 2
row ttaslock gen_ttaslock 3 skip
row seqlock gen_seqlock 1
row seqlock gen_seqlock 2 skip
row faa-await gen_fig5 3
row faa-await gen_fig5 6 skip

#!/bin/sh
# tests/output.sh - output is never lost silently (issue 47 §7, §7c): a full
# stdout (`> /dev/full`) is an error, exit 2, for every command; the files
# wmx writes (robust --dot, explore --dump-wut) are checked and written whole
# or not at all.  A full disk is `ulimit -f 1` with SIGXFSZ ignored: a write
# past 512 bytes to a regular file fails with EFBIG.  Each case ends within
# 2 s.
set -u
WMX=${WMX:-./wmx}
case "$WMX" in /*) ;; *) WMX=$(pwd)/$WMX ;; esac
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmx-output.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0; n=0
sb=$top/examples/sb.wmx
pg=$top/examples/pgas/1to1.wmx     # not robust: it has a --dot graph

now() { date +%s.%N; }
t0=0
start() { n=$((n + 1)); t0=$(now); }
# verdict NAME WHY: ok when WHY is empty and the case took at most 2 s
verdict() {
  secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  why=$2
  if awk -v s="$secs" 'BEGIN { exit !(s > 2) }'; then why="${why:+$why, }took ${secs}s"; fi
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$tmp/err" 2>/dev/null; then
    why="${why:+$why, }sanitizer report"
  fi
  if [ -n "$why" ]; then
    fail=$((fail + 1))
    echo "output: FAIL $1: $why" >&2
    head -c 600 "$tmp/err" 2>/dev/null | sed 's/^/    /' >&2
  else
    echo "output: ok   $1 (${secs}s)"
  fi
}
# want RC PATTERN: the last run's exit code and stderr
want() {
  w=""
  [ "$rc" = "$1" ] || w="exit $rc, want $1"
  if [ -n "$2" ] && ! grep -q -- "$2" "$tmp/err"; then w="${w:+$w, }no '$2' on stderr"; fi
  printf '%s' "$w"
}

# 1. a full stdout: every command says so and exits 2 (it exited 0)
full="cannot write the output: No space left on device"
for args in "explore $sb" "explore $sb --json" "robust $sb" "check $sb --outcome P0:r0=0" \
            "run $sb" "transform $sb" "version" "help" "help explore" "robust $pg"; do
  start
  $WMX $args >/dev/full 2>"$tmp/err"; rc=$?
  verdict "wmx $args > /dev/full" "$(want 2 "$full")"
done
# more output than stdio's buffer: the write fails during the run
awk 'BEGIN { print "var x = 0;"; for (t = 0; t < 2; t++) { printf "thread P%d {\n", t;
  for (i = 0; i < 500; i++) printf "  x = %d;\n", i; print "}" } }' > "$tmp/long.wmx"
start
$WMX transform "$tmp/long.wmx" >/dev/full 2>"$tmp/err"; rc=$?
verdict "transform (54 KB) > /dev/full" "$(want 2 "cannot write the output")"
# a closed stdout
start
$WMX explore "$sb" >&- 2>"$tmp/err"; rc=$?
verdict "explore with stdout closed" "$(want 2 "cannot write the output: Bad file descriptor")"
# a good stdout still exits as before
start
$WMX explore "$sb" >/dev/null 2>"$tmp/err"; rc=$?
verdict "explore > /dev/null" "$(want 0 "")"

# 2. robust PGAS --dot FILE on a full disk: exit 2 naming the file, and no
#    file, not even an empty one (it was a 0-byte file and exit 1)
start
(cd "$tmp" && ulimit -f 1 && trap '' XFSZ && $WMX robust "$pg" --dot g.dot >/dev/null 2>"$tmp/err"); rc=$?
w=$(want 2 "g.dot: cannot write: File too large")
[ -e "$tmp/g.dot" ] && w="${w:+$w, }g.dot was left behind"
ls "$tmp" | grep -q '\.tmp' && w="${w:+$w, }a temp file was left behind"
verdict "robust PGAS --dot on a full disk" "$w"
start
$WMX robust "$pg" --dot /dev/full >/dev/null 2>"$tmp/err"; rc=$?
verdict "robust PGAS --dot /dev/full" "$(want 2 "/dev/full: cannot write: No space left on device")"
start
$WMX robust "$pg" --dot "$tmp/g.dot" >/dev/null 2>"$tmp/err"; rc=$?
w=$(want 1 "")
grep -q '^digraph' "$tmp/g.dot" 2>/dev/null || w="${w:+$w, }no graph in g.dot"
verdict "robust PGAS --dot FILE still writes the graph" "$w"

# 3. explore --dump-wut DIR: a file that cannot be written is an error
#    (exit 2, its path), not skipped (exit 0)
mkdir -p "$tmp/w1/exec-000001.dot"
start
$WMX explore "$sb" --model sc --algo odpor --dump-wut "$tmp/w1" >/dev/null 2>"$tmp/err"; rc=$?
verdict "--dump-wut: a directory in the way" "$(want 2 "w1/exec-000001.dot: cannot write: Is a directory")"
start
(cd "$tmp" && ulimit -f 1 && trap '' XFSZ && $WMX explore "$sb" --model sc --algo odpor --dump-wut w2 >/dev/null 2>"$tmp/err"); rc=$?
w=$(want 2 "w2/exec-00000[0-9].dot: cannot write: File too large")
ls "$tmp/w2" | grep -q '\.tmp' && w="${w:+$w, }a temp file was left behind"
verdict "--dump-wut on a full disk" "$w"
start
$WMX explore "$sb" --model sc --algo odpor --dump-wut "$tmp/w3" >/dev/null 2>"$tmp/err"; rc=$?
w=$(want 0 "")
[ "$(ls "$tmp/w3" | grep -c '^exec-.*\.dot$')" -ge 1 ] || w="${w:+$w, }no DOT files in w3"
verdict "--dump-wut still writes its files" "$w"

# 4. temp files are removed on SIGTERM and on a second Ctrl-C (issue 47 §7):
#    a graph export killed mid-way left NAME.svg.tmpXXXXXX beside the target
awk 'BEGIN { print "var x = 0, y = 0;"; for (t = 0; t < 4; t++) { printf "thread P%d {\n", t;
  for (i = 0; i < 300; i++) if (i % 2 == 0) printf "  %s = %d;\n", (i % 4 == 0 ? "x" : "y"), i + 1;
  else printf "  r%d = %s;\n", i % 8, (i % 4 == 1 ? "y" : "x"); print "}" } }' > "$tmp/g.wmx"
$WMX run "$tmp/g.wmx" --save "$tmp/g.trace" >/dev/null 2>&1
# wait_for DIR PATTERN: up to 3 s until a file matching PATTERN is in DIR
wait_for() {
  i=0
  while [ $i -lt 60 ]; do
    ls "$1" 2>/dev/null | grep -q -- "$2" && return 0
    sleep 0.05; i=$((i + 1))
  done
  return 1
}
for sigs in "TERM" "INT INT"; do
  mkdir -p "$tmp/gr"; rm -f "$tmp/gr"/*
  $WMX graph "$tmp/g.trace" -o "$tmp/gr/g.svg" >/dev/null 2>"$tmp/err" &
  pid=$!
  if ! wait_for "$tmp/gr" 'g\.svg\.tmp'; then
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    echo "output: skip graph export killed by SIG$sigs: no temp file within 3 s"
    continue
  fi
  start
  for s in $sigs; do kill -$s $pid; sleep 0.1; done
  wait $pid; rc=$?
  w=""
  case $sigs in TERM) [ $rc = 143 ] || w="exit $rc, want 143" ;; *) [ $rc = 130 ] || w="exit $rc, want 130" ;; esac
  left=$(ls "$tmp/gr")
  [ -z "$left" ] || w="${w:+$w, }left behind: $left"
  verdict "graph export killed by SIG$sigs: no temp file left" "$w"
done

# 5. the C front end's scratch files go to $TMPDIR (they were always in
#    /tmp) and are removed, with clang killed, on SIGTERM
if "$WMX" explore "$top/tests/c/sb.c" --model sc 2>&1 | grep -q 'C input not built'; then
  echo "output: C input not built; skipping its cases"
else
  mkdir -p "$tmp/td"
  mkfifo "$tmp/fifo"
  printf '#include "%s"\nint main(void) { return 0; }\n' "$tmp/fifo" > "$tmp/fifo.c"
  for sig in TERM INT; do
    rm -f "$tmp/td"/*
    TMPDIR=$tmp/td WMX_CACHE_DIR=$tmp/cache $WMX explore "$tmp/fifo.c" >/dev/null 2>"$tmp/err" &
    pid=$!
    start
    w=""
    wait_for "$tmp/td" '^wmx-cfront-' || w="no wmx-cfront-* in \$TMPDIR while clang runs"
    kill -$sig $pid; wait $pid; rc=$?
    case $sig in TERM) [ $rc = 143 ] || w="${w:+$w, }exit $rc, want 143" ;; INT) [ $rc = 3 ] || w="${w:+$w, }exit $rc, want 3" ;; esac
    sleep 0.3                     # clang's own handler removes its files
    # (after Ctrl-C wmx stops clang with SIGTERM too, so nothing of clang's stays)
    left=$(ls "$tmp/td")
    [ -z "$left" ] || w="${w:+$w, }left in \$TMPDIR: $left"
    if ps -eo args | grep -v grep | grep -q -- "-- $tmp/fifo.c"; then w="${w:+$w, }clang is still running"; fi
    verdict "C: scratch files in \$TMPDIR, removed on SIG$sig" "$w"
  done
  # clang stopped by its time limit while it writes: its own
  # NAME-XXXXXXXX.tmp must go too (a SIGKILL left them)
  rm -rf "$tmp/td2"; mkdir -p "$tmp/td2"
  printf 'int a[64];\nint main(void) { for (int i = 0; i < 64; i++) a[i] = i; return a[3]; }\n' > "$tmp/slow.c"
  for ms in 02 03 04 05 06 07 08 09 10 11 12 14; do
    TMPDIR=$tmp/td2 WMX_CACHE=off WMX_CLANG_TIMEOUT=0.$ms $WMX explore "$tmp/slow.c" >/dev/null 2>&1
  done
  start                         # (12 runs: the 2 s rule is for one)
  w=""
  left=$(ls "$tmp/td2")
  [ -z "$left" ] || w="left in \$TMPDIR: $left"
  verdict "C: clang stopped at its time limit leaves nothing in \$TMPDIR" "$w"
  # no clang may outlive the test (it would wait on the FIFO forever)
  : > "$tmp/fifo" &
  opener=$!
  sleep 0.2; kill $opener 2>/dev/null; wait $opener 2>/dev/null
fi

echo "output: $((n - fail)) of $n as expected"
[ $fail -eq 0 ]

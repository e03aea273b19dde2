#!/bin/sh
# bench/rfsmc-gen.sh - program generators for bench/rfsmc.sh (sourced by it;
# bench/run.sh skips *-gen.sh files).  Each function takes N and writes a
# native-language (.wmx) program to stdout:
#
#   readers N          one thread stores x = 42, N threads load x once
#   lastzero N         a[0..N] = 0; P0 scans i = N downwards while a[i] != 0;
#                      Pj (j = 1..N) stores a[j] = a[j-1] + 1
#   lastwrite N        N threads store x = i; the final x is observed
#   nwriters1reader N  N threads store x = i, one more thread loads x once
#   indexer N          Flanagan & Godefroid's indexer: N threads insert 4
#                      values each into a 128-cell hash table by CAS with
#                      linear probing (collisions only from N = 12 on)
#   dekker N           Dekker's algorithm, 2 threads, waits bounded by N
#   peterson N         Peterson's algorithm, 2 threads, wait bounded by N
#   szymanski N        Szymanski's algorithm (flags 0..4), 2 threads, waits
#                      bounded by N (the SV-COMP/Threader shape)
#   fib_bench N        SV-COMP fib_bench: i = j = 1; A does i = i + j and
#                      B does j = j + i, N times each; final i, j observed
#
# The mutual exclusion programs check the critical section like
# examples/peterson.wmx: an atomic faa counts who is inside and an assertion
# checks that it is only us.  Bounded waits that run out block the execution
# (it is cut off, not an error).  When sourced with no arguments this file
# only defines the functions.

readers() {
  n=$1
  echo "name readers$n"
  echo "var x;"
  echo "thread W { x = 42; }"
  i=1; while [ $i -le "$n" ]; do echo "thread R$i { r = x; }"; i=$((i + 1)); done
}

lastzero() {
  n=$1
  echo "name lastzero$n"
  echo "var a[$((n + 1))];"
  echo "thread P0 { i = $n; r = a[i]; while (r != 0) bound $n { i = i - 1; r = a[i]; } }"
  j=1; while [ $j -le "$n" ]; do
    echo "thread P$j { r = a[$((j - 1))]; a[$j] = r + 1; }"; j=$((j + 1)); done
}

# writers N PREFIX: N threads PREFIXi, each storing x = i
writers() {
  i=1; while [ $i -le "$1" ]; do echo "thread $2$i { x = $i; }"; i=$((i + 1)); done
}

lastwrite() {
  echo "name lastwrite$1"
  echo "var x;"
  writers "$1" P
  echo "locations [x];"
}

nwriters1reader() {
  echo "name nwriters1reader$1"
  echo "var x;"
  writers "$1" W
  echo "thread R { r = x; }"
}

# SIZE = 128, MAX = 4; thread tid (0-based) inserts w = m * 11 + tid for
# m = 1..MAX at h = (w * 7) % SIZE, probing h + 1, ... while the CAS fails.
indexer() {
  n=$1
  echo "name indexer$n"
  echo "var table[128];"
  t=0; while [ $t -lt "$n" ]; do
    cat <<EOF
thread T$t (tid = $t) {
  m = 1;
  while (m <= 4) bound 4 {
    w = m * 11 + tid;
    h = (w * 7) % 128;
    r = cas(table[h], 0, w);
    while (r != 0) bound 128 {
      h = (h + 1) % 128;
      r = cas(table[h], 0, w);
    }
    m = m + 1;
  }
}
EOF
    t=$((t + 1)); done
}

dekker() {
  n=$1
  echo "name dekker$n"
  echo "var flag[2], turn, incs;"
  for me in 0 1; do
    o=$((1 - me))
    cat <<EOF
thread P$me {
  flag[$me] = 1;
  while (flag[$o] == 1) bound $n {
    if (turn != $me) {
      flag[$me] = 0;
      await(turn == $me);
      flag[$me] = 1;
    }
  }
  c = faa(incs, 1);
  assert(c == 0);
  faa(incs, -1);
  turn = $o;
  flag[$me] = 0;
}
EOF
  done
}

peterson() {
  n=$1
  echo "name peterson$n"
  echo "var flag0, flag1, turn, incs;"
  for me in 0 1; do
    o=$((1 - me))
    cat <<EOF
thread P$me {
  flag$me = 1;
  turn = $o;
  while (flag$o == 1 && turn == $o) bound $n { }
  c = faa(incs, 1);
  assert(c == 0);
  faa(incs, -1);
  flag$me = 0;
}
EOF
  done
}

szymanski() {
  n=$1
  echo "name szymanski$n"
  echo "var flag0, flag1, incs;"
  for me in 0 1; do
    o=$((1 - me))
    cat <<EOF
thread P$me {
  flag$me = 1;
  while (flag$o >= 3) bound $n { }
  flag$me = 3;
  if (flag$o == 1) {
    flag$me = 2;
    while (flag$o != 4) bound $n { }
  }
  flag$me = 4;
  while (flag$o >= 2) bound $n { }
  c = faa(incs, 1);
  assert(c == 0);
  faa(incs, -1);
  f = flag$o;
  while (2 <= f && f <= 3) bound $n { f = flag$o; }
  flag$me = 0;
}
EOF
  done
}

fib_bench() {
  n=$1
  echo "name fib_bench$n"
  echo "var i = 1, j = 1;"
  echo "thread A { k = 0; while (k < $n) bound $n { i = i + j; k = k + 1; } }"
  echo "thread B { k = 0; while (k < $n) bound $n { j = j + i; k = k + 1; } }"
  echo "locations [i, j];"
}

#!/bin/sh
# bench/godot-gen.sh FAMILY N - writes a native-language (.wmx) version of one
# benchmark family of seed 003 ("Awaiting for Godot", Table I / Table II) to
# stdout, sized by N.  Used by bench/godot.sh; run without arguments (as
# bench/run.sh does) it only prints a usage line and succeeds.
#
# The programs are simplified but keep the synchronisation shape of the
# originals: spin loops are written `while (...) bound K { }` with an empty
# body on a single shared load, so the PLP rewrite (wmx transform) can bound
# them by assume and turn them into awaits; fetch-and-adds whose results are
# unused stay FAAs, so --ifaa can treat them as independent.  K is N+1 as in
# the seed ("one greater than the number of threads") unless said otherwise.
# Every program checks its own correctness (assert or final condition) and
# is correct under SC.
#
# Families and N:
#   sortnet N       Batcher odd-even merge sort network on N values (N a
#                   power of two), one thread per comparator, each spinning on
#                   per-wire stage counters for its inputs; a checker thread
#                   waits for all wires and asserts the output is sorted.
#                   Spin bound SORTNET_BOUND (default 2, not N+1: the await
#                   rewrite does not depend on it and the baseline explodes
#                   anyway).
#   sortnet-await N the same with native `await` instead of spin loops.
#   ttaslock N      N threads, test-and-test-and-set lock around c++.
#   twalock N       ticket lock with a waiting array (TWA): faa ticket,
#                   long-term wait on a waiting-array slot, short-term spin
#                   on the grant; release notifies the slot with a faa.
#   mutex N         Drepper's futex mutex (cas 0->1, xchg 2, dec on unlock)
#                   with futex_wait replaced by a spin on the lock word.
#   mutex-musl N    musl-like: cas lock word, waiters counter bumped by faa
#                   around a spin that replaces the futex wait, xchg unlock.
#   seqlock N       1 writer (2 updates) + N-1 readers; read_seqbegin spins
#                   while the sequence is odd, readers retry on change.
#   mcslock N       MCS queue lock: xchg on tail, spin on own node's flag;
#                   release cas on tail or spin for the successor link.
#   treiber N       Treiber stack: N/2 pushers (cas retry loop), N-N/2
#                   poppers that spin while the stack is empty, then pop.
#   msqueue N       Michael-Scott queue: N/2 enqueuers, N-N/2 dequeuers.
#   mpmc N          Vyukov's bounded mpmc queue (CDSChecker mpmc-queue):
#                   cas on a packed rd/wr word, spins on m_read/m_written,
#                   publish/consume by faa with unused results.
#   rwlock N        linuxrwlocks: N-1 readers, 1 writer; fetch_sub to
#                   acquire, undo by faa and spin while the lock is taken.
#   safestack AB    safestack harness: one thread per digit, digit = number
#                   of (pop; write; assert; push) rounds (seed 003 Table II
#                   names, e.g. 21, 22, 111).
set -u

k() { echo $(( $1 + 1 )); }

# Emit a template once per thread: @I@ is the thread index, @J@ = @I@ + 1,
# @K@ the loop bound.
emit() { # COUNT K TEMPLATE-FILE
  i=0; while [ "$i" -lt "$1" ]; do
    sed "s/@I@/$i/g; s/@J@/$((i+1))/g; s/@K@/$2/g" "$3"
    i=$((i+1))
  done
}

# ---- sortnet ---------------------------------------------------------------
# Comparators of Batcher's odd-even merge sort (Knuth 5.3.4 exercise 32 /
# the usual iterative form), one "lo hi" pair per line.
batcher() { # N (a power of two)
  awk -v n="$1" 'BEGIN {
    for (p = 1; p < n; p *= 2)
      for (k = p; k >= 1; k = int(k / 2))
        for (j = k % p; j <= n - 1 - k; j += 2 * k)
          for (i = 0; i <= k - 1 && i <= n - j - k - 1; i++)
            if (int((i + j) / (2 * p)) == int((i + j + k) / (2 * p)))
              print i + j, i + j + k
  }'
}
gen_sortnet() { # N [await]
  n=$1; mode=${2:-spin}
  printf 'name sortnet%s-%s\n' "$([ "$mode" = await ] && echo -await)" "$n"
  # values n..1 (reversed), st[w] = comparators done on wire w
  printf 'var a[%s] = {' "$n"
  i=0; while [ $i -lt "$n" ]; do [ $i -gt 0 ] && printf ', '; printf '%s' $((n-i)); i=$((i+1)); done
  printf '};\nvar st[%s];\n' "$n"
  batcher "$n" | awk -v mode="$mode" -v n="$n" -v KB="${SORTNET_BOUND:-2}" '
    function wait(w, m) {
      if (m == 0) return
      if (mode == "await") printf "  await(st[%d] == %d);\n", w, m
      else printf "  while (st[%d] != %d) bound %d { }\n", w, m, K
    }
    { lo[NR] = $1; hi[NR] = $2 }
    END {
      K = (KB != "" ? KB : NR + 1)
      for (c = 1; c <= NR; c++) {
        l = lo[c]; h = hi[c]
        printf "thread c%d {\n", c - 1
        wait(l, cnt[l]); wait(h, cnt[h])
        printf "  x = a[%d]; y = a[%d];\n", l, h
        printf "  if (x > y) { a[%d] = y; a[%d] = x; }\n", l, h
        printf "  st[%d] = %d; st[%d] = %d;\n}\n", l, cnt[l] + 1, h, cnt[h] + 1
        cnt[l]++; cnt[h]++
      }
      printf "thread check {\n"
      for (w = 0; w < n; w++) wait(w, cnt[w])
      for (w = 0; w + 1 < n; w++) printf "  u = a[%d]; v = a[%d]; assert(u <= v);\n", w, w + 1
      printf "}\n"
    }'
}

# ---- locks -----------------------------------------------------------------
gen_ttaslock() {
  n=$1; K=$(k "$n"); f=$tmpl
  printf 'name ttaslock-%s\nvar lock, c;\n' "$n"
  cat > "$f" <<'EOF'
thread t@I@ {
  r = 1;
  while (r != 0) bound @K@ {
    while (lock != 0) bound @K@ { }
    r = xchg(lock, 1);
  }
  v = c; c = v + 1;
  lock = 0;
}
EOF
  emit "$n" "$K" "$f"; printf 'forall (c = %s)\n' "$n"
}

gen_twalock() {
  n=$1; K=$(k "$n"); f=$tmpl
  printf 'name twalock-%s\nvar ticket, grant, wa[%s], c;\n' "$n" $((n+2))
  cat > "$f" <<'EOF'
thread t@I@ {
  t = faa(ticket, 1);
  g = grant;
  if (t - g > 1) {
    while (wa[t] == 0) bound @K@ { }      // long-term wait on our slot
  }
  while (grant != t) bound @K@ { }        // short-term wait
  v = c; c = v + 1;
  grant = t + 1;
  faa(wa[t + 2], 1);                      // wake the thread now next-but-one
}
EOF
  emit "$n" "$K" "$f"; printf 'forall (c = %s)\n' "$n"
}

gen_mutex() {
  n=$1; K=$(k "$n"); f=$tmpl
  printf 'name mutex-%s\nvar m, c;\n' "$n"
  cat > "$f" <<'EOF'
thread t@I@ {
  s = cas(m, 0, 1);                       // 0 free, 1 locked, 2 contended
  if (s != 0) {
    if (s != 2) { s = xchg(m, 2); }
    while (s != 0) bound @K@ {
      while (m == 2) bound @K@ { }        // futex_wait(m, 2)
      s = xchg(m, 2);
    }
  }
  v = c; c = v + 1;
  o = faa(m, -1);                         // unlock: atomic_dec
  if (o != 1) { m = 0; }                  // contended: reset (futex_wake)
}
EOF
  emit "$n" "$K" "$f"; printf 'forall (c = %s)\n' "$n"
}

gen_mutex_musl() {
  n=$1; K=$(k "$n"); f=$tmpl
  printf 'name mutex-musl-%s\nvar lk, waiters, c;\n' "$n"
  cat > "$f" <<'EOF'
thread t@I@ {
  r = cas(lk, 0, 1);
  while (r != 0) bound @K@ {
    faa(waiters, 1);                      // a_inc(&m->_m_waiters)
    r2 = cas(lk, 1, 2);                   // mark contended
    while (lk != 0) bound @K@ { }         // __timedwait
    faa(waiters, -1);                     // a_dec(&m->_m_waiters)
    r = cas(lk, 0, 1);
  }
  v = c; c = v + 1;
  o = xchg(lk, 0);                        // unlock: a_swap
  w = waiters;                            // wake decision (futex_wake)
}
EOF
  emit "$n" "$K" "$f"; printf 'forall (c = %s)\n' "$n"
}

gen_mcslock() {
  n=$1; K=$(k "$n"); f=$tmpl
  # node i is i+1 (0 = nil)
  printf 'name mcslock-%s\nvar tail, nxt[%s], locked[%s], c;\n' "$n" $((n+1)) $((n+1))
  cat > "$f" <<'EOF'
thread t@I@ {
  nxt[@J@] = 0; locked[@J@] = 1;
  p = xchg(tail, @J@);
  if (p != 0) {
    nxt[p] = @J@;
    while (locked[@J@] != 0) bound @K@ { }
  }
  v = c; c = v + 1;
  s = nxt[@J@];
  if (s == 0) {
    o = cas(tail, @J@, 0);
    if (o != @J@) {
      while (nxt[@J@] == 0) bound @K@ { }
      s = nxt[@J@];
    }
  }
  if (s != 0) { locked[s] = 0; }
}
EOF
  emit "$n" "$K" "$f"; printf 'forall (c = %s)\n' "$n"
}

gen_seqlock() {
  n=$1; K=$(k "$n"); f=$tmpl
  printf 'name seqlock-%s\nvar seq, d1, d2;\n' "$n"
  printf 'thread w {\n  s = seq; seq = s + 1; d1 = 1; d2 = 1; seq = s + 2;\n'
  printf '  s = seq; seq = s + 1; d1 = 2; d2 = 2; seq = s + 2;\n}\n'
  cat > "$f" <<'EOF'
thread r@I@ {
  ok = 0;
  while (ok == 0) bound @K@ {
    do { s1 = seq; } while ((s1 & 1) != 0) bound @K@;   // read_seqbegin
    a = d1; b = d2;
    s2 = seq;                                      // read_seqretry
    ok = s1 == s2;
  }
  assert(a == b);
}
EOF
  emit $((n-1)) "$K" "$f"
}

gen_rwlock() {
  n=$1; K=$(k "$n"); f=$tmpl; B=16
  printf 'name linuxrwlocks-%s\nvar lock = %s, d1, d2;\n' "$n" $B
  printf 'thread w {\n  p = faa(lock, -%s);\n  while (p != %s) bound %s {\n' $B $B "$K"
  printf '    faa(lock, %s);\n    while (lock != %s) bound %s { }\n    p = faa(lock, -%s);\n  }\n' $B $B "$K" $B
  printf '  d1 = 1; d2 = 1;\n  faa(lock, %s);\n}\n' $B
  cat > "$f" <<'EOF'
thread r@I@ {
  p = faa(lock, -1);
  while (p <= 0) bound @K@ {
    faa(lock, 1);
    while (lock <= 0) bound @K@ { }
    p = faa(lock, -1);
  }
  a = d1; b = d2;
  faa(lock, 1);
  assert(a == b);
}
EOF
  emit $((n-1)) "$K" "$f"
  printf 'forall (lock = %s)\n' $B
}

# ---- lock-free data structures ---------------------------------------------
gen_treiber() { # nodes 1..P (0 = nil); pusher i pushes node i+1 with value i+1
  n=$1; K=$(k "$n"); P=$((n/2)); C=$((n-P)); f=$tmpl
  printf 'name treiber-stack-%s\nvar top, nxt[%s], val[%s], taken[%s];\n' "$n" $((P+1)) $((P+1)) $((P+1))
  cat > "$f" <<'EOF'
thread push@I@ {
  val[@J@] = @J@;
  t = top; ok = 0;
  while (ok == 0) bound @K@ {
    nxt[@J@] = t;
    t, ok = cas(top, t, @J@);
  }
}
EOF
  emit "$P" "$K" "$f"
  cat > "$f" <<'EOF'
thread pop@I@ {
  ok = 0;
  while (ok == 0) bound @K@ {
    while (top == 0) bound @K@ { }        // empty: wait for a push
    t = top;
    if (t != 0) {
      nx = nxt[t];
      o, ok = cas(top, t, nx);
    }
  }
  v = val[t];
  assert(v == t);
  o = xchg(taken[t], 1);
  assert(o == 0);                         // no node is popped twice
}
EOF
  [ "$C" -gt "$P" ] && C=$P   # no more poppers than pushes (else they starve)
  emit "$C" "$K" "$f"
}

gen_msqueue() { # node 0 = dummy; enqueuer i uses node i+1 with value i+1
  n=$1; K=$(k "$n"); P=$((n/2)); C=$((n-P)); f=$tmpl
  printf 'name ms-queue-%s\nvar head, tail, nxt[%s], val[%s], taken[%s];\n' "$n" $((P+1)) $((P+1)) $((P+1))
  cat > "$f" <<'EOF'
thread enq@I@ {
  val[@J@] = @J@; nxt[@J@] = 0;
  done = 0;
  while (done == 0) bound @K@ {
    t = tail; nx = nxt[t]; t2 = tail;
    if (t == t2) {
      if (nx == 0) {
        o, done = cas(nxt[t], 0, @J@);
      } else {
        o = cas(tail, t, nx);             // help: swing tail
      }
    }
  }
  o = cas(tail, t, @J@);
}
EOF
  emit "$P" "$K" "$f"
  cat > "$f" <<'EOF'
thread deq@I@ {
  done = 0; v = -1;
  while (done == 0) bound @K@ {
    h = head; t = tail; nx = nxt[h]; h2 = head;
    if (h == h2) {
      if (h == t) {
        if (nx == 0) { done = 1; v = -1; } // empty
        else { o = cas(tail, t, nx); }
      } else {
        v = val[nx];
        o, done = cas(head, h, nx);
      }
    }
  }
  if (v != -1) {
    assert(v == nx);
    o = xchg(taken[v], 1);
    assert(o == 0);                       // no element dequeued twice
  }
}
EOF
  emit "$C" "$K" "$f"
}

gen_mpmc() { # queue of S=2 slots; rdwr packs rd*256 + wr
  n=$1; K=$(k "$n"); P=$((n/2)); C=$((n-P)); S=2; f=$tmpl
  printf 'name mpmc-queue-%s\nvar rdwr, mread, mwritten, arr[%s];\n' "$n" $S
  cat > "$f" <<'EOF'
thread prod@I@ {
  rw = rdwr; ok = 0; full = 0;
  while (ok == 0 && full == 0) bound @K@ {          // write_prepare
    rd = rw >> 8; wr = rw & 255;
    if (wr == rd + @S@) { full = 1; }
    else { rw, ok = cas(rdwr, rw, (rd << 8) | (wr + 1)); }
  }
  if (ok) {
    while (mread != rd) bound @K@ { }
    arr[wr % @S@] = @J@;
    faa(mwritten, 1);                               // write_publish
  }
}
EOF
  sed -i "s/@S@/$S/g" "$f"; emit "$P" "$K" "$f"
  cat > "$f" <<'EOF'
thread cons@I@ {
  rw = rdwr; ok = 0; empty = 0;
  while (ok == 0 && empty == 0) bound @K@ {         // read_fetch
    rd = rw >> 8; wr = rw & 255;
    if (wr == rd) { empty = 1; }
    else { rw, ok = cas(rdwr, rw, ((rd + 1) << 8) | wr); }
  }
  if (ok) {
    while (mwritten != wr) bound @K@ { }
    v = arr[rd % @S@];
    assert(v != 0);
    faa(mread, 1);                                  // read_consume
  }
}
EOF
  sed -i "s/@S@/$S/g" "$f"; emit "$C" "$K" "$f"
}

gen_safestack() { # digits: rounds per thread; 3 cells, head 0, next 1,2,-1
  spec=$1; f=$tmpl
  nth=${#spec}; K=$((nth+1))
  printf 'name safestack-%s\nvar head, count = 3, nxt[3] = {1, 2, -1}, value[3];\n' "$spec"
  i=0; rest=$spec
  while [ -n "$rest" ]; do
    r=${rest%"${rest#?}"}; rest=${rest#?}
    printf 'thread t%s {\n' $i
    j=0; while [ $j -lt "$r" ]; do
      sed "s/@I@/$i/g; s/@J@/$((i+1))/g; s/@K@/$K/g" <<'EOF'
  e = -1;                                  // pop
  while (e < 0) bound @K@ {
    while (count <= 1) bound @K@ { }
    h = head;
    nx = xchg(nxt[h], -1);
    if (nx >= 0) {
      o = cas(head, h, nx);
      if (o == h) { faa(count, -1); e = h; }
      else { o = xchg(nxt[h], nx); }
    }
  }
  value[e] = @J@;
  x = value[e];
  assert(x == @J@);
  h = head; ok = 0;                        // push(e)
  while (ok == 0) bound @K@ {
    nxt[e] = h;
    h, ok = cas(head, h, e);
  }
  faa(count, 1);
EOF
      j=$((j+1)); done
    printf '}\n'; i=$((i+1))
  done
}

[ $# -ge 2 ] || { echo "usage: godot-gen.sh FAMILY N (generator used by bench/godot.sh)"; exit 0; }
tmpl=${TMPDIR:-/tmp}/wmx-godot-tmpl.$$
trap 'rm -f "$tmpl"' EXIT
case $1 in
  sortnet) gen_sortnet "$2" ;;
  sortnet-await) gen_sortnet "$2" await ;;
  ttaslock) gen_ttaslock "$2" ;;
  twalock) gen_twalock "$2" ;;
  mutex) gen_mutex "$2" ;;
  mutex-musl) gen_mutex_musl "$2" ;;
  seqlock) gen_seqlock "$2" ;;
  mcslock) gen_mcslock "$2" ;;
  treiber) gen_treiber "$2" ;;
  msqueue) gen_msqueue "$2" ;;
  mpmc) gen_mpmc "$2" ;;
  rwlock) gen_rwlock "$2" ;;
  safestack) gen_safestack "$2" ;;
  *) echo "godot-gen.sh: unknown family '$1'" >&2; exit 2 ;;
esac

#!/bin/sh
# blocked.sh - where blocked traces stop: the text report lists each set of
# stopping places with its count and marks deadlocks with a trace into
# them; JSON's blocked_at says the same; every explorer finds the same sets,
# --jobs 2 the same counts and traces; and in the interactive explorer
# `until deadlock` replays one and says where the threads wait.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxtest-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# each thread waits for the other's flag: a deadlock on every path
cat > "$tmp/ab.wmx" <<'EOF'
name AB
var x, y;
thread P0 { await(y == 1); x = 1; }
thread P1 { await(x == 1); y = 1; }
EOF
# P1 goes on only if it saw x = 1; when it does not, P0 waits for ever
cat > "$tmp/mixed.wmx" <<'EOF'
name Mixed
var x, y;
thread P0 {
  x = 1;
  await(y == 1);
}
thread P1 {
  r = x;
  assume(r == 1);
  y = 1;
}
EOF

"$WMX" explore "$tmp/ab.wmx" --model sc > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 0 ] || bad "ab.wmx: exit $rc, want 0 (a deadlock is reported, not an error)"
grep -q '^  0 traces, 1 blocked' "$tmp/out" || bad "ab.wmx: counts: $(cat "$tmp/out")"
grep -q '^Blocked: 1 trace ends with threads that cannot go on:' "$tmp/out" || bad "ab.wmx: no Blocked section: $(cat "$tmp/out")"
grep -q '^  1 trace (deadlock):' "$tmp/out" || bad "ab.wmx: not marked a deadlock: $(cat "$tmp/out")"
grep -q "^    P0 waits forever at $tmp/ab.wmx:3:13: await(y == 1)" "$tmp/out" || bad "ab.wmx: P0's place: $(cat "$tmp/out")"
grep -q "^    P1 waits forever at $tmp/ab.wmx:4:13: await(x == 1)" "$tmp/out" || bad "ab.wmx: P1's place: $(cat "$tmp/out")"
grep -q '^    trace (a shortest one):' "$tmp/out" || bad "ab.wmx: no trace: $(cat "$tmp/out")"

# the mixed program: one set, not a deadlock, and no trace printed for it
"$WMX" explore "$tmp/mixed.wmx" --model sc > "$tmp/out" 2>&1
grep -q '^  1 trace:$' "$tmp/out" || bad "mixed.wmx: count line: $(cat "$tmp/out")"
grep -q "^    P0 waits forever at $tmp/mixed.wmx:5:3: await(y == 1)" "$tmp/out" || bad "mixed.wmx: P0: $(cat "$tmp/out")"
grep -q "^    P1 stops: assumption false at $tmp/mixed.wmx:9:3: assume(r == 1)" "$tmp/out" || bad "mixed.wmx: P1: $(cat "$tmp/out")"
grep -q 'trace (a shortest one)' "$tmp/out" && bad "mixed.wmx: a trace for a set that is not a deadlock: $(cat "$tmp/out")"

# seven sets of places: the first five are listed, the rest counted
cat > "$tmp/many.wmx" <<'EOF'
name Many
var x;
thread W { x = 1; }
thread A { r = x; assume(r == 1); }
thread B { r = x; assume(r == 1); }
thread C { r = x; assume(r == 1); }
EOF
"$WMX" explore "$tmp/many.wmx" --model sc > "$tmp/out" 2>&1
[ "$(grep -c '^  1 trace:$' "$tmp/out")" = 5 ] || bad "many.wmx: want 5 sets listed: $(cat "$tmp/out")"
grep -q '^  and 2 more traces that stop elsewhere (--json lists up to 16 sets of places)$' "$tmp/out" \
    || bad "many.wmx: the rest: $(cat "$tmp/out")"
[ "$("$WMX" explore "$tmp/many.wmx" --model sc --json | grep -o '"deadlock"' | wc -l)" = 7 ] \
    || bad "many.wmx: JSON lists 7 sets"

# a bounded loop that would go round again
"$WMX" explore "$root/examples/dekker.wmx" --model sc > "$tmp/out" 2>&1
grep -q 'P0 stops: loop bound reached at .*dekker.wmx:24:3: while (flag\[1\] == 1) bound 2' "$tmp/out" \
    || bad "dekker.wmx: the loop bound: $(cat "$tmp/out")"

# JSON: the same, by key
"$WMX" explore "$tmp/mixed.wmx" --model tso --json > "$tmp/j"
python3 - "$tmp/j" "$tmp/mixed.wmx" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
b = d["blocked_at"]
want = [{"thread": "P0", "reason": "waits", "at": sys.argv[2] + ":5:3", "instr": "await(y == 1)"},
        {"thread": "P1", "reason": "assume", "at": sys.argv[2] + ":9:3", "instr": "assume(r == 1)"}]
ok = (len(b) == 1 and b[0]["threads"] == want and b[0]["deadlock"] is False
      and b[0]["count"] == d["blocked"] == 1 and len(b[0]["trace"]) >= 2)
if not ok:
    print("FAIL: mixed.wmx --json blocked_at:", json.dumps(b))
sys.exit(0 if ok else 1)
EOF

# scripted mode: a deadlock in the initial state (a trace of no steps),
# found and then listed
printf 'until deadlock\nexplore\n' > "$tmp/s.wmxs"
"$WMX" --script "$tmp/s.wmxs" "$tmp/ab.wmx" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q '^reached a deadlock in 0 steps:' "$tmp/out" && grep -q '^    1       1 trace   \[x\]=0; \[y\]=0;  deadlock$' "$tmp/out" \
    && ! grep -q 'runtime error\|Sanitizer' "$tmp/out" || bad "ab.wmx --script: rc=$rc $(cat "$tmp/out")"

# every explorer stops at the same places; --jobs 2 gives the same list
for f in "$tmp/ab.wmx" "$tmp/mixed.wmx" "$root/examples/dekker.wmx" "$root/examples/spinlock.wmx"; do
    for model in sc tso pso; do
        algos="rfsmc rfstate stateful naive"
        [ "$model" = sc ] && algos="$algos odpor"
        for a in $algos; do
            "$WMX" explore "$f" --model $model --algo $a --json > "$tmp/$a.json" || true
        done
        for j in rfsmc naive; do
            "$WMX" explore "$f" --model $model --algo $j --jobs 2 --json > "$tmp/$j-2.json" || true
        done
        [ "$model" = sc ] && { "$WMX" explore "$f" --model sc --algo odpor --jobs 2 --json > "$tmp/odpor-2.json" || true; }
        python3 - "$tmp" "$model" "$f" <<'EOF' || fail=1
import json, os, sys
tmp, model, f = sys.argv[1:4]
def load(n):
    return json.load(open(os.path.join(tmp, n + ".json")))
algos = ["rfsmc", "rfstate", "stateful", "naive"] + (["odpor"] if model == "sc" else [])
sets = {a: [json.dumps(b["threads"]) for b in load(a)["blocked_at"]] for a in algos}
bad = [a for a in algos if sets[a] != sets["rfsmc"]]
c = lambda n: [b["count"] for b in load(n)["blocked_at"]]
if c("rfsmc") != c("rfstate"): bad.append("rfstate counts")
if sum(c("naive")) != load("naive")["blocked"]: bad.append("naive's counts add up")
if load("rfsmc-2")["blocked_at"] != load("rfsmc")["blocked_at"]: bad.append("rfsmc --jobs 2")
if load("naive-2")["blocked_at"] != load("naive")["blocked_at"]: bad.append("naive --jobs 2")
if model == "sc" and c("odpor-2") != c("odpor"): bad.append("odpor --jobs 2 counts")
if not sets["rfsmc"] and load("rfsmc")["blocked"]: bad.append("no sets listed")
if bad:
    print("FAIL: %s %s: %s differ" % (os.path.basename(f), model, ", ".join(bad)))
sys.exit(1 if bad else 0)
EOF
    done
done

# C: two mutexes taken in opposite orders
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
if "$WMX" explore "$tmp/empty.c" --json 2>&1 | grep -q 'C input not built'; then
    echo "blocked: C input not built - the C part skipped"
else
    cat > "$tmp/abba.c" <<'EOF'
#include <pthread.h>
pthread_mutex_t a, b;
int x;
void *t1(void *p) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); x = 1; pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return p; }
void *t2(void *p) { pthread_mutex_lock(&b); pthread_mutex_lock(&a); x = 2; pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return p; }
int main(void) { pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0); pthread_join(p, 0); pthread_join(q, 0); return 0; }
EOF
    (cd "$tmp" && "$WMX" explore abba.c --model sc --algo odpor) > "$tmp/out" 2>&1
    grep -q '^  1 trace (deadlock):' "$tmp/out" || bad "abba.c: $(cat "$tmp/out")"
    # of the statements on one line, each instruction shows its own
    grep -q '^    t1 waits forever at abba.c:4:45: pthread_mutex_lock(&b)$' "$tmp/out" || bad "abba.c: t1: $(cat "$tmp/out")"
    grep -q '^    t2 waits forever at abba.c:5:45: pthread_mutex_lock(&a)$' "$tmp/out" || bad "abba.c: t2: $(cat "$tmp/out")"
    grep -q '1  t1: pthread_mutex_lock(&a) ' "$tmp/out" || bad "abba.c: the trace: $(cat "$tmp/out")"
    # the tutorial's example, as doc/tutorial.md shows it (but the time)
    (cd "$root" && "$WMX" explore examples/deadlock.c --model sc) | sed 's/events, [0-9.]* s/events, T s/' > "$tmp/out" 2>&1
    sed -n '/^\$ wmx explore examples\/deadlock.c --model sc$/,/^```$/p' "$root/doc/tutorial.md" | sed '1d;$d' \
        | sed 's/events, [0-9.]* s/events, T s/' > "$tmp/want"
    [ -s "$tmp/want" ] && cmp -s "$tmp/out" "$tmp/want" || bad "examples/deadlock.c differs from doc/tutorial.md: $(diff "$tmp/want" "$tmp/out")"
    # a mutex-heavy program: the other orders of the critical sections are
    # reached directly (a lock takes another's release), no detour run
    cat > "$tmp/lk.c" <<'EOF'
#include <pthread.h>
pthread_mutex_t m;
int x;
void *t(void *p) { for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); } return p; }
int main(void) { pthread_t a[4]; for (int i = 0; i < 4; i++) pthread_create(&a[i], 0, t, 0); for (int i = 0; i < 4; i++) pthread_join(a[i], 0); return 0; }
EOF
    WMX_RFSMC_STATS=1 "$WMX" explore "$tmp/lk.c" --model sc --algo rfsmc > "$tmp/out" 2>&1
    grep -q '^  2520 traces, 0 blocked' "$tmp/out" && ! grep -q '^Note:' "$tmp/out" \
        && grep -q '^rfsmc: 2520 traces run, 0 of them no class' "$tmp/out" || bad "lk.c: $(cat "$tmp/out")"
    "$WMX" explore "$tmp/lk.c" --model sc --algo rfstate > "$tmp/out" 2>&1
    grep -q '^  2520 traces, 0 blocked' "$tmp/out" && ! grep -q '^Note:' "$tmp/out" || bad "lk.c rfstate: $(cat "$tmp/out")"
    # a trylock on the mutex writes back what it read (x86's LOCK CMPXCHG,
    # as Nidhugg orders failed trylocks): still a chain, no detour
    cat > "$tmp/lkt.c" <<'EOF'
#include <pthread.h>
pthread_mutex_t m;
int x;
void *t(void *p) { for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); } return p; }
int main(void) { pthread_t a[3]; for (int i = 0; i < 3; i++) pthread_create(&a[i], 0, t, 0); if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m); for (int i = 0; i < 3; i++) pthread_join(a[i], 0); return 0; }
EOF
    WMX_RFSMC_STATS=1 "$WMX" explore "$tmp/lkt.c" --model sc --algo rfsmc > "$tmp/out" 2>&1
    grep -q '^  1170 traces, 0 blocked' "$tmp/out" && ! grep -q '^Note:' "$tmp/out" \
        && grep -q '^rfsmc: 1170 traces run, 0 of them no class' "$tmp/out" || bad "lkt.c: $(cat "$tmp/out")"
    "$WMX" explore "$tmp/lkt.c" --model sc --algo rfstate > "$tmp/out" 2>&1
    grep -q '^  1170 traces, 0 blocked' "$tmp/out" || bad "lkt.c rfstate: $(cat "$tmp/out")"
    # a lock through a pointer read at run time (which mutex it names is
    # not known): no chain, so the locks fail, and the detour is pointed out
    cat > "$tmp/lks.c" <<'EOF'
#include <pthread.h>
#include <stdatomic.h>
pthread_mutex_t m1, m2;
pthread_mutex_t *_Atomic mp = &m1;
int x;
void *t(void *p) { for (int i = 0; i < 2; i++) { pthread_mutex_t *l = mp; pthread_mutex_lock(l); x++; pthread_mutex_unlock(l); } return p; }
void *s(void *p) { mp = &m2; return p; }
int main(void) { pthread_t a[4]; for (int i = 0; i < 3; i++) pthread_create(&a[i], 0, t, 0); pthread_create(&a[3], 0, s, 0); return 0; }
EOF
    "$WMX" explore "$tmp/lks.c" --model sc --algo rfsmc > "$tmp/out" 2>&1
    grep -q '^  4620 traces, 0 blocked' "$tmp/out" && grep -q '^Note: rfsmc ran [0-9]* traces that are no class' "$tmp/out" \
        && grep -q 'algo rfstate finds the same classes' "$tmp/out" || bad "lks.c: no hint: $(cat "$tmp/out")"
    "$WMX" explore "$tmp/lks.c" --model sc --algo rfstate > "$tmp/out" 2>&1
    grep -q '^  4620 traces, 0 blocked' "$tmp/out" || bad "lks.c rfstate: $(cat "$tmp/out")"
    "$WMX" explore "$tmp/abba.c" --model sc --algo rfsmc > "$tmp/out" 2>&1
    grep -q '^Note:' "$tmp/out" && bad "abba.c: a hint on a small program: $(cat "$tmp/out")"
    # a join waits at its own line, not at the statement after it (the
    # translator emits a join where the next shared access needs it)
    printf '#include <pthread.h>\npthread_mutex_t m;\nint x;\nvoid *w(void *a) { pthread_mutex_lock(&m); return 0; }\nint main(void) {\n  pthread_t t;\n  pthread_mutex_lock(&m);\n  pthread_create(&t, 0, w, 0);\n  pthread_join(t, 0);\n  x = 1;\n  return 0;\n}\n' > "$tmp/join.c"
    "$WMX" explore "$tmp/join.c" --model sc > "$tmp/out" 2>&1
    grep -q '^    main waits forever at .*join.c:9:3: pthread_join(w)$' "$tmp/out" || bad "join.c: the join's line: $(cat "$tmp/out")"
    # a spin loop that would go round again, and a loop --unroll cuts: said
    # in words, not by the front end's placeholder text
    "$WMX" explore "$root/tests/c/spinlock.c" --model tso --no-plp > "$tmp/out" 2>&1
    # (P1's wait for `done` is an await: it waits, it is not cut)
    grep -q '^    P1 waits forever at .*spinlock.c:33:12: while' "$tmp/out" || bad "spinlock.c: await: $(cat "$tmp/out")"
    grep -q 'spin loop would go round again' "$tmp/out" && bad "spinlock.c: a spin-assume left: $(cat "$tmp/out")"
    grep -q '^    P1 stops: loop bound reached at .*spinlock.c:28:5$' "$tmp/out" || bad "spinlock.c: bound: $(cat "$tmp/out")"
    # a spin loop whose exit test is no comparison of the value read stays
    # a spin-assume, said in words, and transform says why
    printf '#include <pthread.h>\n#include <stdatomic.h>\natomic_int f;\nvoid *W(void *a) { atomic_store(&f, 2); atomic_store(&f, 1); return 0; }\nint main(void) {\n  pthread_t t; pthread_create(&t, 0, W, 0);\n  while ((atomic_load(&f) & 1) == 0)\n    ;\n  return 0;\n}\n' > "$tmp/odd.c"
    "$WMX" explore "$tmp/odd.c" --model sc > "$tmp/out" 2>&1
    grep -q '^    main stops: spin loop would go round again at .*odd.c:7:3$' "$tmp/out" || bad "odd.c: spin: $(cat "$tmp/out")"
    "$WMX" transform "$tmp/odd.c" > "$tmp/out" 2>&1
    grep -q 'not an await: its exit test is not a comparison of the value read' "$tmp/out" || bad "odd.c: transform: $(cat "$tmp/out")"
fi

# the interactive explorer: `until deadlock` replays one
if command -v tmux >/dev/null 2>&1; then
    . "$root/tests/tui/lib.sh"
    size=100x30
    mkdir -p "$tmp/home"
    tmux -L "$sock" new-session -d -x 100 -y 30 \
        "cd '$tmp' && env HOME='$tmp/home' LC_ALL=C '$WMX' mixed.wmx; echo WMX-EXIT=\$?; sleep 600"
    session() {
        wait_for '^wmx>' || return
        text 'until deadlock'; keys Enter
        wait_for 'no execution reaches a deadlock under tso' || return
        text 'until blocked'; keys Enter
        wait_for 'reached a blocked execution in' || return
        wait_for 'P0 waits forever at mixed.wmx:5:3: await(y == 1)' || return
        wait_for 'P1 stops: assumption false at mixed.wmx:9:3' || return
        text 'load ab.wmx'; keys Enter
        wait_for 'loaded AB' || return
        text 'until deadlock'; keys Enter
        wait_for 'reached a deadlock in 0 steps' || return
        wait_for 'P1 waits forever at ab.wmx:4:13' || return
        # the executions list marks it a deadlock
        text 'explore'; keys Enter
        wait_for '1 trace   deadlock' || return
        text 'quit'; keys Enter
        wait_for 'WMX-EXIT=0' || return
    }
    session
else
    echo "blocked: tmux is not installed - the interactive part skipped"
fi

[ $fail -eq 0 ] && echo "blocked: ok (text, JSON, every explorer, --jobs 2, C, until deadlock)"
exit $fail

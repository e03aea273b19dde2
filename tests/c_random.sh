#!/bin/sh
# c_random.sh - differential test of the C front end: random programs written
# twice, in .wmx and in C (relaxed atomics, so both mean the same accesses),
# must give the same set of final states under SC, TSO and PSO.  The C twin
# stores each register into a global THREAD_REG at the end of its thread.
# Statements: stores, loads, fetch-and-add, fences, arithmetic, if/else on a
# loaded value, an inlined call with two returns, and bounded loops on a
# loaded value (.wmx `bound N` against
# C's --unroll N).  WMX_C_RANDOM (default 30) programs; seed fixed.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
. "$(cd "$(dirname "$0")" && pwd)/lib/c_twins.sh"
c_input_or_skip c_random
nprog=${WMX_C_RANDOM:-30}
case "${WMX_BUILD:-}" in *asan*) nprog=${WMX_C_RANDOM:-10} ;; esac
BOUND=2

seed=11
pick_var() { rnd 3; case $R in 0) V=x ;; 1) V=y ;; *) V=z ;; esac; }
pick_reg() { rnd 3; G=r$R; }

# stmt DEPTH: appends one statement to $W (.wmx) and $C (C)
stmt() {
    rnd 10
    case $R in
    8)   # compare-and-swap: the old value, through C's `expected` local
         pick_var; pick_reg; rnd 3; e=$R; rnd 3; nv=$((R + 1))
         W="$W $G = cas($V, $e, $nv);"
         C="$C { int e = $e; atomic_compare_exchange_strong_explicit(&$V, &e, $nv, memory_order_relaxed, memory_order_relaxed); $G = e; }" ;;
    9)   # an array cell chosen by a register
         pick_reg; a=$G; pick_reg
         rnd 2
         if [ "$R" = 0 ]; then W="$W $G = a[$a & 1];"; C="$C $G = atomic_load_explicit(&a[$a & 1], memory_order_relaxed);"
         else rnd 3; W="$W a[$a & 1] = $((R + 1));"; C="$C atomic_store_explicit(&a[$a & 1], $((R + 1)), memory_order_relaxed);"; fi ;;
    7)   # an inlined call with two returns, against the same if/else in .wmx
         pick_reg; a=$G; pick_reg
         W="$W if ($a == 1) { $G = 2; } else { $G = $a + 1; }"; C="$C $G = f($a);" ;;
    0|1) pick_var; rnd 3; k=$((R + 1))
         W="$W $V = $k;"; C="$C atomic_store_explicit(&$V, $k, memory_order_relaxed);" ;;
    2)   pick_var; pick_reg
         W="$W $G = $V;"; C="$C $G = atomic_load_explicit(&$V, memory_order_relaxed);" ;;
    3)   pick_var; pick_reg; rnd 2; k=$((R + 1))
         W="$W $G = faa($V, $k);"; C="$C $G = atomic_fetch_add_explicit(&$V, $k, memory_order_relaxed);" ;;
    4)   rnd 2
         if [ "$R" = 0 ]; then W="$W fence;"; C="$C atomic_thread_fence(memory_order_seq_cst);"
         else pick_reg; a=$G; pick_reg; rnd 3; W="$W $G = $a + $R;"; C="$C $G = $a + $R;"; fi ;;
    5)   if [ "$1" -lt 1 ]; then
             pick_reg; a=$G; rnd 3; k=$R
             W0=$W; C0=$C; W=""; C=""; stmt 1; stmt 1; Wt=$W; Ct=$C; W=""; C=""; stmt 1; We=$W; Ce=$C
             W="$W0 if ($a == $k) {$Wt } else {$We }"
             C="$C0 if ($a == $k) {$Ct } else {$Ce }"
         else
             pick_var; pick_reg; W="$W $G = $V;"; C="$C $G = atomic_load_explicit(&$V, memory_order_relaxed);"
         fi ;;
    *)   if [ "$1" -lt 1 ]; then
             pick_reg; a=$G; pick_var; rnd 3; k=$R
             # the loop counts (r9) so that it is no spin loop in C either
             W="$W while ($a != $k) bound $BOUND { $a = $V; r9 = r9 + 1; }"
             C="$C while ($a != $k) { $a = atomic_load_explicit(&$V, memory_order_relaxed); r9 = r9 + 1; }"
         else
             pick_var; rnd 3; W="$W $V = $R;"; C="$C atomic_store_explicit(&$V, $R, memory_order_relaxed);"
         fi ;;
    esac
}

gen() { # writes $tmp/p.wmx and $tmp/p.c
    rnd 2; nt=$((R + 2))
    { echo "var x, y, z, a[2];"; } > "$tmp/p.wmx"
    { echo "#include <pthread.h>"; echo "#include <stdatomic.h>"; echo "atomic_int x, y, z, a[2];"
      echo "static long f(long a) { if (a == 1) return 2; return a + 1; }"; } > "$tmp/p.c"
    t=0; names=""
    while [ $t -lt $nt ]; do
        W=" r0 = 0; r1 = 0; r2 = 0; r9 = 0;"; C=" long r0 = 0, r1 = 0, r2 = 0, r9 = 0;"
        rnd 3; ns=$((R + 2)); s=0
        while [ $s -lt $ns ]; do stmt 0; s=$((s + 1)); done
        echo "thread P$t {$W }" >> "$tmp/p.wmx"
        echo "long P${t}_r0, P${t}_r1, P${t}_r2, P${t}_r9;" >> "$tmp/p.c"
        echo "void *P$t(void *arg) {$C P${t}_r0 = r0; P${t}_r1 = r1; P${t}_r2 = r2; P${t}_r9 = r9; return 0; }" >> "$tmp/p.c"
        names="$names P$t"
        t=$((t + 1))
    done
    c_main $nt $names
}

# one line per final state, keys sorted; .wmx "P0:r1" read as "P0_r1"
states() {
    awk -v mode="$2" '
    function flush(    i, j, t, line) {
        for (i = 2; i <= np; i++) { t = pair[i]; for (j = i - 1; j >= 1 && pair[j] > t; j--) pair[j + 1] = pair[j]; pair[j + 1] = t }
        line = ""; for (i = 1; i <= np; i++) line = line (i > 1 ? " " : "") pair[i]
        print line
    }
    NR == 1 {
        p = index($0, "\"states\": ["); if (!p) { print "NOSTATES"; exit }
        s = substr($0, p + 11); len = length(s); inobj = 0
        for (i = 1; i <= len; i++) {
            c = substr(s, i, 1)
            if (!inobj) { if (c == "]") break; if (c == "{") { inobj = 1; np = 0 } continue }
            if (c == "}") { flush(); inobj = 0; continue }
            if (c != "\"") continue
            j = index(substr(s, i + 1), "\""); key = substr(s, i + 1, j - 1); i += j + 1
            while (substr(s, i + 1, 1) == " ") i++
            v = ""; while (substr(s, i + 1, 1) ~ /[-0-9]/) { v = v substr(s, i + 1, 1); i++ }
            if (mode == "wmx") sub(/:/, "_", key)
            pair[++np] = key "=" v
        }
    }' "$1" | sort -u
}

n=0 runs=0
while [ $n -lt "$nprog" ]; do
    gen
    for m in sc tso pso; do
        "$WMX" explore "$tmp/p.wmx" --model $m --json > "$tmp/w.json" 2> "$tmp/w.err"
        "$WMX" explore "$tmp/p.c" --unroll $BOUND --model $m --json > "$tmp/c.json" 2> "$tmp/c.err"
        states "$tmp/w.json" wmx > "$tmp/w.st"
        states "$tmp/c.json" c > "$tmp/c.st"
        if ! grep -q '"complete": true' "$tmp/c.json" || ! cmp -s "$tmp/w.st" "$tmp/c.st"; then
            bad "program $n under $m: .wmx and C final states differ"
            echo "--- .wmx:"; cat "$tmp/p.wmx"; echo "--- C:"; cat "$tmp/p.c"
            echo "--- only in .wmx:"; comm -23 "$tmp/w.st" "$tmp/c.st" | head -5
            echo "--- only in C:"; comm -13 "$tmp/w.st" "$tmp/c.st" | head -5
            head -c 300 "$tmp/c.err"
            break 2
        fi
        runs=$((runs + 1))
    done
    n=$((n + 1))
done
[ "$fail" = 0 ] && echo "c_random: $n random programs, $runs .wmx/C comparisons under sc, tso and pso agree"
exit $fail

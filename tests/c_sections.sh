#!/bin/sh
# c_sections.sh - differential test of SV-COMP's atomic sections in C
# (__VERIFIER_atomic_begin/end): random programs whose threads mix sections
# of one to three accesses with plain accesses, over three variables.  A
# section takes the locks of the classes of variables it touches, and a plain
# access to a variable a section touches takes its class's lock (core/cfront.c,
# split_section_locks).  The oracle is the same program with one lock for
# every class (WMX_TEST_ONE_SECTION_LOCK=1: SV-COMP's rule read literally, no
# other thread steps inside a section) explored by the stateful explorer: under
# SC, rfsmc, odpor and stateful must give its final states; under TSO and PSO,
# rfsmc and stateful must agree.  WMX_C_SECTIONS (default 24) programs.
set -u
WMX=${WMX:-$(pwd)/wmx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
. "$(cd "$(dirname "$0")" && pwd)/lib/c_twins.sh"
c_input_or_skip c_sections
nprog=${WMX_C_SECTIONS:-24}
case "${WMX_BUILD:-}" in *asan*) nprog=${WMX_C_SECTIONS:-8} ;; esac
export WMX_CACHE=off
seed=5
pick_var() { rnd 3; case $R in 0) V=x ;; 1) V=y ;; *) V=z ;; esac; }

# op: one access, appended to $B
op() {
    pick_var
    rnd 4
    case $R in
    0) B="$B r = $V;" ;;
    1) rnd 3; B="$B $V = $((R + 1));" ;;
    2) B="$B $V = r + 1;" ;;
    *) B="$B s = s * 4 + $V;" ;;
    esac
}

prog=0
runs=0
while [ $prog -lt $nprog ]; do
    prog=$((prog + 1))
    rnd 2; nt=$((R + 2))
    {
        echo '#include <pthread.h>'
        echo 'void __VERIFIER_atomic_begin(void);'
        echo 'void __VERIFIER_atomic_end(void);'
        echo 'int x, y, z, out0, out1, out2;'
    } > "$tmp/p.c"
    names=
    t=0
    while [ $t -lt $nt ]; do
        B=
        rnd 3; nops=$((R + 1))
        k=0
        while [ $k -lt $nops ]; do
            rnd 3
            if [ $R = 0 ]; then
                op
            else
                B="$B __VERIFIER_atomic_begin();"
                rnd 2; n=$((R + 1)); j=0
                while [ $j -lt $n ]; do op; j=$((j + 1)); done
                B="$B __VERIFIER_atomic_end();"
            fi
            k=$((k + 1))
        done
        echo "void *t$t(void *a) { int r = 0, s = 0; $B out$t = s * 16 + r; return 0; }" >> "$tmp/p.c"
        names="$names t$t"
        t=$((t + 1))
    done
    c_main $nt $names
    WMX_TEST_ONE_SECTION_LOCK=1 "$WMX" explore "$tmp/p.c" --model sc --algo stateful --json > "$tmp/oracle" 2> "$tmp/e" \
        || { bad "program $prog: the oracle run failed: $(head -c 300 "$tmp/e")"; cp "$tmp/p.c" "/tmp/c_sections_fail_$prog.c"; continue; }
    want=$(twin_states "$tmp/oracle")
    [ -n "$want" ] || bad "program $prog: no final states in the oracle's output"
    for m in sc tso pso; do
        algos="rfsmc stateful"
        [ $m = sc ] && algos="rfsmc odpor stateful"
        for al in $algos; do
            runs=$((runs + 1))
            "$WMX" explore "$tmp/p.c" --model $m --algo $al --json > "$tmp/o" 2> "$tmp/e"
            got=$(twin_states "$tmp/o")
            if [ $m = sc ]; then
                ref=$want
            else
                [ $al = rfsmc ] && ref=$got
            fi
            if [ "$got" != "$ref" ]; then
                bad "program $prog, $m, $al: final states differ ($(echo "$got" | head -c 200) against $(echo "$ref" | head -c 200)); kept in /tmp/c_sections_fail_$prog.c"
                cp "$tmp/p.c" "/tmp/c_sections_fail_$prog.c"
            fi
        done
    done
done
[ $fail = 0 ] && echo "c_sections: $nprog random programs with atomic sections, $runs runs: the final states of one lock (stateful, SC) under every algorithm, and rfsmc = stateful under TSO and PSO"
exit $fail

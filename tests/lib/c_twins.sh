# c_twins.sh - sourced by the C front end's random differential tests
# (c_random.sh, c_plp.sh, c_spin.sh); not a test itself.  Expects $WMX,
# $tmp (holding the program in $tmp/p.c) and bad().

# c_input_or_skip NAME: exits 0 with a message when wmx has no C input
c_input_or_skip() {
    printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
    if "$WMX" explore "$tmp/empty.c" --json 2>&1 | grep -q 'C input not built'; then
        echo "$1: skipped: C input not built"; exit 0
    fi
}

# rnd N: R = the next number in [0, N) of the generator seeded by $seed
rnd() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); R=$(( seed / 65536 % $1 )); }

# c_main NT NAMES: appends a main that creates the threads NAMES (NT of
# them) and joins them to $tmp/p.c
c_main() {
    nt_=$1; shift
    {
        echo "int main(void) {"
        echo "  pthread_t t[$nt_];"
        k_=0; for f_ in "$@"; do echo "  pthread_create(&t[$k_], 0, $f_, 0);"; k_=$((k_ + 1)); done
        echo "  for (int i = 0; i < $nt_; i++) pthread_join(t[i], 0);"
        echo "  return 0;"
        echo "}"
    } >> "$tmp/p.c"
}

twin_states() { sed -n 's/.*"states": \(\[[^]]*\]\).*/\1/p' "$1"; }
twin_counts() { sed -n 's/.*"traces": \([0-9]*\), "blocked": \([0-9]*\),.*/\1 \2/p' "$1"; }

# same_states_with OPTION NAME N WHAT: explores $tmp/p.c (program N) at
# --unroll 3 under SC, TSO and PSO with rfsmc, as it is (plus $TWIN_BASE) and with OPTION;
# the final states and exit codes must be equal (else the program is kept
# in /tmp/NAME_fail_N.c and WHAT says how the runs differ).  Adds the
# complete executions to plain and optioned, the runs to runs.
same_states_with() {
    for m_ in sc tso pso; do
        "$WMX" explore "$tmp/p.c" --unroll 3 ${TWIN_BASE:-} --model $m_ --algo rfsmc --json > "$tmp/a" 2> "$tmp/e"; ra_=$?
        "$WMX" explore "$tmp/p.c" --unroll 3 $1 --model $m_ --algo rfsmc --json > "$tmp/b" 2>> "$tmp/e"; rb_=$?
        # exit 3 for a run whose every execution was cut (no complete one,
        # nothing checked) stands for the same states as an exit 0
        [ "$ra_" = 3 ] && grep -q '"traces": 0,' "$tmp/a" && ra_=0
        [ "$rb_" = 3 ] && grep -q '"traces": 0,' "$tmp/b" && rb_=0
        sa_=$(twin_states "$tmp/a"); sb_=$(twin_states "$tmp/b")
        if [ "$ra_" != "$rb_" ] || [ -z "$sa_" ] || [ "$sa_" != "$sb_" ]; then
            cp "$tmp/p.c" "/tmp/$2_fail_$3.c"
            bad "program $3 ($m_): rc $ra_/$rb_, states differ $4 (kept in /tmp/$2_fail_$3.c): $(head -c 300 "$tmp/e")"
        fi
        ca_=$(twin_counts "$tmp/a" | cut -d' ' -f1); cb_=$(twin_counts "$tmp/b" | cut -d' ' -f1)
        plain=$((plain + ${ca_:-0})); optioned=$((optioned + ${cb_:-0}))
        runs=$((runs + 1))
    done
}

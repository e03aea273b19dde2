#!/bin/sh
# c_input.sh - `wmx explore prog.c` (the C front end) against the rest of wmx:
#  1. every examples/NAME.wmx that has a C twin tests/c/NAME.c: on sc, tso
#     and pso the two give the same set of final states (the .wmx keys
#     renamed P0:r0 -> P0_r0, the C states cut down to those keys, since C
#     shows all its globals) and both report an assertion violation or
#     neither does;
#  2. every x86 litmus test of the shared corpus that tests/c/litmus2c.sh
#     translates: on sc and tso, the C program's assertion fails exactly when
#     the litmus run says the condition's state is reachable (exists,
#     ~exists: "positive" > 0) or that some state breaks it (forall:
#     "negative" > 0).  Tests that litmus2c.sh refuses (exit 3) are counted
#     and skipped; identical translations are explored once per model.
# Skips (exit 0) when wmx was built without C input.
# Knobs: C_INPUT_JOBS (C runs at a time, default 2), C_INPUT_LITMUS_MODELS
# (default "sc tso").
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$WMX" explore "$root/tests/c/sb.c" --model sc --json > "$tmp/out" 2> "$tmp/err"
if grep -q 'C input not built' "$tmp/out" "$tmp/err"; then
    echo "c_input: skipped: C input not built"
    exit 0
fi

# states FILE MODE [KEYS]: the "states" array of the one-line JSON in FILE,
# one state a line as its key=value pairs sorted by key ({} for a state with
# none left).  MODE wmx renames thread:reg to thread_reg; MODE c keeps only
# the keys in the space-separated list KEYS.  Prints NOSTATES if the JSON
# has no states array.
states() {
    awk -v mode="$2" -v keys="${3:-}" '
    BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) keep[k[i]] = 1 }
    function flush(    i, j, t, line) {
        for (i = 2; i <= np; i++) {          # insertion sort by key
            t = pair[i]
            for (j = i - 1; j >= 1 && pair[j] > t; j--) pair[j + 1] = pair[j]
            pair[j + 1] = t
        }
        line = ""
        for (i = 1; i <= np; i++) line = line (i > 1 ? " " : "") pair[i]
        print (line == "" ? "{}" : line)
    }
    NR == 1 {
        p = index($0, "\"states\": [")
        if (!p) { print "NOSTATES"; exit }
        s = substr($0, p + 11)
        len = length(s); inobj = 0
        for (i = 1; i <= len; i++) {
            c = substr(s, i, 1)
            if (!inobj) {
                if (c == "]") break
                if (c == "{") { inobj = 1; np = 0 }
                continue
            }
            if (c == "}") { flush(); inobj = 0; continue }
            if (c != "\"") continue
            j = index(substr(s, i + 1), "\"")
            key = substr(s, i + 1, j - 1)
            i += j + 1                        # at the colon
            while (substr(s, i + 1, 1) == " ") i++
            v = ""
            while (substr(s, i + 1, 1) ~ /[-0-9]/) { v = v substr(s, i + 1, 1); i++ }
            if (mode == "wmx") sub(/:/, "_", key)
            if (mode == "c" && !(key in keep)) continue
            pair[++np] = key "=" v
        }
    }' "$1"
}
# verdict FILE RC: "fails" (an assertion violation), "holds" or "?"
verdict() {
    if grep -q '"errors": \[\]' "$1"; then
        [ "$2" = 0 ] && echo holds || echo "? (no error listed, exit $2)"
    elif grep -q '"errors": \[{' "$1"; then
        [ "$2" = 1 ] && echo fails || echo "? (an error listed, exit $2)"
    else
        echo "? (no errors key, exit $2)"
    fi
}
complete() { grep -q '"complete": true' "$1"; }

# The C runs dominate (clang per run), so they go JOBS at a time
# (C_INPUT_JOBS, default 2) into $tmp/run/ID.json and ID.rc.
jobs=${C_INPUT_JOBS:-2}
# The sanitizer build's LeakSanitizer sometimes crashes at exit ("Tracer
# caught signal 11") scanning a process that has dlopen()ed libLLVM, so
# these many C runs go without the leak check; tests/c_families.sh keeps it
# for the C front end.
case "${WMX_BUILD:-}" in *asan*)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; export ASAN_OPTIONS ;;
esac
mkdir "$tmp/run"
nq=0
queue() {    # queue ID FILE ARGS...: start `wmx explore FILE ARGS --json`
    id=$1; shift
    { "$WMX" explore "$@" --json > "$tmp/run/$id.json" 2> "$tmp/run/$id.err"; echo $? > "$tmp/run/$id.rc"; } &
    nq=$((nq + 1))
    if [ "$nq" -ge "$jobs" ]; then wait; nq=0; fi
}

# 1. the examples and their C twins
ntwins=0 missing="" twins=""
for w in "$root"/examples/*.wmx; do
    name=$(basename "$w" .wmx)
    c="$root/tests/c/$name.c"
    [ -f "$c" ] || { missing="$missing $name"; continue; }
    ntwins=$((ntwins + 1))
    twins="$twins $name"
    unroll=$(sed -n 's|^// unroll: *\([0-9][0-9]*\).*|\1|p' "$c" | head -1)
    for m in sc tso pso; do
        queue "ex-$name-$m" "$c" --model $m ${unroll:+--unroll "$unroll"}
    done
done
wait; nq=0
ncmp=0
for name in $twins; do
    w="$root/examples/$name.wmx"
    unroll=$(sed -n 's|^// unroll: *\([0-9][0-9]*\).*|\1|p' "$root/tests/c/$name.c" | head -1)
    for m in sc tso pso; do
        "$WMX" explore "$w" --model $m --json > "$tmp/w.json" 2> "$tmp/w.err"
        wrc=$?
        cj="$tmp/run/ex-$name-$m.json"
        crc=$(cat "$tmp/run/ex-$name-$m.rc")
        if ! complete "$tmp/w.json"; then
            bad "$name.wmx $m: rc $wrc, not complete: $(head -c 300 "$tmp/w.json" "$tmp/w.err")"
            continue
        fi
        if ! complete "$cj"; then
            bad "tests/c/$name.c $m${unroll:+ --unroll $unroll}: rc $crc, no complete result: $(head -c 300 "$cj") $(head -5 "$tmp/run/ex-$name-$m.err")"
            continue
        fi
        states "$tmp/w.json" wmx | sort -u > "$tmp/w.states"
        keys=$(tr ' ' '\n' < "$tmp/w.states" | sed -n 's/=.*//p' | sort -u | tr '\n' ' ')
        states "$cj" c "$keys" | sort -u > "$tmp/c.states"
        if ! cmp -s "$tmp/w.states" "$tmp/c.states"; then
            bad "$name $m: final states differ (< .wmx, > C, keys: $keys):
$(diff "$tmp/w.states" "$tmp/c.states" | grep '^[<>]')"
        fi
        wv=$(verdict "$tmp/w.json" $wrc)
        cv=$(verdict "$cj" $crc)
        [ "$wv" != "?" ] && [ "$wv" = "$cv" ] ||
            bad "$name $m: assertions: .wmx $wv (rc $wrc), C $cv (rc $crc)"
        ncmp=$((ncmp + 1))
    done
done
[ "$ntwins" -gt 0 ] || bad "no example has a C twin in tests/c/"
[ -z "$missing" ] || echo "c_input: note: no C twin for:$missing"

# 2. the x86 litmus tests, translated by litmus2c.sh; identical translations
# (the corpus holds copies) are explored once per model
lit="$root/../shared/litmus"
lmodels=${C_INPUT_LITMUS_MODELS:-sc tso}    # e.g. C_INPUT_LITMUS_MODELS=tso halves the C runs
# the sanitizer build is several times slower: TSO alone (SC is the easy half)
case "${WMX_BUILD:-}" in *asan*) lmodels=${C_INPUT_LITMUS_MODELS:-tso} ;; esac
nlit=0 nuns=0 nrun=0 ntests=0
if [ -d "$lit/x86" ]; then
    mkdir "$tmp/prog"
    find "$lit/x86" -name '*.litmus' | sort > "$tmp/list"
    : > "$tmp/pairs"
    while read -r f; do
        ntests=$((ntests + 1))
        sh "$root/tests/c/litmus2c.sh" "$f" > "$tmp/t.c" 2> "$tmp/l2c.err"
        rc=$?
        if [ "$rc" = 3 ]; then
            nuns=$((nuns + 1))
            continue
        elif [ "$rc" != 0 ]; then
            bad "litmus2c.sh ${f#"$lit"/}: exit $rc: $(cat "$tmp/l2c.err")"
            continue
        fi
        sum=$(grep -v '^//' "$tmp/t.c" | cksum | tr ' ' _)
        echo "$sum $f" >> "$tmp/pairs"
        if [ ! -f "$tmp/prog/$sum.c" ]; then
            mv "$tmp/t.c" "$tmp/prog/$sum.c"
            for m in $lmodels; do
                queue "lit-$sum-$m" "$tmp/prog/$sum.c" --model $m --timeout 30
                nrun=$((nrun + 1))
            done
        fi
    done < "$tmp/list"
    wait; nq=0
    while read -r sum f; do
        t=${f#"$lit"/}
        for m in $lmodels; do
            "$WMX" explore "$f" --model $m --json --timeout 10 > "$tmp/l.json" 2> "$tmp/l.err"
            lrc=$?
            if ! complete "$tmp/l.json"; then
                bad "$t $m: litmus run rc $lrc, not complete: $(head -c 300 "$tmp/l.json" "$tmp/l.err")"
                continue
            fi
            pos=$(sed -n 's/.*"positive": \([0-9]*\).*/\1/p' "$tmp/l.json")
            neg=$(sed -n 's/.*"negative": \([0-9]*\).*/\1/p' "$tmp/l.json")
            case $(sed -n 's/.*"condition": "\([~a-z]*\).*/\1/p' "$tmp/l.json") in
                exists|~exists) want=$([ "${pos:-0}" -gt 0 ] && echo fails || echo holds) ;;
                forall) want=$([ "${neg:-0}" -gt 0 ] && echo fails || echo holds) ;;
                *) bad "$t $m: no condition in the litmus run: $(head -c 300 "$tmp/l.json")"; continue ;;
            esac
            cj="$tmp/run/lit-$sum-$m.json"
            crc=$(cat "$tmp/run/lit-$sum-$m.rc")
            if complete "$cj"; then
                got=$(verdict "$cj" "$crc")
                case "$got" in "?"*) got="$got: $(head -3 "$tmp/run/lit-$sum-$m.err")" ;; esac
            else
                got="no complete result (rc $crc): $(head -c 200 "$cj") $(head -3 "$tmp/run/lit-$sum-$m.err")"
            fi
            [ "$got" = "$want" ] ||
                bad "$t $m: litmus says the C assertion $want (positive ${pos:-?}, negative ${neg:-?}), C run (tests/c/litmus2c.sh $t): $got"
            nlit=$((nlit + 1))
        done
    done < "$tmp/pairs"
    [ "$nlit" -gt 0 ] || bad "no litmus test was translated and compared"
else
    echo "c_input: litmus corpus not found at $lit: litmus comparisons skipped"
fi

[ "$fail" = 0 ] && echo "c_input: $ncmp example/model comparisons ($ntwins C twins), $nlit litmus/model comparisons ($ntests tests, $nuns not translatable, $nrun C runs) passed"
exit $fail

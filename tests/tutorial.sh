#!/bin/sh
# tutorial.sh - doc/tutorial.md against what wmx prints (issue 44, point 9).
# tests/tui/tutorial.wmxs holds the tutorial's REPL commands in its order,
# with the save-screen lines its screens were captured with; the test runs
# it as a script at 80x24 (C.UTF-8) in a scratch folder (a copy of
# examples/ in it) and then checks the document:
#  - every fenced block is checked, in order, by the table below (a new
#    block without a check fails): a screen equals its save-screen file; a
#    transcript's lines appear in the script's output, in order ("..." skips);
#    "$ CMD" lines are run and their output compared (times masked); the
#    saved trace equals the quoted file;
#  - every `wmx> CMD` of an indented block is a command of the script, and
#    the output lines beside it appear in the script's output;
#  - the counts the prose quotes (`explore --algo naive`: 6 under SC, 80
#    under TSO) and the --outcome question's exit code.
# The C parts (examples/deadlock.c) are skipped when the C front end is not
# built in.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd -P)
doc="$root/doc/tutorial.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
mask() { sed -e 's/[0-9][0-9]*\.[0-9][0-9]* s\b/T s/g' -e 's/ *$//'; }

cd "$tmp" || exit 1
cp -R "$root/examples" examples    # a copy: `save` names it relative to the trace
export HOME="$tmp" LC_ALL=C.UTF-8 COLUMNS=80 LINES=24
# the script without its comment, as "Scripted mode" shows it (sb.wmxs)
grep -v '^#' "$root/tests/tui/tutorial.wmxs" > sb.wmxs
"$WMX" --script sb.wmxs examples/sb.wmx > out.raw 2> err.txt
mask < out.raw > out.txt
if grep -q 'command failed' err.txt; then
    bad "a tutorial command failed:"; cat err.txt
fi
has_c=0
if "$WMX" explore examples/deadlock.c --model sc > deadlock.raw 2>&1; [ $? -le 1 ] &&
   grep -q 'Test deadlock' deadlock.raw; then
    has_c=1
fi

# the fenced blocks, block-01.txt ...
awk '/^```/ { if (inb) { inb = 0; close(f) } else { inb = 1; n++; f = sprintf("block-%02d.txt", n); printf "" > f }; next }
     inb { print > f }' "$doc"
nblocks=$(ls block-*.txt 2>/dev/null | wc -l)

# in_order FILE OUT: FILE's lines ("..." lines skipped) are lines of OUT,
# in this order, each run of them consecutive
in_order() {
    awk -v want="$1" '
        BEGIN { while ((getline l < want) > 0) { sub(/ +$/, "", l); w[++n] = l } }
        { sub(/ +$/, ""); o[++m] = $0 }
        END {
            at = 1; i = 1
            while (i <= n) {
                if (w[i] == "...") { i++; continue }
                j = i; while (j <= n && w[j] != "...") j++     # a run i..j-1
                found = 0
                for (s = at; s + (j - i) - 1 <= m; s++) {
                    ok = 1
                    for (k = 0; k < j - i; k++) if (o[s + k] != w[i + k]) { ok = 0; break }
                    if (ok) { found = 1; at = s + (j - i); break }
                }
                if (!found) { print "not in the output, in order: " w[i]; exit 1 }
                i = j
            }
        }' "$2"
}

check_screen() {   # N FILE
    if ! diff -u "block-$1.txt" "$2" > diff.txt; then
        bad "tutorial block $1 is not the screen wmx shows ($2):"; cat diff.txt
    fi
}
check_transcript() {   # N
    if ! in_order "block-$1.txt" out.txt > why.txt; then
        bad "tutorial block $1: $(cat why.txt)"
    fi
}
check_trace() {   # N FILE
    mask < "$2" > trace.txt
    if ! diff -u "block-$1.txt" trace.txt > diff.txt; then
        bad "tutorial block $1 is not the trace \`save\` writes:"; cat diff.txt
    fi
}
# check_shell N: "$ CMD" lines run (wmx as $WMX), each followed by its output
check_shell() {
    awk -v dir="$tmp" '/^\$ / { n++; f = sprintf("%s/cmd-%d", dir, n); print substr($0, 3) > f; close(f);
                                g = sprintf("%s/want-%d", dir, n); printf "" > g; next }
                       { print > sprintf("%s/want-%d", dir, n) }' "block-$1.txt"
    k=1
    while [ -f "cmd-$k" ]; do
        cmd=$(cat "cmd-$k")
        case "$cmd" in
        'echo $?') echo "$last_rc" > got ;;
        'cat '*) cat "${cmd#cat }" > got 2>&1 ;;
        wmx\ *) sh -c "\"\$WMX\" ${cmd#wmx }" > got.raw 2>&1; last_rc=$?; mask < got.raw > got ;;
        *) bad "tutorial block $1: unknown command '$cmd'"; k=$((k + 1)); continue ;;
        esac
        mask < "want-$k" > want.txt && mv want.txt "want-$k"
        if grep -qx '\.\.\.' "want-$k"; then
            in_order "want-$k" got > why.txt || bad "tutorial block $1, \`$cmd\`: $(cat why.txt)"
        elif ! diff -u "want-$k" got > diff.txt; then
            bad "tutorial block $1: \`$cmd\` prints otherwise:"; cat diff.txt
        fi
        rm -f "cmd-$k" "want-$k"
        k=$((k + 1))
    done
}

# the table: one line per fenced block of doc/tutorial.md, in order
checked=0
while read -r n kind arg; do
    checked=$((checked + 1))
    [ -f "block-$n.txt" ] || { bad "doc/tutorial.md has no block $n"; continue; }
    case $kind in
    screen) check_screen "$n" "$arg" ;;
    transcript) check_transcript "$n" ;;
    trace) check_trace "$n" "$arg" ;;
    shell) check_shell "$n" ;;
    shell-c) if [ $has_c = 1 ]; then check_shell "$n"; else echo "tutorial: block $n skipped (no C front end)"; fi ;;
    until-deadlock)
        if [ $has_c = 1 ]; then
            printf 'model sc\nuntil deadlock\n' > d.wmxs
            "$WMX" --script d.wmxs examples/deadlock.c 2>&1 | mask > d.out
            in_order "block-$n.txt" d.out > why.txt || bad "tutorial block $n: $(cat why.txt)"
        fi ;;
    esac
done <<'EOF'
01 screen screen-start.txt
02 screen screen-sc-stepped.txt
03 screen screen-sc-explored.txt
04 transcript
05 screen screen-tso-stepped.txt
06 screen screen-tso-flush.txt
07 screen screen-tso-select.txt
08 screen screen-mp-pso.txt
09 screen screen-mp-tso.txt
10 trace sb-tso.trace
11 shell
12 shell-c
13 until-deadlock
14 shell
EOF
[ "$nblocks" -eq "$checked" ] || bad "doc/tutorial.md has $nblocks fenced blocks, the test checks $checked"

# indented blocks: `wmx> CMD` lines are commands of the script; the lines
# beside them (not "...") are in its output
cp sb.wmxs script-cmds.txt
awk '/^```/ { fence = !fence; next } fence { next }
     /^    / { print substr($0, 5); next } { print "" }' "$doc" > indented.txt
awk 'BEGIN { b = 0 } /^$/ { if (in_b) { in_b = 0; close(f) } next }
     { if (!in_b) { in_b = 1; b++; f = sprintf("ind-%02d.txt", b); printf "" > f } print > f }' indented.txt
for f in ind-*.txt; do
    grep -q '^wmx> ' "$f" || continue
    sed -n 's/^wmx> //p' "$f" | sed -e 's/  *(or .*)$//' -e 's/  *#.*$//' -e 's/ *$//' | while read -r cmd; do
        grep -qxF -- "$cmd" script-cmds.txt || echo "FAIL: the tutorial's command \`$cmd\` is not run by tests/tui/tutorial.wmxs"
    done > missing.txt
    [ -s missing.txt ] && { cat missing.txt; fail=1; }
    grep -v '^wmx> ' "$f" > outlines.txt
    if [ -s outlines.txt ] && ! in_order outlines.txt out.txt > why.txt; then
        bad "tutorial's indented transcript ($(head -1 "$f")): $(cat why.txt)"
    fi
done

# the commands the prose names (not in a block): each runs without failing
printf '%s\n' 'step P0' 'step P1' 'undo' 'redo' 'goto 1' 'restart' 'random' \
    'explore --algo naive' 'explore --algo odpor --model sc' 'explore --algo rfsmc --model tso' 'select 1' \
    'next-class' 'next-class --restart' 'focus output' 'zoom' 'zoom' 'theme light' 'theme mono' \
    'until deadlock' 'until blocked' 'until error' 'load examples/mp.wmx' 'until [x]=2 /\ P1:r0=1' \
    > prose.wmxs
"$WMX" --script prose.wmxs examples/sb.wmx > prose.out 2> prose.err
if [ -s prose.err ]; then
    bad "a command the tutorial's prose names failed:"; cat prose.err
fi
for cmd in 'step P0' 'undo' 'goto N' 'restart' 'random' 'next-class --restart' \
           'focus output' 'theme mono' 'until blocked' 'until error' 'until [x]=2 /\ P1:r0=1'; do
    grep -qF -- "\`$cmd" "$doc" || bad "the tutorial no longer names \`$cmd\` (update this test)"
done

# counts and exit codes the prose quotes
n_sc=$("$WMX" explore examples/sb.wmx --algo naive --model sc | sed -n 's/^  \([0-9]*\) traces.*/\1/p')
n_tso=$("$WMX" explore examples/sb.wmx --algo naive --model tso | sed -n 's/^  \([0-9]*\) traces.*/\1/p')
grep -q "(6 under SC, 80 under TSO" "$doc" || bad "the tutorial no longer quotes the naive counts this test checks"
[ "$n_sc" = 6 ] && [ "$n_tso" = 80 ] || bad "explore --algo naive: $n_sc under SC, $n_tso under TSO; the tutorial says 6 and 80"
"$WMX" check examples/sb.wmx --outcome 'P0:r0=0 /\ P1:r0=0' --model sc > /dev/null 2>&1
[ $? -eq 1 ] || bad "check examples/sb.wmx --outcome 'P0:r0=0 /\\ P1:r0=0' --model sc should answer no (exit 1)"
if [ $has_c = 1 ]; then
    # "Swapping the two pthread_mutex_lock lines of withdraw removes the blocked execution"
    awk '/withdraw/ { w = 1 } w && /pthread_mutex_lock\(&b\)/ && !held { held = $0; next }
         w && /pthread_mutex_lock\(&a\)/ && held { print; print held; w = 0; next } { print }' \
        "$root/examples/deadlock.c" > swapped.c
    "$WMX" explore swapped.c --model sc > swapped.out 2>&1
    grep -q ' 0 blocked' swapped.out || bad "deadlock.c with withdraw's locks swapped still blocks: $(sed -n 2p swapped.out)"
fi

[ $fail -eq 0 ] && echo "tutorial: ok ($checked blocks, $(ls ind-*.txt | wc -l) indented blocks)"
exit $fail

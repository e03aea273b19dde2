#!/bin/sh
# game.sh - `wmx game` end to end: every `// expect:` claim in the headers
# of examples/games/*.game (A=U,.. B=U,.. [first=X] => W, "any" = all four
# update rules), input errors (file:line:col, exit 2), the JSON keys, --k
# auto reporting bounds that disagree (on a hand-made game and on generated
# ones), and --format dot.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
bad() { echo "FAIL: $*"; fail=1; }
expand() { [ "$1" = any ] && echo "never before after always" || echo "$1" | tr ',' ' '; }

for f in "$root"/examples/games/*.game; do
    claims=0
    grep '^// expect:' "$f" > "$tmp/claims"
    while read -r _ _ a b rest; do
        first=A
        case "$rest" in first=*) first=${rest#first=}; first=${first%% *}; rest=${rest#* } ;; esac
        want=${rest#=> }
        for au in $(expand "${a#A=}"); do
            for bu in $(expand "${b#B=}"); do
                "$WMX" game "$f" --a-update "$au" --b-update "$bu" --first "$first" --json > "$tmp/out" 2>"$tmp/err"
                rc=$?
                got=$(sed -n 's/.*"winner": "\([AB]\)".*/\1/p' "$tmp/out")
                [ "$rc" = 0 ] && [ "$got" = "$want" ] ||
                    bad "$(basename "$f") A=$au B=$bu first=$first: got '${got:-?}' (rc $rc), header says $want"
                n=$((n + 1))
                claims=$((claims + 1))
            done
        done
    done < "$tmp/claims"
    [ "$claims" -gt 0 ] || bad "$(basename "$f") has no expect: lines"
done

# exact for never/never, bounded otherwise; the JSON keys the issue fixes
"$WMX" game "$root/examples/games/flush-race.game" --json > "$tmp/j" || bad "flush-race --json exit $?"
for key in '"winner": "B"' '"exact": true' '"k": null' '"positions": ' '"a_update": "never"' \
           '"b_update": "never"' '"first": "A"' '"time_s": '; do
    grep -q "$key" "$tmp/j" || bad "flush-race --json lacks $key: $(cat "$tmp/j")"
done
"$WMX" game "$root/examples/games/flush-race.game" --a-update after --k 2 --json > "$tmp/j"
grep -q '"winner": "A", "exact": false, "k": 2' "$tmp/j" || bad "--k 2: $(cat "$tmp/j")"
"$WMX" game "$root/examples/games/flush-race.game" --a-update after > "$tmp/t"
grep -q '^exact: no process makes more than 1 write' "$tmp/t" || bad "no --k, one write: not exact: $(cat "$tmp/t")"
"$WMX" game "$root/examples/games/flush-race.game" --a-update after --json | grep -q '"exact": true, "k": 1, "bound": "exact"' ||
    bad "no --k, one write: JSON not exact"
# a write on a cycle: the buffer is unbounded, so no --k means --k auto
printf 'var x;\nprocess P { a -> a : wr(x, 1); a -> b : rd(x, 1); final b; }\n' > "$tmp/loop.game"
"$WMX" game "$tmp/loop.game" --a-update after > "$tmp/t"
grep -q 'bounded, --k auto' "$tmp/t" && grep -q 'not exact' "$tmp/t" || bad "no --k: not reported as auto: $(cat "$tmp/t")"
"$WMX" game "$root/examples/games/flush-race.game" > "$tmp/t"
grep -q 'winner: B (B forces a final state in 2 moves' "$tmp/t" || bad "text output: $(cat "$tmp/t")"
grep -q '^exact' "$tmp/t" || bad "never/never not exact: $(cat "$tmp/t")"

# a bound that binds: k=1 and k=2 disagree, and --k auto reports both
cat > "$tmp/bound.game" <<'G'
var x;
process P { a -> b : wr(x, 1); b -> c : wr(x, 2); final c; }
G
"$WMX" game "$tmp/bound.game" --a-update after --b-update after > "$tmp/t"
grep -q 'k=1 A, k=2 B' "$tmp/t" && grep -q 'note: k=1 says A, k=2 says B' "$tmp/t" ||
    bad "--k auto does not report the differing bounds: $(cat "$tmp/t")"
"$WMX" game "$tmp/bound.game" --a-update after --b-update after --k 1 --json | grep -q '"winner": "A"' ||
    bad "--k 1 on bound.game"

# --format dot is Graphviz text
"$WMX" game "$root/examples/games/flush-race.game" --a-update after --format dot > "$tmp/d"
head -1 "$tmp/d" | grep -q '^digraph strategy' || bad "--format dot: $(head -3 "$tmp/d")"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$tmp/d" > /dev/null 2>&1 || bad "dot rejects the strategy graph"
fi

# input errors: file:line:col: message, exit 2
printf 'var x;\nprocess P {\n  a -> b : wr(z, 1);\n}\n' > "$tmp/e.game"
"$WMX" game "$tmp/e.game" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "e.game:3:15: unknown variable 'z'" "$tmp/err" || bad "error: rc $rc, $(cat "$tmp/err")"
"$WMX" game "$tmp/e.game" --a-update sometimes > /dev/null 2>&1
[ $? = 2 ] || bad "bad --a-update accepted"
"$WMX" game "$root/examples/games/flush-race.game" --k 0 > /dev/null 2>&1
[ $? = 2 ] || bad "--k 0 accepted"
# a limit before any bound is solved: exit 3
"$WMX" game "$root/examples/games/fence-flip.game" --a-update always --b-update always --max-positions 5 > "$tmp/t"
[ $? = 3 ] && grep -q LIMIT "$tmp/t" || bad "limit: $(cat "$tmp/t")"

# a limit after some bounds: the last answer, said to be cut short, exit 0
(. "$root/bench/game-gen.sh"; ring 3) > "$tmp/ring3.game"    # a subshell: ring sets n, i, j
"$WMX" game "$tmp/ring3.game" --a-update always --b-update always --max-positions 20000 > "$tmp/t"
rc=$?
[ "$rc" = 0 ] && grep -q 'k=1 A, k=2 A$' "$tmp/t" &&
    grep -q 'LIMIT: k=3 was not solved (the position graph outgrew --max-positions 20000)' "$tmp/t" ||
    bad "auto cut by a limit: rc $rc, $(cat "$tmp/t")"
"$WMX" game "$tmp/ring3.game" --a-update always --b-update always --max-positions 20000 --json |
    grep -q '"exact": false, "k": 2, "bound": "limit".*"stop_reason": "max-positions"' || bad "auto cut by a limit: JSON"
# --timeout stops a build that would run for minutes, and says so; Ctrl-C too
(. "$root/bench/game-gen.sh"; ring 9) > "$tmp/ring9.game"
"$WMX" game "$tmp/ring9.game" --a-update always --b-update before --timeout 0.5 > "$tmp/t"
rc=$?
[ "$rc" = 3 ] && grep -q 'LIMIT: stopped before any bound was solved: timeout after 0.5 s' "$tmp/t" ||
    bad "--timeout: rc $rc, $(cat "$tmp/t")"
"$WMX" game "$tmp/ring9.game" --a-update always --b-update before --timeout 0.5 --json |
    grep -q '"winner": null, .*"stop_reason": "timeout"' || bad "--timeout: JSON"
"$WMX" game "$tmp/ring9.game" --a-update always --b-update before > "$tmp/t" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 3 ] && grep -q 'interrupted (Ctrl-C)' "$tmp/t" || bad "Ctrl-C: rc $rc, $(cat "$tmp/t")"
"$WMX" game "$root/examples/games/flush-race.game" --timeout 0 > /dev/null 2>&1
[ $? = 2 ] || bad "--timeout 0 accepted"

# properties on generated games: --k auto reports every bound it solved, each
# bound's winner equals a separate --k run, and a note names both answers
# whenever consecutive bounds disagree
seed=7
# rnd N sets R to a pseudo-random 0..N-1; it must not run in $(...), where
# the seed's update would be lost and every game would come out the same
rnd() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); R=$(( seed / 65536 % $1 )); }
var_of() { rnd 2; [ "$R" = 0 ] && V=x || V=y; }
gen() {
    echo "var x, y;"
    rnd 2; np=$((R + 2))
    p=0
    while [ $p -lt $np ]; do
        echo "process P$p {"
        # two writes in a row on the way to P0's final state: a bound of 1
        # can block them, so bounds disagree on some games
        if [ $p = 0 ]; then
            rnd 2
            [ "$R" = 0 ] && echo "  s0 -> s1 : wr(x, 1);" && echo "  s1 -> s2 : wr(y, 1);"
        fi
        rnd 3; nt=$((R + 2)); t=0
        while [ $t -lt $nt ]; do
            rnd 3; from=$R; rnd 3; to=$R
            rnd 5
            case $R in
                0|1) var_of; rnd 2; ins="wr($V, $R)" ;;
                2|3) var_of; rnd 2; ins="rd($V, $R)" ;;
                *) ins=mf ;;
            esac
            echo "  s$from -> s$to : $ins;"
            t=$((t + 1))
        done
        [ $p = 0 ] && echo "  final s2;"
        echo "}"
        p=$((p + 1))
    done
}
props=0 differ=0 exacts=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    gen > "$tmp/r$i.game"    # not in a subshell of its own: seed carries over
    for v in "after never" "never before" "never after" "always always" "before after"; do
        set -- $v
        "$WMX" game "$tmp/r$i.game" --a-update "$1" --b-update "$2" --k-max 4 > "$tmp/auto" 2>&1 ||
            { bad "r$i $v: auto failed"; continue; }
        line=$(grep -E 'bounded, --k auto:|bounds solved:' "$tmp/auto")
        prev=""
        # exact by the write bound K: the K+1-bounded game must agree
        if grep -q '^exact: no process makes more than' "$tmp/auto"; then
            ke=$(sed -n 's/.* the \([0-9]*\)-bounded game is the game itself/\1/p' "$tmp/auto")
            we=$(sed -n 's/^winner: \([AB]\).*/\1/p' "$tmp/auto")
            got=$("$WMX" game "$tmp/r$i.game" --a-update "$1" --b-update "$2" --k $((ke + 1)) --json |
                  sed -n 's/.*"winner": "\([AB]\)".*/\1/p')
            [ -n "$ke" ] && [ "$got" = "$we" ] || bad "r$i $v: exact at k=$ke says $we, --k $((ke + 1)) says $got"
            exacts=$((exacts + 1))
        fi
        for kw in $(echo "${line#*:}" | tr -d ','); do
            case "$kw" in k=*) k=${kw#k=}; continue ;; esac
            got=$("$WMX" game "$tmp/r$i.game" --a-update "$1" --b-update "$2" --k "$k" --json |
                  sed -n 's/.*"winner": "\([AB]\)".*/\1/p')
            [ "$got" = "$kw" ] || bad "r$i $v: auto says k=$k $kw, --k $k says $got"
            if [ -n "$prev" ] && [ "$prev" != "$kw" ]; then
                differ=$((differ + 1))
                grep -q "note: k=$((k - 1)) says $prev, k=$k says $kw" "$tmp/auto" ||
                    bad "r$i $v: k=$((k - 1)) and k=$k differ but no note: $(cat "$tmp/auto")"
            fi
            prev=$kw
            props=$((props + 1))
        done
    done
done
[ "$props" -gt 0 ] || bad "no generated bound checked"
[ "$exacts" -gt 0 ] || bad "no generated game was exact by its write bound"

[ "$fail" = 0 ] && echo "game: $n header claims, $props generated bounds ($differ disagreeing pairs reported, $exacts exact by the write bound) and the CLI checks passed"
exit $fail

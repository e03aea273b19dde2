#!/bin/sh
# newcomer.sh - what a new user met (issue 14), pinned so it stays fixed:
# the REPL's check --outcome uses the loaded program, no temporary paths,
# singular counts, the textbook cycle for MP, an honest IRIW answer, and a
# capped executions list that says so.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
pass=0
must() {    # must NAME PATTERN FILE
    if grep -q -- "$2" "$3"; then pass=$((pass + 1)); else
        echo "FAIL [$1]: expected '$2' in:"; sed 's/^/    /' "$3" | head -40; fail=$((fail + 1)); fi
}
mustnot() {
    if grep -q -- "$2" "$3"; then
        echo "FAIL [$1]: did not expect '$2' in:"; sed 's/^/    /' "$3" | head -40; fail=$((fail + 1))
    else pass=$((pass + 1)); fi
}
cd "$root"

# 1. check --outcome in the REPL with no file checks the loaded program
printf "check --outcome 'P0:r0=0 /\\\\ P1:r0=0' --model sc\nstep P0\ncheck --model sc\n" > "$tmp/c.wmxs"
"$WMX" --script "$tmp/c.wmxs" examples/sb.wmx > "$tmp/c.out" 2>&1
must outcome-default 'P1:r0=0 of SB under sc: not reachable' "$tmp/c.out"
mustnot no-temp-names 'wmx-current' "$tmp/c.out"
mustnot no-temp-names2 'unexpected character' "$tmp/c.out"
must singular 'The current execution (1 event of SB)' "$tmp/c.out"
must singular-step 'Witness (1 step;' "$tmp/c.out"

# 2. MP: the cycle through both variables, not a one-variable co cycle
for m in tso sc; do
    "$WMX" check examples/mp.wmx --outcome 'P1:r0=1 /\ P1:r1=0' --model $m > "$tmp/mp-$m.out" 2>&1
    must "mp-$m-rf" 'is read by (rf)' "$tmp/mp-$m.out"
    must "mp-$m-fr" 'overwritten by (fr)' "$tmp/mp-$m.out"
    must "mp-$m-y" 'w y=1' "$tmp/mp-$m.out"
    mustnot "mp-$m-onevar" 'among accesses to one variable' "$tmp/mp-$m.out"
done

# 3. IRIW: no false "under any model"
"$WMX" check examples/iriw.wmx --model tso > "$tmp/iriw.out" 2>&1
must iriw-models 'any model wmx knows (SC, TSO, PSO)' "$tmp/iriw.out"
must iriw-power 'Power, ARM' "$tmp/iriw.out"
must iriw-cycle 'P2.1 r y=0 (line 24: r1 = y)' "$tmp/iriw.out"
must iriw-fr 'reads a value that is then overwritten by (fr)' "$tmp/iriw.out"

# 5. a capped executions list says so, and repeats its summary last
{ echo "name many"; echo "var x = 0, y = 0;"
  for i in 1 2 3 4 5; do echo "thread P$i { x = $i; r0 = y; y = $i; r1 = x; }"; done
  # named, so that x's and y's final writers split classes: a class per outcome
  echo "locations [x, y, P1:r0, P1:r1, P2:r0, P2:r1, P3:r0, P3:r1, P4:r0, P4:r1, P5:r0, P5:r1];"; } > "$tmp/many.wmx"
printf 'explore --model sc --max-traces 12000\n' > "$tmp/many.wmxs"
"$WMX" --script "$tmp/many.wmxs" "$tmp/many.wmx" > "$tmp/many.out" 2>&1
must capped 'list capped at 10000: 2000 traces of other outcomes not listed' "$tmp/many.out"
tail -n 1 "$tmp/many.out" > "$tmp/many.last"
must summary-last '^Summary: 10000 final states.*12000 traces.*PARTIAL' "$tmp/many.last"

# 11. the same model is a no-op; a new one can replay the schedule
printf 'step P0\nstep P1\nflush P0\nstep P0\nmodel tso\nmodel sc\nreplay\n' > "$tmp/m.wmxs"
"$WMX" --script "$tmp/m.wmxs" examples/sb.wmx > "$tmp/m.out" 2>&1
must model-same 'model tso (unchanged)' "$tmp/m.out"
must model-offer '`replay` re-runs the 4 steps you took under tso' "$tmp/m.out"
must model-replay 'replayed the tso schedule under sc: 3 steps (1 flush left out: SC has no store buffers)' "$tmp/m.out"

# 12. a saved trace names its program relative to itself, and moves with it
mkdir -p "$tmp/proj/traces"
cp examples/sb.wmx "$tmp/proj/sb.wmx"
(cd "$tmp/proj" && "$WMX" run sb.wmx --seed 1 --save traces/t.trace > /dev/null 2>&1)
must trace-relative '^program \.\./sb\.wmx$' "$tmp/proj/traces/t.trace"
(cd / && "$WMX" check "$tmp/proj/traces/t.trace" > "$tmp/rel.out" 2>&1)
must trace-moves 'consistent' "$tmp/rel.out"
printf 'program nothere.wmx\nmodel tso\nend\n' > "$tmp/bad.trace"
"$WMX" check "$tmp/bad.trace" > "$tmp/bad.out" 2>&1
must trace-bad-path "bad.trace:1:1: program 'nothere.wmx' not found" "$tmp/bad.out"

# 13. graph: a program is not a trace; the extension picks the format; views listed
"$WMX" graph examples/sb.wmx -o "$tmp/x.svg" > "$tmp/g1.out" 2>&1
must graph-program 'is a program, and graph draws one execution: a trace file' "$tmp/g1.out"
"$WMX" graph "$tmp/proj/traces/t.trace" -o "$tmp/t.svg" > /dev/null 2>&1
must graph-ext '<svg' "$tmp/t.svg"
printf 'graph bogus\n' > "$tmp/g.wmxs"
"$WMX" --script "$tmp/g.wmxs" examples/sb.wmx > "$tmp/g2.out" 2>&1
must graph-views "no view 'bogus': the views are hb, exec, wut and tree" "$tmp/g2.out"

# 14, 16, 17. errors name the bad token and list what exists; typos get hints
printf 'until garbage\nuntil P9:r0=0\nuntil P0:rx=1\nstpe P0\nstep 7\nzoom 3\nalgo odpor\nexplore --max-traces 99999999999999999999\n' > "$tmp/u.wmxs"
"$WMX" --script "$tmp/u.wmxs" examples/sb.wmx > "$tmp/u.out" 2>&1
must until-var "unknown variable 'garbage' (variables: x, y" "$tmp/u.out"
must until-thread "unknown thread 'P9' (threads: P0, P1)" "$tmp/u.out"
must until-reg "P0 has no register 'rx' (P0's registers: r0)" "$tmp/u.out"
must typo 'did you mean `step`' "$tmp/u.out"
must step-list "no thread '7': the threads are P0 (or 0), P1 (or 1)" "$tmp/u.out"
must zoom-list "no pane '3': the panes are" "$tmp/u.out"
must algo-model 'algo odpor: Optimal-DPOR works under sc only; under tso the choices are' "$tmp/u.out"
must too-large "is too large" "$tmp/u.out"
"$WMX" explroe examples/sb.wmx > "$tmp/b.out" 2>&1
must batch-typo 'did you mean `wmx explore`' "$tmp/b.out"

# 6, 7, 10. with the Graph pane open, output still shows; long lines wrap;
# a status message goes with the next command
printf 'step P0\nstep P1\nstep P0\nstep P1\ngraph hb\nhelp graph\nsave-screen %s\ngraph hb\ncheck --model sc\nsave-screen %s\nstep P0\nsave-screen %s\n' \
    "$tmp/s6.screen" "$tmp/s7.screen" "$tmp/s10.screen" > "$tmp/s6.wmxs"
COLUMNS=80 LINES=24 "$WMX" --script "$tmp/s6.wmxs" examples/sb.wmx > /dev/null 2>&1
must graph-then-help 'the prompt.  At the prompt keys are commands: - is undo, + redo.' "$tmp/s6.screen"
printf 'step P0\nstep P1\nstep P0\nstep P1\ncheck --model sc\nsave-screen %s\n' "$tmp/s7.screen" > "$tmp/s7.wmxs"
COLUMNS=80 LINES=60 "$WMX" --script "$tmp/s7.wmxs" examples/sb.wmx > /dev/null 2>&1
must wrap-check '^.before the next)\. ' "$tmp/s7.screen"
mustnot status-cleared 'graph hb: 6 nodes' "$tmp/s10.screen"

# 8. four threads fit side by side at 80x24; more are stacked, marked, and
# stepping one brings it into view
printf 'save-screen %s\n' "$tmp/s8.screen" > "$tmp/s8.wmxs"
COLUMNS=80 LINES=24 "$WMX" --script "$tmp/s8.wmxs" examples/iriw.wmx > /dev/null 2>&1
must four-threads 'P0 (ready) *P1 (ready) *P2 (ready) *P3 (ready)' "$tmp/s8.screen"
printf 'save-screen %s\nstep P5\nsave-screen %s\n' "$tmp/s8a.screen" "$tmp/s8b.screen" > "$tmp/s8.wmxs"
COLUMNS=80 LINES=24 "$WMX" --script "$tmp/s8.wmxs" "$tmp/many.wmx" > /dev/null 2>&1
must more-threads '4 more threads (zoom)' "$tmp/s8a.screen"
head -4 "$tmp/s8b.screen" > "$tmp/s8b.top"
must stepped-in-view 'x = 5' "$tmp/s8b.top"
must above-marked 'threads above' "$tmp/s8b.top"

# 9. after `random` the final state and verdict are in view
printf 'random\nsave-screen %s\n' "$tmp/s9.screen" > "$tmp/s9.wmxs"
COLUMNS=80 LINES=24 "$WMX" --script "$tmp/s9.wmxs" examples/iriw.wmx > /dev/null 2>&1
must random-final 'final state: P2:r0=' "$tmp/s9.screen"
must random-verdict 'proposition' "$tmp/s9.screen"

# 15. exported graphs carry the verdict and a legend; the pane says edges,
# and zoom 3/3 is the most detailed
"$WMX" graph "$tmp/proj/traces/t.trace" --check sc > "$tmp/g.dot" 2>/dev/null
must dot-verdict 'consistent under sc\|INCONSISTENT under sc' "$tmp/g.dot"
must dot-legend 'edges: ' "$tmp/g.dot"
printf 'step P0\nstep P1\nstep P0\nstep P1\ngraph hb\nsave-screen %s\n' "$tmp/s15.screen" > "$tmp/s15.wmxs"
COLUMNS=120 LINES=40 "$WMX" --script "$tmp/s15.wmxs" examples/sb.wmx > /dev/null 2>&1
must graph-edges 'the 4 highlighted edges form the cycle' "$tmp/s15.screen"
must graph-zoom 'zoom 3/3' "$tmp/s15.screen"

# 15. two arrowheads never touch between side-by-side boxes
printf 'step P0\nstep P1\nstep P0\nstep P1\nflush P0\nflush P1\ngraph exec\nsave-screen %s\n' "$tmp/ge.screen" > "$tmp/ge.wmxs"
COLUMNS=80 LINES=24 LC_ALL=C.UTF-8 "$WMX" --script "$tmp/ge.wmxs" examples/sb.wmx > /dev/null 2>&1
must graph-exec-drawn 'wM x=1' "$tmp/ge.screen"
mustnot arrowheads-glued '◀▶' "$tmp/ge.screen"
# 15. at 80 columns the verdict gets a line of its own instead of being cut,
# and the fr edges no longer merge into one run (`┬┬┴`, `├──┴`)
must graph-verdict-whole 'the 4 highlighted edges form the cycle' "$tmp/ge.screen"
mustnot graph-edges-merged '┬┬┴\|├─*┴\|┴─*┬┬' "$tmp/ge.screen"

echo "newcomer: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# readme.sh - every `./wmx ...` command of README.md runs as written, from
# a folder laid out as the build folder (issue 44 point 17: a litmus path
# outside the checkout, a placeholder prog.c), with the exit code the
# README's section on exit codes allows (0, or 1 for a failed assertion, an
# inconsistent execution or a program that is not robust); the claims in
# their comments that are numbers are checked too.  The interactive ones
# (a program or .game with no command) start in tmux and quit.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sock=wmxreadme-$$
size=80x24
cleanup() {
    for s in $socks; do tmux -L "$s" kill-server 2>/dev/null; done
    rm -rf "$tmp"
}
socks=""
trap cleanup EXIT INT TERM
fail=0
n=0
. "$root/tests/tui/lib.sh"

# the build folder: its examples and tests, and ./wmx
mkdir -p "$tmp/b" "$tmp/home"
ln -s "$root/examples" "$tmp/b/examples"
ln -s "$root/tests" "$tmp/b/tests"
ln -s "$WMX" "$tmp/b/wmx"
c_built=1
"$WMX" explore "$root/tests/c/sb.c" > "$tmp/c.out" 2>&1
grep -q 'C input not built' "$tmp/c.out" && c_built=0

# the commands: lines of the README's sh blocks that start with ./wmx (the
# quick start's after its last &&), without the trailing comment
awk '/^```sh/ { inb = 1; next } /^```/ { inb = 0; next }
     inb { sub(/^.*&& \.\/wmx /, "./wmx "); if ($0 ~ /^\.\/wmx /) print }' "$root/README.md" |
    sed 's/  *#.*$//' > "$tmp/commands"
[ "$(wc -l < "$tmp/commands")" -ge 20 ] || { echo "FAIL: only $(wc -l < "$tmp/commands") commands found in README.md"; fail=1; }

interactive() {     # interactive CMD: runs it in tmux, quits, wants exit 0
    sock=wmxreadme-$$-$n            # a server per command (lib.sh uses $sock)
    socks="$socks $sock"
    tmux -L "$sock" new-session -d -x 80 -y 24 \
        "cd '$tmp/b' && env HOME='$tmp/home' LC_ALL=C.UTF-8 $1; echo WMX-EXIT=\$?; sleep 600" < /dev/null
    wait_for 'wmx>' || return
    text 'quit'; keys Enter
    wait_for 'WMX-EXIT=0' || return
    tmux -L "$sock" kill-server 2>/dev/null
}

while IFS= read -r cmd; do
    case "$cmd" in
        *'.c '*|*'.c') [ $c_built = 1 ] || { echo "readme: C input not built, skipped: $cmd"; continue; } ;;
    esac
    n=$((n + 1))
    set -- $cmd
    if [ $# = 2 ] && [ "$2" != help ]; then
        if command -v tmux > /dev/null 2>&1; then
            interactive "$cmd"
        else
            echo "readme: tmux is not installed, skipped: $cmd"
        fi
        continue
    fi
    (cd "$tmp/b" && eval "$cmd") > "$tmp/out" 2>&1 < /dev/null
    rc=$?
    if [ $rc != 0 ] && [ $rc != 1 ]; then
        echo "FAIL: exit $rc from: $cmd"; sed 's/^/    /' "$tmp/out" | head -20; fail=1
        continue
    fi
    claim() {   # claim PATTERN: the output of this command shows it
        grep -q -- "$1" "$tmp/out" || { echo "FAIL: '$cmd' does not show '$1':"; sed 's/^/    /' "$tmp/out" | head -20; fail=1; }
    }
    case "$cmd" in
        './wmx explore examples/sb.wmx --model sc') claim '^States 3'; claim 'Verdict: No' ;;
        './wmx explore examples/sb.wmx --model tso') claim '^States 4'; claim 'P0:r0=0; P1:r0=0;' ;;
        './wmx explore examples/sb.wmx') claim '^States 4' ;;
        *'--algo odpor'*'sb.wmx'*|*'sb.wmx'*'--algo odpor'*) claim '3 traces' ;;
        *'mp.litmus --format herd') claim '^Observation MP Never' ;;
        *'--json') claim '^{' ;;
        *'deadlock.c'*) claim 'deadlock' ;;
        './wmx run '*) [ -s "$tmp/b/sb.trace" ] || { echo "FAIL: $cmd wrote no sb.trace"; fail=1; } ;;
        './wmx graph '*) grep -q '<svg' "$tmp/b/sb.svg" 2>/dev/null || { echo "FAIL: $cmd wrote no SVG"; fail=1; } ;;
        './wmx robust examples/sb.wmx'*) claim 'fence after examples/sb.wmx:14' ;;
        './wmx transform '*) claim 'await(flag != 0)'; claim 'was its read, now waits until the loop would end' ;;
        './wmx help') claim 'robust' ;;
    esac
done < "$tmp/commands"

[ "$fail" = 0 ] && echo "readme: $n commands of README.md ran as written"
exit $fail

#!/bin/sh
# tests/layers.sh - the build enforces the layers (doc/architecture.md):
# core/ is compiled with its own headers only, so a core file that includes
# a header of src/ (cli.h) or ui/ (ui.h) does not compile, while one that
# includes core headers does.  And no core file includes one today.
set -u
cd "$(dirname "$0")/.."
fail=0
bad() { echo "FAIL: $*"; fail=1; }
flags=$(make -s --no-print-directory print-core-cflags 2>/dev/null)
[ -n "$flags" ] || { echo "FAIL: make print-core-cflags printed nothing"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmx-layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '#include "ir.h"\n#include "explore.h"\nint layers_ok(void) { return 0; }\n' > "$tmp/ok.c"
# shellcheck disable=SC2086
${CC:-cc} $flags -c -o "$tmp/ok.o" "$tmp/ok.c" 2> "$tmp/err" || bad "a core file of core headers does not compile: $(head -c 300 "$tmp/err")"
for h in cli.h ui.h graph.h; do
    printf '#include "ir.h"\n#include "%s"\nint layers_breach(void) { return 0; }\n' "$h" > "$tmp/breach.c"
    # shellcheck disable=SC2086
    if ${CC:-cc} $flags -c -o "$tmp/breach.o" "$tmp/breach.c" 2> "$tmp/err"; then
        bad "a core file that includes $h compiled"
    elif ! grep -q "$h" "$tmp/err"; then
        bad "including $h failed for another reason: $(head -c 300 "$tmp/err")"
    fi
done
# the tree as it is: every header a core file includes with "..." is in core/
for f in core/*.c core/*.h; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
        [ -f "core/$h" ] || echo "$f includes \"$h\", not a core header"
    done
done > "$tmp/up"
[ -s "$tmp/up" ] && bad "$(cat "$tmp/up")"
[ $fail = 0 ] && echo "layers: core compiles with -Icore only; includes of cli.h, ui.h, graph.h from core fail"
exit $fail

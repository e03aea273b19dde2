#!/bin/sh
# c_cache.sh - the C front end's cache of translations (core/cfront_cache.h):
#  1. a second run takes the kept translation (no clang: a clang that fails
#     is not run) and prints what the first printed, for `transform` and
#     `explore --json` (times aside) on every C twin of tests/c;
#  2. a change of the file, of the same size and at once, or of a header it
#     includes, or of -D, is seen: the new program, never the kept one;
#  3. a damaged entry is ignored; WMX_CACHE=off writes nothing;
#  4. a byte changed anywhere in an entry gives the fresh answer.
# Skips (exit 0) when wmx was built without C input.
set -u
WMX=${WMX:-$(pwd)/wmx}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export WMX_CACHE_DIR="$tmp/cache"
unset WMX_CACHE

if "$WMX" explore "$root/tests/c/sb.c" --model sc --json 2>&1 | grep -q 'C input not built'; then
    echo "c_cache: skipped: C input not built"
    exit 0
fi
rm -rf "$tmp/cache"

# without the fields that change from run to run
untimed() { sed -e 's/"time_s": [0-9.e+-]*//g' -e 's/[0-9.]* s$//' "$1"; }

n=0
for f in "$root"/tests/c/*.c; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f" .c)
    "$WMX" transform "$f" > "$tmp/$name.t1" 2>&1
    "$WMX" explore "$f" --model tso --json > "$tmp/$name.e1" 2>&1
    "$WMX" transform "$f" > "$tmp/$name.t2" 2>&1
    "$WMX" explore "$f" --model tso --json > "$tmp/$name.e2" 2>&1
    cmp -s "$tmp/$name.t1" "$tmp/$name.t2" || bad "$name: transform differs on the kept translation"
    untimed "$tmp/$name.e1" > "$tmp/$name.u1"
    untimed "$tmp/$name.e2" > "$tmp/$name.u2"
    cmp -s "$tmp/$name.u1" "$tmp/$name.u2" || bad "$name: explore --json differs on the kept translation"
done
[ "$n" -gt 0 ] || bad "no C programs in tests/c"
ls "$tmp/cache"/*.wmxc > /dev/null 2>&1 || bad "no cache entries written"

# the kept translation is used: a clang that logs its calls runs once for
# two runs
cp "$root/tests/c/mp.c" "$tmp/mp.c"
real=$(command -v clang-14 || command -v clang || echo clang-14)
printf '#!/bin/sh\necho ran >> "%s"\nexec "%s" "$@"\n' "$tmp/cc.log" "$real" > "$tmp/cc"
chmod +x "$tmp/cc"
(cd "$tmp" && WMX_CLANG="$tmp/cc" "$WMX" explore mp.c --model sc --json > "$tmp/m1" 2>&1)
(cd "$tmp" && WMX_CLANG="$tmp/cc" "$WMX" explore mp.c --model sc --json > "$tmp/m2" 2>&1)
calls=$(wc -l < "$tmp/cc.log" 2>/dev/null || echo 0)
[ "$calls" -eq 1 ] || bad "mp.c: clang ran $calls times for two runs (expected once)"
untimed "$tmp/m1" > "$tmp/m1u"
untimed "$tmp/m2" > "$tmp/m2u"
cmp -s "$tmp/m1u" "$tmp/m2u" || bad "mp.c: a second run differs"
grep -q '"traces"' "$tmp/m1" || bad "mp.c: no result: $(head -c 200 "$tmp/m1")"

# 2. a change of the same size, made at once, is seen
cat > "$tmp/p.c" <<'EOF'
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include "h.h"
atomic_int x;
void *t(void *a) { atomic_store(&x, V); return 0; }
int main(void) { pthread_t p; pthread_create(&p, 0, t, 0); pthread_join(p, 0); assert(atomic_load(&x) == 1); return 0; }
EOF
echo '#define V 1' > "$tmp/h.h"
(cd "$tmp" && "$WMX" explore p.c --model sc --json > "$tmp/p1" 2>&1); r1=$?
sed -i 's/atomic_store(&x, V)/atomic_store(\&x, 2)/' "$tmp/p.c"
(cd "$tmp" && "$WMX" explore p.c --model sc --json > "$tmp/p2" 2>&1); r2=$?
[ "$r1" = 0 ] || bad "p.c: exit $r1, expected 0 (assert holds)"
[ "$r2" = 1 ] || bad "p.c changed in place: exit $r2, expected 1 (the new assert fails): the old translation was used"
sed -i 's/atomic_store(&x, 2)/atomic_store(\&x, V)/' "$tmp/p.c"
(cd "$tmp" && "$WMX" explore p.c --model sc --json > /dev/null 2>&1); r3=$?
[ "$r3" = 0 ] || bad "p.c changed back: exit $r3, expected 0"
echo '#define V 3' > "$tmp/h.h"
(cd "$tmp" && "$WMX" explore p.c --model sc --json > /dev/null 2>&1); r4=$?
[ "$r4" = 1 ] || bad "h.h changed: exit $r4, expected 1: the header's change was missed"
echo '#ifndef V
#define V 3
#endif' > "$tmp/h.h"
(cd "$tmp" && "$WMX" explore p.c -DV=1 --model sc --json > /dev/null 2>&1); r6=$?
(cd "$tmp" && "$WMX" explore p.c --model sc --json > /dev/null 2>&1); r7=$?
[ "$r6" = 0 ] || bad "-DV=1: exit $r6, expected 0"
[ "$r7" = 1 ] || bad "without -D after -DV=1: exit $r7, expected 1"

# 3. a damaged entry is ignored
for e in "$tmp/cache"/*.wmxc; do
    head -c 40 "$e" > "$e.cut" && mv "$e.cut" "$e"
done
"$WMX" explore "$root/tests/c/sb.c" --model tso --json > "$tmp/d1" 2>&1 || true
untimed "$tmp/d1" > "$tmp/d1u"
untimed "$tmp/sb.e1" > "$tmp/sb.u1"
cmp -s "$tmp/d1u" "$tmp/sb.u1" || bad "sb.c: a damaged entry changed the result"

# 4. a byte changed anywhere in an entry (its header, its sum, its list of
#    files, its program): the answer is the fresh translation's (issue 47:
#    a changed byte crashed wmx or changed the answer); the unit test
#    tests/unit/test_cache.c changes every byte, this samples 12 through the CLI
rm -rf "$tmp/cache"
dl="$root/examples/deadlock.c"
"$WMX" explore "$dl" --model sc > "$tmp/dl0" 2>&1; rc0=$?
untimed "$tmp/dl0" > "$tmp/dl0u"
e=$(ls "$tmp/cache"/*.wmxc 2>/dev/null | head -n 1)
if [ -z "$e" ]; then
    bad "deadlock.c: no entry kept"
else
    size=$(wc -c < "$e")
    for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
        off=$(( k * (size - 1) / 11 ))
        e=$(ls "$tmp/cache"/*.wmxc | head -n 1)       # rewritten by each run
        b=$(od -An -tu1 -j "$off" -N1 "$e" | tr -d ' ')
        printf "$(printf '\\%03o' $(( b ^ 90 )))" | dd of="$e" bs=1 seek="$off" conv=notrunc 2>/dev/null
        "$WMX" explore "$dl" --model sc > "$tmp/dl1" 2>&1; rc1=$?
        untimed "$tmp/dl1" > "$tmp/dl1u"
        [ "$rc1" = "$rc0" ] && cmp -s "$tmp/dl0u" "$tmp/dl1u" ||
            bad "deadlock.c: byte $off of $size of its entry changed: exit $rc1 (fresh $rc0), $(head -c 300 "$tmp/dl1")"
    done
fi

rm -rf "$tmp/cache"
WMX_CACHE=off "$WMX" explore "$root/tests/c/sb.c" --model tso --json > /dev/null 2>&1
[ -d "$tmp/cache" ] && [ -n "$(ls "$tmp/cache")" ] && bad "WMX_CACHE=off wrote $(ls "$tmp/cache" | head -1)"

[ "$fail" = 0 ] && echo "c_cache: ok ($n C programs, kept and changed translations)"
exit "$fail"

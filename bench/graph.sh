#!/bin/sh
# graph.sh - benchmark of the graph pane's engine (ui/graph.c): build,
# Graphviz `dot` layout and drawing of execution graphs of about 50, 200
# and 500 events, with the peak memory.  Target: 200 events in under 100 ms.
# Usage: sh bench/graph.sh [RUNS (default 3)].  Needs the objects of `make`
# (build/ui/*.o); bench/run.sh calls it.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
b=$root/build
lib=$b/libwmxcore.a
if [ ! -f "$lib" ] || [ ! -f "$b/ui/graph.o" ]; then echo "graph.sh: build first (make)"; exit 2; fi
uicflags=$(sed -n 's/^UI_CFLAGS *= *//p' "$root/Makefile")
uilibs=$(sed -n 's/^UI_LIBS *= *//p' "$root/Makefile")
out=${TMPDIR:-/tmp}/wmx_graph_bench.$$
trap 'rm -f "$out"' EXIT
# every app object but main.o (graph.o needs the theme, screen and session code)
objs=$(ls "$b"/src/*.o "$b"/ui/*.o | grep -v '/main\.o$')
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L $uicflags -I"$root/core" -I"$root/src" -I"$root/ui" \
    -o "$out" "$root/bench/graph_bench.c" $objs "$lib" $uilibs $(sed -n "s/^LLVM_LIBS *= *//p" "$root/Makefile" 2>/dev/null) -lm
"$out" "${1:-3}"

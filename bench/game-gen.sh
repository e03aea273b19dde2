#!/bin/sh
# bench/game-gen.sh - game generators for bench/game.sh (sourced).
# ring N: N processes in a ring; process i writes its flag, reads its
# neighbour's, fences and clears; the final state needs both flags seen 1 at
# once by the last process, which the fences make a real race.
ring() {
  n=$1
  printf 'name ring%s\nvar' "$n"
  i=0; sep=' '
  while [ "$i" -lt "$n" ]; do printf '%sf%s = 0' "$sep" "$i"; sep=', '; i=$((i + 1)); done
  printf ';\n'
  i=0
  while [ "$i" -lt "$n" ]; do
    j=$(( (i + 1) % n ))
    printf 'process P%s {\n  s0 -> s1 : wr(f%s, 1);\n  s1 -> s2 : rd(f%s, 0);\n  s1 -> s3 : rd(f%s, 1);\n  s2 -> s0 : wr(f%s, 0);\n  s3 -> s4 : mf;\n  s4 -> s0 : wr(f%s, 0);\n' "$i" "$i" "$j" "$j" "$i" "$i"
    [ "$i" = $((n - 1)) ] && printf '  s3 -> s5 : rd(f0, 1);\n  final s5;\n'
    printf '}\n'
    i=$((i + 1))
  done
}

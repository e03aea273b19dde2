#!/bin/sh
# tests/shapes.sh - the classic shapes (SB, MP, LB, IRIW, 2+2W, R, S, WRC,
# RWC, with and without fences) under SC, TSO and PSO: every explorer that
# supports the model must give the verdict of tests/shapes.tsv (PSO allows
# MP, 2+2W and S; TSO does not).  Fails on the first disagreement's end.
set -u
WMX=${WMX:-./wmx}
bad=0; n=0
grep -v '^#' tests/shapes.tsv > /tmp/wmx-shapes.$$
while IFS='	' read -r file sc tso pso; do
  for model in sc tso pso; do
    eval want=\$$model
    for algo in rfstate stateful naive rfsmc odpor; do
      [ "$algo" = odpor ] && [ "$model" != sc ] && continue
      out=$("$WMX" explore "$file" --model $model --algo $algo --format herd --timeout 120 2>&1)
      obs=$(printf '%s\n' "$out" | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p')
      case "$obs" in Never) got=forbidden ;; Sometimes|Always) got=allowed ;; *) got=error ;; esac
      n=$((n + 1))
      if [ "$got" != "$want" ]; then
        bad=$((bad + 1))
        echo "shapes: MISMATCH $file $model $algo: want $want, got $got" >&2
        printf '%s\n' "$out" | head -n 4 | sed 's/^/    /' >&2
      fi
    done
  done
done < /tmp/wmx-shapes.$$
rm -f /tmp/wmx-shapes.$$
echo "shapes: $((n - bad)) of $n verdicts as expected"
[ "$bad" -eq 0 ] && [ "$n" -gt 0 ]

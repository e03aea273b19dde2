#!/bin/sh
# tests/corpus.sh - every row of ../shared/litmus/{x86,x86_64}/expected.tsv:
# `wmx explore --model sc` and `--model tso` must give herd7's verdict
# (allowed/forbidden) and observation (Never/Sometimes/Always).  Fails if even
# one differs; prints how many agree.  RUNS lists model:algo pairs
# ("default" = wmx's default algorithm).
set -u
WMX=${WMX:-./wmx}
RUNS=${RUNS:-sc:default tso:default sc:odpor}
root=../shared/litmus
if [ ! -d "$root" ]; then
  echo "corpus: $root not found" >&2
  exit 1
fi
agree=0; total=0; bad=0
for dialect in x86 x86_64; do
  tsv=$root/$dialect/expected.tsv
  tail -n +2 "$tsv" > /tmp/wmx-corpus.$$
  while IFS='	' read -r test sc tso sc_obs tso_obs rest; do
    file=$root/$dialect/$test
    for run in $RUNS; do
      model=${run%%:*}; algo=${run#*:}
      if [ "$algo" = default ]; then algo_opt=""; else algo_opt="--algo $algo"; fi
      if [ "$model" = sc ]; then want=$sc; want_obs=$sc_obs; else want=$tso; want_obs=$tso_obs; fi
      [ "$want" = "-" ] && continue
      total=$((total + 1))
      out=$("$WMX" explore --model "$model" $algo_opt --format herd --timeout 60 "$file" 2>&1)
      obs=$(printf '%s\n' "$out" | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p')
      case "$obs" in
        Never) got=forbidden ;;
        Sometimes|Always) got=allowed ;;
        *) got="error" ;;
      esac
      if [ "$got" = "$want" ] && [ "$obs" = "$want_obs" ]; then
        agree=$((agree + 1))
      else
        bad=$((bad + 1))
        echo "corpus: MISMATCH $dialect/$test model=$model algo=$algo want=$want/$want_obs got=$got/$obs" >&2
        printf '%s\n' "$out" | head -n 5 | sed 's/^/    /' >&2
      fi
    done
  done < /tmp/wmx-corpus.$$
  rm -f /tmp/wmx-corpus.$$
done
echo "corpus ($RUNS): $agree of $total verdicts agree with herd7"
[ "$bad" -eq 0 ] && [ "$total" -gt 0 ]

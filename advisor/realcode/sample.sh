#!/bin/sh
# Draws the judged sample of REALCODE.md: from the findings of an evaluation
# (evaluate.sh) on files nvcc accepts, every finding of a rule with at most
# PER_RULE of them, else PER_RULE drawn at random (a fixed seed, so the
# draw is repeatable). Prints file, line, column, rule, message, one per
# line, for judging.
#   advisor/realcode/sample.sh toolkit|shim [PER_RULE] [SEED]   (default 20, 1)
# (CORPUS=NAME: the corpus of advisor/realcode/NAME/, see corpus.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
mode=${1:?usage: sample.sh toolkit|shim [PER_RULE] [SEED]}
per_rule=${2:-20}
seed=${3:-1}
eval=$root/$data/eval-$mode
awk -F'\t' 'NR == FNR { if ($2 == "0") ok[$1] = 1; next } ($1 in ok)' "$eval/results.tsv" "$eval/findings.tsv" |
  awk -F'\t' -v seed="$seed" 'BEGIN { srand(seed) } { printf "%.12f\t%s\n", rand(), $0 }' |
  LC_ALL=C sort -t'	' -k5,5 -k1,1 | cut -f2- |
  awk -F'\t' -v n="$per_rule" '{ if (++taken[$4] <= n) print }'

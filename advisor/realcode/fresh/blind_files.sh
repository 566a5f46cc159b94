#!/bin/sh
# The files read for the blind list (known.tsv of this folder): of the fresh
# corpus's .cu files that nvcc accepts (CORPUS=fresh nvcc.sh's verdicts in
# .realcode/fresh/nvcc.tsv), in files.sh order (sorted per code base), those
# whose text contains "__global__", numbered from 1; every STEP-th of them
# from the first (1, 1 + STEP, ...). Every kernel defined in a chosen file's
# own text was read (not kernels of the headers it includes).
#   advisor/realcode/fresh/blind_files.sh [STEP]   (default 3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
[ -s .realcode/fresh/nvcc.tsv ] || { echo "blind_files: run CORPUS=fresh advisor/realcode/nvcc.sh first" >&2; exit 1; }
CORPUS=fresh "$here/../files.sh" | cut -f2 | while read -r path; do
  awk -F'\t' -v p="$path" '$1 == p && $2 == 0 { ok = 1 } END { exit !ok }' .realcode/fresh/nvcc.tsv &&
    grep -q '__global__' "$path" && echo "$path"
done | awk -v step="${1:-3}" '(NR - 1) % step == 0'

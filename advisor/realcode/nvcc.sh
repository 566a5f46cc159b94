#!/bin/sh
# The reference front end: does nvcc accept each corpus file? Runs
#   nvcc -arch=sm_90 --cuda -o /dev/null -I<dirs> <flags> <nvcc-flags> FILE
# (front ends and device code generation, no host object) on every file
# of files.sh and writes .realcode/nvcc.tsv:
#   <path> TAB <exit status> TAB <seconds> TAB <first error line>
# Results are kept: a file already in nvcc.tsv is not compiled again (the
# code bases are fixed snapshots), so reruns cost nothing.
#   advisor/realcode/nvcc.sh [JOBS]      (default 2)
# (ONLY=REGEX in the environment: only the files whose line of files.sh
# matches, as for evaluate.sh; NVCC_TIMEOUT=SECONDS: the limit per file,
# default 300, after which the file counts as rejected with status 124)
# CORPUS=NAME: the corpus of advisor/realcode/NAME/, verdicts in
# .realcode/NAME/nvcc.tsv (corpus.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
cd "$root"
jobs=${1:-2}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
out=$data/nvcc.tsv
touch "$out"
FOR=nvcc "$here/files.sh" | grep -E "${ONLY:-.}" | while IFS='	' read -r name path flags; do
  grep -q "^$path	" "$out" || printf '%s\t%s\n' "$path" "$flags"
done | tr '\n' '\0' | xargs -0 -r -P "$jobs" -n 1 sh -c '
  path=$(printf "%s" "$1" | cut -f1); flags=$(printf "%s" "$1" | cut -f2)
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  err=$(timeout "${NVCC_TIMEOUT:-300}" "$0" -arch=sm_90 --cuda -o /dev/null $flags "$path" 2>&1); rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  first=$(printf "%s\n" "$err" | grep -m1 -E "error|fatal" | tr "\t" " " | cut -c1-300)
  printf "%s\t%s\t%.2f\t%s\n" "$path" "$rc" "$secs" "$first"
' "$nvcc" >> "$out"
awk -F'\t' '{n++; ok += $2 == 0} END {printf "nvcc: %d files, %d accepted\n", n, ok}' "$out"

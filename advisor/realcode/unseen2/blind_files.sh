#!/bin/sh
# The files read for the blind list (known.tsv of this folder). Of the
# unseen2 corpus's .cu files that nvcc accepts (CORPUS=unseen2 nvcc.sh's
# verdicts in .realcode/unseen2/nvcc.tsv), in files.sh order (sorted per code
# base), the candidates are those whose own text contains "__global__" or
# whose include closure holds a header of the same code base whose text
# contains "__global__" (a kernel defined in a header); numbered from 1 per
# code base, every STEP-th of them from the first (1, 1 + STEP, ...). STEP
# per code base, fixed by the size of its accepted files' text before any
# kernel was read: kaldi 2 (8 candidates, about 120 KB), cbarch 3 (22
# candidates), mumax3 2 (65 small candidates), darknet, optim-gpu and
# cuda-by-example 1 (all their candidates). mumax3 and cuda-by-example
# were added to the corpus after the other code bases had been read, each
# STEP fixed before any of that code base's kernels was read.
# The include closure is nvcc's own (nvcc -M with the file's flags of
# files.sh, so #if branches are taken as nvcc takes them), cached in
# .realcode/unseen2/deps/.
# Prints one line per chosen file and one per header:
#   F TAB <code base> TAB <path of a chosen .cu>
#   H TAB <code base> TAB <path of a header with "__global__" in the
#                          closure of a chosen .cu> (each header once)
# Every kernel defined in a chosen file's own text, and every kernel defined
# in a listed header, was read, with its launches and the template
# arguments the code base instantiates it with (BLIND.md).
#   advisor/realcode/unseen2/blind_files.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
data=.realcode/unseen2
[ -s $data/nvcc.tsv ] || { echo "blind_files: run CORPUS=unseen2 advisor/realcode/nvcc.sh first" >&2; exit 1; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p $data/deps
# closure FILE FLAGS: the code base's files that FILE includes, one a line
# (paths from the repository root, normalised).
closure() {
  dep=$data/deps/$(printf '%s' "${1#"$data"/}" | tr / _).d
  if [ ! -s "$dep" ]; then
    # shellcheck disable=SC2086
    "$nvcc" -arch=sm_90 -M $2 "$1" > "$dep.tmp" 2>/dev/null ||
      echo "blind_files: nvcc -M failed on $1 (its headers are not listed)" >&2
    mv "$dep.tmp" "$dep"
  fi
  tr ' \\' '\n\n' < "$dep" | grep -v ':$' | grep . | while read -r p; do
    realpath -m --relative-to="$root" "$p"
  done | grep "^$data/$3/" | sort -u
}
FOR=nvcc CORPUS=unseen2 "$here/../files.sh" | while IFS='	' read -r name path flags; do
  awk -F'\t' -v p="$path" '$1 == p && $2 == 0 { ok = 1 } END { exit !ok }' $data/nvcc.tsv || continue
  headers=$(closure "$path" "$flags" "$name" | grep -vxF "$path" | while read -r h; do
    grep -q '__global__' "$h" && echo "$h"; done || true)
  if grep -q '__global__' "$path" || [ -n "$headers" ]; then
    printf 'C\t%s\t%s\n' "$name" "$path"
    [ -z "$headers" ] || printf '%s\n' "$headers" | sed "s|^|h\t$name\t|"
  fi
done | awk -F'\t' '
  function step(b) { return b == "kaldi" ? 2 : b == "cbarch" ? 3 : b == "mumax3" ? 2 : 1 }
  $1 == "C" { chosen = (n[$2]++ % step($2)) == 0; if (chosen) print "F\t" $2 "\t" $3; next }
  $1 == "h" && chosen && !seen[$3]++ { h[++nh] = "H\t" $2 "\t" $3 }
  END { for (i = 1; i <= nh; i++) print h[i] | "LC_ALL=C sort" }'

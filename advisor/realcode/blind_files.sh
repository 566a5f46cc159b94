#!/bin/sh
# The files read for a blind list (known.tsv of advisor/realcode/$CORPUS/:
# unseen, unseen2, unseen3). Of the corpus's .cu files that nvcc accepts
# (CORPUS=<folder> nvcc.sh's verdicts in .realcode/<folder>/nvcc.tsv), in
# files.sh order (sorted per code base), the candidates are those whose own
# text contains "__global__" or whose include closure holds a header of the
# same code base whose text contains "__global__" (a kernel defined in a
# header); numbered from 1 per code base, every STEP-th of them from the
# first (1, 1 + STEP, ...). STEP per code base is read from
# advisor/realcode/<folder>/steps.tsv (name TAB step; # comments; a code
# base not named there has STEP 1, all its candidates); each folder's
# BLIND.md says how its steps were fixed (by the code base's size, before
# any of its kernels was read).
# The include closure is nvcc's own (nvcc -M with the file's flags of
# files.sh, so #if branches are taken as nvcc takes them), cached in
# .realcode/<folder>/deps/.
# Prints one line per chosen file and one per header:
#   F TAB <code base> TAB <path of a chosen .cu>
#   H TAB <code base> TAB <path of a header with "__global__" in the
#                          closure of a chosen .cu> (each header once)
# Every kernel defined in a chosen file's own text, and every kernel defined
# in a listed header, was read, with its launches and the template
# arguments the code base instantiates it with (BLIND.md).
#   CORPUS=unseen3 advisor/realcode/blind_files.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ -n "${CORPUS:-}" ] || { echo "blind_files: set CORPUS to a blind list's folder (unseen, unseen2, unseen3)" >&2; exit 2; }
# shellcheck source=advisor/realcode/corpus.sh disable=SC2154  # sets $lists and $data
. "$here/corpus.sh"
cd "$root"
[ -s "$data/nvcc.tsv" ] || { echo "blind_files: run CORPUS=$CORPUS advisor/realcode/nvcc.sh first" >&2; exit 1; }
steps=$lists/steps.tsv
[ -f "$steps" ] || steps=/dev/null
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$data/deps"
# closure FILE FLAGS NAME: the code base's files that FILE includes, one a
# line (paths from the repository root, normalised).
closure() {
  dep=$data/deps/$(printf '%s' "${1#"$data"/}" | tr / _).d
  if [ ! -s "$dep" ]; then
    # shellcheck disable=SC2086
    "$nvcc" -arch=sm_90 -M $2 "$1" > "$dep.tmp" 2>/dev/null ||
      echo "blind_files: nvcc -M failed on $1 (its headers are not listed)" >&2
    mv "$dep.tmp" "$dep"
  fi
  # shellcheck disable=SC1003,SC2020  # spaces and backslashes to newlines
  tr ' \\' '\n\n' < "$dep" | grep -v ':$' | grep . | while read -r p; do
    realpath -m --relative-to="$root" "$p"
  done | grep "^$data/$3/" | sort -u
}
FOR=nvcc "$here/files.sh" | while IFS='	' read -r name path flags; do
  awk -F'\t' -v p="$path" '$1 == p && $2 == 0 { ok = 1 } END { exit !ok }' "$data/nvcc.tsv" || continue
  headers=$(closure "$path" "$flags" "$name" | grep -vxF "$path" | while read -r h; do
    grep -q '__global__' "$h" && echo "$h"; done || true)
  if grep -q '__global__' "$path" || [ -n "$headers" ]; then
    printf 'C\t%s\t%s\n' "$name" "$path"
    [ -z "$headers" ] || printf '%s\n' "$headers" | sed "s|^|h\t$name\t|"
  fi
done | awk -F'\t' -v steps="$steps" '
  BEGIN { while ((getline line < steps) > 0) { if (line ~ /^#/ || line == "") continue
            split(line, f, "\t"); step_of[f[1]] = f[2] + 0 } }
  function step(b) { return (b in step_of) && step_of[b] > 0 ? step_of[b] : 1 }
  $1 == "C" { chosen = (n[$2]++ % step($2)) == 0; if (chosen) print "F\t" $2 "\t" $3; next }
  $1 == "h" && chosen && !seen[$3]++ { h[++nh] = "H\t" $2 "\t" $3 }
  END { for (i = 1; i <= nh; i++) print h[i] | "LC_ALL=C sort" }'

#!/bin/sh
# Prints one line per .cu file of the laid-out corpus (layout.sh):
#   <code base> TAB <path from the repository root> TAB <flags>
# flags: -I of the include-dirs column, then the optional flags column
# (front-end flags for nvcc and warplint alike, e.g. -D...); with FOR=nvcc
# in the environment also the optional nvcc-flags column (flags only nvcc
# takes, e.g. --extended-lambda). Both columns may be left out or be -.
# Sourced by nvcc.sh and evaluate.sh; sorted, so runs are comparable.
# CORPUS=NAME: the corpus of advisor/realcode/NAME/ (corpus.sh).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
grep -v '^#' "$lists/corpus.tsv" | while IFS='	' read -r name repo commit licence files includes extra nvcc_extra; do
  base=$data/$name
  [ -d "$root/$base" ] || { echo "files: $name is not laid out (run advisor/realcode/layout.sh)" >&2; continue; }
  flags=""
  if [ "$includes" != "-" ]; then
    for d in $(echo "$includes" | tr , ' '); do flags="$flags -I$base/$d"; done
  fi
  [ -z "${extra:-}" ] || [ "$extra" = "-" ] || flags="$flags $extra"
  [ "${FOR:-}" != nvcc ] || [ -z "${nvcc_extra:-}" ] || [ "$nvcc_extra" = "-" ] || flags="$flags $nvcc_extra"
  (cd "$root/$base" && find . -path "$files" -name '*.cu' -type f | sed 's|^\./||' | LC_ALL=C sort) |
    while read -r f; do printf '%s\t%s/%s\t%s\n' "$name" "$base" "$f" "${flags# }"; done
done

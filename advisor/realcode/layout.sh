#!/bin/sh
# Lays out the code bases of corpus.tsv, each at its recorded commit, from the
# snapshots that the search tool's fetch brought (bare git folders), into
# .realcode/<name>/ at the repository root (git-ignored).
#   advisor/realcode/layout.sh [MIRROR [NAME]]   (default /work/.mirror; NAME: that code base only)
# CORPUS=NAME: the code bases of advisor/realcode/NAME/corpus.tsv, laid out
# into .realcode/NAME/ (corpus.sh).
set -euf  # -f: the patterns below are for git, not the shell
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
mirror=${1:-/work/.mirror}
dest=$root/$data
source_patterns="*.cu *.cuh *.h *.hh *.hpp *.hxx *.inl *.inc *.c *.cc *.cpp *.cxx *.def *.tcc *.txt *.cmake *.ll"
mkdir -p "$dest"
grep -v '^#' "$lists/corpus.tsv" | while IFS='	' read -r name repo commit licence files includes extra nvcc_extra; do
  [ -z "${2:-}" ] || [ "$name" = "$2" ] || continue
  git_dir=$mirror/$(echo "$repo" | tr / +)/repo
  if [ ! -d "$git_dir" ]; then
    echo "layout: $name: no snapshot at $git_dir (fetch github:$repo first)" >&2
    exit 1
  fi
  if ! git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "layout: $name: commit $commit is not in $git_dir" >&2
    exit 1
  fi
  rm -rf "$dest/$name.tmp"
  mkdir -p "$dest/$name.tmp"
  # Sources only: snapshots lack files of 4 MiB and more (data sets). Only
  # the patterns that match something: git archive refuses the others.
  present=$(git --git-dir="$git_dir" ls-tree -r --name-only "$commit" | sed -n 's/.*\(\.[A-Za-z]*\)$/*\1/p' | sort -u)
  patterns=$(for p in $source_patterns; do echo "$present" | grep -qxF "$p" && echo "$p"; done | tr '\n' ' ')
  # Files whose objects the snapshot lacks are left out by name (git archive
  # stops at the first missing object).
  tree=$(git --git-dir="$git_dir" ls-tree -r "$commit" | awk '$2 == "blob"')
  lost=$(echo "$tree" | awk '{ print $3 }' | git --git-dir="$git_dir" cat-file --batch-check |
    awk '$2 == "missing" { print $1 }')
  missing_paths=$(echo "$tree" | awk -v lost="$lost" 'BEGIN { n = split(lost, l, "\n"); for (i = 1; i <= n; i++) gone[l[i]] = 1 }
    ($3 in gone) { sub(/^[^\t]*\t/, ""); print ":(exclude)" $0 }')
  git --git-dir="$git_dir" archive "$commit" -- $patterns $missing_paths | tar -x -C "$dest/$name.tmp"
  rm -rf "$dest/$name"
  mv "$dest/$name.tmp" "$dest/$name"
  count=$(cd "$dest/$name" && find . -path "$files" -name '*.cu' | wc -l)
  echo "layout: $name ($repo @ ${commit%"${commit#???????????}"}): $count .cu files"
done

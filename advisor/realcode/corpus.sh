# shellcheck shell=sh disable=SC2034,SC2154  # sourced: uses the caller's $here, sets $lists and $data for it
# Sourced by the real-code scripts: which corpus they work on. CORPUS in the
# environment names one (a folder of advisor/realcode/ with its own
# corpus.tsv, known.tsv and judged*.tsv, e.g. CORPUS=fresh); unset, the
# first corpus (corpus.tsv of this folder). Sets, from $here (this folder)
# and $root (the repository root):
#   lists  the folder of corpus.tsv, known.tsv, judged*.tsv
#   data   where the corpus is laid out and its results go, relative to the
#          repository root (git-ignored): .realcode or .realcode/$CORPUS
if [ -n "${CORPUS:-}" ]; then
  case $CORPUS in */* | .*) echo "CORPUS is a folder name of advisor/realcode/ (fresh), not a path" >&2; exit 2 ;; esac
  lists=$here/$CORPUS
  data=.realcode/$CORPUS
  [ -s "$lists/corpus.tsv" ] || { echo "CORPUS=$CORPUS: no $lists/corpus.tsv" >&2; exit 2; }
else
  lists=$here
  data=.realcode
fi

#!/bin/sh
# The numbers of REALCODE.md from the committed judgements:
#   judged*.tsv random samples of findings (sample.sh), judged by reading
#               the code: path, line, rule, verdict (right | wrong |
#               unclear), reason; one table per file (judged.tsv: the
#               first sample; judged-after-fixes.tsv: the rules that had
#               wrong findings, sampled again after the fixes)
#   known.tsv   anti-patterns found by reading the code, without warplint:
#               path, line, rule, array, reason
# Precision per rule counts right / (right + wrong) (unclear left out and
# counted apart); recall counts the known anti-patterns warplint reports on
# their line with their rule, in an evaluation's findings (evaluate.sh).
# Then the evaluation's own distinct findings (path, line, rule) against
# every judged*.tsv: right, wrong, unclear and not judged per rule.
#   advisor/realcode/score.sh [toolkit|shim|toolkit-LABEL]     (default toolkit)
# CORPUS=NAME: the judgements and known list of advisor/realcode/NAME/ and
# that corpus's evaluation (corpus.sh). ROWS=FIRST-LAST: recall on those
# rows of known.tsv only (a list written in parts, BLIND.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
findings=$root/$data/eval-${1:-toolkit}/findings.tsv
for judged in "$lists"/judged*.tsv; do
[ -e "$judged" ] || continue
echo "Precision per rule ($(basename "$judged")):"
echo
echo "| rule | judged | right | wrong | unclear | precision |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
awk -F'\t' '{ n[$3]++; v[$3, $4]++ }
  END { for (r in n) printf "| %s | %d | %d | %d | %d | %.2f |\n", r, n[r], v[r, "right"], v[r, "wrong"],
          v[r, "unclear"], (v[r, "right"] + v[r, "wrong"]) ? v[r, "right"] / (v[r, "right"] + v[r, "wrong"]) : 0 }' \
  "$judged" | sort
awk -F'\t' '{ n++; r += $4 == "right"; w += $4 == "wrong" }
  END { printf "| all | %d | %d | %d | %d | %.3f |\n", n, r, w, n - r - w, r / (r + w) }' "$judged"
echo
done
[ -s "$findings" ] || { echo "score: no $findings (run evaluate.sh) for recall" >&2; exit 1; }
echo "Recall on the known anti-patterns:"
echo
awk -F'\t' -v rows="${ROWS:-}" 'BEGIN { if (rows != "") { split(rows, span, "-"); first = span[1]; last = span[2] } }
  NR == FNR { hit[$1 "\t" $2 "\t" $4] = 1; next }
  first && (FNR < first || FNR > last) { next }
  { total[$3]++; all++; if (($1 "\t" $2 "\t" $3) in hit) { found[$3]++; f++ } else missed = missed sprintf("  missed: %s:%s %s %s\n", $1, $2, $3, $4) }
  END { print "| rule | known | found | recall |"; print "| --- | ---: | ---: | ---: |"
        for (r in total) printf "| %s | %d | %d | %.2f |\n", r, total[r], found[r], found[r] / total[r]
        printf "| all | %d | %d | %.3f |\n", all, f, f / all; printf "%s", missed }' "$findings" "$lists/known.tsv"
echo
echo "Precision of this evaluation's findings (every judged*.tsv):"
echo
cat "$lists"/judged*.tsv | awk -F'\t' 'NR == FNR { v[$1 FS $2 FS $3] = $4; next }
  { k = $1 FS $2 FS $4; if (seen[k]++) next; n[$4]++; c[$4, (k in v) ? v[k] : "unjudged"]++ }
  END { print "| rule | reported | right | wrong | unclear | not judged |"; print "| --- | ---: | ---: | ---: | ---: | ---: |"
        for (r in n) { printf "| %s | %d | %d | %d | %d | %d |\n", r, n[r], c[r, "right"], c[r, "wrong"], c[r, "unclear"], c[r, "unjudged"]
                       t += n[r]; tr += c[r, "right"]; tw += c[r, "wrong"]; tc += c[r, "unclear"]; tu += c[r, "unjudged"] }
        printf "| all | %d | %d | %d | %d | %d |\n", t, tr, tw, tc, tu }' - "$findings"

#!/bin/sh
# The summary table of an evaluation (evaluate.sh), per code base and in all:
#   advisor/realcode/summary.sh toolkit|shim
# (CORPUS=NAME: the corpus of advisor/realcode/NAME/, see corpus.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
results=$root/$data/eval-${1:?usage: summary.sh toolkit|shim}/results.tsv
findings=$root/$data/eval-$1/findings.tsv
[ -s "$results" ] || { echo "summary: no $results (run evaluate.sh)" >&2; exit 1; }

echo "warplint on real code, headers: $1"
echo
echo "| code base | .cu files | nvcc accepts | parsed clean | analysed (parse errors outside kernels tolerated) | skipped | crashes | hangs | kernels analysed | kernels skipped | s/file (median) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -F'\t' -v data="$data" '
  function base(p) { split(substr(p, length(data) + 2), a, "/"); return a[1] }
  function median(list, n,   i, j, t, v) {
    split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n ? (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) : 0
  }
  function row(b) {
    printf "| %s | %d | %d | %d (%.1f%%) | %d (%.1f%%) | %d | %d | %d | %d | %d | %.2f |\n", b, files[b], ok[b],
      clean[b], ok[b] ? 100 * clean[b] / ok[b] : 0, analysed[b], ok[b] ? 100 * analysed[b] / ok[b] : 0,
      skipped[b], crash[b], hang[b], kernels[b], kskipped[b], median(times[b], ok[b])
  }
  {
    for (k = 1; k <= 2; k++) {
      b = k == 1 ? base($1) : "all"
      files[b]++
      if ($2 != "0") continue
      ok[b]++
      times[b] = times[b] " " $4
      clean[b] += $5 == "clean"
      analysed[b] += $5 == "clean" || $5 == "tolerated"
      skipped[b] += $5 == "skipped"; crash[b] += $5 == "crash"; hang[b] += $5 == "hang"
      kernels[b] += $6; kskipped[b] += $7
    }
    if (!(base($1) in seen)) { seen[base($1)] = 1; order[++n] = base($1) }
  }
  END { for (i = 1; i <= n; i++) row(order[i]); row("all") }
' "$results"
echo
echo "Crashes and hangs over every file (nvcc-accepted or not): $(awk -F'\t' '$5 == "crash" || $5 == "hang"' "$results" | wc -l)"
echo
echo "Findings per rule (nvcc-accepted files):"
awk -F'\t' 'NR == FNR { if ($2 == "0") ok[$1] = 1; next } ($1 in ok) { n[$4]++ } END { for (r in n) printf "  %s %d\n", r, n[r] }' \
  "$results" "$findings" | sort

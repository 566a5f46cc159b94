#!/usr/bin/env bash
# Every folder of measured data left in the tree is cited: its path
# (".../data/NAME" or ".../raw/NAME") appears in a Markdown file outside the
# data folders, a README or a RESULTS that says what the run is evidence
# of. A data folder's own README (the history of deleted runs, the list of
# the kept ones) does not count. Runs no document cites are recorded in a
# history table and deleted (issue 21).
#   test_data_cited.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: test_data_cited.sh SOURCE_DIR}" || exit 1
passed=0 failed=0
docs=$(git ls-files '*.md' 2>/dev/null | grep -v -e '/data/' -e '^build' ||
       find . -name '*.md' -not -path '*/data/*' -not -path './build*' | sed 's|^\./||')
for folder in benchmarks/data/raw/*/ casestudies/lab/data/*/ casestudies/matmul/data/*/ mnf/data/*/; do
  [ -d "$folder" ] || continue
  folder=${folder%/}
  name=$(basename "$folder") parent=$(basename "$(dirname "$folder")")
  # shellcheck disable=SC2086  # docs is a list of paths without blanks
  if grep -qE "(^|[^A-Za-z0-9_.-])$parent/$name([^A-Za-z0-9_-]|$)" $docs; then
    passed=$((passed + 1))
  else
    echo "FAILED: $folder is cited by no README or RESULTS: cite it, or record it in its data folder's history and delete it"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $passed -gt 0 ] && [ $failed -eq 0 ]

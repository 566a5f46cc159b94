#!/usr/bin/env bash
# Every repository path a Markdown file quotes in backticks (`dir/file.ext`)
# exists, read from the Markdown file's folder or one above it: a README that
# names a file that moved or is not in the repository fails. Paths starting
# with a placeholder in capitals (BUILD_DIR/..., DIR/...) are examples, not
# files. Build folders (build*/) are not read.
#   test_doc_paths.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: test_doc_paths.sh SOURCE_DIR}
cd "$source_dir" || exit 1
extensions='json\|jsonl\|md\|c\|h\|cu\|cuh\|sh\|txt\|tsv\|csv\|png\|py\|cmake\|yaml'
checked=0 failed=0
while IFS= read -r md; do
  while IFS= read -r path; do
    case ${path%%/*} in *[a-z]*) ;; *) continue ;; esac
    dir=$(dirname "$md")
    until [ -e "$dir/$path" ] || [ "$dir" = . ]; do dir=$(dirname "$dir"); done
    checked=$((checked + 1))
    if [ ! -e "$dir/$path" ]; then
      echo "FAILED: $md names \`$path\`, which is not in the repository"
      failed=$((failed + 1))
    fi
  done < <(grep -o "\`[A-Za-z0-9_.][A-Za-z0-9_./-]*/[A-Za-z0-9_][A-Za-z0-9_.-]*\.\($extensions\)\`" "$md" | tr -d '`')
done < <(find . -name '*.md' -not -path './build*' -not -path '*/.git/*' -not -path './.devrun/*' | sort)
echo "$checked paths checked; $failed not found"
[ $checked -gt 0 ] && [ $failed -eq 0 ]

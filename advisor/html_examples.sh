#!/usr/bin/env bash
# The example HTML reports linked from the READMEs: warplint check
# --format=html on a few matmul versions and one MNF kernel, against the
# H100 profile. Without --record it regenerates them in a temporary folder
# and fails if a committed report differs (CTest: test_warplint_html_examples);
# after a deliberate change (a profile, a check, the page) re-record with
#   advisor/html_examples.sh build/bin/warplint --record
#
#   html_examples.sh WARPLINT [--record]
set -uo pipefail
warplint=${1:?usage: html_examples.sh WARPLINT [--record]}
mode=${2:-check}
case $warplint in /*) ;; *) warplint=$PWD/$warplint ;; esac
cd "$(dirname "$0")/.."   # the paths in the reports stay relative to the repository
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# report OUTPUT SOURCE INCLUDE_DIRS...: one page for one source file. The
# stand-in headers (--shim) keep the page independent of the CUDA toolkit
# installed, as the include paths are given.
report() {
  local page=$1 source=$2
  shift 2
  local includes=()
  for dir in "$@"; do includes+=("-I$dir"); done
  mkdir -p "$out/$(dirname "$page")"
  "$warplint" check --shim --gpu h100-sxm --format=html -o "$out/$page" "$source" -- "${includes[@]}" 2>/dev/null
  if [ $? -ge 2 ]; then echo "html_examples: warplint failed on $source" >&2; exit 1; fi
}

matmul="common casestudies/matmul"
report casestudies/matmul/reports/01_naive.html casestudies/matmul/01_naive.cu $matmul
report casestudies/matmul/reports/02_tiled16.html casestudies/matmul/02_tiled16.cu $matmul
report casestudies/matmul/reports/07_vectorized.html casestudies/matmul/07_vectorized.cu $matmul
report casestudies/matmul/reports/transposed_unpadded.html casestudies/matmul/extra/transposed_unpadded.cu $matmul
report mnf/reports/filter_v0_median.html mnf/gpu/filter_v0_median.cu common mnf mnf/gpu

failed=0
for page in $(cd "$out" && find . -name '*.html' | sort); do
  page=${page#./}
  if [ "$mode" = --record ]; then
    mkdir -p "$(dirname "$page")" && cp "$out/$page" "$page" && echo "html_examples: recorded $page"
  elif cmp -s "$out/$page" "$page"; then
    echo "ok: $page is current"
  else
    echo "FAILED: $page differs from warplint's page now (re-record: advisor/html_examples.sh WARPLINT --record)"
    diff "$page" "$out/$page" | head -20
    failed=$((failed + 1))
  fi
done
[ "$failed" = 0 ]

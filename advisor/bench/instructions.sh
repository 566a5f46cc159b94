#!/bin/sh
# The analysis's cost as instructions, which the load of a shared machine
# does not disturb: each pass of warplint_bench alone under valgrind's
# callgrind (every thread counted), then the ratio. Appends a result line
# to data/overhead.jsonl.
#   advisor/bench/instructions.sh BUILD_DIR LIST [CUDA_TOOLKIT]
# LIST: a file naming the .cu files, one per line. Expect about 15 s per
# file and pass under valgrind.
set -eu
build=${1:?usage: instructions.sh BUILD_DIR LIST [CUDA_TOOLKIT]}
list=${2:?usage: instructions.sh BUILD_DIR LIST [CUDA_TOOLKIT]}
toolkit=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {  # the instructions callgrind collected for one pass
  # shellcheck disable=SC2046
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" "$build/bin/warplint_bench" --copies 1 \
    --pass "$1" ${toolkit:+--cuda-path "$toolkit"} $(cat "$list") 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
parse=$(count parse)
analysis=$(count analysis)
files=$(wc -l < "$list")
ratio=$(echo "scale=4; $analysis / $parse" | bc)
headers=stand-ins
[ -z "$toolkit" ] || headers=toolkit
echo "instructions: parse $parse, analysis $analysis, ratio $ratio over $files files (headers: $headers)"
mkdir -p "$here/data"
printf '{"schema":"warpmem.result/1","suite":"advisor","name":"warplint_overhead_instructions","device":"none","params":{"files":%d,"headers":"%s"},"metric":"analysis_over_parse","unit":"ratio","median":%s,"parse_instructions":%s,"analysis_instructions":%s}\n' \
  "$files" "$headers" "$ratio" "$parse" "$analysis" >> "$here/data/overhead.jsonl"

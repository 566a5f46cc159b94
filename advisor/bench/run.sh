#!/bin/sh
# Times warplint over the repository's own CUDA sources (every .cu file
# under the source tree, each analysed COPIES times) against a bare libclang
# parse of the same files, and prints the ratio.
#   advisor/bench/run.sh BUILD_DIR [COPIES] [REPEATS] [CUDA_TOOLKIT]
# With CUDA_TOOLKIT (e.g. /usr/local/cuda) both passes parse with its real
# headers, as warplint does by default where a toolkit is installed.
# FILES in the environment: a file listing the .cu files to time instead.
set -eu
build=${1:?usage: run.sh BUILD_DIR [COPIES] [REPEATS]}
copies=${2:-10}
repeats=${3:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
bench="$build/bin/warplint_bench"
[ -x "$bench" ] || { echo "run.sh: $bench not built (cmake --build $build --target warplint_bench)" >&2; exit 2; }
if [ -n "${FILES:-}" ]; then files=$(cat "$FILES")
else files=$(cd "$root" && git ls-files '*.cu' | sed "s|^|$root/|"); fi
[ -n "$files" ] || { echo "run.sh: no .cu files tracked in $root" >&2; exit 2; }
mkdir -p "$root/advisor/bench/data"
# shellcheck disable=SC2086
"$bench" --copies "$copies" --repeats "$repeats" --results "$root/advisor/bench/data/overhead.jsonl" \
  ${4:+--cuda-path "$4"} $files

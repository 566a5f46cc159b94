#!/bin/sh
# Times loading the GPU profiles (benchmarks/data/*.json) and the rule catalog
# (rules/catalog.json) with each candidate JSON library and with json_parse,
# and appends result lines to common/bench/data/json_load.jsonl.
#   common/bench/run.sh BUILD_DIR [REPEATS] [ROUNDS]
set -eu
build=${1:?usage: run.sh BUILD_DIR [REPEATS] [ROUNDS]}
repeats=${2:-31}
rounds=${3:-200}
root=$(cd "$(dirname "$0")/../.." && pwd)
bench="$build/bin/json_load_bench"
[ -x "$bench" ] || { echo "run.sh: $bench not built (needs libjansson-dev, libcjson-dev, libjson-c-dev)" >&2; exit 2; }
label="json_parse@$(git -C "$root" describe --always --dirty)"
mkdir -p "$root/common/bench/data"
"$bench" --repeats "$repeats" --rounds "$rounds" --label "$label" \
  --results "$root/common/bench/data/json_load.jsonl" \
  "$root"/benchmarks/data/*.json "$root/rules/catalog.json"

#!/usr/bin/env bash
# On a machine with a GPU: configure, build, run ALL tests (the `gpu` label
# included) and print a summary table last. Fails if any test fails, or if a
# GPU test was skipped although this machine has a GPU.
#
#   scripts/gpu-check.sh [--sanitize] [BUILD_DIR]        (default build-gpu)
#
# --sanitize: instead, every GPU test under each of compute-sanitizer's
# memcheck, racecheck, synccheck and initcheck, and `warpbench --tiny` (every
# kernel of the benchmark once, on the smallest sizes) the same way. The GPU
# test of the benchmark, test_bench_quick, is left to `warpbench --tiny`: all
# its GPU work is warpbench at the larger --quick sizes. The tests run with
# WARPMEM_TEST_SMALL=1 (small sizes, no timing claims: tests/README.md), each
# in a run of its own per tool, every run side by side (SANITIZE_JOBS at
# once, default 16; the tests that write files write them under fresh names),
# child processes tracked, each run stopped after SANITIZE_TIMEOUT seconds
# (default 300); the logs go to LOG_DIR/sanitizer/, a table of every run
# comes last, and any error, failed run or timeout fails. To run a part:
# SANITIZER_TOOLS (a list of tools) and SANITIZE_TESTS (a regular
# expression on the job names).
#
# On the lent GPU machine, which has no package registry: carry .devdeps
# (made by scripts/fetch-device-deps.sh) and it is unpacked into a private
# prefix when LAPACKE or json-c is missing (scripts/device-prefix.sh, shared
# by every device script); warplint is built only if libclang exists.
set -uo pipefail
cd "$(dirname "$0")/.."
sanitize=0
if [ "${1:-}" = --sanitize ]; then sanitize=1; shift; fi
build=${1:-build-gpu}
log_dir=${OUT:-$build}
mkdir -p "$build" "$log_dir"
flags=(-DCMAKE_BUILD_TYPE=Release)

. scripts/device-prefix.sh
if ! ls /usr/lib/llvm-1[7-9]/include/clang-c/Index.h /usr/lib/llvm-2*/include/clang-c/Index.h >/dev/null 2>&1; then
  flags+=(-DWITH_ADVISOR=OFF)
  echo "gpu-check: no libclang here: building without warplint (its tests run in CI)"
fi

device_configure -S . -B "$build" "${flags[@]}" >"$log_dir/configure.log" 2>&1 ||
  { cat "$log_dir/configure.log"; echo "gpu-check: configure failed"; exit 1; }
cmake --build "$build" -j "$(nproc)" >"$log_dir/build.log" 2>&1 ||
  { tail -50 "$log_dir/build.log"; echo "gpu-check: build failed"; exit 1; }
"$build/bin/gpu-info"

SANITIZER_TOOLS=${SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}

# Runs one sanitizer tool on one test; writes NAME.TOOL.log and
# NAME.TOOL.result (exit status, seconds). The command is shell-quoted, as
# tests.tsv holds it; a $tool in it names the tool (warpbench's output).
run_one() {
  local name=$1 workdir=$2 tool=$4 start rc
  local -a argv
  eval "argv=($3)"
  start=$(date +%s)
  (cd "$workdir" && timeout "$SANITIZE_TIMEOUT" compute-sanitizer --tool "$tool" \
     --error-exitcode 86 --target-processes all --print-limit 20 "${argv[@]}") \
    >"$dir/$name.$tool.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - start ))" >"$dir/$name.$tool.result"
}

sanitize_all() {
  dir=$log_dir/sanitizer
  mkdir -p "$dir"
  export PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer
  command -v compute-sanitizer >/dev/null || { echo "gpu-check: compute-sanitizer not found"; return 1; }
  compute-sanitizer --version | tail -1
  # One job a line: NAME <tab> WORKING_DIRECTORY <tab> shell-quoted command,
  # from ctest's own list of the GPU tests.
  ctest --test-dir "$build" -L gpu --show-only=json-v1 | python3 -c '
import json, shlex, sys
for t in json.load(sys.stdin)["tests"]:
    if t["name"] == "test_bench_quick":
        continue
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    print("\t".join([t["name"], props.get("WORKING_DIRECTORY", "."), shlex.join(t["command"])]))
' >"$dir/tests.tsv" || { echo "gpu-check: cannot list the GPU tests"; return 1; }
  printf 'warpbench_tiny\t%s\t%q --tiny --out %q --name tiny-$tool\n' "$PWD" "$PWD/$build/bin/warpbench" \
    "$dir/warpbench" >>"$dir/tests.tsv"
  if [ -n "${SANITIZE_TESTS:-}" ]; then
    awk -F '\t' -v re="$SANITIZE_TESTS" '$1 ~ re' "$dir/tests.tsv" >"$dir/chosen.tsv"
    mv "$dir/chosen.tsv" "$dir/tests.tsv"
  fi

  export -f run_one
  export dir SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-300} WARPMEM_TEST_SMALL=1
  local tool
  while IFS=$'\t' read -r name workdir command; do
    for tool in $SANITIZER_TOOLS; do
      printf '%s\0%s\0%s\0%s\0' "$name" "$workdir" "$command" "$tool"
    done
  done <"$dir/tests.tsv" | xargs -0 -n 4 -P "${SANITIZE_JOBS:-16}" bash -c 'run_one "$@"' _

  echo
  printf '%-26s %-10s %5s %8s  %s\n' JOB TOOL EXIT SECONDS SUMMARY
  local failed=0 rc secs summary
  while IFS=$'\t' read -r name _ _; do
    for tool in $SANITIZER_TOOLS; do
      read -r rc secs <"$dir/$name.$tool.result"
      summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$dir/$name.$tool.log" | tail -1 | sed 's/^=* *//')
      [ "$rc" = 0 ] || failed=$((failed + 1))
      printf '%-26s %-10s %5s %8s  %s\n' "$name" "$tool" "$rc" "$secs" "${summary:-no summary}"
    done
  done <"$dir/tests.tsv"
  echo "gpu-check: compute-sanitizer: $failed job(s) failed (exit 124: timed out; 86: errors found)"
  [ $failed = 0 ]
}

if [ $sanitize = 1 ]; then
  sanitize_all
  exit $?
fi

ctest --test-dir "$build" --output-on-failure -j 1 2>&1 | tee "$log_dir/ctest.log"
ctest_rc=${PIPESTATUS[0]}

# Summary table: one row per test, from ctest's own result lines.
echo
printf '%-36s %-10s %10s\n' TEST RESULT SECONDS
sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) \.*[* ]*\([A-Za-z][A-Za-z ]*[a-z]\) *\([0-9.]*\) sec$/\1 \2 \3/p' \
  "$log_dir/ctest.log" | while read -r name result secs; do
  printf '%-36s %-10s %10s\n' "$name" "$result" "$secs"
done
# Only GPU tests must run here; a CPU test may skip for a tool this machine
# lacks (libFuzzer, GDAL).
gpu_tests=$(ctest --test-dir "$build" -L gpu -N | sed -n 's/^ *Test *#[0-9]*: *//p')
skipped=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (Skipped).*/\1/p' "$log_dir/ctest.log" |
  grep -Fxc -f <(echo "$gpu_tests") || true)
if "$build/bin/gpu-info" --probe && [ "$skipped" -gt 0 ]; then
  echo "gpu-check: $skipped GPU test(s) skipped although a GPU is present"
  exit 1
fi
exit $ctest_rc

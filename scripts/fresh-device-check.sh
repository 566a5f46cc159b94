#!/usr/bin/env bash
# One call on a fresh GPU machine, from a clean copy of the repository with
# .devdeps (scripts/fetch-device-deps.sh): what issue 21 asked to see there.
#   1. scripts/gpu-check.sh: configure (LAPACKE and json-c from .devdeps),
#      build, every test, the GPU ones included;
#   2. mnf/run_h100.sh with TESTS_ONLY=1 in a build folder of its own: its
#      set-up, build and MNF tests;
#   3. mnf-bench --solve-compare 1: S3, S5-S7 as two Dsyevd against one
#      Dsygvd, end to end against the transfer floor, for the three images;
#   4. mnf --impl cublas and cublas-gemm on the 150x200x64 float32 scene of
#      condition number 4e8: the warning line.
# Everything goes into $OUT/fresh-device-check.tgz (the logs), with the
# tables printed last.
#   scripts/fresh-device-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/fresh-device-check}
work=/tmp/fresh-device-check.work
rm -rf "$work" && mkdir -p "$out" "$work"
start=$(date +%s)
stamp() { echo "[$(($(date +%s) - start)) s] $*"; }

stamp "gpu-check"
OUT= scripts/gpu-check.sh build-gpu >"$work/gpu-check.txt" 2>&1
echo "gpu-check.sh exit $?" | tee -a "$work/gpu-check.txt"
cp build-gpu/ctest.log build-gpu/configure.log "$work/" 2>/dev/null
stamp "run_h100.sh TESTS_ONLY=1"
GPU_BUILD=build-mnf TESTS_ONLY=1 sh mnf/run_h100.sh "$work/run_h100" >"$work/run_h100.txt" 2>&1
echo "run_h100.sh exit $?" | tee -a "$work/run_h100.txt"
stamp "solve comparison"
build-gpu/bin/mnf-bench --out "$work" --solve-compare 1 >"$work/solve_compare.txt" 2>&1
echo "mnf-bench --solve-compare exit $?" >>"$work/solve_compare.txt"
stamp "cuBLAS variants on a kappa-4e8 scene"
build-gpu/bin/mnf-synth "$work/k.hdr" --size 150x200x64 --type float32 --kappa 4e8 --seed 21 >"$work/cublas.txt" 2>&1
for impl in gpu cublas cublas-gemm; do
  echo "== mnf --impl $impl" >>"$work/cublas.txt"
  build-gpu/bin/mnf "$work/k.hdr" -o "$work/z_$impl.hdr" --impl "$impl" --report "$work/report_$impl.json" \
    >>"$work/cublas.txt" 2>&1
  echo "exit $?" >>"$work/cublas.txt"
done
rm -f "$work"/k "$work"/z_* "$work"/k.hdr
stamp "done"
tar -czf "$out/fresh-device-check.tgz" -C "$work" .
echo
grep -E "^(TEST|test_|gpu_skip)|gpu-check" "$work/gpu-check.txt" | tail -45
grep -E "Test +#|tests passed|exit" "$work/run_h100.txt" "$work/run_h100/ctest.log" 2>/dev/null | sed 's/^.*ctest.log://' | tail -14
cat "$work/solve_compare.txt"
grep -E "^==|warning|wrote|exit" "$work/cublas.txt"

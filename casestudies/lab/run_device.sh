#!/bin/sh
# One device call for the lab: build the lab and its tests, run its CTests
# (test_lab_gpu: `lab check` on every teacher's solution), then `lab check`
# on every starting kernel, and print the measured tables last. Run from the
# repository root; writes under $OUT: gpu_state.txt, ctest.log,
# solutions.tar.gz and starts.tar.gz (each check's text and result lines),
# summary.txt.
#
# The GPU machine has no libclang (no warplint: the lab says "guidelines
# not checked"; test_lab_feedback runs in CI) and may lack LAPACKE and
# json-c: they come from .devdeps (scripts/device-prefix.sh), and the lab's
# targets are built alone. GPU_BUILD: the build folder (default build-lab).
set -u
OUT=${OUT:-/tmp/lab-out}
build=${GPU_BUILD:-build-lab}
results=/tmp/lab-results
mkdir -p "$OUT" $results/starts
state() {
  nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
    --format=csv "$@" >> "$OUT/gpu_state.txt" 2>&1
}
state
. scripts/device-prefix.sh
device_configure -S . -B $build -DCMAKE_BUILD_TYPE=Release -DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON \
  > $results/build.log 2>&1 &&
  cmake --build $build -j16 --target lab test_lab_cli test_lab_gpu >> $results/build.log 2>&1 ||
  { tail -40 $results/build.log; cp $results/build.log "$OUT"; exit 1; }

ctest --test-dir $build -R test_lab --output-on-failure > "$OUT/ctest.log" 2>&1
echo "ctest exit $?" >> "$OUT/ctest.log"
cp -r $build/tests/lab/gpu_results $results/solutions
cp $results/build.log $results/solutions/
tar czf "$OUT/solutions.tar.gz" -C $results solutions

for n in 1 2 3 4 5 6 7; do
  $build/bin/lab check $n --rounds 2 --repeats 5 --json $results/starts/$n.jsonl \
    > $results/starts/$n.txt 2>&1
  echo "lab check $n (starting kernel): exit $?" >> "$OUT/ctest.log"
done
state --format=csv,noheader
tar czf "$OUT/starts.tar.gz" -C $results starts

for f in $results/solutions/*.txt $results/starts/*.txt; do
  echo "== $(basename "$(dirname "$f")")/$(basename "$f")"
  grep -E '^  \| [a-z0-9_]+ \| (ok|WRONG)' "$f"
  grep -E '^guideline [A-Z]_|^your kernel' "$f"
done > "$OUT/summary.txt"
cat "$OUT/summary.txt"
grep -E "exit|tests passed|Passed|Failed|Skipped" "$OUT/ctest.log"

#!/bin/sh
# One device call for the lab: build the lab and its tests, run its CTests
# (test_lab_gpu: `lab check` on every teacher's solution), then `lab check`
# on every starting kernel, and print a table of the speed-ups last. Run
# from the repository root; writes everything under $OUT (at most 8 files:
# the checks' texts and result lines go in one tar file).
#
# The GPU machine has no libclang (no warplint: the lab says "guidelines
# not checked"; test_lab_feedback runs in CI) and may lack LAPACKE, which
# only the MNF study links: the lab's targets are built alone, with
# placeholders for LAPACKE's paths so that the configure step passes.
set -u
OUT=${OUT:-/tmp/lab-out}
build=build-lab
mkdir -p "$OUT" /tmp/lab-results/starts
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv > "$OUT/gpu_state.txt" 2>&1
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON \
  -DLAPACKE_INCLUDE_DIR=unused -DLAPACKE_LIBRARY=unused -DOpenBLAS_INCLUDE_DIR=unused \
  -DOpenBLAS_LIBRARY=unused > /tmp/lab-results/build.log 2>&1 &&
  cmake --build $build -j16 --target lab test_lab_cli test_lab_gpu >> /tmp/lab-results/build.log 2>&1 ||
  { tail -40 /tmp/lab-results/build.log; cp /tmp/lab-results/build.log "$OUT"; exit 1; }

ctest --test-dir $build -R test_lab --output-on-failure > "$OUT/ctest.log" 2>&1
echo "ctest exit $?" >> "$OUT/ctest.log"

for n in 1 2 3 4 5 6 7; do
  $build/bin/lab check $n --json /tmp/lab-results/starts/$n.jsonl > /tmp/lab-results/starts/$n.txt 2>&1
  echo "lab check $n (starting kernel): exit $?" >> "$OUT/ctest.log"
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader >> "$OUT/gpu_state.txt" 2>&1
cp -r $build/tests/lab/gpu_results /tmp/lab-results/solutions
tar czf "$OUT/lab-results.tar.gz" -C /tmp lab-results

# The measured tables last.
for f in /tmp/lab-results/solutions/*.txt /tmp/lab-results/starts/*.txt; do
  echo "== $(basename "$(dirname "$f")")/$(basename "$f")"
  grep -E '^  \| [a-z0-9_]+ \| (ok|WRONG)' "$f"
  grep -E '^guideline|^your kernel' "$f"
done | tee "$OUT/summary.txt"
tail -4 "$OUT/ctest.log"

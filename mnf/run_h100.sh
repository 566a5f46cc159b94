#!/bin/sh
# mnf/run_h100.sh OUT_DIR: the whole MNF measurement on a GPU machine, in one
# go (the device budget allows one call): builds only the MNF targets, runs
# the MNF tests (the kappa tests of issue 11 included), the benchmark
# (Tables 5-8, the float64 covariance against V7, apply/inverse/denoise;
# written to OUT_DIR), a count of V7's and V8's main instructions, the
# names of the kernels cuBLAS runs for the float64 covariance (Nsight
# Compute: DMMA or not), and Nsight Compute on image 1 for the covariance
# versions listed in NCU (e.g. NCU="7 8"; none by default), then prints the
# tables. SERIAL_FULL=N runs the serial version on the whole of the first N
# images (image 1: about 50 s) instead of estimating it; EIG=1 runs
# mnf-eig-bench too; TESTS_ONLY=1 stops after the tests. Where the machine has no LAPACKE or
# json-c, the .deb files in .devdeps (scripts/fetch-device-deps.sh) are
# unpacked into a private prefix (scripts/device-prefix.sh). GPU_BUILD: the
# build folder (default build-gpu). Run from the repository root. Copy
# OUT_DIR to mnf/data/<run>/.
set -u
out=${1:?usage: mnf/run_h100.sh OUT_DIR}
build=${GPU_BUILD:-build-gpu}
mkdir -p "$out"
t0=$(date +%s)
phase() { echo "phase $1: $(( $(date +%s) - t0 )) s" >> "$out/phases.log"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$out/build.log" 2>&1
flags="-DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON -DCMAKE_BUILD_TYPE=Release"
. scripts/device-prefix.sh >> "$out/build.log"
# shellcheck disable=SC2086
device_configure -S . -B $build $flags >> "$out/build.log" 2>&1
cmake --build $build -j16 --target mnf mnf-synth mnf-bench mnf-eig-bench test_mnf_envi test_mnf_cpu test_mnf_kappa \
  test_mnf_cov_bytes test_mnf_gpu_kernels test_mnf_gpu_end_to_end test_mnf_gpu_kappa >> "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
phase built
timeout 240 ctest --test-dir $build -R test_mnf --output-on-failure -V > "$out/ctest.log" 2>&1
phase tested
if [ "${TESTS_ONLY:-0}" = 1 ]; then
  grep -E "kappa|on the GPU|Test +#|tests passed|passed, " "$out/ctest.log" | sed 's/^[0-9]*: //' | cut -c1-220
  exit 0
fi
if [ "${EIG:-0}" = 1 ]; then timeout 60 $build/bin/mnf-eig-bench --out "$out" > "$out/eig_bench.md" 2>&1; fi
timeout 330 $build/bin/mnf-bench --out "$out" --serial-full "${SERIAL_FULL:-0}" > "$out/bench.log" 2>&1
phase benchmarked
for v in 9 10; do
  timeout 40 ncu --kernel-name regex:'gemm|syrk|Gemm|Syrk' --section LaunchStats $build/bin/mnf-bench --profile-cov $v 2>&1 |
    grep -E '^  [a-zA-Z_].*\(' | sed "s/^/cov_fp64 routine $v: /" | head -4
done > "$out/fp64_kernels.txt"
for v in ${NCU:-}; do
  timeout 40 ncu --kernel-name regex:cov_v$v --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    $build/bin/mnf-bench --profile-cov $v > "$out/ncu_cov_v$v.txt" 2>&1
done
for v in v7_occupancy v8_tensor; do
  obj=$(find $build -name "cov_$v.cu.o" | head -1)
  kernel=$(echo "$v" | cut -d_ -f1)
  echo "SASS instruction counts of cov_${kernel}_kernel<short> ($obj)"
  cuobjdump -sass "$obj" | awk "/Function : .*cov_${kernel}_kernelIs/ {on = 1; next} /Function :/ {on = 0} on" > "$out/sass.tmp"
  for op in FFMA IMMA LDSM LDS.128 STS LDG I2F BAR.SYNC RED ATOM LDL STL; do
    printf '%-8s %s\n' "$op" "$(grep -c "$op" "$out/sass.tmp")"
  done
  rm -f "$out/sass.tmp"
done >> "$out/build.log" 2>&1
phase done
grep -E "kappa|on the GPU|Test +#|tests passed" "$out/ctest.log" | sed 's/^[0-9]*: //' | cut -c1-200
tail -n 3 "$out/ctest.log"
cat "$out/fp64_kernels.txt" "$out/phases.log"
if command -v gnuplot > /dev/null; then sh mnf/plot.sh "$out"; fi
cat "$out/mnf_tables.md"

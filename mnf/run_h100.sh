#!/bin/sh
# mnf/run_h100.sh OUT_DIR: the whole MNF measurement on a GPU machine, in one
# go (the device budget allows one call): builds only the MNF targets, runs
# the MNF tests, the S3 solver comparison (mnf-eig-bench), the benchmark
# (Tables 5-8, written to OUT_DIR), a count of
# V7's and V8's main instructions, and Nsight Compute on image 1 for the
# covariance versions listed in NCU (e.g. NCU="7 8"; none by default), then
# prints the tables. SERIAL_FULL=N runs the serial version on the whole of
# the first N images (image 1: about 45 s) instead of estimating it. Run
# from the repository root. Copy OUT_DIR to mnf/data/<run>/; the plots are
# drawn there too when the machine has gnuplot (else run mnf/plot.sh).
set -u
out=${1:?usage: mnf/run_h100.sh OUT_DIR}
build=build-gpu
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$out/build.log" 2>&1
cmake -S . -B $build -DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON >> "$out/build.log" 2>&1
cmake --build $build -j16 --target mnf mnf-synth mnf-bench mnf-eig-bench test_mnf_envi test_mnf_cpu test_mnf_cov_bytes \
  test_mnf_gpu_kernels test_mnf_gpu_end_to_end >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
timeout 120 ctest --test-dir $build -R test_mnf --output-on-failure > "$out/ctest.log" 2>&1
timeout 60 $build/bin/mnf-eig-bench --out "$out" > "$out/eig_bench.md" 2>&1
timeout 400 $build/bin/mnf-bench --out "$out" --serial-full "${SERIAL_FULL:-0}" > "$out/bench.log" 2>&1
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
tail -n 4 "$out/ctest.log"
tail -n 28 "$out/build.log"
for v in ${NCU:-}; do
  echo "ncu cov_v$v:"
  grep -E "Duration|Issue Slots Busy|Achieved Occupancy|Registers Per" "$out/ncu_cov_v$v.txt" | head -4
done
# The plots, where gnuplot exists (else: mnf/plot.sh OUT_DIR on another machine).
if command -v gnuplot > /dev/null; then sh mnf/plot.sh "$out"; fi
cat "$out/eig_bench.md" "$out/mnf_tables.md"

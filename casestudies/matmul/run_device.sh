#!/bin/sh
# One device call: configure and build the case study, record the resource
# report and SASS summary, run the matmul tests, time every version at the
# sizes of RESULTS.md, and profile a few versions at 4096^3 with ncu
# (NCU_VERSIONS, default: versions 13, 14 and 9). Run
# from the repository root; writes everything under $OUT and prints the
# 4096^3 table last.
# usage: casestudies/matmul/run_device.sh [SIZES]
set -u
OUT=${OUT:-/tmp/matmul-out}
SIZES=${1:-1024,2048,4096,8192,1000x1000x1000,4095x4097x1023,8192x1024x4096,333x4099x2049}
mkdir -p "$OUT"
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > "$OUT/gpu_state.txt" 2>&1
cmake -S . -B $B -DWITH_ADVISOR=OFF -DCMAKE_BUILD_TYPE=Release -DWARNINGS_AS_ERRORS=ON > "$OUT/build.log" 2>&1
cmake --build $B --target matmul test_matmul_host test_matmul_versions test_matmul_runner_json -j16 >> "$OUT/build.log" 2>&1 \
  || { tail -40 "$OUT/build.log"; exit 1; }
grep -A3 "Compiling entry" "$OUT/build.log" | grep -v "Compile time" > "$OUT/resource_usage.txt"
casestudies/matmul/sass_summary.sh $B/bin/matmul >> "$OUT/resource_usage.txt" 2>&1
ctest --test-dir $B -R test_matmul --output-on-failure > "$OUT/ctest.log" 2>&1
$B/bin/matmul --sizes "$SIZES" --repeats 10 --json "$OUT/matmul.jsonl" > "$OUT/table.md" 2>&1
echo "runner exit $?" >> "$OUT/table.md"
# ncu locks the SM clock at base (1.6 GHz on the H100 seen), so its
# durations run longer than the runner's; its percentages are what count.
for v in ${NCU_VERSIONS:-13_large_tile 14_large_bk16 09_double_buffer}; do
  case $v in cublas*) kernel=gemm ;; *) kernel="${v#*_}_kernel" ;; esac
  timeout 60 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
    -k regex:"$kernel" --launch-skip 2 --launch-count 1 \
    $B/bin/matmul --versions $v --sizes 4096 --repeats 3 >> "$OUT/ncu.txt" 2>&1
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> "$OUT/gpu_state.txt" 2>&1
tail -3 "$OUT/ctest.log"
tail -40 "$OUT/resource_usage.txt" | cut -c1-130 | tail -16
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Stall|Warp Cycles Per Issued" "$OUT/ncu.txt" | head -24
awk '/^## 4096x4096x4096/{f=1} f&&/^$/&&n++>0{f=0} f' "$OUT/table.md"
tail -2 "$OUT/table.md"

#!/bin/sh
# One device call: build the case study (or take binaries built elsewhere
# with the same nvcc), run the matmul tests, time the chosen versions at the
# sizes of RESULTS.md while the GPU's clock and power are logged, profile
# some versions with ncu, check the cluster kernel with compute-sanitizer,
# and print a table of % of cuBLAS FP32 per version and size last. Run from
# the repository root; writes everything under $OUT.
#
# usage: casestudies/matmul/run_device.sh [SIZES]
# environment:
#   VERSIONS   runner --versions (default: all)
#   NCU        "SIZE:VERSION,VERSION ..." groups profiled with ncu, one ncu
#              run per group and kind (sections, stall and bank metrics);
#              empty for none
#   SANITIZE   versions run under compute-sanitizer racecheck and memcheck
#              at a small odd shape; empty for none
#   PREBUILT   folder with matmul and the test binaries, tried first
#   GPU_BUILD  the build folder otherwise (default build-gpu); LAPACKE and
#              json-c from .devdeps where missing (scripts/device-prefix.sh)
set -u
OUT=${OUT:-/tmp/matmul-out}
SIZES=${1:-1024,2048,4096,8192,1000x1000x1000,4095x4097x1023,8192x1024x4096,333x4099x2049}
VERSIONS=${VERSIONS:-all}
NCU=${NCU-4096:13_large_tile,16_lean_loop}
SANITIZE=${SANITIZE-17_cluster_split_k}
here=$(dirname "$0")
mkdir -p "$OUT"
gpu_state() {
  nvidia-smi --query-gpu=timestamp,name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
    --format=csv >> "$OUT/gpu_state.txt" 2>&1
}
gpu_state

bin=${PREBUILT:-none}
if ! "$bin/matmul" --help > /dev/null 2>&1; then
  build=${GPU_BUILD:-build-gpu}
  bin=$build/bin
  . scripts/device-prefix.sh
  device_configure -S . -B "$build" -DWITH_ADVISOR=OFF -DCMAKE_BUILD_TYPE=Release -DWARNINGS_AS_ERRORS=ON \
    > /tmp/build.log 2>&1
  cmake --build "$build" --target matmul test_matmul_host test_matmul_versions \
    test_matmul_runner_json -j16 >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
  tail -3 /tmp/build.log >> "$OUT/tests.log"
fi
echo "binaries: $bin" >> "$OUT/tests.log"
for t in test_matmul_host test_matmul_versions; do
  "$bin/$t" >> "$OUT/tests.log" 2>&1
  echo "$t exit $?" >> "$OUT/tests.log"
done
"$bin/test_matmul_runner_json" "$bin/matmul" /tmp >> "$OUT/tests.log" 2>&1
echo "test_matmul_runner_json exit $?" >> "$OUT/tests.log"

# Clock and power every 200 ms while the timed runs go: a power-capped
# clock would show here, for the library and for the kernels alike.
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader \
  -lms 200 > "$OUT/clocks.csv" 2>&1 &
smi=$!
"$bin/matmul" --versions "$VERSIONS" --sizes "$SIZES" --repeats 10 --json "$OUT/matmul.jsonl" \
  > "$OUT/table.md" 2>&1
echo "runner exit $?" >> "$OUT/table.md"
kill $smi
gpu_state

# ncu locks the SM clock at base (1.6 GHz on the H100 seen), so its
# durations run longer than the runner's; its percentages are what count.
# Every launch of the chosen versions is profiled (check run, warm-ups,
# timed run), the baseline's too.
stalls=""
for r in long_scoreboard short_scoreboard barrier mio_throttle math_pipe_throttle not_selected \
         selected wait dispatch_stall no_instructions branch_resolving lg_throttle membar; do
  stalls="$stalls,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
metrics="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum$stalls"
for group in $NCU; do
  size=${group%%:*}
  versions=${group#*:}
  timeout 120 ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
    --section LaunchStats --section SchedulerStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis_Tables -k regex:'gemm|kernel' \
    "$bin/matmul" --versions "$versions" --sizes "$size" --repeats 1 >> "$OUT/ncu.txt" 2>&1
  timeout 120 ncu --metrics "$metrics" -k regex:'gemm|kernel' \
    "$bin/matmul" --versions "$versions" --sizes "$size" --repeats 1 >> "$OUT/ncu_metrics.txt" 2>&1
done

for v in $SANITIZE; do
  for tool in racecheck memcheck; do
    timeout 40 compute-sanitizer --tool $tool "$bin/matmul" --versions "$v" \
      --sizes 130x260x100,67x129x333 --repeats 1 >> "$OUT/sanitizer.log" 2>&1
    echo "$tool $v exit $?" >> "$OUT/sanitizer.log"
  done
done

grep -E "exit|passed|FAIL" "$OUT/tests.log"
grep -E "exit|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer.log" 2>/dev/null
# % of cuBLAS FP32 per version (rows) and size (columns), from the table.
awk -F'|' '
  /^## / { size = $0; sub(/^## /, "", size); sub(/ .*/, "", size); sizes[++ns] = size; next }
  /^\| [^-v]/ { name = $2; gsub(/^ +| +$/, "", name); sub(/:.*/, "", name); if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
                pct[name, size] = $9 + 0; gf[name, size] = $8 + 0 }
  END {
    printf "%-36s", "version / % of cuBLAS"
    for (i = 1; i <= ns; i++) printf " %14s", sizes[i]
    print ""
    for (j = 1; j <= nn; j++) {
      printf "%-36s", names[j]
      for (i = 1; i <= ns; i++) printf " %14s", ((names[j], sizes[i]) in pct) ? sprintf("%.1f", pct[names[j], sizes[i]]) : "-"
      print ""
    }
    printf "%-36s", "cuBLAS GFLOP/s"
    for (i = 1; i <= ns; i++) printf " %14.0f", gf["cublas_fp32", sizes[i]]
    print ""
  }' "$OUT/table.md"
tail -1 "$OUT/table.md"

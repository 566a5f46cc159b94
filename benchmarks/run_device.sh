#!/bin/sh
# One call on the GPU machine: build the suite, record the compiler's
# resource report and the SASS evidence, run the GPU test (--quick), then the
# full suite RUNS times (default 2; each run after the first is compared
# with the one before and lists every quantity that moved by more than 5%),
# sampling the GPU's clocks with nvidia-smi all along (read only: the suite
# never sets a clock). A warpbench carried in $build/bin (one built by an
# earlier call) is used as it is: no build and no GPU test then.
#
#   benchmarks/run_device.sh NAME [--counters] [--sanitize]
#
# NAME is the profile's name (h100-sxm, h200). --counters: Nsight Compute
# counters of the bandwidth and capacity kernels (ncu_*.csv, the evidence of
# which level served them). --sanitize: scripts/gpu-check.sh --sanitize
# (every GPU test and warpbench --tiny under compute-sanitizer; carry
# .devdeps). Everything goes to $OUT (default ./device-out), in bundle.tgz,
# with the warpbench that ran.
set -u
name=${1:?usage: run_device.sh NAME [--counters] [--sanitize]}
shift
counters=0 sanitize=0
for a in "$@"; do
  case $a in
  --counters) counters=1 ;;
  --sanitize) sanitize=1 ;;
  *) echo "run_device.sh: unknown option $a"; exit 2 ;;
  esac
done
out=${OUT:-device-out}
build=${GPU_BUILD:-build-gpu}   # the build folder
. scripts/device-prefix.sh
mkdir -p "$out/data"
export PATH=$PATH:/usr/local/cuda/bin
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }

carried=0
$build/bin/warpbench --help >/dev/null 2>&1 && carried=1
if [ $carried = 0 ]; then
  stamp build
  device_configure -S . -B "$build" -DWITH_ADVISOR=OFF -DCMAKE_BUILD_TYPE=Release >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
  cmake --build $build --target warpbench test_bench_quick test_bench_profile test_bench_table2 -j16 >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 1; }
  grep -E "Compiling entry|stack frame|Used [0-9]+ registers" "$out/build.log" >"$out/resource_usage.txt"
else
  stamp "carried $build/bin/warpbench"
fi
cp $build/bin/warpbench "$out/warpbench"
benchmarks/sass_check.sh $build/bin/warpbench >"$out/sass_check.txt" 2>&1
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE >"$out/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 >"$out/clocks.csv" 2>&1 &
sampler=$!

if [ $carried = 0 ]; then
  stamp "GPU test"
  ctest --test-dir $build -R test_bench --output-on-failure >"$out/ctest.log" 2>&1
  tail -4 "$out/ctest.log"
fi
run=1
while [ $run -le "${RUNS:-2}" ]; do
  stamp "full run $run"
  $build/bin/warpbench --out "$out/data" --name "$name" >"$out/run$run.log" 2>&1
  echo "run $run exit $?"
  cp "$out/data/$name.json" "$out/data/$name.run$run.json"
  cp "$out/data/$name.jsonl" "$out/data/$name.run$run.jsonl"
  last=$run
  run=$((run + 1))
done

if [ $counters = 1 ]; then
  stamp counters
  ncu --version >"$out/ncu_version.txt" 2>&1
  # The level that served each load: L1 lookups and hits, L2 sectors read
  # for the SMs and their hits, L2 sectors that crossed between the two
  # partitions (ltcfabric), DRAM sectors; shared-memory wavefronts and
  # instructions. The kernels warm their own data, so ncu's cache flush
  # before each replay pass changes nothing they measure.
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
  metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
  metrics=$metrics,lts__t_sectors_srcunit_ltcfabric.sum,dram__sectors_read.sum
  metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum
  for job in "onchip:onchip_kernel<int4:onchip_bandwidth:20" "l2:read_kernel|capacity_kernel:l2_partition:20"; do
    tag=${job%%:*} rest=${job#*:}
    regex=${rest%%:*} rest=${rest#*:}
    only=${rest%%:*} count=${rest#*:}
    timeout 120 ncu --clock-control none --metrics "$metrics" --kernel-name-base demangled \
      -k "regex:$regex" -c "$count" -o "$out/ncu_$tag" -f \
      $build/bin/warpbench --only "$only" --repeats 1 --sms 2 --out /tmp/ncu-data --name "$tag" \
      >"$out/ncu_$tag.log" 2>&1
    echo "ncu $tag exit $?"
    ncu --import "$out/ncu_$tag.ncu-rep" --csv --page raw >"$out/ncu_$tag.csv" 2>>"$out/ncu_$tag.log"
    grep -E "==ERROR==|==WARNING==" "$out/ncu_$tag.log" | sort | uniq -c | head -5
  done
  ncu --query-metrics --chip gh100 >"$out/ncu_metrics_gh100.txt" 2>&1
fi

if [ $sanitize = 1 ]; then
  stamp sanitizer
  OUT=$out/gpu-check SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-120} timeout 240 \
    scripts/gpu-check.sh --sanitize $build >"$out/gpu-check.log" 2>&1
  echo "gpu-check --sanitize exit $?"
  sed -n '/^JOB /,$p' "$out/gpu-check.log"
fi

kill $sampler 2>/dev/null
stamp bundle
tar czf "$out/bundle.tgz" -C "$out" --exclude bundle.tgz .
find "$out" -mindepth 1 -maxdepth 1 ! -name bundle.tgz ! -name warpbench ! -name "run$last.log" -exec rm -rf {} +
grep "^\[" "$out/run$last.log"
tail -30 "$out/run$last.log"
stamp done

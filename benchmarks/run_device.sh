#!/bin/sh
# One call on the GPU machine: build the suite, record the compiler's
# resource report and the SASS evidence, run the GPU test (--quick), then
# the full suite twice (the second run is compared with the first, and
# lists every quantity that moved by more than 5%). Everything goes to
# $OUT (default ./device-out).
set -u
out=${OUT:-device-out}
mkdir -p "$out/data"
cmake -S . -B build-gpu -DWITH_ADVISOR=OFF -DCMAKE_BUILD_TYPE=Release >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
cmake --build build-gpu --target warpbench test_bench_quick test_bench_profile test_bench_table2 -j16 >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 1; }
grep -E "Compiling entry|stack frame|Used [0-9]+ registers" "$out/build.log" >"$out/resource_usage.txt"
benchmarks/sass_check.sh build-gpu/bin/warpbench >"$out/sass_check.txt" 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,temperature.gpu,power.draw --format=csv >"$out/nvidia-smi.txt" 2>&1
ctest --test-dir build-gpu -R test_bench --output-on-failure >"$out/ctest.log" 2>&1
tail -6 "$out/ctest.log"
grep -E "shared .* cycles" "$out/ctest.log"
build-gpu/bin/warpbench --out "$out/data" --name h100-sxm >"$out/run1.log" 2>&1
cp "$out/data/h100-sxm.json" "$out/data/h100-sxm.run1.json"
cp "$out/data/h100-sxm.jsonl" "$out/data/h100-sxm.run1.jsonl"
build-gpu/bin/warpbench --out "$out/data" --name h100-sxm >"$out/run2.log" 2>&1
echo "run 2 exit $?"
tar czf "$out/bundle.tgz" -C "$out" data resource_usage.txt sass_check.txt build.log nvidia-smi.txt ctest.log run1.log run2.log
rm -rf "$out/data" "$out/build.log"
cat "$out/nvidia-smi.txt"
grep "^\[" "$out/run1.log"
tail -40 "$out/run2.log"

#!/bin/bash
# Run 20 (issue 21, S8): builds main (12783c3), "before" (main + the S8
# timeline events of mnf-bench, no other change) and "after" (branch
# mnf-s8: S8's chunks start small and double), runs the MNF tests on
# "after", then mnf-bench --solve-compare 1 on image 1, the three builds
# alternated over four rounds, and once on all three images for main and
# after. Writes $OUT/run20.tar.gz and $OUT/summary.md.
set -u
D=$PWD/.dev-mnfs8
W=/tmp/s8; R=$W/run20
mkdir -p $R
t0=$(date +%s)
phase() { echo "$1: $(( $(date +%s) - t0 )) s" >> $R/phases.log; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,driver_version --format=csv > $R/gpu.txt 2>&1
for v in main before after; do mkdir -p $W/$v && tar xzf $D/$v.tar.gz -C $W/$v && ln -sfn $D/devdeps $W/$v/.devdeps; done
cd $W/after && . scripts/device-prefix.sh > $R/prefix.log 2>&1
build() {
  cd $W/$1 && cmake -S . -B b -DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON -DCMAKE_BUILD_TYPE=Release $device_cmake_flags \
    > $R/build_$1.log 2>&1 && cmake --build b -j$2 --target $3 >> $R/build_$1.log 2>&1
  echo "build $1: rc $?" >> $R/phases.log
}
T="mnf mnf-synth mnf-bench test_mnf_envi test_mnf_cpu test_mnf_kappa test_mnf_cov_bytes test_mnf_gpu_kernels test_mnf_gpu_end_to_end test_mnf_gpu_kappa"
build after 8 "$T" & build main 4 mnf-bench & build before 4 mnf-bench & wait
phase built
(cd $W/after && timeout 200 ctest --test-dir b -R test_mnf --output-on-failure -V > $R/ctest_after.log 2>&1)
phase tested
bench() { # VERSION ROUND SCENES
  timeout 100 $W/$1/b/bin/mnf-bench --solve-compare 1 --scenes $3 --out $R > $R/bench_$1_$2.log 2>&1
  sed "s/^{/{\"run20\":{\"version\":\"$1\",\"round\":$2},/" $R/mnf_results.jsonl >> $R/results.jsonl
  cp $R/mnf_solve_compare.md $R/solve_compare_$1_$2.md; rm -f $R/mnf_results.jsonl $R/mnf_solve_compare.md
}
bench main 1 1; bench before 1 1; bench after 1 1
bench after 2 1; bench before 2 1; bench main 2 1
bench before 3 1; bench after 3 1; bench main 3 1
bench after 4 1; bench main 4 1; bench before 4 1
phase "image 1 rounds"
bench main 5 3; bench after 5 3
phase "all images"
cp $D/run.sh $D/summary.py $R/
python3 $D/summary.py $R/results.jsonl > $R/summary.md 2>&1
cat $R/phases.log
grep -E "Test +#|tests passed|tests failed" $R/ctest_after.log | sed 's/^[0-9]*: //' | cut -c1-150
cat $R/summary.md
cp $R/summary.md $OUT/
tar czf $OUT/run20.tar.gz -C $W run20

#!/bin/bash
# Run 20, second call: mnf/run_h100.sh TESTS_ONLY=1 on "after" (every MNF
# target, mnf-eig-bench included, and the MNF tests), then six more rounds
# of mnf-bench --solve-compare 1 on image 1, main and after alternated.
set -u
D=$PWD/.dev-mnfs8
W=/tmp/s8; R=$W/run20b
mkdir -p $R
t0=$(date +%s)
phase() { echo "$1: $(( $(date +%s) - t0 )) s" >> $R/phases.log; }
for v in main after; do mkdir -p $W/$v && tar xzf $D/$v.tar.gz -C $W/$v && ln -sfn $D/devdeps $W/$v/.devdeps; done
(cd $W/after && TESTS_ONLY=1 GPU_BUILD=b sh mnf/run_h100.sh $R/tests > $R/run_h100.txt 2>&1; echo "run_h100 rc $?" >> $R/phases.log)
phase "after: built and tested"
(cd $W/main && . scripts/device-prefix.sh > /dev/null 2>&1 && cmake -S . -B b -DWITH_ADVISOR=OFF -DWARNINGS_AS_ERRORS=ON \
  -DCMAKE_BUILD_TYPE=Release $device_cmake_flags > $R/build_main.log 2>&1 && cmake --build b -j16 --target mnf-bench >> $R/build_main.log 2>&1)
phase "main: built"
. $W/after/scripts/device-prefix.sh > /dev/null 2>&1
bench() { # VERSION ROUND
  timeout 100 $W/$1/b/bin/mnf-bench --solve-compare 1 --scenes 1 --out $R > $R/bench_$1_$2.log 2>&1
  sed "s/^{/{\"run20\":{\"version\":\"$1\",\"round\":$2},/" $R/mnf_results.jsonl >> $R/results.jsonl
  rm -f $R/mnf_results.jsonl $R/mnf_solve_compare.md
}
for r in 6 7 8; do bench main $r; bench after $r; done
for r in 9 10 11; do bench after $r; bench main $r; done
phase benched
cp $D/run2.sh $R/
python3 $D/summary.py $R/results.jsonl > $R/summary.md 2>&1
cat $R/phases.log $R/run_h100.txt | cut -c1-200
cat $R/summary.md
cp $R/summary.md $OUT/summary2.md
tar czf $OUT/run20b.tar.gz -C $W run20b

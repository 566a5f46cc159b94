#!/usr/bin/env bash
# scripts/demo.sh keeps the build's output (ptxas resource reports) in
# BUILD/demo/build.log, off the screen, keeps its results in BUILD/demo/,
# ends with a summary of what ran, what it found and where the results are,
# and stops with exit 1 when the build fails. The build is a stand-in
# (DEMO_BUILD) printing two resource reports; the rest is the real demo on
# this build's programs, from a scratch build folder that links to them.
#   test_demo.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR
set -uo pipefail
source_dir=${1:?usage: test_demo.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR}
build=${2:?usage: test_demo.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR}
scratch=${3:?usage: test_demo.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR}
rm -rf "$scratch"
mkdir -p "$scratch/build"
ln -s "$build/bin" "$scratch/build/bin"
ln -s "$build/compile_commands.json" "$scratch/build/compile_commands.json"
cd "$source_dir" || exit 1
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}

demo_out=$scratch/demo.txt
DEMO_BUILD='printf "ptxas info    : Used 32 registers, used 0 barriers\nptxas info    : Used 40 registers\n[100%%] Built target x\n"' \
  scripts/demo.sh "$scratch/build" >"$demo_out" 2>&1
rc=$?
results=$scratch/build/demo
expect "the demo exits 0 (got $rc)" [ $rc -eq 0 ]
expect "no ptxas line on the screen" bash -c "! grep -q 'ptxas info' '$demo_out'"
expect "both resource reports in build.log" [ "$(grep -c '^ptxas info' "$results/build.log")" = 2 ]
expect "the summary says where they are" \
  grep -qF -- "- build: 2 kernels compiled; their ptxas resource reports (registers, spills, shared memory) are in $results/build.log" "$demo_out"
expect "the summary comes last" bash -c "tail -n 8 '$demo_out' | grep -q '^== summary'"
expect "the summary says where the results are" grep -qF "results: $results/" "$demo_out"
if [ -x "$build/bin/warplint" ]; then
  expect "warplint's count in the summary" grep -qE '^- warplint: [0-9]+ files analysed \([0-9]+ kernels\); [0-9]+ warnings' "$demo_out"
  expect "its findings by rule in the summary" grep -qE '^- warplint: .*; by rule: .*G_3 [0-9]+.*S_1 [0-9]+' "$demo_out"
  expect "its report kept" grep -q '\[S_1\]$' "$results/warplint.txt"
fi
if [ -x "$build/bin/mnf" ]; then
  expect "mnf's run in the summary" grep -qE '^- mnf: wrote 10 components \(mean3 noise, (cpu|gpu)\) in [0-9.]+ ms' "$demo_out"
  expect "its component image kept" bash -c "ls '$results/mnf/' | grep -qE '^mnf_(cpu|gpu)\.hdr$'"
fi

DEMO_BUILD='echo "x.cu(1): error: something"; exit 3' scripts/demo.sh "$scratch/build" >"$demo_out" 2>&1
rc=$?
expect "a failed build stops the demo with exit 1 (got $rc)" [ $rc -eq 1 ]
expect "and says so, with the log" grep -qF "demo: the build failed; its whole output is in $results/build.log" "$demo_out"
expect "nothing runs after it" bash -c "! grep -q '^== device' '$demo_out'"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# The main job on bundled defaults, run by `make demo` after the build:
#   1. the device this machine has (or that it has none);
#   2. warplint on the bundled example kernels, when warplint is built;
#   3. the MNF tool on a small synthetic scene (GPU and serial with a GPU, CPU without);
#   4. where a GPU is present, the matrix-multiply progression at 1024 and 2048.
# Each step runs only if its program was built; a missing one is named.
set -uo pipefail
build=${1:-build}
bin=$build/bin
status=0

step() { printf '\n== %s\n' "$*"; }

step "device"
if [ -x "$bin/gpu-info" ]; then
  "$bin/gpu-info" || true
else
  echo "(built without CUDA: no GPU programs)"
fi
gpu=no
[ -x "$bin/gpu-info" ] && "$bin/gpu-info" --probe >/dev/null 2>&1 && gpu=yes

step "warplint on the bundled example kernels"
if [ -x "$bin/warplint" ]; then
  # The bad example of every rule, then the matrix-multiply progression
  # (its include paths come from the build's compile_commands.json).
  "$bin/warplint" check -p "$build" rules/examples/*_bad.cu casestudies/matmul/[0-9]*.cu
  rc=$?
  # 1 means findings, which is what the bad examples are for; 2 is an error.
  [ $rc -ge 2 ] && status=$rc
else
  echo "(warplint is not built yet)"
fi

step "MNF case study on a synthetic hyperspectral scene"
if [ -x "$bin/mnf" ]; then mnf/demo.sh "$build" || status=1; else echo "(built without CUDA: mnf is not built)"; fi

step "matrix-multiply case study"
if [ "$gpu" = yes ]; then
  "$bin/matmul" --sizes 1024,2048 || status=1
else
  echo "(no usable GPU here: the matrix-multiply progression needs one; its H100 results are in casestudies/matmul/RESULTS.md)"
fi
exit $status

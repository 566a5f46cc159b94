#!/usr/bin/env bash
# The main job on bundled defaults, run by `make demo` after the build:
#   1. the device this machine has (or that it has none);
#   2. warplint on the bundled example kernels, when warplint is built;
#   3. where a GPU is present, the case studies on their default sizes.
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
  "$bin/warplint" check rules/examples/*.cu casestudies/matmul/*.cu
  rc=$?
  # 1 means findings, which is what the bad examples are for; 2 is an error.
  [ $rc -ge 2 ] && status=$rc
else
  echo "(warplint is not built yet)"
fi

if [ "$gpu" = yes ]; then
  step "matrix-multiply case study"
  if [ -x "$bin/matmul" ]; then "$bin/matmul" --sizes 1024,2048 || status=1; else echo "(not built yet)"; fi
  step "MNF case study"
  if [ -x "$bin/mnf-demo" ]; then "$bin/mnf-demo" || status=1; else echo "(not built yet)"; fi
else
  step "case studies"
  echo "(no usable GPU here: the matrix-multiply and MNF case studies need one; see casestudies/README.md)"
fi
exit $status

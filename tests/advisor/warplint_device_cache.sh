#!/usr/bin/env bash
# WARPLINT_DEVICE_CACHE (advisor/device.c): a file whose device code is in
# the cache is served from it (its entry is not written again) with the
# findings of a run without the cache; a change to a header it includes,
# or to the file itself, is seen (clang runs again and the findings follow).
#   warplint_device_cache.sh WARPLINT SCRATCH_DIR
set -uo pipefail
warplint=${1:?usage: warplint_device_cache.sh WARPLINT SCRATCH_DIR}
scratch=${2:?usage: warplint_device_cache.sh WARPLINT SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
export WARPLINT_DEVICE_CACHE=$scratch/cache
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}
cat >k.cu <<'CU'
#include "stride.cuh"
__global__ void k(float *a, const float *b) { a[threadIdx.x * STRIDE] = b[threadIdx.x]; }
CU
lint() { "$warplint" check --shim k.cu 2>&1; }
entry() { stat -c '%i %Y' cache/*.deps 2>/dev/null; }

echo '#define STRIDE 32' >stride.cuh
WARPLINT_DEVICE_CACHE= lint >plain32.txt
lint >first32.txt
expect "the first run fills the cache" [ -n "$(entry)" ]
expect "with the findings of a run without it" cmp -s plain32.txt first32.txt
expect "a strided store draws G_3" grep -q '\[G_3\]$' first32.txt
before=$(entry)
lint >second32.txt
expect "an unchanged file is served from the cache (its entry is not written again)" [ "$(entry)" = "$before" ]
expect "with the same findings" cmp -s first32.txt second32.txt

echo '#define STRIDE 1' >stride.cuh
lint >first1.txt
expect "a changed header compiles again" [ "$(entry)" != "$before" ]
expect "and its findings follow: no G_3" bash -c "! grep -q '\[G_3\]' first1.txt"
WARPLINT_DEVICE_CACHE= lint >plain1.txt
expect "as without the cache" cmp -s plain1.txt first1.txt

before=$(entry)
sed -i 's/threadIdx.x \* STRIDE/threadIdx.x * 32/' k.cu
lint >changed.txt
expect "a changed file compiles again" [ "$(entry)" != "$before" ]
expect "and draws G_3" grep -q '\[G_3\]$' changed.txt

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

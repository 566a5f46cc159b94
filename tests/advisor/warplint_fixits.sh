#!/usr/bin/env bash
# Every fix-it compiles. Applies warplint's fix-its (--fix) to a copy of each
# fixture and rule example, then checks the result: it still parses (warplint
# with the stand-in headers: libclang's syntax and semantic checks) and,
# where a CUDA toolkit exists and the original compiles, nvcc compiles it.
#   warplint_fixits.sh WARPLINT SCRATCH_DIR
set -uo pipefail
warplint=${1:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR}
scratch=${2:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
profile=$root/tests/advisor/profiles/synthetic-sm90.json
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
rm -rf "$scratch" && mkdir -p "$scratch"
fixed=0 compiled=0 failed=0
for f in "$root"/tests/advisor/fixtures/*.cu "$root"/rules/examples/*.cu; do
  copy=$scratch/$(basename "$(dirname "$f")")_$(basename "$f")
  cp "$f" "$copy"
  "$warplint" check --shim --fix --gpu "$profile" "$copy" > /dev/null 2>&1
  if [ $? -ge 2 ]; then echo "FAILED: warplint --fix on $f"; failed=$((failed + 1)); continue; fi
  cmp -s "$f" "$copy" && continue
  fixed=$((fixed + 1))
  out=$("$warplint" check --shim --gpu "$profile" "$copy" 2>&1)
  if [ $? -ge 2 ] || echo "$out" | grep -q 'error:\|parse error'; then
    echo "FAILED: $f no longer parses after its fix-its:"; echo "$out" | grep 'error' | head -5
    failed=$((failed + 1)); continue
  fi
  if [ -n "$nvcc" ] && "$nvcc" -arch=sm_90 -c -o /dev/null "$f" > /dev/null 2>&1; then
    if ! "$nvcc" -arch=sm_90 -c -o /dev/null "$copy" > "$copy.log" 2>&1; then
      echo "FAILED: nvcc rejects $f after its fix-its:"; head -5 "$copy.log"
      failed=$((failed + 1)); continue
    fi
    compiled=$((compiled + 1))
  fi
  echo "ok: $(basename "$f"): fix-its applied, $( [ -n "$nvcc" ] && echo "nvcc compiles it" || echo "it parses")"
done
echo "warplint_fixits: $fixed files fixed, $compiled compiled by nvcc, $failed failed"
[ "$fixed" -ge 3 ] || { echo "FAILED: fewer than 3 files drew fix-its"; exit 1; }
[ "$failed" -eq 0 ]

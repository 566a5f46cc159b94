#!/usr/bin/env bash
# Every fix-it compiles. Applies warplint's fix-its (--fix) to a copy of each
# fixture and rule example, then checks the result: it still parses (warplint
# with the stand-in headers: libclang's syntax and semantic checks) and,
# where a CUDA toolkit exists, nvcc compiles it (a copy nvcc rejects fails
# the test when nvcc accepts the original). One warplint run fixes every
# copy and one checks every fixed copy; the nvcc runs go two at a time.
#   warplint_fixits.sh WARPLINT SCRATCH_DIR
set -uo pipefail
warplint=${1:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR}
scratch=${2:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
profile=$root/tests/advisor/profiles/synthetic-sm90.json
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
rm -rf "$scratch" && mkdir -p "$scratch"
failed=0
declare -A original   # copy -> the file it was copied from
copies=()
for f in "$root"/tests/advisor/fixtures/*.cu "$root"/rules/examples/*.cu; do
  copy=$scratch/$(basename "$(dirname "$f")")_$(basename "$f")
  cp "$f" "$copy"
  original[$copy]=$f
  copies+=("$copy")
done

"$warplint" check --shim --fix -j 2 --gpu "$profile" "${copies[@]}" >"$scratch/fix.log" 2>&1
if [ $? -ge 2 ]; then
  echo "FAILED: warplint --fix:"; grep -E ': error: ' "$scratch/fix.log" | head -10
  failed=$((failed + 1))
fi
fixed=()
for copy in "${copies[@]}"; do cmp -s "${original[$copy]}" "$copy" || fixed+=("$copy"); done

# The fixed copies still parse.
if ((${#fixed[@]})); then
  "$warplint" check --shim -j 2 --gpu "$profile" "${fixed[@]}" >"$scratch/check.log" 2>&1
  rc=$?
  broken=$(grep -E 'error:|parse error' "$scratch/check.log" | sed 's/:.*//' | sort -u)
  for copy in $broken; do
    echo "FAILED: ${original[$copy]:-$copy} no longer parses after its fix-its:"; grep -F "$copy" "$scratch/check.log" | head -5
    failed=$((failed + 1))
  done
  if [ $rc -ge 2 ] && [ -z "$broken" ]; then echo "FAILED: warplint exited $rc on the fixed copies"; failed=$((failed + 1)); fi
fi

# nvcc compiles each fixed copy, or else the original fails too.
compiled=0
if [ -n "$nvcc" ] && ((${#fixed[@]})); then
  printf '%s\0' "${fixed[@]}" |
    xargs -0 -n 1 -P 2 sh -c '"$0" -arch=sm_90 -c -o /dev/null "$1" >"$1.log" 2>&1; echo "$? $1"' "$nvcc" \
    >"$scratch/nvcc.results"
  while read -r rc copy; do
    if [ "$rc" = 0 ]; then compiled=$((compiled + 1)); continue; fi
    if "$nvcc" -arch=sm_90 -c -o /dev/null "${original[$copy]}" >/dev/null 2>&1; then
      echo "FAILED: nvcc rejects ${original[$copy]} after its fix-its:"; head -5 "$copy.log"
      failed=$((failed + 1))
    fi
  done <"$scratch/nvcc.results"
fi
for copy in "${fixed[@]}"; do echo "ok: $(basename "${original[$copy]}"): fix-its applied"; done
echo "warplint_fixits: ${#fixed[@]} files fixed, $compiled compiled by nvcc, $failed failed"
[ "${#fixed[@]}" -ge 3 ] || { echo "FAILED: fewer than 3 files drew fix-its"; exit 1; }
[ "$failed" -eq 0 ]

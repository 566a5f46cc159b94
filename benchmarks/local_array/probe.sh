#!/bin/sh
# Table 3 of Fang et al. for today's compiler: for each access pattern and
# architecture, the largest private array that ptxas keeps in registers
# (stack frame 0 bytes), found by bisection on N. Needs only nvcc; no GPU.
#   benchmarks/local_array/probe.sh [OUT_DIR]   (default benchmarks/data)
# Writes local_array_limits.tsv (pattern arch elements) and
# local_array_probe.tsv (every compile: pattern arch N stack_bytes registers).
# Assumes that once an array spills, larger ones spill too (bisection).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
archs=${ARCHS:-"sm_75 sm_80 sm_90"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probe_log="$work/probe.tsv"
limits="$work/limits.tsv"
printf '# pattern\tarch\tN\tstack_bytes\tregisters\n' >"$probe_log"
printf '# largest private array kept in registers, in elements of one array (matmul: N x N)\n# a value equal to the top of the search range (1024, 32x32, 256) is a lower bound\n# %s, %s\n' \
  "$("$nvcc" --version | tail -1)" "$(date -u +%Y-%m-%d)" >"$limits"

# Prints the stack frame of PATTERN at size N for ARCH (and logs the compile).
stack_of() {
  report=$("$nvcc" -arch="$2" -cubin -o "$work/k.cubin" --resource-usage \
    -DPATTERN="$1" -DN="$3" "$here/private_array.cu" 2>&1)
  stack=$(printf '%s\n' "$report" | sed -n 's/.* \([0-9]*\) bytes stack frame.*/\1/p' | head -1)
  regs=$(printf '%s\n' "$report" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1)
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${stack:-?}" "${regs:-?}" >>"$probe_log"
  echo "${stack:-999999}"
}

for arch in $archs; do
  for pattern in 1 2 3; do
    case $pattern in 1) name=vecadd; hi=1024 ;; 2) name=matmul; hi=32 ;; *) name=sort; hi=256 ;; esac
    # Bisection between lo (fits, 0 = nothing fits) and hi (spills).
    if [ "$(stack_of $pattern "$arch" 1)" -ne 0 ]; then
      lo=0
    elif [ "$(stack_of $pattern "$arch" "$hi")" -eq 0 ]; then
      lo=$hi   # the top of the search range still fits: a lower bound
    else
      lo=1
      while [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        if [ "$(stack_of $pattern "$arch" "$mid")" -eq 0 ]; then lo=$mid; else hi=$mid; fi
      done
    fi
    # Elements of one array, as Table 3 counts them (matmul: N x N).
    elements=$lo
    [ "$pattern" -eq 2 ] && elements=$((lo * lo))
    printf '%s\t%s\t%s\n' "$name" "$arch" "$elements" >>"$limits"
    echo "$name $arch: $elements (N = $lo fits; the first size found to spill: $hi)"
  done
done
mkdir -p "$out"
mv "$limits" "$out/local_array_limits.tsv"
mv "$probe_log" "$out/local_array_probe.tsv"

#!/bin/sh
# The compiler's resource report for every kernel of every version file,
# as a Markdown table: registers per thread, static shared memory, stack
# frame and spill traffic (both should be 0), straight from ptxas (nvcc
# --resource-usage). A file with several kernels (the instantiations of
# sgemm_kernel.cuh in 16-18) gets one row each, named by the kernel's
# template arguments. Needs nvcc only, no GPU.
# usage: resource_report.sh [ARCH]   (default sm_90)
set -eu
arch=${1:-sm_90}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
echo "| file | kernel | registers | shared memory B | stack frame B | spill stores B | spill loads B |"
echo "|---|---|---:|---:|---:|---:|---:|"
for f in "$here"/[0-9][0-9]_*.cu "$here"/extra/*.cu; do
  "$nvcc" -arch="$arch" -O3 -std=c++17 --resource-usage -I"$here" -I"$here/../../common" -c "$f" \
    -o /dev/null 2>&1 |
  awk -v file="${f#$here/}" '
    /Function properties for/ {
      kernel = $NF
      # sgemm::sgemm_kernel<WARPS_M, WARPS_N, ROWS, SPLITS> mangles to
      # ...ILi2ELi4ELi7ELi1E...: shown as <2,4,7,1>; the copy kernel of
      # version 19, <WARPS_M, WARPS_N, SPLITS>, as <2,4,1>
      if (match(kernel, /ILi[0-9]+ELi[0-9]+ELi[0-9]+ELi[0-9]+E/)) {
        args = substr(kernel, RSTART, RLENGTH)
        gsub(/[^0-9]+/, " ", args)
        split(args, v, " ")
        kernel = sprintf("<%s,%s,%s,%s>", v[1], v[2], v[3], v[4])
      } else if (match(kernel, /ILi[0-9]+ELi[0-9]+ELi[0-9]+E/)) {
        args = substr(kernel, RSTART, RLENGTH)
        gsub(/[^0-9]+/, " ", args)
        split(args, v, " ")
        kernel = sprintf("<%s,%s,%s>", v[1], v[2], v[3])
      } else kernel = "-"
    }
    /bytes stack frame/ { stack = $1; stores = $5; loads = $9 }
    /Used [0-9]+ registers/ {
      smem = 0
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "registers,") regs = $i
        if ($(i + 1) == "bytes" && $(i + 2) == "smem") smem = $i
      }
      printf "| %s | %s | %s | %s | %s | %s | %s |\n", file, kernel, regs, smem, stack, stores, loads
    }'
done

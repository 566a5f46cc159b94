#!/bin/sh
# The compiler's resource report for every kernel file, as a Markdown
# table: registers per thread, static shared memory, stack frame and spill
# traffic (both should be 0), straight from ptxas (nvcc --resource-usage).
# Needs nvcc only, no GPU. usage: resource_report.sh [ARCH]   (default sm_90)
set -eu
arch=${1:-sm_90}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
echo "| file | registers | shared memory B | stack frame B | spill stores B | spill loads B |"
echo "|---|---:|---:|---:|---:|---:|"
for f in "$here"/[0-9][0-9]_*.cu "$here"/extra/*.cu; do
  "$nvcc" -arch="$arch" -O3 --resource-usage -I"$here" -I"$here/../../common" -c "$f" \
    -o /dev/null 2>&1 |
  awk -v file="${f#$here/}" '
    /bytes stack frame/ { stack = $1; stores = $5; loads = $9 }
    /Used [0-9]+ registers/ {
      for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "registers,") regs = $i
        if ($(i + 1) == "bytes" && $(i + 2) == "smem") smem = $i
      }
    }
    END { printf "| %s | %s | %s | %s | %s | %s |\n", file, regs, smem ? smem : 0, stack, stores, loads }'
done

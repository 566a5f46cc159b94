#!/bin/sh
# Lists, for every kernel in a binary, which memory instructions its SASS
# holds (LDG/LDS/LDC/LDL/TLD/STL..., with their cache modifiers) and whether
# it reads the clock: the evidence that each chase loads from the space it
# claims and that the compiler kept the loads. Needs cuobjdump.
#   benchmarks/sass_check.sh build/bin/warpbench
set -eu
binary=${1:?usage: sass_check.sh BINARY}
cuobjdump -sass "$binary" | awk '
  /Function :/ { if (name) report(); name = $3; delete seen; next }
  {
    if (match($0, /(LDG|LDS|LDC|LDL|STL|TLD|TEX|LD)(\.[A-Z0-9_]+)*/)) seen[substr($0, RSTART, RLENGTH)]++
    if ($0 ~ /CS2R[^;]*SR_CLOCK/) seen["CS2R.CLOCK"]++
  }
  function report(  k, line) {
    line = ""
    for (k in seen) line = line " " k "x" seen[k]
    print name ":" line
  }
  END { if (name) report() }' | sort

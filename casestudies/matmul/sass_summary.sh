#!/bin/sh
# Counts, per kernel of a CUDA binary, the instructions that tell whether a
# matmul version compiled the way it was meant to: FFMA (the useful work),
# shared loads by width (LDS.128 = float4 fragments), global loads by width,
# cp.async (LDGSTS) and local-memory traffic (LDL/STL = spills; should be 0).
# Static counts from the disassembly, not executed counts.
# usage: sass_summary.sh BINARY   (needs cuobjdump from the CUDA toolkit)
set -eu
cuobjdump -sass "$1" | awk '
  /Function :/ { name = $3; names[++n] = name; next }
  name == "" { next }
  / FFMA /        { ffma[name]++ }
  / LDS(\.U)?\.128 / { lds128[name]++ }
  / LDS(\.U)?\.64 /  { lds64[name]++ }
  / LDS(\.U)? /      { lds32[name]++ }
  / LDG\.E\.128/  { ldg128[name]++ }
  / LDG\.E(\.CONSTANT|\.STRONG\.[A-Z]+)? / { ldg32[name]++ }
  / LDGSTS/       { ldgsts[name]++ }
  / STS/          { sts[name]++ }
  / LDL/          { ldl[name]++ }
  / STL/          { stl[name]++ }
  END {
    printf "%-48s %6s %7s %6s %6s %7s %6s %6s %5s %5s %5s\n", "kernel", "FFMA", "LDS.128", "LDS.64", "LDS.32",
      "LDG.128", "LDG", "LDGSTS", "STS", "LDL", "STL"
    for (i = 1; i <= n; i++) {
      k = names[i]
      printf "%-48s %6d %7d %6d %6d %7d %6d %6d %5d %5d %5d\n", k, ffma[k], lds128[k], lds64[k], lds32[k],
        ldg128[k], ldg32[k], ldgsts[k], sts[k], ldl[k], stl[k]
    }
  }'

#!/bin/sh
# Turns a runner's result lines into the plot of RESULTS.md: GFLOP/s of
# every version at the square sizes, one bar per size, with the strict-FP32
# cuBLAS level drawn across. The TF32 tensor-core row is left out: it is
# another class of arithmetic and would flatten the scale.
# usage: plot.sh RESULTS.jsonl OUT.png     (needs jq and gnuplot)
set -eu
in=$1
out=$2
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
# One row per version, in the order the runner wrote them, one column per
# square size: name g1024 g2048 g4096 g8192 (NaN where missing).
jq -r 'select(.params.M == .params.N and .params.N == .params.K and .params.arith == "fp32")
       | [.name, .params.M, .gflops] | @tsv' "$in" |
awk -F'\t' '
  !($1 in seen) { seen[$1] = 1; order[++n] = $1 }
  { g[$1, $2] = $3 }
  END {
    print "# version\t1024\t2048\t4096\t8192"
    for (i = 1; i <= n; i++) {
      v = order[i]; line = v
      split("1024 2048 4096 8192", sizes, " ")
      for (s = 1; s <= 4; s++) line = line "\t" ((v, sizes[s]) in g ? g[v, sizes[s]] / 1000 : "NaN")
      print line
    }
  }' > "$dat"
device=$(jq -r '.device' "$in" | head -1)
gnuplot <<GP
set terminal pngcairo size 1400,700 font ",11"
set output "$out"
set title "FP32 matrix multiply C = A*B, row-major, square sizes: $device"
set ylabel "TFLOP/s (median of repeats)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 left noenhanced
set key top left
set rmargin 8
set bmargin 7
set grid ytics
set yrange [0:*]
plot "$dat" using 2:xtic(1) title "1024^3", "" using 3 title "2048^3", \
     "" using 4 title "4096^3", "" using 5 title "8192^3"
GP
echo "wrote $out"

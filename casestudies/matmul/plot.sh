#!/bin/sh
# Turns a runner's result lines into the plots of RESULTS.md.
#   plot.sh RESULTS.jsonl OUT.png          GFLOP/s of every version at the
#       square sizes, one bar per size (the TF32 tensor-core row is left
#       out: another class of arithmetic, it would flatten the scale)
#   plot.sh RESULTS.jsonl OUT.png ratio    % of cuBLAS FP32 in the same run
#       at every size, one bar per version, with issue 14's 90% and 97%
# The plans of the tables of versions 18-21 (tile*, async_*, padded_*,
# copya_*, copyb_*, copyab_*, stream_k_*) are left out of both: they have their own
# table. Needs jq and gnuplot.
set -eu
in=$1
out=$2
mode=${3:-gflops}
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
device=$(jq -r '.device' "$in" | head -1)
# What both plots share: a wide PNG of clustered bars.
bars='set terminal pngcairo size 1400,700 font ",11"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics'
if [ "$mode" = ratio ]; then
  # One row per size, one column per version, in the runner's order.
  jq -r 'select(.params.arith == "fp32" and (.name | test("^(tile|async_|padded_|copya?b?_|stream_k_)") | not))
         | [.name, "\(.params.M)x\(.params.N)x\(.params.K)", .ratio_to_cublas * 100] | @tsv' "$in" |
  awk -F'\t' '
    !($1 in seen_v) { seen_v[$1] = 1; vers[++nv] = $1 }
    !($2 in seen_s) { seen_s[$2] = 1; sizes[++ns] = $2 }
    { r[$1, $2] = $3 }
    END {
      line = "size"; for (v = 1; v <= nv; v++) line = line "\t" vers[v]; print line
      for (s = 1; s <= ns; s++) {
        line = sizes[s]
        for (v = 1; v <= nv; v++) line = line "\t" (((vers[v], sizes[s]) in r) ? r[vers[v], sizes[s]] : "NaN")
        print line
      }
    }' > "$dat"
  columns=$(head -1 "$dat" | awk -F'\t' '{print NF}')
  gnuplot <<GP
$bars
set output "$out"
set title "FP32 C = A*B, % of cuBLAS FP32 in the same run: $device" noenhanced
set ylabel "% of cuBLAS FP32 (median of repeats)"
set xtics rotate by -20 left noenhanced
set key outside right top noenhanced
set yrange [0:130]
set arrow from graph 0, first 90 to graph 1, first 90 nohead dt 2 lw 2
set arrow from graph 0, first 97 to graph 1, first 97 nohead dt 3 lw 2
plot for [c=2:$columns] "$dat" using c:xtic(1) title columnheader(c)
GP
  echo "wrote $out"
  exit 0
fi
# One row per version, in the order the runner wrote them, one column per
# square size: name g1024 g2048 g4096 g8192 (NaN where missing).
jq -r 'select(.params.M == .params.N and .params.N == .params.K and .params.arith == "fp32"
              and (.name | test("^(tile|async_|padded_|copya?b?_|stream_k_)") | not))
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
gnuplot <<GP
$bars
set output "$out"
set title "FP32 matrix multiply C = A*B, row-major, square sizes: $device"
set ylabel "TFLOP/s (median of repeats)"
set xtics rotate by -35 left noenhanced
set key top left
set rmargin 8
set bmargin 7
set yrange [0:*]
plot "$dat" using 2:xtic(1) title "1024^3", "" using 3 title "2048^3", \\
     "" using 4 title "4096^3", "" using 5 title "8192^3"
GP
echo "wrote $out"

#!/bin/sh
# Draws every figure of benchmarks/RESULTS.md from the measured result lines
# and profiles (one GPU beside the K20c values transcribed from the paper).
#   benchmarks/plots/plot.sh [RESULT_LINES.jsonl] [PROFILE.json] [OUT_DIR]
# Default: the H100's, into this folder; the H200's figures are
#   plot.sh ../data/raw/h200-2026-11-23/run1.jsonl ../data/h200.json h200
# Needs jq and gnuplot (gnuplot-nox).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
lines=${1:-$data/raw/h100-2026-11-23-lease2/run1.jsonl}
h100=${2:-$data/h100-sxm.json}
k20c=$data/k20c-paper.json
out=${3:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)
gpu=$(jq -r '.gpu.name | sub("NVIDIA "; "") | sub(" 80GB HBM3"; "")' "$h100")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# One value per memory for Table 1; "nan" where a profile lacks it.
for space in register shared constant local global global_cg texture; do
  printf '%s\t%s\t%s\n' "$space" \
    "$(jq -r --arg k "latency.$space" '.measurements[$k].value // "nan"' "$h100")" \
    "$(jq -r --arg k "latency.$space" '.measurements[$k].value // "nan"' "$k20c")"
done >"$t/table1.tsv"

for space in shared constant local global global_cg texture; do
  jq -r --arg s "$space" 'select(.name=="latency_chase" and .params.space==$s) |
    [.params.step, .median, .min, .max] | @tsv' "$lines" >"$t/step_$space.tsv"
done

for space in shared constant global global_cg texture; do
  jq -r --arg s "$space" 'select(.name=="warp_broadcast" and .params.space==$s and
    .params.threads==32) | [32 / .params.degree, .median] | @tsv' "$lines" | sort -n >"$t/bc_$space.tsv"
  for n in 1 2 4 8 16 32; do
    jq -r --arg k "warp.$space.distinct_$n" --argjson n "$n" \
      'if .measurements[$k] then "\($n)\t\(.measurements[$k].value)" else empty end' "$k20c"
  done >"$t/bc_k20c_$space.tsv"
  for d in 1 4 32; do
    jq -r --arg s "$space" --argjson d "$d" 'select(.name=="warp_broadcast" and
      .params.space==$s and .params.degree==$d and .params.blocks==1) |
      [.params.threads, .median] | @tsv' "$lines" | sort -n >"$t/thr_${space}_$d.tsv"
    jq -r --arg s "$space" --argjson d "$d" 'select(.name=="warp_broadcast" and
      .params.space==$s and .params.degree==$d and .params.threads==256) |
      [.params.blocks, .median] | @tsv' "$lines" | sort -n >"$t/blk_${space}_$d.tsv"
  done
done

for space in shared global global_cg texture; do
  for p in 1 2 3; do
    jq -r --arg s "$space" --argjson p "$p" 'select(.name=="access_pattern" and
      .params.space==$s and .params.pattern==$p and .params.threads==256) |
      [.params.blocks, .median] | @tsv' "$lines" | sort -n >"$t/pat_${space}_$p.tsv"
  done
done

for bytes in 4 8; do
  for threads in 32 1024; do
    jq -r --argjson b "$bytes" --argjson th "$threads" 'select(.name=="bank_conflict" and
      .params.layout=="strided_rows" and .params.element_bytes==$b and .params.threads==$th) |
      [.params.degree, .median] | @tsv' "$lines" | sort -n >"$t/bank_${bytes}_$threads.tsv"
  done
done

# Table 4 as a fraction of each GPU's own cudaMemcpy D2D.
for type in char char2 char4 short int float float2 float4 double; do
  printf '%s\t%s\t%s\n' "$type" \
    "$(jq -r --arg k "bandwidth.type.$type" '(.measurements[$k].value // "nan") as $v |
      if $v == "nan" then "nan" else $v / .measurements["bandwidth.memcpy_d2d"].value end' "$h100")" \
    "$(jq -r --arg k "bandwidth.type.$type" '(.measurements[$k].value // "nan") as $v |
      if $v == "nan" then "nan" else $v / .measurements["bandwidth.memcpy_d2d"].value end' "$k20c")"
done >"$t/table4.tsv"

for level in l1 texture l2; do
  jq -r --arg l "$level" 'select(.name=="cache_structure" and .params.level==$l and
    .params.walk=="warm_random_lines") | [.params.bytes, .median, .min, .max] | @tsv' "$lines" \
    | sort -n >"$t/size_$level.tsv"
  jq -r --arg l "$level" 'select(.name=="cache_structure" and .params.level==$l and
    .params.walk=="cold_sequential_4B") | .samples[0:128][]' "$lines" | awk '{print (NR-1)*4 "\t" $1}' \
    >"$t/cold_$level.tsv"
done

for mem in shared constant l1 l2 texture; do
  printf '%s' "$mem"
  for bits in 32 64 128; do
    printf '\t%s' "$(jq -r --arg k "onchip_bw.$mem.$bits" '.measurements[$k].value // "nan"' "$h100")"
  done
  printf '\n'
done >"$t/onchip.tsv"

# Experiment 9: every SM's latency to each level, and the capacity walks.
for fig in l2_near_hit l2_far_hit dram_near dram_far; do
  jq -r --arg f "$fig" 'select(.name=="l2_partition" and .params.figure==$f) |
    [.params.sm, .median, .params.side] | @tsv' "$lines" | sort -n >"$t/sm_$fig.tsv"
done
for side in 0 1; do
  jq -r --argjson s "$side" 'select(.name=="l2_partition" and .params.figure=="capacity_walk" and
    .params.side==$s) | [.params.total_bytes, .params.slow_permille / 10] | @tsv' "$lines" \
    | sort -n >"$t/capacity_$side.tsv"
done

d2d_h100=$(jq -r '.measurements["bandwidth.memcpy_d2d"].value | floor' "$h100")
d2d_k20c=$(jq -r '.measurements["bandwidth.memcpy_d2d"].value | floor' "$k20c")
clock=$(jq -r '"\(.gpu.sm_count) SMs, \(.gpu.sm_clock_mhz) MHz"' "$h100")

gnuplot <<GNUPLOT
set terminal pngcairo size 900,520 font "DejaVu Sans,10" noenhanced
set datafile separator "\t"
set grid ytics
set key top left

set output "$out/table1_latency.png"
set title "Thread-level latency (Table 1): $gpu measured, K20c from the paper"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "cycles per access"
set xtics rotate by -20
plot "$t/table1.tsv" using 2:xtic(1) title "$gpu (sm_90)", "" using 3 title "K20c (paper)"
unset xtics; set xtics

set output "$out/fig2_latency_vs_step.png"
set title "Pointer-chase latency against the step (Fig. 2), $gpu"
set style data linespoints
set logscale x 2
set xlabel "step (elements of 4 bytes)"
set key top left
plot for [s in "shared constant local global global_cg texture"] "$t/step_".s.".tsv" using 1:2 title s
unset logscale x

set output "$out/fig5_broadcast.png"
set title "One warp: latency against the distinct addresses per request (Figs. 5, 7, 8, 10)"
set logscale x 2
set logscale y
set xlabel "distinct addresses in the warp's request (32 / broadcast degree)"
set ylabel "cycles per access"
set key outside right
plot for [s in "shared constant global global_cg texture"] "$t/bc_".s.".tsv" using 1:2 with linespoints title "$gpu ".s, \
     for [s in "shared global texture"] "$t/bc_k20c_".s.".tsv" using 1:2 with points pt 6 ps 1.5 title "K20c ".s
unset logscale

set terminal pngcairo size 1200,700 font "DejaVu Sans,9" noenhanced
set key inside top left
set yrange [0:*]
set output "$out/fig7_thread_sweep.png"
set multiplot layout 2,3 title "Warp latency against threads in one block (Figs. 5-10 (a)), $gpu"
set logscale x 2
set xlabel "threads per block"
set key top left
do for [s in "shared constant global global_cg texture"] {
  set title s
  plot for [d in "1 4 32"] "$t/thr_".s."_".d.".tsv" using 1:2 with linespoints title "degree ".d
}
unset multiplot
unset logscale x

set output "$out/fig8_block_sweep.png"
set multiplot layout 2,3 title "Warp latency against blocks of 256 threads (Figs. 7-10 (b)), $gpu ($clock)"
set xlabel "blocks"
do for [s in "shared constant global global_cg texture"] {
  set title s
  plot for [d in "1 4 32"] "$t/blk_".s."_".d.".tsv" using 1:2 with linespoints title "degree ".d
}
unset multiplot

set output "$out/fig9_patterns.png"
set multiplot layout 2,2 title "Access patterns against blocks of 256 threads (Figs. 6, 9, 11): 1 aligned, 2 misaligned, 3 non-consecutive; $gpu"
do for [s in "shared global global_cg texture"] {
  set title s
  plot for [p in "1 2 3"] "$t/pat_".s."_".p.".tsv" using 1:2 with linespoints title "pattern ".p
}
unset multiplot

set terminal pngcairo size 900,520 font "DejaVu Sans,10" noenhanced
set autoscale y
set output "$out/fig12_bank_conflict.png"
set title "Shared-memory bank conflicts (Fig. 12), $gpu"
set logscale x 2
set logscale y 2
set xlabel "conflict degree (lanes per bank)"
set ylabel "cycles per access"
set key top left
plot "$t/bank_4_32.tsv" using 1:2 with linespoints title "4-byte words, one warp", \
     "$t/bank_4_1024.tsv" using 1:2 with linespoints title "4-byte words, 32 warps", \
     "$t/bank_8_32.tsv" using 1:2 with linespoints title "8-byte words, one warp", \
     "$t/bank_8_1024.tsv" using 1:2 with linespoints title "8-byte words, 32 warps"
unset logscale

set output "$out/table4_bandwidth.png"
set title "Copy bandwidth by element type as a fraction of cudaMemcpy D2D (Table 4)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "fraction of D2D memcpy"
set yrange [0:1.1]
set xlabel ""
plot "$t/table4.tsv" using 2:xtic(1) title "$gpu (D2D $d2d_h100 GB/s)", "" using 3 title "K20c (paper; D2D $d2d_k20c GB/s)"
set autoscale y

set output "$out/cache_latency_vs_size.png"
set title "Fine-grained chase: median latency of a warm walk against its footprint, $gpu"
set style data linespoints
set logscale x 2
set logscale y
set format x "%.0b %BB"
set xlabel "footprint (random 128-byte lines)"
set ylabel "cycles per access"
plot "$t/size_l1.tsv" using 1:2 title "default load (L1)", "$t/size_texture.tsv" using 1:2 title "texture", \
     "$t/size_l2.tsv" using 1:2 title "ld.global.cg (L2)"
unset logscale

set output "$out/cache_cold_walk.png"
set title "Every access of a cold 4-byte walk (first 128 accesses), $gpu"
set xlabel "byte offset"
set ylabel "cycles"
set logscale y
plot "$t/cold_l1.tsv" using 1:2 with impulses title "default load", \
     "$t/cold_texture.tsv" using 1:2 with points pt 7 ps 0.5 title "texture", \
     "$t/cold_l2.tsv" using 1:2 with points pt 6 ps 0.6 title "ld.global.cg"
unset logscale

set output "$out/l2_partition_per_sm.png"
set title "Latency to each level from every SM (address chase), $gpu: the L2 is two partitions"
set style data points
set xlabel "SM (%smid)"
set format x "%g"
set ylabel "cycles per access"
set yrange [0:900]
set key outside right
plot "$t/sm_l2_near_hit.tsv" using 1:2 pt 7 ps 0.6 title "L2 near hit", \
     "$t/sm_l2_far_hit.tsv" using 1:2 pt 7 ps 0.6 title "L2 far hit", \
     "$t/sm_dram_near.tsv" using 1:2 pt 6 ps 0.6 title "DRAM, near-homed line", \
     "$t/sm_dram_far.tsv" using 1:2 pt 6 ps 0.6 title "DRAM, far-homed line"
set autoscale y

set output "$out/l2_capacity_both_partitions.png"
set title "One SM per side walking the lines homed on its side: slow accesses against the total, $gpu"
set style data linespoints
set format x "%.0b %BB"
set xlabel "total footprint of both walks"
set ylabel "% of timed accesses slower than 1.3 x a hit"
set key top left
plot "$t/capacity_0.tsv" using 1:2 title "SM of side 0", "$t/capacity_1.tsv" using 1:2 title "SM of side 1"
set format x "%g"

set output "$out/onchip_bandwidth.png"
set title "On-chip bandwidth by element width, $gpu ($clock)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "GB/s"
set xlabel ""
plot "$t/onchip.tsv" using 2:xtic(1) title "32-bit", "" using 3 title "64-bit", "" using 4 title "128-bit"
GNUPLOT
ls "$out"/*.png

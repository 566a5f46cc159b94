#!/bin/sh
# mnf/plot.sh RUN_DIR: draws RUN_DIR/mnf_table8.svg (end-to-end times per
# image, log scale) and RUN_DIR/mnf_table6.svg (covariance versions) from
# the result lines RUN_DIR/mnf_results.jsonl that mnf-bench wrote.
set -eu
dir=${1:?usage: mnf/plot.sh RUN_DIR}
jsonl=$dir/mnf_results.jsonl
# value NAME IMAGE FIELD: one number from the result lines.
value() {
  grep "\"name\":\"$1\"" "$jsonl" | grep "\"image\":$2," | sed -E "s/.*\"$3\":([0-9.eE+-]+).*/\1/"
}
{
  echo "# image cuda_mnf cublas_sgemm cublas_ssyrk transfer_floor k20c_cuda_mnf k20c_cublas_mnf (ms)"
  for i in 1 2 3; do
    echo "$i $(value cuda_mnf $i median) $(value cublas_mnf_sgemm $i median) $(value cublas_mnf_ssyrk $i median)" \
         "$(value transfer_floor $i floor_ms) $(value cuda_mnf $i paper_k20c_ms) $(value cublas_mnf_ssyrk $i paper_k20c_ms)"
  done
} > "$dir/plot_table8.dat"
{
  echo "# image v0 v1 v2 v3 v4 v5 fp32_floor v6 v7 v8 (ms; v6-v8 empty in runs before they existed)"
  for i in 1 2 3; do
    echo "$i $(value cov_v0_naive $i median) $(value cov_v1_shared_reduce $i median) $(value cov_v2_registers $i median)" \
         "$(value cov_v3_tiled $i median) $(value cov_v4_padded $i median) $(value cov_v5_gemm $i median)" \
         "$(value cov_v5_gemm $i fp32_floor_ms) $(value cov_v6_deferred $i median) $(value cov_v7_occupancy $i median)" \
         "$(value cov_v8_tensor $i median)"
  done
} > "$dir/plot_table6.dat"
device=$(head -1 "$jsonl" | sed -E 's/.*"device":"([^"]*)".*/\1/')
gnuplot <<GP
set terminal svg size 900,420 dynamic font "sans,11"
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set key outside right
set xlabel "image (1: 614x1087, 2: 753x1924, 3: 781x6955; 224 bands)"
set output "$dir/mnf_table8.svg"
set title "MNF end to end, upload and download included ($device; K20c: Fang et al. Table 8)"
set ylabel "ms (log scale)"
plot "$dir/plot_table8.dat" using 2:xtic(1) title "CUDA-MNF", '' using 3 title "CUBLAS-MNF Sgemm", \
     '' using 4 title "CUBLAS-MNF Ssyrk", '' using 5 title "transfer floor", \
     '' using 6 title "K20c CUDA-MNF", '' using 7 title "K20c CUBLAS-MNF"
set output "$dir/mnf_table6.svg"
set title "Covariance kernel versions, int16 image ($device)"
plot "$dir/plot_table6.dat" using 2:xtic(1) title "V0 naive", '' using 3 title "V1 shared reduction", \
     '' using 4 title "V2 registers", '' using 5 title "V3 tiles", '' using 6 title "V4 padded+prefetch", \
     '' using 7 title "V5 GEMM-like", '' using 9 title "V6 deferred", '' using 10 title "V7 occupancy", \
     '' using 11 title "V8 tensor cores (exact)", \
     '' using 8 title "FP32 floor"
GP
echo "wrote $dir/mnf_table8.svg $dir/mnf_table6.svg"

/* Experiment 5 (Fang et al. Section 6.2, Figs. 12, 13): shared-memory bank
 * conflicts. One warp chases p = s[p] through shared memory where s[i] = i,
 * so each lane reads one fixed word. For a d-way conflict lane l reads word
 * (l / d) + (l % d) * W, with W words per 128-byte row: d lanes share each
 * bank, at d different rows. Then a column of a [32][32] tile (32-way) and
 * of the padded [32][33] tile (none).
 * Each point is run twice: one warp alone (the latency of one request) and a
 * block of 32 warps doing the same (the shared-memory pipeline busy, as in a
 * real kernel: each extra wavefront then costs its full share). The profile
 * keeps the busy block's figures; --tiny runs the single warp only. */
#include "bench.h"
#include "bench_device.cuh"

enum { CONFLICT_ITERS = 512, TILE = 32 };

template <typename T>
__global__ void conflict_kernel(int degree, float *cycles, long long *out) {
  const int words_per_row = 128 / (int)sizeof(T);
  __shared__ T s[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = (T)i;
  int lane = threadIdx.x % 32;
  T p = (T)(lane / degree + (lane % degree) * words_per_row);
  __syncthreads();
  for (int i = 0; i < CONFLICT_ITERS; i++) p = s[(int)p];
  __syncwarp();
  long long t0 = clock64();
  for (int i = 0; i < CONFLICT_ITERS; i++) p = s[(int)p];
  out[threadIdx.x] = (long long)p;
  long long t1 = clock64();
  cycles[threadIdx.x] = (float)(t1 - t0) / CONFLICT_ITERS;
}

/* Lane l walks column p of row l: tile[l][c] holds c, so p never changes. */
template <int PITCH>
__global__ void tile_column_kernel(int column, float *cycles, long long *out) {
  __shared__ int tile[TILE][PITCH];
  for (int i = threadIdx.x; i < TILE * PITCH; i += blockDim.x) tile[i / PITCH][i % PITCH] = i % PITCH;
  int lane = threadIdx.x % 32;
  int p = column;
  __syncthreads();
  for (int i = 0; i < CONFLICT_ITERS; i++) p = tile[lane][p];
  __syncwarp();
  long long t0 = clock64();
  for (int i = 0; i < CONFLICT_ITERS; i++) p = tile[lane][p];
  out[threadIdx.x] = p;
  long long t1 = clock64();
  cycles[threadIdx.x] = (float)(t1 - t0) / CONFLICT_ITERS;
}

enum { BUSY_THREADS = 1024 };

typedef struct conflict_buffers {
  float *cycles;
  long long *out;
} conflict_buffers;

/* Mean latency over the block's threads; checks every lane's final word
 * (expected is per lane: all warps do the same). */
static double finish(bench_ctx *c, conflict_buffers *b, int threads, const long long *expected,
                     const char *what) {
  CUDA_CHECK_LAUNCH();
  static float cycles[BUSY_THREADS];
  static long long out[BUSY_THREADS];
  CUDA_CHECK(cudaMemcpy(cycles, b->cycles, threads * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out, b->out, threads * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = -1;
  double sum = 0;
  for (int t = 0; t < threads; t++) {
    if (bad < 0 && out[t] != expected[t % 32]) bad = t;
    sum += cycles[t];
  }
  bench_check_chase(c, what, bad < 0 ? 0 : out[bad], bad < 0 ? 0 : expected[bad % 32]);
  return sum / threads;
}

template <typename T>
static void measure_degrees(bench_ctx *c, conflict_buffers *b, const char *prefix) {
  const int words_per_row = 128 / (int)sizeof(T);
  for (int degree = 1; degree <= 32; degree *= 2) {
    long long expected[32];
    for (int l = 0; l < 32; l++) expected[l] = l / degree + (l % degree) * words_per_row;
    for (int threads = 32; threads <= (c->tiny ? 32 : BUSY_THREADS); threads *= BUSY_THREADS / 32) {
      double samples[64];
      for (int r = 0; r <= c->repeats; r++) {
        conflict_kernel<T><<<1, threads>>>(degree, b->cycles, b->out);
        double v = finish(c, b, threads, expected, "bank_conflict");
        if (r > 0) samples[r - 1] = v;
      }
      char key[64];
      snprintf(key, sizeof key, "%s.way_%d", prefix, degree);
      bench_param params[] = {{"degree", degree}, {"element_bytes", (long long)sizeof(T)},
                              {"threads", threads}};
      bench_emit(c, "bank_conflict", "layout", "strided_rows", params, 3, "warp_latency",
                 "cycles", samples, c->repeats, threads == BUSY_THREADS ? key : NULL);
    }
  }
}

template <int PITCH>
static void measure_tile(bench_ctx *c, conflict_buffers *b, const char *key) {
  long long expected[32];
  int column = 5;
  for (int l = 0; l < 32; l++) expected[l] = column;
  for (int threads = 32; threads <= (c->tiny ? 32 : BUSY_THREADS); threads *= BUSY_THREADS / 32) {
    double samples[64];
    for (int r = 0; r <= c->repeats; r++) {
      tile_column_kernel<PITCH><<<1, threads>>>(column, b->cycles, b->out);
      double v = finish(c, b, threads, expected, "bank_conflict tile");
      if (r > 0) samples[r - 1] = v;
    }
    bench_param params[] = {{"rows", TILE}, {"pitch", PITCH}, {"threads", threads}};
    bench_emit(c, "bank_conflict", "layout", "tile_column", params, 3, "warp_latency", "cycles",
               samples, c->repeats, threads == BUSY_THREADS ? key : NULL);
  }
}

void exp_bank_conflict(bench_ctx *c) {
  conflict_buffers b;
  CUDA_CHECK(cudaMalloc(&b.cycles, BUSY_THREADS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.out, BUSY_THREADS * sizeof(long long)));
  measure_degrees<int>(c, &b, "bank_conflict");
  measure_degrees<long long>(c, &b, "bank_conflict8");
  measure_tile<TILE>(c, &b, "bank_conflict.tile_32x32");
  measure_tile<TILE + 1>(c, &b, "bank_conflict.tile_32x33");
  CUDA_CHECK(cudaFree(b.cycles));
  CUDA_CHECK(cudaFree(b.out));
}

/* Experiment 5 (Fang et al. Section 6.2, Figs. 12, 13): shared-memory bank
 * conflicts. One warp chases p = s[p] through shared memory where s[i] = i,
 * so each lane reads one fixed word. For a d-way conflict lane l reads word
 * (l / d) + (l % d) * W, with W words per 128-byte row: d lanes share each
 * bank, at d different rows. Then a column of a [32][32] tile (32-way) and
 * of the padded [32][33] tile (none).
 * Each point is run twice: one warp alone (the latency of one request) and a
 * block of 32 warps doing the same (the shared-memory pipeline busy, as in a
 * real kernel: each extra wavefront then costs its full share). The profile
 * keeps the busy block's figures; --tiny runs the single warp only.
 * 16-byte reads (int4, LDS.128) take at least four wavefronts for a warp's
 * 512 bytes; the layouts of measure_layouts16 tell whether the hardware
 * counts a conflict per quarter-warp (8 lanes, one 128-byte wavefront each)
 * or over the whole warp (the most distinct 16-byte words in one bank
 * group), the two models warplint could use: "quarter_pairs" is four
 * wavefronts by the whole-warp count and eight by the quarter count. */
#include "bench.h"
#include "bench_device.cuh"

#include <string.h>

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

/* Lane l chases s[p].x from its own start word: s[e].x holds e, so p never
 * changes and every read is one 16-byte load of a fixed word. */
__global__ void conflict16_kernel(const int *start, float *cycles, long long *out) {
  __shared__ int4 s[32 * 8];
  for (int i = threadIdx.x; i < 32 * 8; i += blockDim.x) s[i] = make_int4(i, 0, 0, 0);
  int p = start[threadIdx.x % 32];
  __syncthreads();
  for (int i = 0; i < CONFLICT_ITERS; i++) { int4 v = s[p]; p = v.x | v.y | v.z | v.w; }
  __syncwarp();
  long long t0 = clock64();
  for (int i = 0; i < CONFLICT_ITERS; i++) { int4 v = s[p]; p = v.x | v.y | v.z | v.w; }
  out[threadIdx.x] = p;
  long long t1 = clock64();
  cycles[threadIdx.x] = (float)(t1 - t0) / CONFLICT_ITERS;
}

/* The same layouts stored: 64 16-byte stores per lane to its word (each
 * kept by a compiler barrier), for Nsight Compute's shared-store wavefront
 * count; no time is taken. The last value stored, 63, is read back. */
__global__ void conflict16_store_kernel(const int *start, long long *out) {
  __shared__ int4 s[32 * 8];
  int p = start[threadIdx.x % 32];
  for (int i = 0; i < 64; i++) {
    s[p] = make_int4(i, p, 0, 0);
    asm volatile("" ::: "memory");
  }
  __syncthreads();
  out[threadIdx.x] = s[p].x;
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

/* The 16-byte word each lane reads, 8 words to a 128-byte row (one pass
 * over the 32 banks). Quarter q = lane / 8, j = lane % 8. */
static int layout16(const char *name, int lane) {
  int q = lane / 8, j = lane % 8;
  if (!strcmp(name, "consecutive")) return lane;       /* 4 rows, whole: 4 wavefronts either way */
  if (!strcmp(name, "broadcast")) return 0;
  /* quarter q reads columns 4(q%2)..+3 of rows 2(q/2)*2.. : two rows' same
   * banks inside each quarter, every bank 4 words over the warp */
  if (!strcmp(name, "quarter_pairs")) return 8 * (2 * (q / 2) + j / 4) + 4 * (q % 2) + j % 4;
  /* columns 0-3 of rows 0-7: 8 words in banks 0-15, over the warp and
   * 2 per quarter: 8 wavefronts either way */
  if (!strcmp(name, "rows8")) return 8 * (lane / 4) + lane % 4;
  /* column 0 of 32 rows: 32 words in banks 0-3 */
  if (!strcmp(name, "column")) return 8 * lane;
  /* The layouts below read few words, shared by lanes of several quarters:
   * they tell whether quarters that need the same words share wavefronts. */
  if (!strcmp(name, "lane_pairs")) return lane / 2;          /* 16 words, one row per half-warp */
  if (!strcmp(name, "quarter_broadcast")) return q;          /* one word per quarter, 4 banks groups */
  if (!strcmp(name, "half_broadcast")) return lane / 16;     /* one word per half-warp (a 16x16 block's row) */
  if (!strcmp(name, "half_broadcast_rows")) return 8 * (lane / 16); /* the same, the two words in one bank group */
  if (!strcmp(name, "two_words")) return lane % 2;           /* every quarter reads words 0 and 1 */
  return -1;
}

static void measure_layouts16(bench_ctx *c, conflict_buffers *b) {
  static const char *const layouts[] = {"consecutive", "broadcast", "quarter_pairs", "rows8", "column",
                                         "lane_pairs", "quarter_broadcast", "half_broadcast",
                                         "half_broadcast_rows", "two_words"};
  int *start;
  CUDA_CHECK(cudaMalloc(&start, 32 * sizeof(int)));
  for (size_t k = 0; k < sizeof layouts / sizeof *layouts; k++) {
    int host_start[32];
    long long expected[32];
    for (int l = 0; l < 32; l++) expected[l] = host_start[l] = layout16(layouts[k], l);
    CUDA_CHECK(cudaMemcpy(start, host_start, sizeof host_start, cudaMemcpyHostToDevice));
    for (int threads = 32; threads <= (c->tiny ? 32 : BUSY_THREADS); threads *= BUSY_THREADS / 32) {
      double samples[64];
      for (int r = 0; r <= c->repeats; r++) {
        conflict16_kernel<<<1, threads>>>(start, b->cycles, b->out);
        double v = finish(c, b, threads, expected, "bank_conflict 16-byte");
        if (r > 0) samples[r - 1] = v;
      }
      char key[64];
      snprintf(key, sizeof key, "bank_conflict16.%s", layouts[k]);
      bench_param params[] = {{"element_bytes", 16}, {"threads", threads}};
      bench_emit(c, "bank_conflict", "layout", layouts[k], params, 2, "warp_latency", "cycles", samples,
                 c->repeats, threads == BUSY_THREADS ? key : NULL);
    }
    conflict16_store_kernel<<<1, 32>>>(start, b->out);
    CUDA_CHECK_LAUNCH();
    static long long out[32];
    CUDA_CHECK(cudaMemcpy(out, b->out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int l = 0; l < 32 && bad < 0; l++) if (out[l] != 63) bad = l;
    bench_check_chase(c, "bank_conflict 16-byte stores", bad < 0 ? 63 : out[bad], 63);
  }
  CUDA_CHECK(cudaFree(start));
}

void exp_bank_conflict(bench_ctx *c) {
  conflict_buffers b;
  CUDA_CHECK(cudaMalloc(&b.cycles, BUSY_THREADS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.out, BUSY_THREADS * sizeof(long long)));
  measure_degrees<int>(c, &b, "bank_conflict");
  measure_degrees<long long>(c, &b, "bank_conflict8");
  measure_layouts16(c, &b);
  measure_tile<TILE>(c, &b, "bank_conflict.tile_32x32");
  measure_tile<TILE + 1>(c, &b, "bank_conflict.tile_32x33");
  CUDA_CHECK(cudaFree(b.cycles));
  CUDA_CHECK(cudaFree(b.out));
}

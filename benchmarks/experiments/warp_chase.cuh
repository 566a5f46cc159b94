/* The warp-level benchmark of Fang et al. Section 4 (their `warp_bench`), as
 * one pointer chase per thread: thread t starts at start[threadIdx.x] and
 * follows p = next[p] through one memory space, once untimed and then
 * `iters` timed steps. Broadcast (experiment 2) and the access patterns
 * (experiment 3) differ only in the `next` and `start` arrays they build.
 * Each including file gets its own copy (constant memory is per file). */
#ifndef WARPMEM_WARP_CHASE_CUH
#define WARPMEM_WARP_CHASE_CUH

#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_device.cuh"

enum { WARP_MAX_N = 8192, WARP_MAX_THREADS = 1024, WARP_ITERS = 256 };

__constant__ int c_next[WARP_MAX_N];

template <int SPACE>
__device__ __forceinline__ int warp_load(const int *g, const int *s, cudaTextureObject_t t,
                                         int p) {
  if (SPACE == SPACE_SHARED) return s[p];
  if (SPACE == SPACE_CONSTANT) return c_next[p];
  if (SPACE == SPACE_GLOBAL_CG) return load_global_cg(g, p);
  if (SPACE == SPACE_GLOBAL_NC) return load_global_nc(g, p);
  if (SPACE == SPACE_TEXTURE) return load_texture(t, p);
  return load_global(g, p);
}

template <int SPACE>
__global__ void warp_chase_kernel(const int *next, int n, const int *start, cudaTextureObject_t t,
                                  float *cycles, int *out) {
  extern __shared__ int s[];
  if (SPACE == SPACE_SHARED)
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = next[i];
  int p = start[threadIdx.x];
  __syncthreads();
  for (int i = 0; i < WARP_ITERS; i++) p = warp_load<SPACE>(next, s, t, p);
  /* All warps of the block start the timed chase together; the lanes of a
   * warp issue each load in lock-step. */
  __syncthreads();
  __syncwarp();
  long long t0 = clock64();
  for (int i = 0; i < WARP_ITERS; i++) p = warp_load<SPACE>(next, s, t, p);
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  out[id] = p;
  long long t1 = clock64();
  cycles[id] = (float)(t1 - t0) / WARP_ITERS;
}

typedef struct warp_chase {
  int n;
  int *next_dev, *start_dev, *out_dev;
  float *cycles_dev;
  cudaTextureObject_t tex;
  int expected[WARP_MAX_THREADS]; /* final p per threadIdx.x */
  int *out_host;
  float *cycles_host;
  size_t max_threads_total;
} warp_chase;

static inline void warp_chase_open(warp_chase *w, size_t max_threads_total) {
  memset(w, 0, sizeof *w);
  w->max_threads_total = max_threads_total;
  CUDA_CHECK(cudaMalloc(&w->next_dev, WARP_MAX_N * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&w->start_dev, WARP_MAX_THREADS * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&w->out_dev, max_threads_total * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&w->cycles_dev, max_threads_total * sizeof(float)));
  w->out_host = (int *)malloc(max_threads_total * sizeof(int));
  w->cycles_host = (float *)malloc(max_threads_total * sizeof(float));
  if (!w->out_host || !w->cycles_host) abort();
  w->tex = bench_texture_of(w->next_dev, WARP_MAX_N);
}

static inline void warp_chase_close(warp_chase *w) {
  CUDA_CHECK(cudaDestroyTextureObject(w->tex));
  CUDA_CHECK(cudaFree(w->next_dev));
  CUDA_CHECK(cudaFree(w->start_dev));
  CUDA_CHECK(cudaFree(w->out_dev));
  CUDA_CHECK(cudaFree(w->cycles_dev));
  free(w->out_host);
  free(w->cycles_host);
}

/* Loads a layout (next[0..n-1], start[0..WARP_MAX_THREADS-1]) into every
 * space and works out where each thread's chase must end. */
static inline void warp_chase_layout(warp_chase *w, const int *next, int n, const int *start) {
  w->n = n;
  CUDA_CHECK(cudaMemcpy(w->next_dev, next, n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbol(c_next, next, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(w->start_dev, start, WARP_MAX_THREADS * sizeof(int),
                        cudaMemcpyHostToDevice));
  for (int t = 0; t < WARP_MAX_THREADS; t++) {
    int p = start[t];
    for (int i = 0; i < 2 * WARP_ITERS; i++) p = next[p];
    w->expected[t] = p;
  }
}

/* One launch; returns the mean per-access latency over all threads. */
static inline double warp_chase_launch(bench_ctx *c, warp_chase *w, int space, int threads,
                                       int blocks, const char *what) {
  size_t shared = space == SPACE_SHARED ? (size_t)w->n * sizeof(int) : 0;
#define WARP_LAUNCH(S) \
  warp_chase_kernel<S><<<blocks, threads, shared>>>(w->next_dev, w->n, w->start_dev, w->tex, \
                                                    w->cycles_dev, w->out_dev)
  switch (space) {
  case SPACE_SHARED: WARP_LAUNCH(SPACE_SHARED); break;
  case SPACE_CONSTANT: WARP_LAUNCH(SPACE_CONSTANT); break;
  case SPACE_GLOBAL: WARP_LAUNCH(SPACE_GLOBAL); break;
  case SPACE_GLOBAL_CG: WARP_LAUNCH(SPACE_GLOBAL_CG); break;
  case SPACE_GLOBAL_NC: WARP_LAUNCH(SPACE_GLOBAL_NC); break;
  default: WARP_LAUNCH(SPACE_TEXTURE); break;
  }
#undef WARP_LAUNCH
  CUDA_CHECK_LAUNCH();
  size_t total = (size_t)threads * blocks;
  CUDA_CHECK(cudaMemcpy(w->out_host, w->out_dev, total * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(w->cycles_host, w->cycles_dev, total * sizeof(float),
                        cudaMemcpyDeviceToHost));
  size_t bad = total;
  double sum = 0;
  for (size_t i = 0; i < total; i++) {
    if (bad == total && w->out_host[i] != w->expected[i % threads]) bad = i;
    sum += w->cycles_host[i];
  }
  if (bad < total)
    bench_check_chase(c, what, w->out_host[bad], w->expected[bad % threads]);
  else
    bench_check_chase(c, what, 0, 0);
  return sum / (double)total;
}

/* One measured point: `repeats` launches (after one warm-up launch), one
 * result line, and the profile entry when profile_key is given. */
static inline void warp_chase_point(bench_ctx *c, warp_chase *w, const char *experiment,
                                    int space, const char *variant_key, long long variant,
                                    int threads, int blocks, const char *profile_key) {
  double samples[64];
  warp_chase_launch(c, w, space, threads, blocks, experiment);
  for (int r = 0; r < c->repeats; r++)
    samples[r] = warp_chase_launch(c, w, space, threads, blocks, experiment);
  bench_param params[] = {{variant_key, variant}, {"threads", threads}, {"blocks", blocks}};
  bench_emit(c, experiment, "space", bench_space_names[space], params, 3, "warp_latency",
             "cycles", samples, c->repeats, profile_key);
}

/* The "one warp" points: one warp on every SM at once, each alone on its
 * SM. The mean over all of them is the typical SM's latency; one block alone
 * would measure whichever SM the scheduler picked, and for L2 accesses that
 * differs from SM to SM (issue 13). --tiny: one block. */
static inline int warp_chase_one_warp_blocks(const bench_ctx *c) {
  return c->tiny ? 1 : c->dev.sm_count;
}

/* The paper's two sweeps: threads per block with one block (Figs. 5-11 (a))
 * and blocks of 256 threads up to twice the SM count (Figs. 7-11 (b)). The
 * last point, the GPU full, is stored under full_key when that is given;
 * --quick runs only that point, --tiny with two blocks. */
static inline void warp_chase_sweeps(bench_ctx *c, warp_chase *w, const char *experiment,
                                     int space, const char *variant_key, long long variant,
                                     const char *full_key) {
  int sms = c->dev.sm_count;
  if (!c->quick) {
    for (int threads = 64; threads <= 1024; threads *= 2)
      warp_chase_point(c, w, experiment, space, variant_key, variant, threads, 1, NULL);
    int blocks[] = {8, sms / 2, sms, 3 * sms / 2};
    for (int i = 0; i < 4; i++)
      warp_chase_point(c, w, experiment, space, variant_key, variant, 256, blocks[i], NULL);
  }
  if (!c->quick || full_key)
    warp_chase_point(c, w, experiment, space, variant_key, variant, 256, c->tiny ? 2 : 2 * sms,
                     full_key);
}

#endif

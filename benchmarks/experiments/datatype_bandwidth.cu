/* Experiment 6 (Fang et al. Section 6.3, Table 4): global-memory copy
 * bandwidth per element type, each at the best of a sweep of launch
 * configurations, against cudaMemcpy device to device. Bandwidth counts the
 * bytes read plus the bytes written. Every type's copy is checked once on a
 * poisoned output before it is timed. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_device.cuh"

template <typename T>
__global__ void copy_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

typedef struct copy_job {
  const void *in;
  void *out;
  size_t bytes;
  int threads, blocks;
  void (*launch)(const struct copy_job *);
} copy_job;

template <typename T>
static void launch_copy(const copy_job *j) {
  copy_kernel<T><<<j->blocks, j->threads>>>((const T *)j->in, (T *)j->out, j->bytes / sizeof(T));
}

static void run_job(void *ctx) {
  const copy_job *j = (const copy_job *)ctx;
  j->launch(j);
  CUDA_CHECK_LAUNCH();
}

static void run_memcpy(void *ctx) {
  const copy_job *j = (const copy_job *)ctx;
  CUDA_CHECK(cudaMemcpyAsync(j->out, j->in, j->bytes, cudaMemcpyDeviceToDevice, 0));
}

static double gbs(size_t bytes, double ms) { return 2.0 * (double)bytes / (ms * 1e6); }

/* A small copy through the kernel over a poisoned output must reproduce
 * the input exactly. */
static bool copy_is_correct(copy_job j, const unsigned char *host_in, unsigned char *host_out) {
  j.bytes = (size_t)1 << 22;
  j.threads = 256;
  j.blocks = 64;
  CUDA_CHECK(cudaMemset(j.out, 0xA5, j.bytes));
  j.launch(&j);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(host_out, j.out, j.bytes, cudaMemcpyDeviceToHost));
  return memcmp(host_in, host_out, j.bytes) == 0;
}

typedef struct type_entry {
  const char *name;
  int size;
  void (*launch)(const copy_job *);
} type_entry;

static const type_entry types[] = {
    {"char", 1, launch_copy<char>},      {"char2", 2, launch_copy<char2>},
    {"char4", 4, launch_copy<char4>},    {"short", 2, launch_copy<short>},
    {"int", 4, launch_copy<int>},        {"float", 4, launch_copy<float>},
    {"float2", 8, launch_copy<float2>},  {"float4", 16, launch_copy<float4>},
    {"double", 8, launch_copy<double>},
};

static void measure_type(bench_ctx *c, const type_entry *t, copy_job base,
                         const unsigned char *host_in, unsigned char *host_out) {
  copy_job j = base;
  j.launch = t->launch;
  if (!copy_is_correct(j, host_in, host_out)) {
    fprintf(stderr, "warpbench: datatype_bandwidth: %s copy is wrong; not timed\n", t->name);
    c->prof->chase_failures++;
    return;
  }
  int sms = c->dev.sm_count;
  size_t elements = j.bytes / t->size;
  double best = -1;
  stats_summary best_s = {0, 0, 0, 0, 0};
  for (int threads = 128; threads <= 1024; threads *= 2) {
    long long one_per_thread = (long long)((elements + threads - 1) / threads);
    long long grids[] = {4LL * sms, 16LL * sms, 64LL * sms,
                         one_per_thread < 0x7fffffff ? one_per_thread : 0x7fffffff};
    for (int g = 0; g < 4; g++) {
      if (c->quick && (threads != 256 || g != 3)) continue;
      j.threads = threads;
      j.blocks = (int)grids[g];
      double ms[64], bw[64];
      stats_summary s;
      gpu_time_ms(run_job, &j, 2, c->repeats, &s, ms);
      for (int r = 0; r < c->repeats; r++) bw[r] = gbs(j.bytes, ms[r]);
      bench_param params[] = {{"threads", threads}, {"blocks", j.blocks},
                              {"bytes", (long long)j.bytes}};
      stats_summary b = bench_emit(c, "datatype_bandwidth", "type", t->name, params, 3,
                                   "bandwidth", "GB/s", bw, c->repeats, NULL);
      if (b.median > best) {
        best = b.median;
        best_s = b;
      }
    }
  }
  char key[64];
  snprintf(key, sizeof key, "bandwidth.type.%s", t->name);
  profile_set(c->prof, key, "GB/s", &best_s);
}

void exp_datatype_bandwidth(bench_ctx *c) {
  copy_job j;
  memset(&j, 0, sizeof j);
  /* --tiny: the 4 MB the correctness check copies. */
  j.bytes = c->tiny ? ((size_t)4 << 20) : c->quick ? ((size_t)128 << 20) : ((size_t)1 << 30);
  CUDA_CHECK(cudaMalloc((void **)&j.in, j.bytes));
  CUDA_CHECK(cudaMalloc(&j.out, j.bytes));
  size_t check_bytes = (size_t)1 << 22;
  unsigned char *host_in = (unsigned char *)malloc(check_bytes);
  unsigned char *host_out = (unsigned char *)malloc(check_bytes);
  if (!host_in || !host_out) abort();
  for (size_t i = 0; i < check_bytes; i++) host_in[i] = (unsigned char)(1 + bench_random(255));
  CUDA_CHECK(cudaMemset((void *)j.in, 0x5A, j.bytes));
  CUDA_CHECK(cudaMemcpy((void *)j.in, host_in, check_bytes, cudaMemcpyHostToDevice));

  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    measure_type(c, &types[t], j, host_in, host_out);

  double ms[64], bw[64];
  stats_summary s;
  gpu_time_ms(run_memcpy, &j, 2, c->repeats, &s, ms);
  for (int r = 0; r < c->repeats; r++) bw[r] = gbs(j.bytes, ms[r]);
  bench_param params[] = {{"bytes", (long long)j.bytes}};
  bench_emit(c, "datatype_bandwidth", "type", "memcpy_d2d", params, 1, "bandwidth", "GB/s", bw,
             c->repeats, "bandwidth.memcpy_d2d");
  profile_set_value(c->prof, "bandwidth.theoretical", "GB/s", c->dev.peak_dram_gbs,
                    "cudaGetDeviceProperties: 2 x memory clock x bus width");

  free(host_in);
  free(host_out);
  CUDA_CHECK(cudaFree((void *)j.in));
  CUDA_CHECK(cudaFree(j.out));
}

/* Experiment 4 (Fang et al. Section 6.1, Table 3), the part that needs a GPU:
 * the cost of a private array that lives in local memory rather than in
 * registers. Both kernels load the same 32 ints per thread and sum them; the
 * register version indexes its array only with constants (unrolled), the
 * local version with a run-time rotation, which forces the array into local
 * memory (ptxas reports a 128-byte stack frame for it and none for the other).
 * The compile-time part (largest array kept in registers, per architecture)
 * is measured by local_array/probe.sh into data/local_array_limits.tsv,
 * which this experiment copies into the profile. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_device.cuh"

enum { PRIVATE_N = 32 };

template <bool LOCAL>
__global__ void private_array_kernel(const int *in, int *out, int threads, int rotation) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= threads) return;
  int a[PRIVATE_N];
#pragma unroll
  for (int i = 0; i < PRIVATE_N; i++) a[i] = in[(size_t)i * threads + tid];
  int sum = 0;
  if (LOCAL) {
    for (int i = 0; i < PRIVATE_N; i++) sum += a[(i + rotation) % PRIVATE_N] * (i + 1);
  } else {
#pragma unroll
    for (int i = 0; i < PRIVATE_N; i++) sum += a[(i + 3) % PRIVATE_N] * (i + 1);
  }
  out[tid] = sum;
}

typedef struct private_job {
  const int *in;
  int *out;
  int threads;
  bool local;
} private_job;

static void run_private(void *ctx) {
  const private_job *j = (const private_job *)ctx;
  int blocks = (j->threads + 255) / 256;
  if (j->local) private_array_kernel<true><<<blocks, 256>>>(j->in, j->out, j->threads, 3);
  else private_array_kernel<false><<<blocks, 256>>>(j->in, j->out, j->threads, 3);
  CUDA_CHECK_LAUNCH();
}

static bool private_is_correct(private_job j, const int *host_in, int *host_out) {
  CUDA_CHECK(cudaMemset(j.out, 0xA5, (size_t)j.threads * sizeof(int)));
  run_private(&j);
  CUDA_CHECK(cudaMemcpy(host_out, j.out, (size_t)j.threads * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < j.threads; t++) {
    int sum = 0;
    for (int i = 0; i < PRIVATE_N; i++)
      sum += host_in[(size_t)((i + 3) % PRIVATE_N) * j.threads + t] * (i + 1);
    if (host_out[t] != sum) return false;
  }
  return true;
}

/* Copies the compile-time probe's findings (pattern, arch, elements). */
static void load_register_limits(bench_ctx *c) {
  char path[4096], line[256];
  snprintf(path, sizeof path, "%s/benchmarks/data/local_array_limits.tsv", c->source_dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "warpbench: %s: not found; Table 3 limits left out of the profile\n", path);
    return;
  }
  char pattern[32], arch[16];
  int elements;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || sscanf(line, "%31s %15s %d", pattern, arch, &elements) != 3) continue;
    char key[96];
    snprintf(key, sizeof key, "local_array.max_registers.%s.%s", pattern, arch);
    profile_set_value(c->prof, key, "elements", elements, "nvcc --resource-usage");
  }
  fclose(f);
}

void exp_local_array(bench_ctx *c) {
  load_register_limits(c);
  private_job j;
  j.threads = c->tiny ? (1 << 12) : c->quick ? (1 << 18) : (1 << 21);
  size_t in_count = (size_t)PRIVATE_N * j.threads;
  int *host_in = (int *)malloc(in_count * sizeof(int));
  int *host_out = (int *)malloc((size_t)j.threads * sizeof(int));
  if (!host_in || !host_out) abort();
  for (size_t i = 0; i < in_count; i++) host_in[i] = 1 + (int)bench_random(1000);
  CUDA_CHECK(cudaMalloc((void **)&j.in, in_count * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&j.out, (size_t)j.threads * sizeof(int)));
  CUDA_CHECK(cudaMemcpy((void *)j.in, host_in, in_count * sizeof(int), cudaMemcpyHostToDevice));

  double ms_by_version[2] = {0, 0};
  for (int local = 0; local <= 1; local++) {
    j.local = local != 0;
    if (!private_is_correct(j, host_in, host_out)) {
      fprintf(stderr, "warpbench: local_array: %s version is wrong; not timed\n",
              local ? "local" : "register");
      c->prof->chase_failures++;
      continue;
    }
    double ms[64];
    stats_summary s;
    gpu_time_ms(run_private, &j, 2, c->repeats, &s, ms);
    bench_param params[] = {{"threads", j.threads}, {"array", PRIVATE_N}};
    stats_summary e = bench_emit(c, "local_array", "version", local ? "local" : "register",
                                 params, 2, "time_ms", "ms", ms, c->repeats, NULL);
    ms_by_version[local] = e.median;
  }
  if (ms_by_version[0] > 0 && ms_by_version[1] > 0)
    profile_set_value(c->prof, "local_array.slowdown", "ratio",
                      ms_by_version[1] / ms_by_version[0],
                      "ratio of the medians of the two local_array lines");
  free(host_in);
  free(host_out);
  CUDA_CHECK(cudaFree((void *)j.in));
  CUDA_CHECK(cudaFree(j.out));
}

/* Proves that GPU tests really run on a GPU machine: a saxpy kernel on random
 * data checked element by element against the CPU, the event timer, and a
 * result line that parses. Without a GPU it exits 77 (skipped). */
#include <stdlib.h>

#include "gpu.h"
#include "json_reader.h"
#include "results.h"
#include "testing.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

struct saxpy_run {
  int n;
  float a;
  const float *x;
  float *y;
};

static void launch(void *ctx) {
  saxpy_run *r = (saxpy_run *)ctx;
  saxpy<<<(r->n + 255) / 256, 256>>>(r->n, r->a, r->x, r->y);
}

static float random_nonzero(void) {
  return (float)((rand() % 2000) - 1000) / 997.0f + 0.001f;
}

static void kernel_matches_cpu(void) {
  const int n = 1 << 20 | 77; /* not a multiple of the block */
  const float a = 1.75f;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { x[i] = random_nonzero(); y[i] = random_nonzero(); }
  float *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy_run r = {n, a, dx, dy};
  launch(&r);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; i++)
    if (fabs((double)out[i] - ((double)a * x[i] + y[i])) > 1e-5 * (1 + fabs((double)y[i]))) wrong++;
  CHECK(wrong == 0);

  stats_summary s;
  gpu_time_ms(launch, &r, 3, 20, &s, NULL);
  CHECK(s.n == 20);
  CHECK(s.min > 0 && s.min <= s.median && s.median <= s.max);

  gpu_device_info info;
  gpu_device_info_get(0, &info);
  CHECK(info.sm_count > 0 && info.sm_clock_khz > 0 && info.peak_fp32_gflops > 0);
  char *line = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&line, &len);
  result_line rl;
  result_begin(&rl, f, "tests", "saxpy", info.name);
  result_param_int(&rl, "n", n);
  result_measure(&rl, "time_ms", "ms", &s);
  result_derived(&rl, "gbs", 3.0 * n * sizeof(float) / (s.median * 1e6));
  result_end(&rl);
  fclose(f);
  fputs(line, stdout);
  char err[128];
  json_value *v = json_parse(line, len, err, sizeof err);
  CHECK(v != NULL);
  CHECK_STR(json_string_or(json_get(v, "device"), NULL), info.name);
  json_free(v);
  free(line);
  printf("device: %s, %d SMs, SM clock %d MHz\n", info.name, info.sm_count, info.sm_clock_khz / 1000);

  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  free(x);
  free(y);
  free(out);
}

int main(void) {
  if (!gpu_or_skip("test_gpu_smoke")) return GPU_SKIP_EXIT;
  srand(12345);
  kernel_matches_cpu();
  return test_summary();
}

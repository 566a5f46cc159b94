/* Every version, the counter-example and the cuBLAS paths compute
 * C = alpha*A*B + beta*C correctly at odd shapes (edges of every tile size,
 * aligned and unaligned rows), against the float64 CPU reference, on fresh
 * random non-zero data, with the output poisoned before each run. Skipped
 * without a GPU. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "matmul.h"
#include "testing.h"

static const matmul_shape shapes[] = {
  {1, 1, 1},        {17, 33, 65},    {127, 129, 31}, {257, 511, 1000},
  {256, 384, 512},  /* whole tiles, 16-byte rows: the float4 / cp.async fast path */
  {260, 132, 36},   /* 16-byte rows, partial tiles in M, N and K */
  {129, 4, 4100},   /* one narrow column of tiles, long K */
  /* Rows of A (K floats) and of B (N floats) off 16-byte alignment by each
   * of 1, 2 and 3 floats, each with several tiles of K: */
  {130, 257, 514},  /* N = 1, K = 2 mod 4 */
  {67, 262, 307},   /* N = 2, K = 3 mod 4 */
  {333, 131, 1029}, /* N = 3, K = 1 mod 4 */
  {190, 256, 1023}, /* only A's rows off (K = 3 mod 4) */
  {129, 510, 256},  /* only B's rows off (N = 2 mod 4) */
};

/* Under compute-sanitizer: the same kinds of edge (a single element,
 * partial tiles, the 16-byte fast path, a K split eight ways, rows of A and
 * B off 16-byte alignment) at a fraction of the work; racecheck's time
 * grows with K times the tile's threads, which a narrow long-K shape
 * wastes. */
static const matmul_shape small_shapes[] = {
  {1, 1, 1}, {17, 33, 65}, {127, 129, 31}, {256, 256, 64}, {260, 132, 36}, {65, 4, 516}, {67, 262, 37},
};

typedef struct problem {
  matmul_shape s;
  float *host_a, *host_b, *host_c, *out;
  double *ref;
  float *A, *B, *C;
} problem;

static void setup(problem *p, matmul_shape s, unsigned *seed) {
  size_t a = (size_t)s.M * s.K, b = (size_t)s.K * s.N, c = (size_t)s.M * s.N;
  p->s = s;
  p->host_a = malloc(a * sizeof(float));
  p->host_b = malloc(b * sizeof(float));
  p->host_c = malloc(c * sizeof(float));
  p->out = malloc(c * sizeof(float));
  p->ref = malloc(c * sizeof(double));
  if (!p->host_a || !p->host_b || !p->host_c || !p->out || !p->ref) abort();
  matmul_fill_random(p->host_a, a, seed);
  matmul_fill_random(p->host_b, b, seed);
  matmul_fill_random(p->host_c, c, seed);
  CUDA_CHECK(cudaMalloc((void **)&p->A, a * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&p->B, b * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&p->C, c * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(p->A, p->host_a, a * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(p->B, p->host_b, b * sizeof(float), cudaMemcpyHostToDevice));
}

static void teardown(problem *p) {
  CUDA_CHECK(cudaFree(p->A));
  CUDA_CHECK(cudaFree(p->B));
  CUDA_CHECK(cudaFree(p->C));
  free(p->host_a);
  free(p->host_b);
  free(p->host_c);
  free(p->out);
  free(p->ref);
}

/* Runs v with (alpha, beta); with beta == 0 C starts as NaN, so every
 * element must be written and C must not be read. Returns the error. */
static double run_and_compare(const matmul_version *v, problem *p, float alpha, float beta) {
  size_t c = (size_t)p->s.M * p->s.N;
  if (beta == 0.0f)
    CUDA_CHECK(cudaMemset(p->C, 0xff, c * sizeof(float)));
  else
    CUDA_CHECK(cudaMemcpy(p->C, p->host_c, c * sizeof(float), cudaMemcpyHostToDevice));
  matmul_args args = {p->s.M, p->s.N, p->s.K, alpha, beta, p->A, p->B, p->C};
  v->launch(&args);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(p->out, p->C, c * sizeof(float), cudaMemcpyDeviceToHost));
  return matmul_rel_error(p->out, p->ref, c);
}

int main(void) {
  if (!gpu_or_skip("test_matmul_versions")) return GPU_SKIP_EXIT;
  unsigned seed = (unsigned)time(NULL);
  printf("seed %u\n", seed);
  const float alphas[] = {1.0f, 1.5f}, betas[] = {0.0f, -0.5f};
  const matmul_shape *list = test_small_sizes() ? small_shapes : shapes;
  size_t count = test_small_sizes() ? sizeof small_shapes / sizeof small_shapes[0]
                                    : sizeof shapes / sizeof shapes[0];
  for (size_t i = 0; i < count; i++) {
    problem p;
    setup(&p, list[i], &seed);
    for (int ab = 0; ab < 2; ab++) {
      matmul_reference(p.s.M, p.s.N, p.s.K, alphas[ab], p.host_a, p.host_b, betas[ab],
                       p.host_c, p.ref);
      for (int v = 0; v < matmul_version_count; v++) {
        const matmul_version *ver = matmul_versions[v];
        test_progress("%s at %dx%dx%d", ver->name, p.s.M, p.s.N, p.s.K);
        double tolerance = ver->arith == MATMUL_TF32 ? 5e-3 : 5e-5;
        double err = run_and_compare(ver, &p, alphas[ab], betas[ab]);
        if (err <= tolerance) {
          test_passed++;
        } else {
          test_fail(__FILE__, __LINE__, "%s at %dx%dx%d (alpha %g, beta %g): rel err %.3g > %g",
                    ver->name, p.s.M, p.s.N, p.s.K, alphas[ab], betas[ab], err, tolerance);
        }
      }
    }
    teardown(&p);
  }
  matmul_release_library();
  matmul_release_workspace();
  return test_summary();
}

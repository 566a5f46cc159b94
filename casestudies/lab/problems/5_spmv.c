/* Exercise 5's problem: y = M x for a banded random sparse matrix in
 * ELLPACK form, checked against float64 products. The lab also binds x to
 * a texture object, for the texture-path solution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

#define WIDTH LAB_ELL_WIDTH
/* 2^20 rows of 16 entries: 64 MiB of values, 64 MiB of column indices. */
#define ROWS (1 << 20)
/* Each row's columns lie within BAND of the diagonal, as in a mesh
 * matrix: the lanes of a warp gather from a window of x, not from all of it. */
#define BAND 2048
#define TOLERANCE 1e-5

typedef struct spmv_problem {
  lab_spmv_args args;
  float *host_val, *host_x, *host_y;
  int *host_col;
  double *reference;
  char description[128];
} spmv_problem;

static void *create(void) {
  spmv_problem *p = lab_checked_malloc(sizeof *p);
  size_t entries = (size_t)ROWS * WIDTH;
  p->host_val = lab_checked_malloc(entries * sizeof(float));
  p->host_col = lab_checked_malloc(entries * sizeof(int));
  p->host_x = lab_checked_malloc(ROWS * sizeof(float));
  p->host_y = lab_checked_malloc(ROWS * sizeof(float));
  p->reference = lab_checked_malloc(ROWS * sizeof(double));
  p->args.val = lab_device_alloc(entries * sizeof(float));
  p->args.col = lab_device_alloc(entries * sizeof(int));
  p->args.x = lab_device_alloc(ROWS * sizeof(float));
  p->args.y = lab_device_alloc(ROWS * sizeof(float));
  p->args.rows = ROWS;

  struct cudaResourceDesc resource;
  memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = (void *)p->args.x;
  resource.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  resource.res.linear.sizeInBytes = ROWS * sizeof(float);
  struct cudaTextureDesc texture;
  memset(&texture, 0, sizeof texture);
  texture.readMode = cudaReadModeElementType;
  CUDA_CHECK(cudaCreateTextureObject(&p->args.x_tex, &resource, &texture, NULL));
  snprintf(p->description, sizeof p->description,
           "%d rows x %d entries, columns within %d of the diagonal", ROWS, WIDTH, BAND);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  spmv_problem *p = problem;
  for (size_t i = 0; i < ROWS; i++) p->host_x[i] = lab_random_float(seed, -1.0f, 1.0f);
  for (size_t r = 0; r < ROWS; r++) {
    double sum = 0;
    for (size_t k = 0; k < WIDTH; k++) {
      long c = (long)r + (long)(lab_random_u32(seed) % (2 * BAND)) - BAND;
      c = c < 0 ? 0 : c >= ROWS ? ROWS - 1 : c;
      float v = lab_random_float(seed, -1.0f, 1.0f);
      p->host_col[k * ROWS + r] = (int)c;
      p->host_val[k * ROWS + r] = v;
      sum += (double)v * p->host_x[c];
    }
    p->reference[r] = sum;
  }
  size_t entries = (size_t)ROWS * WIDTH;
  CUDA_CHECK(cudaMemcpy((void *)p->args.val, p->host_val, entries * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy((void *)p->args.col, p->host_col, entries * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy((void *)p->args.x, p->host_x, ROWS * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  spmv_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.y, 0xff, ROWS * sizeof(float)));
}

static void call(void *problem, lab_entry entry) {
  spmv_problem *p = problem;
  ((void (*)(const lab_spmv_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  spmv_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_y, p->args.y, ROWS * sizeof(float), cudaMemcpyDeviceToHost));
  size_t non_finite;
  *error = lab_relative_error(p->host_y, p->reference, ROWS, &non_finite);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %d outputs not finite",
           *error, TOLERANCE, non_finite, ROWS);
  return *error <= TOLERANCE;
}

static void destroy(void *problem) {
  spmv_problem *p = problem;
  CUDA_CHECK(cudaDestroyTextureObject(p->args.x_tex));
  lab_device_free((void *)p->args.val);
  lab_device_free((void *)p->args.col);
  lab_device_free((void *)p->args.x);
  lab_device_free(p->args.y);
  free(p->host_val);
  free(p->host_col);
  free(p->host_x);
  free(p->host_y);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((spmv_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  (void)problem;
  /* val and col once, x once, y once. */
  return (double)ROWS * WIDTH * (sizeof(float) + sizeof(int)) + 2.0 * ROWS * sizeof(float);
}

const lab_problem_ops lab_spmv_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

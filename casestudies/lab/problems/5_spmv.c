/* Exercise 5's problem: y = M x for a banded random sparse matrix in
 * ELLPACK form, checked against float64 products. The lab also binds x to
 * a texture object, for the texture-path solution. */
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

#define WIDTH LAB_ELL_WIDTH
/* 2^20 rows of 16 entries: 64 MiB of values, 64 MiB of column indices. */
#define ROWS (1 << 20)
/* Each row's columns lie within BAND of the diagonal, as in a mesh
 * matrix: the lanes of a warp gather from a window of x, not from all of it. */
#define BAND 2048

typedef struct spmv_problem {
  lab_problem base;
  lab_spmv_args args;
  float *host_val, *host_x;
  int *host_col;
} spmv_problem;

static cudaTextureObject_t bind_texture(const float *x, size_t count) {
  struct cudaResourceDesc resource;
  memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = (void *)x;
  resource.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  resource.res.linear.sizeInBytes = count * sizeof(float);
  struct cudaTextureDesc texture;
  memset(&texture, 0, sizeof texture);
  texture.readMode = cudaReadModeElementType;
  cudaTextureObject_t object;
  CUDA_CHECK(cudaCreateTextureObject(&object, &resource, &texture, NULL));
  return object;
}

static lab_problem *create(void) {
  spmv_problem *p = lab_problem_new(sizeof *p);
  size_t entries = (size_t)ROWS * WIDTH;
  p->host_val = lab_problem_host(&p->base, entries * sizeof(float));
  p->host_col = lab_problem_host(&p->base, entries * sizeof(int));
  p->host_x = lab_problem_host(&p->base, ROWS * sizeof(float));
  p->args.val = lab_problem_device(&p->base, entries * sizeof(float));
  p->args.col = lab_problem_device(&p->base, entries * sizeof(int));
  p->args.x = lab_problem_device(&p->base, ROWS * sizeof(float));
  p->args.x_tex = bind_texture(p->args.x, ROWS);
  p->args.y = lab_problem_output(&p->base, ROWS, sizeof(float));
  p->args.rows = ROWS;
  p->base.reference = lab_problem_host(&p->base, ROWS * sizeof(double));
  p->base.tolerance = 1e-5;   /* 16-term float32 dot products */
  /* val and col once, x once, y once. */
  p->base.min_bytes = (double)entries * (sizeof(float) + sizeof(int)) + 2.0 * ROWS * sizeof(float);
  snprintf(p->base.description, sizeof p->base.description,
           "%d rows x %d entries, columns within %d of the diagonal", ROWS, WIDTH, BAND);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  spmv_problem *p = (spmv_problem *)problem;
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
    problem->reference[r] = sum;
  }
  size_t entries = (size_t)ROWS * WIDTH;
  lab_problem_upload((void *)p->args.val, p->host_val, entries * sizeof(float));
  lab_problem_upload((void *)p->args.col, p->host_col, entries * sizeof(int));
  lab_problem_upload((void *)p->args.x, p->host_x, ROWS * sizeof(float));
}

static void call(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_spmv_args *))entry)(&((spmv_problem *)problem)->args);
}

static void destroy(lab_problem *problem) {
  CUDA_CHECK(cudaDestroyTextureObject(((spmv_problem *)problem)->args.x_tex));
  lab_problem_destroy(problem);
}

const lab_problem_ops lab_spmv_problem = {
    .create = create, .fill = fill, .call = call, .verify = lab_problem_verify_close,
    .destroy = destroy};

/* Exercise 1's problem: a rows x cols matrix transposed. A copy rounds
 * nothing, so the output must equal the input element for element. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

/* Not multiples of each other, and each buffer (60 MiB) larger than the
 * H100's 50 MB L2, so the timing sees device memory. */
#define ROWS 3072
#define COLS 5120

typedef struct transpose_problem {
  lab_transpose_args args;
  float *host_in, *host_out;
  size_t count;
  char description[128];
} transpose_problem;

static void *create(void) {
  transpose_problem *p = lab_checked_malloc(sizeof *p);
  p->count = (size_t)ROWS * COLS;
  p->host_in = lab_checked_malloc(p->count * sizeof(float));
  p->host_out = lab_checked_malloc(p->count * sizeof(float));
  p->args.in = lab_device_alloc(p->count * sizeof(float));
  p->args.out = lab_device_alloc(p->count * sizeof(float));
  p->args.rows = ROWS;
  p->args.cols = COLS;
  snprintf(p->description, sizeof p->description, "%d x %d floats", ROWS, COLS);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  transpose_problem *p = problem;
  for (size_t i = 0; i < p->count; i++) p->host_in[i] = lab_random_float(seed, -1.0f, 1.0f);
  CUDA_CHECK(cudaMemcpy((void *)p->args.in, p->host_in, p->count * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  transpose_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.out, 0xff, p->count * sizeof(float)));  /* NaN */
}

static void call(void *problem, lab_entry entry) {
  transpose_problem *p = problem;
  ((void (*)(const lab_transpose_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  transpose_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_out, p->args.out, p->count * sizeof(float),
                        cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t r = 0; r < ROWS; r++)
    for (size_t c = 0; c < COLS; c++)
      if (memcmp(&p->host_out[c * ROWS + r], &p->host_in[r * COLS + c], sizeof(float)) != 0)
        wrong++;
  *error = (double)wrong / (double)p->count;
  snprintf(detail, detail_size, "%zu of %zu elements differ (exact copy expected)", wrong,
           p->count);
  return wrong == 0;
}

static void destroy(void *problem) {
  transpose_problem *p = problem;
  lab_device_free((void *)p->args.in);
  lab_device_free(p->args.out);
  free(p->host_in);
  free(p->host_out);
  free(p);
}

static const char *describe(void *problem) {
  return ((transpose_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  return 2.0 * ((transpose_problem *)problem)->count * sizeof(float);
}

const lab_problem_ops lab_transpose_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

/* Exercise 2's problem: the sum of each row of a tall matrix, checked
 * against float64 sums. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

/* 1024 blocks of 256 rows; 64 MiB of input. */
#define ROWS 262144
#define COLS 64
/* float32 sums of 64 terms of [-1, 1): errors near 1e-7 of the norm. */
#define TOLERANCE 1e-5

typedef struct rowsum_problem {
  lab_rowsum_args args;
  float *host_in, *host_sums;
  double *reference;
  char description[128];
} rowsum_problem;

static void *create(void) {
  rowsum_problem *p = lab_checked_malloc(sizeof *p);
  size_t count = (size_t)ROWS * COLS;
  p->host_in = lab_checked_malloc(count * sizeof(float));
  p->host_sums = lab_checked_malloc(ROWS * sizeof(float));
  p->reference = lab_checked_malloc(ROWS * sizeof(double));
  p->args.in = lab_device_alloc(count * sizeof(float));
  p->args.sums = lab_device_alloc(ROWS * sizeof(float));
  p->args.rows = ROWS;
  p->args.cols = COLS;
  snprintf(p->description, sizeof p->description, "%d rows x %d floats", ROWS, COLS);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  rowsum_problem *p = problem;
  for (size_t r = 0; r < ROWS; r++) {
    double sum = 0;
    for (size_t c = 0; c < COLS; c++) {
      float v = lab_random_float(seed, -1.0f, 1.0f);
      p->host_in[r * COLS + c] = v;
      sum += v;
    }
    p->reference[r] = sum;
  }
  CUDA_CHECK(cudaMemcpy((void *)p->args.in, p->host_in, (size_t)ROWS * COLS * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  rowsum_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.sums, 0xff, ROWS * sizeof(float)));
}

static void call(void *problem, lab_entry entry) {
  rowsum_problem *p = problem;
  ((void (*)(const lab_rowsum_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  rowsum_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_sums, p->args.sums, ROWS * sizeof(float), cudaMemcpyDeviceToHost));
  size_t non_finite;
  *error = lab_relative_error(p->host_sums, p->reference, ROWS, &non_finite);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %d sums not finite",
           *error, TOLERANCE, non_finite, ROWS);
  return *error <= TOLERANCE;
}

static void destroy(void *problem) {
  rowsum_problem *p = problem;
  lab_device_free((void *)p->args.in);
  lab_device_free(p->args.sums);
  free(p->host_in);
  free(p->host_sums);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((rowsum_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  (void)problem;
  return ((double)ROWS * COLS + ROWS) * sizeof(float);
}

const lab_problem_ops lab_rowsum_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

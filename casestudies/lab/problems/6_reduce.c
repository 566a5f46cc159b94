/* Exercise 6's problem: the sum of every block of LAB_REDUCE_BLOCK
 * elements, checked against float64 sums. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

#define BLOCK LAB_REDUCE_BLOCK
/* 2^24 floats (64 MiB): 32768 block sums. */
#define COUNT (1 << 24)
#define SUMS (COUNT / BLOCK)
/* float32 tree sums of 512 terms of [-1, 1). */
#define TOLERANCE 1e-5

typedef struct reduce_problem {
  lab_reduce_args args;
  float *host_in, *host_sums;
  double *reference;
  char description[128];
} reduce_problem;

static void *create(void) {
  reduce_problem *p = lab_checked_malloc(sizeof *p);
  p->host_in = lab_checked_malloc((size_t)COUNT * sizeof(float));
  p->host_sums = lab_checked_malloc(SUMS * sizeof(float));
  p->reference = lab_checked_malloc(SUMS * sizeof(double));
  p->args.in = lab_device_alloc((size_t)COUNT * sizeof(float));
  p->args.sums = lab_device_alloc(SUMS * sizeof(float));
  p->args.n = COUNT;
  snprintf(p->description, sizeof p->description, "%d floats, %d sums of %d", COUNT, SUMS, BLOCK);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  reduce_problem *p = problem;
  for (size_t b = 0; b < SUMS; b++) {
    double sum = 0;
    for (size_t i = 0; i < BLOCK; i++) {
      float v = lab_random_float(seed, -1.0f, 1.0f);
      p->host_in[b * BLOCK + i] = v;
      sum += v;
    }
    p->reference[b] = sum;
  }
  CUDA_CHECK(cudaMemcpy((void *)p->args.in, p->host_in, (size_t)COUNT * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  reduce_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.sums, 0xff, SUMS * sizeof(float)));
}

static void call(void *problem, lab_entry entry) {
  reduce_problem *p = problem;
  ((void (*)(const lab_reduce_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  reduce_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_sums, p->args.sums, SUMS * sizeof(float), cudaMemcpyDeviceToHost));
  size_t non_finite;
  *error = lab_relative_error(p->host_sums, p->reference, SUMS, &non_finite);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %d sums not finite",
           *error, TOLERANCE, non_finite, SUMS);
  return *error <= TOLERANCE;
}

static void destroy(void *problem) {
  reduce_problem *p = problem;
  lab_device_free((void *)p->args.in);
  lab_device_free(p->args.sums);
  free(p->host_in);
  free(p->host_sums);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((reduce_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  (void)problem;
  return ((double)COUNT + SUMS) * sizeof(float);
}

const lab_problem_ops lab_reduce_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

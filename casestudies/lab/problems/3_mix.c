/* Exercise 3's problem: one small matrix A applied to many short vectors,
 * checked against float64 products. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

#define DIM LAB_MIX_DIM
/* 2^19 vectors: 64 MiB in, 64 MiB out. */
#define COUNT (1 << 19)
#define TOLERANCE 1e-5

typedef struct mix_problem {
  lab_mix_args args;
  float *host_a, *host_x, *host_y;
  double *reference;
  size_t values;   /* COUNT * DIM */
  char description[128];
} mix_problem;

static void *create(void) {
  mix_problem *p = lab_checked_malloc(sizeof *p);
  p->values = (size_t)COUNT * DIM;
  p->host_a = lab_checked_malloc(DIM * DIM * sizeof(float));
  p->host_x = lab_checked_malloc(p->values * sizeof(float));
  p->host_y = lab_checked_malloc(p->values * sizeof(float));
  p->reference = lab_checked_malloc(p->values * sizeof(double));
  p->args.a = lab_device_alloc(DIM * DIM * sizeof(float));
  p->args.x = lab_device_alloc(p->values * sizeof(float));
  p->args.y = lab_device_alloc(p->values * sizeof(float));
  p->args.count = COUNT;
  snprintf(p->description, sizeof p->description, "%d vectors of %d floats, A %d x %d", COUNT,
           DIM, DIM, DIM);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  mix_problem *p = problem;
  for (int i = 0; i < DIM * DIM; i++) p->host_a[i] = lab_random_float(seed, -1.0f, 1.0f);
  for (size_t i = 0; i < p->values; i++) p->host_x[i] = lab_random_float(seed, -1.0f, 1.0f);
  for (size_t v = 0; v < COUNT; v++) {
    const float *x = p->host_x + v * DIM;
    for (int i = 0; i < DIM; i++) {
      double sum = 0;
      for (int j = 0; j < DIM; j++) sum += (double)p->host_a[i * DIM + j] * x[j];
      p->reference[v * DIM + i] = sum;
    }
  }
  CUDA_CHECK(cudaMemcpy((void *)p->args.a, p->host_a, DIM * DIM * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy((void *)p->args.x, p->host_x, p->values * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  mix_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.y, 0xff, p->values * sizeof(float)));
}

static void call(void *problem, lab_entry entry) {
  mix_problem *p = problem;
  ((void (*)(const lab_mix_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  mix_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_y, p->args.y, p->values * sizeof(float), cudaMemcpyDeviceToHost));
  size_t non_finite;
  *error = lab_relative_error(p->host_y, p->reference, p->values, &non_finite);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %zu outputs not finite",
           *error, TOLERANCE, non_finite, p->values);
  return *error <= TOLERANCE;
}

static void destroy(void *problem) {
  mix_problem *p = problem;
  lab_device_free((void *)p->args.a);
  lab_device_free((void *)p->args.x);
  lab_device_free(p->args.y);
  free(p->host_a);
  free(p->host_x);
  free(p->host_y);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((mix_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  return (2.0 * ((mix_problem *)problem)->values + DIM * DIM) * sizeof(float);
}

const lab_problem_ops lab_mix_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

/* Exercise 3's problem: one small matrix A applied to many short vectors,
 * checked against float64 products. */
#include <stdio.h>

#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

#define DIM LAB_MIX_DIM
/* 2^19 vectors: 64 MiB in, 64 MiB out. */
#define COUNT (1 << 19)

typedef struct mix_problem {
  lab_problem base;
  lab_mix_args args;
  float *host_a, *host_x;
} mix_problem;

static lab_problem *create(void) {
  mix_problem *p = lab_problem_new(sizeof *p);
  size_t values = (size_t)COUNT * DIM;
  p->host_a = lab_problem_host(&p->base, DIM * DIM * sizeof(float));
  p->host_x = lab_problem_host(&p->base, values * sizeof(float));
  p->args.a = lab_problem_device(&p->base, DIM * DIM * sizeof(float));
  p->args.x = lab_problem_device(&p->base, values * sizeof(float));
  p->args.y = lab_problem_output(&p->base, values, sizeof(float));
  p->args.count = COUNT;
  p->base.reference = lab_problem_host(&p->base, values * sizeof(double));
  p->base.tolerance = 1e-5;   /* 32-term float32 dot products */
  p->base.min_bytes = (2.0 * values + DIM * DIM) * sizeof(float);
  snprintf(p->base.description, sizeof p->base.description,
           "%d vectors of %d floats, A %d x %d", COUNT, DIM, DIM, DIM);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  mix_problem *p = (mix_problem *)problem;
  size_t values = (size_t)COUNT * DIM;
  for (int i = 0; i < DIM * DIM; i++) p->host_a[i] = lab_random_float(seed, -1.0f, 1.0f);
  for (size_t i = 0; i < values; i++) p->host_x[i] = lab_random_float(seed, -1.0f, 1.0f);
  for (size_t v = 0; v < COUNT; v++)
    for (int i = 0; i < DIM; i++) {
      double sum = 0;
      for (int j = 0; j < DIM; j++) sum += (double)p->host_a[i * DIM + j] * p->host_x[v * DIM + j];
      problem->reference[v * DIM + i] = sum;
    }
  lab_problem_upload((void *)p->args.a, p->host_a, DIM * DIM * sizeof(float));
  lab_problem_upload((void *)p->args.x, p->host_x, values * sizeof(float));
}

static void call(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_mix_args *))entry)(&((mix_problem *)problem)->args);
}

const lab_problem_ops lab_mix_problem = {
    .create = create, .fill = fill, .call = call, .verify = lab_problem_verify_close,
    .destroy = lab_problem_destroy};

/* The problem of exercises 2 and 6: sums of consecutive groups of floats
 * (the rows of a tall matrix; the blocks of a reduction), checked against
 * float64 sums. */
#include <stdio.h>

#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

/* Exercise 2: 1024 blocks of 256 rows; exercise 6: 32768 sums of 512.
 * Both read 64 MiB. float32 sums of 64 or 512 terms of [-1, 1) land near
 * 1e-7 of the norm. */
#define ROWS 262144
#define COLS 64
#define REDUCE_COUNT (1 << 24)
#define TOLERANCE 1e-5

typedef struct sums_problem {
  lab_problem base;
  const float *in;
  float *host_in;
  size_t groups, length;
  lab_rowsum_args rowsum;
  lab_reduce_args reduce;
} sums_problem;

static sums_problem *create_sums(size_t groups, size_t length) {
  sums_problem *p = lab_problem_new(sizeof *p);
  p->groups = groups;
  p->length = length;
  p->host_in = lab_problem_host(&p->base, groups * length * sizeof(float));
  p->in = lab_problem_device(&p->base, groups * length * sizeof(float));
  lab_problem_output(&p->base, groups, sizeof(float));
  p->base.reference = lab_problem_host(&p->base, groups * sizeof(double));
  p->base.tolerance = TOLERANCE;
  p->base.min_bytes = (double)(groups * length + groups) * sizeof(float);
  return p;
}

static lab_problem *create_rowsum(void) {
  sums_problem *p = create_sums(ROWS, COLS);
  p->rowsum = (lab_rowsum_args){p->in, p->base.output, ROWS, COLS};
  snprintf(p->base.description, sizeof p->base.description, "%d rows x %d floats", ROWS, COLS);
  return &p->base;
}

static lab_problem *create_reduce(void) {
  sums_problem *p = create_sums(REDUCE_COUNT / LAB_REDUCE_BLOCK, LAB_REDUCE_BLOCK);
  p->reduce = (lab_reduce_args){p->in, p->base.output, REDUCE_COUNT};
  snprintf(p->base.description, sizeof p->base.description, "%d floats, %d sums of %d",
           REDUCE_COUNT, REDUCE_COUNT / LAB_REDUCE_BLOCK, LAB_REDUCE_BLOCK);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  sums_problem *p = (sums_problem *)problem;
  for (size_t g = 0; g < p->groups; g++) {
    double sum = 0;
    for (size_t i = 0; i < p->length; i++) {
      float v = lab_random_float(seed, -1.0f, 1.0f);
      p->host_in[g * p->length + i] = v;
      sum += v;
    }
    problem->reference[g] = sum;
  }
  lab_problem_upload((void *)p->in, p->host_in, p->groups * p->length * sizeof(float));
}

static void call_rowsum(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_rowsum_args *))entry)(&((sums_problem *)problem)->rowsum);
}

static void call_reduce(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_reduce_args *))entry)(&((sums_problem *)problem)->reduce);
}

const lab_problem_ops lab_rowsum_problem = {
    .create = create_rowsum, .fill = fill, .call = call_rowsum,
    .verify = lab_problem_verify_close, .destroy = lab_problem_destroy};
const lab_problem_ops lab_reduce_problem = {
    .create = create_reduce, .fill = fill, .call = call_reduce,
    .verify = lab_problem_verify_close, .destroy = lab_problem_destroy};

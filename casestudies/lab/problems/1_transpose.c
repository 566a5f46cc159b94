/* Exercise 1's problem: a rows x cols matrix transposed. A copy rounds
 * nothing, so the output must equal the input element for element. */
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

/* Not multiples of each other, and each buffer (60 MiB) larger than the
 * H100's 50 MB L2, so the timing sees device memory. */
#define ROWS 3072
#define COLS 5120

typedef struct transpose_problem {
  lab_problem base;
  lab_transpose_args args;
  float *host_in;
} transpose_problem;

static lab_problem *create(void) {
  transpose_problem *p = lab_problem_new(sizeof *p);
  size_t count = (size_t)ROWS * COLS;
  p->host_in = lab_problem_host(&p->base, count * sizeof(float));
  p->args.in = lab_problem_device(&p->base, count * sizeof(float));
  p->args.out = lab_problem_output(&p->base, count, sizeof(float));
  p->args.rows = ROWS;
  p->args.cols = COLS;
  snprintf(p->base.description, sizeof p->base.description, "%d x %d floats", ROWS, COLS);
  p->base.min_bytes = 2.0 * count * sizeof(float);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  transpose_problem *p = (transpose_problem *)problem;
  size_t count = (size_t)ROWS * COLS;
  for (size_t i = 0; i < count; i++) p->host_in[i] = lab_random_float(seed, -1.0f, 1.0f);
  lab_problem_upload((void *)p->args.in, p->host_in, count * sizeof(float));
}

static void call(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_transpose_args *))entry)(&((transpose_problem *)problem)->args);
}

static bool verify(lab_problem *problem, double *error, char *detail, size_t detail_size) {
  transpose_problem *p = (transpose_problem *)problem;
  lab_problem_download(problem);
  const float *out = problem->host_output;
  size_t wrong = 0;
  for (size_t r = 0; r < ROWS; r++)
    for (size_t c = 0; c < COLS; c++)
      wrong += memcmp(&out[c * ROWS + r], &p->host_in[r * COLS + c], sizeof(float)) != 0;
  *error = (double)wrong / (double)problem->outputs;
  snprintf(detail, detail_size, "%zu of %zu elements differ (exact copy expected)", wrong,
           problem->outputs);
  return wrong == 0;
}

const lab_problem_ops lab_transpose_problem = {
    .create = create, .fill = fill, .call = call, .verify = verify, .destroy = lab_problem_destroy};

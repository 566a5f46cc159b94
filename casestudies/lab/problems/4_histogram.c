/* Exercise 4's problem: a 16-bin histogram per pixel over a stack of
 * frames. Counting is exact, so the counts must match the host's. */
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

#define BINS LAB_HIST_BINS
/* 2^20 pixels x 16 frames: 64 MiB in, 64 MiB of counts out. */
#define PIXELS (1 << 20)
#define FRAMES 16

typedef struct histogram_problem {
  lab_problem base;
  lab_histogram_args args;
  float *host_in;
  int *expected;
} histogram_problem;

static lab_problem *create(void) {
  histogram_problem *p = lab_problem_new(sizeof *p);
  size_t samples = (size_t)PIXELS * FRAMES, counts = (size_t)PIXELS * BINS;
  p->host_in = lab_problem_host(&p->base, samples * sizeof(float));
  p->expected = lab_problem_host(&p->base, counts * sizeof(int));
  p->args.in = lab_problem_device(&p->base, samples * sizeof(float));
  p->args.counts = lab_problem_output(&p->base, counts, sizeof(int));
  p->args.pixels = PIXELS;
  p->args.frames = FRAMES;
  p->base.min_bytes = (double)samples * sizeof(float) + (double)counts * sizeof(int);
  snprintf(p->base.description, sizeof p->base.description, "%d pixels x %d frames, %d bins",
           PIXELS, FRAMES, BINS);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  histogram_problem *p = (histogram_problem *)problem;
  memset(p->expected, 0, (size_t)PIXELS * BINS * sizeof(int));
  for (size_t f = 0; f < FRAMES; f++)
    for (size_t px = 0; px < PIXELS; px++) {
      float v = lab_random_float(seed, 0.0f, 1.0f);
      p->host_in[f * PIXELS + px] = v;
      int bin = (int)(v * BINS);   /* exact: BINS is a power of two */
      p->expected[(size_t)(bin < BINS ? bin : BINS - 1) * PIXELS + px]++;
    }
  lab_problem_upload((void *)p->args.in, p->host_in, (size_t)PIXELS * FRAMES * sizeof(float));
}

static void call(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_histogram_args *))entry)(&((histogram_problem *)problem)->args);
}

static bool verify(lab_problem *problem, double *error, char *detail, size_t detail_size) {
  histogram_problem *p = (histogram_problem *)problem;
  lab_problem_download(problem);
  const int *counts = problem->host_output;
  size_t wrong = 0;
  for (size_t i = 0; i < problem->outputs; i++) wrong += counts[i] != p->expected[i];
  *error = (double)wrong / (double)problem->outputs;
  snprintf(detail, detail_size, "%zu of %zu counts differ (exact counts expected)", wrong,
           problem->outputs);
  return wrong == 0;
}

const lab_problem_ops lab_histogram_problem = {
    .create = create, .fill = fill, .call = call, .verify = verify, .destroy = lab_problem_destroy};

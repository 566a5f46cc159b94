/* Exercise 4's problem: a 16-bin histogram per pixel over a stack of
 * frames. Counting is exact, so the counts must match the host's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

#define BINS LAB_HIST_BINS
/* 2^20 pixels x 16 frames: 64 MiB in, 64 MiB of counts out. */
#define PIXELS (1 << 20)
#define FRAMES 16

typedef struct histogram_problem {
  lab_histogram_args args;
  float *host_in;
  int *host_counts, *reference;
  char description[128];
} histogram_problem;

static void *create(void) {
  histogram_problem *p = lab_checked_malloc(sizeof *p);
  p->host_in = lab_checked_malloc((size_t)PIXELS * FRAMES * sizeof(float));
  p->host_counts = lab_checked_malloc((size_t)PIXELS * BINS * sizeof(int));
  p->reference = lab_checked_malloc((size_t)PIXELS * BINS * sizeof(int));
  p->args.in = lab_device_alloc((size_t)PIXELS * FRAMES * sizeof(float));
  p->args.counts = lab_device_alloc((size_t)PIXELS * BINS * sizeof(int));
  p->args.pixels = PIXELS;
  p->args.frames = FRAMES;
  snprintf(p->description, sizeof p->description, "%d pixels x %d frames, %d bins", PIXELS,
           FRAMES, BINS);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  histogram_problem *p = problem;
  memset(p->reference, 0, (size_t)PIXELS * BINS * sizeof(int));
  for (size_t f = 0; f < FRAMES; f++)
    for (size_t px = 0; px < PIXELS; px++) {
      float v = lab_random_float(seed, 0.0f, 1.0f);
      p->host_in[f * PIXELS + px] = v;
      int bin = (int)(v * BINS);   /* exact: BINS is a power of two */
      p->reference[(size_t)(bin < BINS ? bin : BINS - 1) * PIXELS + px]++;
    }
  CUDA_CHECK(cudaMemcpy((void *)p->args.in, p->host_in, (size_t)PIXELS * FRAMES * sizeof(float),
                        cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  histogram_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.counts, 0xff, (size_t)PIXELS * BINS * sizeof(int)));  /* -1 */
}

static void call(void *problem, lab_entry entry) {
  histogram_problem *p = problem;
  ((void (*)(const lab_histogram_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  histogram_problem *p = problem;
  size_t count = (size_t)PIXELS * BINS;
  CUDA_CHECK(cudaMemcpy(p->host_counts, p->args.counts, count * sizeof(int),
                        cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < count; i++) wrong += p->host_counts[i] != p->reference[i];
  *error = (double)wrong / (double)count;
  snprintf(detail, detail_size, "%zu of %zu counts differ (exact counts expected)", wrong, count);
  return wrong == 0;
}

static void destroy(void *problem) {
  histogram_problem *p = problem;
  lab_device_free((void *)p->args.in);
  lab_device_free(p->args.counts);
  free(p->host_in);
  free(p->host_counts);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((histogram_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  (void)problem;
  return (double)PIXELS * FRAMES * sizeof(float) + (double)PIXELS * BINS * sizeof(int);
}

const lab_problem_ops lab_histogram_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};

/* Helpers every problem uses: checked allocation, random numbers, the
 * relative error against a float64 reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"

void *lab_checked_malloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "lab: out of host memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

/* xorshift32: fast, and good enough to scatter test inputs. */
unsigned lab_random_u32(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

float lab_random_float(unsigned *state, float lo, float hi) {
  /* 24 random bits: every value is exactly representable as a float. */
  float unit = (float)(lab_random_u32(state) >> 8) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * unit;
}

void *lab_device_alloc(size_t bytes) {
  void *p = NULL;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

void lab_device_free(void *p) {
  CUDA_CHECK(cudaFree(p));
}

double lab_relative_error(const float *out, const double *ref, size_t n, size_t *non_finite) {
  double diff = 0, norm = 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(out[i])) bad++;
    double d = (double)out[i] - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  *non_finite = bad;
  if (bad) return NAN;
  return norm > 0 ? sqrt(diff / norm) : sqrt(diff);
}

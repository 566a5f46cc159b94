#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "problem.h"

static void *checked(void *p, size_t bytes) {
  if (!p) {
    fprintf(stderr, "lab: out of host memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static void too_many_buffers(void) {
  fprintf(stderr, "lab: a problem allocated more than %d buffers\n", LAB_MAX_BUFFERS);
  exit(1);
}

void *lab_problem_new(size_t size) {
  return checked(calloc(1, size), size);
}

void *lab_problem_device(lab_problem *p, size_t bytes) {
  if (p->device_count == LAB_MAX_BUFFERS) too_many_buffers();
  void *buffer = NULL;
  CUDA_CHECK(cudaMalloc(&buffer, bytes));
  return p->device_buffers[p->device_count++] = buffer;
}

void *lab_problem_host(lab_problem *p, size_t bytes) {
  if (p->host_count == LAB_MAX_BUFFERS) too_many_buffers();
  return p->host_buffers[p->host_count++] = checked(malloc(bytes), bytes);
}

void *lab_problem_output(lab_problem *p, size_t count, size_t size) {
  p->outputs = count;
  p->output_size = size;
  p->host_output = lab_problem_host(p, count * size);
  return p->output = lab_problem_device(p, count * size);
}

void lab_problem_upload(void *device, const void *host, size_t bytes) {
  CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
}

void lab_problem_poison(lab_problem *p) {
  CUDA_CHECK(cudaMemset(p->output, 0xff, p->outputs * p->output_size));
}

void lab_problem_download(lab_problem *p) {
  CUDA_CHECK(cudaMemcpy(p->host_output, p->output, p->outputs * p->output_size,
                        cudaMemcpyDeviceToHost));
}

bool lab_problem_verify_close(lab_problem *p, double *error, char *detail, size_t detail_size) {
  lab_problem_download(p);
  const float *out = p->host_output;
  double diff = 0, norm = 0;
  size_t non_finite = 0;
  for (size_t i = 0; i < p->outputs; i++) {
    non_finite += !isfinite(out[i]);
    double d = (double)out[i] - p->reference[i];
    diff += d * d;
    norm += p->reference[i] * p->reference[i];
  }
  *error = non_finite ? NAN : norm > 0 ? sqrt(diff / norm) : sqrt(diff);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %zu outputs not finite",
           *error, p->tolerance, non_finite, p->outputs);
  return *error <= p->tolerance;   /* false for NaN */
}

void lab_problem_destroy(lab_problem *p) {
  for (int i = 0; i < p->device_count; i++) CUDA_CHECK(cudaFree(p->device_buffers[i]));
  for (int i = 0; i < p->host_count; i++) free(p->host_buffers[i]);
  free(p);
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

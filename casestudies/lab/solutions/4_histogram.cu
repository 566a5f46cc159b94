// Exercise 4, solution: every index into `counts` is a constant after the
// unrolled loop over the bins, so the 16 counters live in registers (ptxas:
// no stack frame). Each frame costs 16 compare-and-adds instead of a load
// and a store in local memory.
#include "lab_kernels.h"

#define BINS LAB_HIST_BINS

__global__ void histogram(const float *__restrict__ in, int *counts_out, int pixels, int frames)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  int counts[BINS];
#pragma unroll
  for (int b = 0; b < BINS; b++) counts[b] = 0;
  for (int f = 0; f < frames; f++) {
    int bin = min((int)(in[(size_t)f * pixels + p] * BINS), BINS - 1);
#pragma unroll
    for (int b = 0; b < BINS; b++) counts[b] += bin == b;
  }
#pragma unroll
  for (int b = 0; b < BINS; b++) counts_out[(size_t)b * pixels + p] = counts[b];
}

LAB_ENTRY void lab_histogram_run(const lab_histogram_args *a)
{
  histogram<<<(a->pixels + 255) / 256, 256>>>(a->in, a->counts, a->pixels, a->frames);
}

// Exercise 4: a spilled private array (guideline L_2).
//
// Each thread builds the histogram of one pixel over a stack of frames, in
// a private array of 16 counters. The counter to bump depends on the data
// (counts[bin]), so the compiler cannot tell which element an access
// touches. Registers have no addresses: an array indexed at run time must
// live in local memory, which is DRAM behind the L1 cache, and each bump
// becomes a load and a store there. ptxas says so: its report for this
// kernel shows a stack frame of 64 bytes (`lab check 4` prints it).
//
// TODO: make every index into `counts` known when the code is compiled, so
// that the 16 counters can stay in registers: instead of bumping the one
// counter the value selects, visit all 16 in a fully unrolled loop and add
// 1 to the one whose number equals the bin (a comparison, no indexing by
// data). That is more instructions and no memory traffic. The paper's
// advice (L_2): simplify the access pattern until the array fits in
// registers. Check with `lab check 4`.
#include "lab_kernels.h"

#define BINS LAB_HIST_BINS

__global__ void histogram(const float *__restrict__ in, int *counts_out, int pixels, int frames)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  int counts[BINS];
  for (int b = 0; b < BINS; b++) counts[b] = 0;
  for (int f = 0; f < frames; f++) {
    int bin = (int)(in[(size_t)f * pixels + p] * BINS);
    counts[min(bin, BINS - 1)]++;
  }
  for (int b = 0; b < BINS; b++) counts_out[(size_t)b * pixels + p] = counts[b];
}

LAB_ENTRY void lab_histogram_run(const lab_histogram_args *a)
{
  histogram<<<(a->pixels + 255) / 256, 256>>>(a->in, a->counts, a->pixels, a->frames);
}

// Exercise 6, solution: sequential addressing. In each step the active
// threads t < half read partial[t] and partial[t + half]: 32 consecutive
// words per warp, one per bank, with no conflict at any step. The sum is
// taken in a different order than in the starting kernel, so the two
// results differ in the last bits; both are checked against a float64
// reference.
#include "lab_kernels.h"

#define BLOCK LAB_REDUCE_BLOCK

__global__ void block_sums(const float *in, float *sums)
{
  __shared__ float partial[BLOCK];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

LAB_ENTRY void lab_reduce_run(const lab_reduce_args *a)
{
  block_sums<<<a->n / BLOCK, BLOCK>>>(a->in, a->sums);
}

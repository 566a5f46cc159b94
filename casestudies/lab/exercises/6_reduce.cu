// Exercise 6: a reduction with sequential addressing (guideline S_1).
//
// Each block sums its 512 elements in shared memory, as a tree: in step s
// (s = 1, 2, 4, ...) thread t adds partial[2 s t + s] into partial[2 s t].
// The active threads are contiguous, so whole warps drop out and the warps
// that work do not diverge. But the addresses a warp touches are 2 s words
// apart: with 32 banks of 4 bytes, lanes t and t + 16 / s hit the same
// bank, so the first step is a 2-way bank conflict, the next 4-way, then
// 8-, 16- and 32-way (Fig. 12 of the paper: the cost grows with the degree).
//
// TODO: keep the active threads contiguous, but make them touch contiguous
// words too: in each step, let thread t add partial[t + half] into
// partial[t], halving `half` from 256 down to 1 (sequential addressing).
// Check with `lab check 6`.
#include "lab_kernels.h"

#define BLOCK LAB_REDUCE_BLOCK

__global__ void block_sums(const float *in, float *sums)
{
  __shared__ float partial[BLOCK];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    unsigned i = 2 * s * t;
    if (i < BLOCK) partial[i] += partial[i + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

LAB_ENTRY void lab_reduce_run(const lab_reduce_args *a)
{
  block_sums<<<a->n / BLOCK, BLOCK>>>(a->in, a->sums);
}

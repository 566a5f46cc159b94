// Exercise 3: divergent constant reads (guideline C_3).
//
// y = A x for many short vectors: a warp computes one output vector, lane i
// its component i, the dot product of row i of A with x. A is small and
// read-only, so it was put in constant memory. But constant memory serves
// a warp's lanes one address at a time: it is built to broadcast one word
// to the whole warp (C_2), not to hand out 32 different ones. Here lane i
// reads c_a[i * 32 + j], 32 different words, and every read of A costs 32
// constant-cache accesses in a row.
//
// TODO: keep A where the lanes can read 32 different words at once: copy
// it into shared memory at the start of the block (a->a holds it in global
// memory), and read it from there. Mind the banks: row i of a [32][32]
// tile starts in bank 0 for every i (exercise 2). Check with `lab check 3`.
#include "lab_kernels.h"

#define DIM LAB_MIX_DIM
#define VECTORS_PER_BLOCK 8

__constant__ float c_a[DIM * DIM];

__global__ void mix(const float *x, float *y)
{
  __shared__ float xs[VECTORS_PER_BLOCK][DIM];
  int v = blockIdx.x * VECTORS_PER_BLOCK + threadIdx.y;   // this warp's vector
  xs[threadIdx.y][threadIdx.x] = x[v * DIM + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int j = 0; j < DIM; j++)
    sum += c_a[threadIdx.x * DIM + j] * xs[threadIdx.y][j];
  y[v * DIM + threadIdx.x] = sum;
}

LAB_ENTRY void lab_mix_run(const lab_mix_args *a)
{
  // A device-to-device copy into the constant bank, ordered before the kernel.
  cudaMemcpyToSymbolAsync(c_a, a->a, sizeof c_a, 0, cudaMemcpyDeviceToDevice, 0);
  mix<<<a->count / VECTORS_PER_BLOCK, dim3(DIM, VECTORS_PER_BLOCK)>>>(a->x, a->y);
}

// Exercise 3, solution: A in shared memory, one float of padding per row.
// Lane i reads as[i][j]: word 33 i + j, bank (i + j) % 32, a different bank
// for each lane, so the warp's 32 reads are served at once. The copy into
// shared memory reads A consecutively, 4 floats per thread.
#include "lab_kernels.h"

#define DIM LAB_MIX_DIM
#define VECTORS_PER_BLOCK 8

__global__ void mix(const float *__restrict__ a, const float *x, float *y)
{
  __shared__ float as[DIM][DIM + 1];
  __shared__ float xs[VECTORS_PER_BLOCK][DIM];
  for (int r = threadIdx.y; r < DIM; r += VECTORS_PER_BLOCK)
    as[r][threadIdx.x] = a[r * DIM + threadIdx.x];
  int v = blockIdx.x * VECTORS_PER_BLOCK + threadIdx.y;
  xs[threadIdx.y][threadIdx.x] = x[v * DIM + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int j = 0; j < DIM; j++)
    sum += as[threadIdx.x][j] * xs[threadIdx.y][j];
  y[v * DIM + threadIdx.x] = sum;
}

LAB_ENTRY void lab_mix_run(const lab_mix_args *a)
{
  mix<<<a->count / VECTORS_PER_BLOCK, dim3(DIM, VECTORS_PER_BLOCK)>>>(a->a, a->x, a->y);
}

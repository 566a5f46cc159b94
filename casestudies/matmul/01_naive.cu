/* Version 1: one thread per element of C, everything from global memory.
 * Ryoo et al. Section 4.1 (Fig. 3a). Each thread reads a whole row of A and
 * a whole column of B, so every element of A is fetched N times and every
 * element of B M times: no reuse on chip (rule S_5 unanswered). threadIdx.x
 * runs along a row of C, so a warp's loads of B are coalesced (G_3) and its
 * loads of A are one broadcast address. */
#include "matmul_device.cuh"

#define BLOCK 16

__global__ void naive_kernel(int M, int N, int K, float alpha, const float *A,
                             const float *B, float beta, float *C) {
  int col = blockIdx.x * BLOCK + threadIdx.x;
  int row = blockIdx.y * BLOCK + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
  store_c(&C[row * N + col], acc, alpha, beta);
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, BLOCK), matmul_tiles(p->M, BLOCK));
  dim3 block(BLOCK, BLOCK);
  naive_kernel<<<grid, block>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta, p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, naive_kernel)

extern "C" const matmul_version matmul_01_naive = {
  "01_naive", "one thread per C element, global memory only",
  BLOCK, BLOCK, BLOCK * BLOCK, MATMUL_FP32, true, launch, attributes, NULL};

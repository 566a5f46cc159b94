/* Version 3: version 2 with the 16-step inner loop fully unrolled (Ryoo et
 * al. Section 4.3, Fig. 3c). The loop counter, its compare and branch, and
 * the shared-memory address arithmetic disappear; what is left per step is
 * two shared loads with constant offsets and one FMA. On the GeForce 8800
 * this took the kernel from 46.49 to 91.14 GFLOPS (Section 4.3). Rule L_1:
 * small fixed loops over on-chip data are unrolled so the compiler can use
 * constant offsets and keep values in registers. */
#include "matmul_device.cuh"

#define TILE 16

__global__ void tiled_unrolled_kernel(int M, int N, int K, float alpha, const float *A,
                                      const float *B, float beta, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) store_c(&C[row * N + col], acc, alpha, beta);
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, TILE), matmul_tiles(p->M, TILE));
  dim3 block(TILE, TILE);
  tiled_unrolled_kernel<<<grid, block>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                         p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, tiled_unrolled_kernel)

extern "C" const matmul_version matmul_03_tiled_unrolled = {
  "03_tiled_unrolled", "16x16 tiles, inner loop fully unrolled",
  TILE, TILE, TILE * TILE, MATMUL_FP32, true, launch, attributes, NULL};

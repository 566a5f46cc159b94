/* Version 2: 16x16 tiles of A and B staged in shared memory (Ryoo et al.
 * Section 4.2, Fig. 3b). A block of 256 threads loads each tile once and
 * every thread reads it 16 times from shared memory: global traffic falls
 * by the tile width (rule S_5: reuse across the block goes through shared
 * memory). Loads stay coalesced (G_3): threadIdx.x walks along rows of A and
 * B. Tiles that overhang the matrix are filled with zeros, so the inner
 * loop needs no bounds checks. The inner loop is kept rolled on purpose
 * (`unroll 1`): version 3 is the unrolled one. */
#include "matmul_device.cuh"

#define TILE 16

__global__ void tiled16_kernel(int M, int N, int K, float alpha, const float *A,
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
#pragma unroll 1
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) store_c(&C[row * N + col], acc, alpha, beta);
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, TILE), matmul_tiles(p->M, TILE));
  dim3 block(TILE, TILE);
  tiled16_kernel<<<grid, block>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta, p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, tiled16_kernel)

extern "C" const matmul_version matmul_02_tiled16 = {
  "02_tiled16", "16x16 shared-memory tiles of A and B",
  TILE, TILE, TILE * TILE, MATMUL_FP32, true, launch, attributes, NULL};

/* Version 4: version 3 plus prefetching (Ryoo et al. Section 4.4): the
 * loads of the next tile are issued into registers before the current tile
 * is multiplied, so their latency overlaps the FMAs instead of stalling the
 * warp at the top of the next iteration. It costs two registers. On the
 * GeForce 8800 the extra registers cut the resident blocks per SM from 3 to
 * 2 and the version ran at 87.10 GFLOPS, below version 3 (Section 4.4). */
#include "matmul_device.cuh"

#define TILE 16

__global__ void tiled_prefetch_kernel(int M, int N, int K, float alpha, const float *A,
                                      const float *B, float beta, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float next_a = (row < M && tx < K) ? A[row * K + tx] : 0.0f;
  float next_b = (ty < K && col < N) ? B[ty * N + col] : 0.0f;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = next_a;
    Bs[ty][tx] = next_b;
    __syncthreads();
    int k1 = k0 + TILE;  /* the tile after this one, in flight during the FMAs */
    next_a = (row < M && k1 + tx < K) ? A[row * K + k1 + tx] : 0.0f;
    next_b = (k1 + ty < K && col < N) ? B[(k1 + ty) * N + col] : 0.0f;
#pragma unroll
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) store_c(&C[row * N + col], acc, alpha, beta);
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, TILE), matmul_tiles(p->M, TILE));
  dim3 block(TILE, TILE);
  tiled_prefetch_kernel<<<grid, block>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                         p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, tiled_prefetch_kernel)

extern "C" const matmul_version matmul_04_tiled_prefetch = {
  "04_tiled_prefetch", "16x16 tiles, unrolled, next tile prefetched into registers",
  TILE, TILE, TILE * TILE, MATMUL_FP32, true, launch, attributes, NULL};

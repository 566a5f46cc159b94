/* Version 11: version 9 stepping K by 16 instead of 8. Half as many
 * barriers, tile swaps and loop-control instructions per FMA; each thread
 * now stages two float4 of A and two of B per tile. The loads of A are also
 * remapped so that the 32 threads of a warp take 32 consecutive rows of the
 * same four columns: their transposed stores As[c][r] then fall in 32
 * different banks whatever the row width (the mapping of versions 7-9 gets
 * the same from the padding). Neighbouring warps read the other columns of
 * the same rows, so the extra global sectors come from L1, not DRAM. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 16
#define PAD 4
#define THREADS 256
#define WM 32
#define WN 64
#define LOADS (BM * BK / 4 / THREADS)  /* float4 of each tile per thread */

__global__ void __launch_bounds__(THREADS, 2)
bk16_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                     float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[2][BK][BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;
  float acc[8][8] = {{0.0f}};
  float4 next_a[LOADS], next_b[LOADS];
#pragma unroll
  for (int l = 0; l < LOADS; l++) {
    int idx = t + l * THREADS;
    next_a[l] = load4(A, M, K, bm + idx % BM, (idx / BM) * 4, vec);
    next_b[l] = load4(B, K, N, idx / (BN / 4), bn + (idx % (BN / 4)) * 4, vec);
  }
  int tiles = (K + BK - 1) / BK;
  for (int tile = 0; tile < tiles; tile++) {
    int buf = tile % 2;
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
      int idx = t + l * THREADS;
      int a_r = idx % BM, a_c = (idx / BM) * 4;
      As[buf][a_c + 0][a_r] = next_a[l].x;
      As[buf][a_c + 1][a_r] = next_a[l].y;
      As[buf][a_c + 2][a_r] = next_a[l].z;
      As[buf][a_c + 3][a_r] = next_a[l].w;
      *reinterpret_cast<float4 *>(&Bs[buf][idx / (BN / 4)][(idx % (BN / 4)) * 4]) = next_b[l];
    }
    /* One barrier: the buffer written above was last read two tiles ago,
     * and every thread has passed the barrier of the previous tile since. */
    __syncthreads();
    if (tile + 1 < tiles) {
      int k1 = (tile + 1) * BK;
#pragma unroll
      for (int l = 0; l < LOADS; l++) {
        int idx = t + l * THREADS;
        next_a[l] = load4(A, M, K, bm + idx % BM, k1 + (idx / BM) * 4, vec);
        next_b[l] = load4(B, K, N, k1 + idx / (BN / 4), bn + (idx % (BN / 4)) * 4, vec);
      }
    }
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[buf][k][wr + ty * 4]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[buf][k][wr + 16 + ty * 4]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[buf][k][wc + tx * 4]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[buf][k][wc + 32 + tx * 4]);
      float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
    }
  }
#pragma unroll
  for (int i = 0; i < 8; i++) {
    int row = bm + wr + (i / 4) * 16 + ty * 4 + i % 4;
    int col = bn + wc + tx * 4;
    store_c_quad(C, M, N, row, col,
                 make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), alpha, beta, vec);
    store_c_quad(C, M, N, row, col + 32,
                 make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), alpha, beta, vec);
  }
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, BN), matmul_tiles(p->M, BM));
  bk16_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                          p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, bk16_kernel)

extern "C" const matmul_version matmul_11_bk16 = {
  "11_bk16", "version 9 with K steps of 16, warp-wide column loads of A",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

/* Version 13: twice the work per thread, one block per SM. The profile of
 * cuBLAS next to version 9 (RESULTS.md) shows the other way to keep the FMA
 * units fed: cuBLAS runs 254 registers a thread and only 8 warps per SM, and
 * issues an instruction every 2.2 cycles per warp, where version 9 runs 16
 * warps that issue every 5. Here each thread computes a 16x8 block of C
 * (128 accumulators), a block of 256 threads a 128x256 tile, and a warp a
 * 64x64 tile. Per step of k a thread does 128 FMAs for 6 LDS.128 (version 9:
 * 64 for 4), and each element fetched from global memory is reused 128 or
 * 256 times. The price is occupancy: __launch_bounds__(256, 1) lets the
 * compiler use up to 255 registers, so one block fits per SM and latency is
 * hidden by independent FMAs inside each thread rather than by other warps.
 * Loading, transposition, padding and double buffering are those of version
 * 9. */
#include "matmul_device.cuh"

#define BM 128
#define BN 256
#define BK 8
#define PAD 4
#define THREADS 256
#define WM 64   /* rows of C per warp: 2 warps down the tile */
#define WN 64   /* columns of C per warp: 4 warps across */
#define B_LOADS (BK * BN / 4 / THREADS)  /* float4 of B per thread per tile */

__global__ void __launch_bounds__(THREADS, 1)
large_tile_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                  float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[2][BK][BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;
  int a_r = t / (BK / 4), a_c = (t % (BK / 4)) * 4;
  /* acc[p*4+i][q*4+j]: row wr + p*16 + ty*4 + i, column wc + q*32 + tx*4 + j */
  float acc[16][8] = {{0.0f}};

  float4 next_a = load4(A, M, K, bm + a_r, a_c, vec);
  float4 next_b[B_LOADS];
#pragma unroll
  for (int l = 0; l < B_LOADS; l++) {
    int idx = t + l * THREADS;
    next_b[l] = load4(B, K, N, idx / (BN / 4), bn + (idx % (BN / 4)) * 4, vec);
  }
  int tiles = (K + BK - 1) / BK;
  for (int tile = 0; tile < tiles; tile++) {
    int buf = tile % 2;
    As[buf][a_c + 0][a_r] = next_a.x;
    As[buf][a_c + 1][a_r] = next_a.y;
    As[buf][a_c + 2][a_r] = next_a.z;
    As[buf][a_c + 3][a_r] = next_a.w;
#pragma unroll
    for (int l = 0; l < B_LOADS; l++) {
      int idx = t + l * THREADS;
      *reinterpret_cast<float4 *>(&Bs[buf][idx / (BN / 4)][(idx % (BN / 4)) * 4]) = next_b[l];
    }
    /* One barrier per tile, as in version 9. */
    __syncthreads();
    if (tile + 1 < tiles) {
      int k1 = (tile + 1) * BK;
      next_a = load4(A, M, K, bm + a_r, k1 + a_c, vec);
#pragma unroll
      for (int l = 0; l < B_LOADS; l++) {
        int idx = t + l * THREADS;
        next_b[l] = load4(B, K, N, k1 + idx / (BN / 4), bn + (idx % (BN / 4)) * 4, vec);
      }
    }
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float a[16], b[8];
#pragma unroll
      for (int p = 0; p < 4; p++) {
        float4 v = *reinterpret_cast<const float4 *>(&As[buf][k][wr + p * 16 + ty * 4]);
        a[p * 4 + 0] = v.x;
        a[p * 4 + 1] = v.y;
        a[p * 4 + 2] = v.z;
        a[p * 4 + 3] = v.w;
      }
#pragma unroll
      for (int q = 0; q < 2; q++) {
        float4 v = *reinterpret_cast<const float4 *>(&Bs[buf][k][wc + q * 32 + tx * 4]);
        b[q * 4 + 0] = v.x;
        b[q * 4 + 1] = v.y;
        b[q * 4 + 2] = v.z;
        b[q * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < 16; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
    }
  }
#pragma unroll
  for (int i = 0; i < 16; i++) {
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
  large_tile_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta, p->C,
                                       matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, large_tile_kernel)

extern "C" const matmul_version matmul_13_large_tile = {
  "13_large_tile", "128x256 tiles, 16x8 outputs per thread, one block per SM",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

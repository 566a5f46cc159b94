/* Version 12: version 11's loads with K steps of 8 again, plus a register
 * prefetch one level down: the shared-memory fragments of step k+1 are
 * loaded while the 64 FMAs of step k run, so an FMA never waits on an
 * LDS.128 issued just before it. The second set of fragments costs 16
 * registers; at BK = 16 (version 11) that pushed ptxas past the 128-register
 * cap of two blocks per SM and it spilled, so this version steps K by 8,
 * with one float4 of A and one of B per thread per tile. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8  /* at 16, the extra fragment registers made ptxas spill */
#define PAD 4
#define THREADS 256
#define WM 32
#define WN 64
#define LOADS (BM * BK / 4 / THREADS)  /* float4 of each tile per thread */

__global__ void __launch_bounds__(THREADS, 2)
frag_prefetch_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
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
    /* Fragments of step k+1 are loaded while step k's FMAs run. */
    float4 fa[2][2], fb[2][2];
    fa[0][0] = *reinterpret_cast<const float4 *>(&As[buf][0][wr + ty * 4]);
    fa[0][1] = *reinterpret_cast<const float4 *>(&As[buf][0][wr + 16 + ty * 4]);
    fb[0][0] = *reinterpret_cast<const float4 *>(&Bs[buf][0][wc + tx * 4]);
    fb[0][1] = *reinterpret_cast<const float4 *>(&Bs[buf][0][wc + 32 + tx * 4]);
#pragma unroll
    for (int k = 0; k < BK; k++) {
      int cur = k % 2, nxt = (k + 1) % 2;
      if (k + 1 < BK) {
        fa[nxt][0] = *reinterpret_cast<const float4 *>(&As[buf][k + 1][wr + ty * 4]);
        fa[nxt][1] = *reinterpret_cast<const float4 *>(&As[buf][k + 1][wr + 16 + ty * 4]);
        fb[nxt][0] = *reinterpret_cast<const float4 *>(&Bs[buf][k + 1][wc + tx * 4]);
        fb[nxt][1] = *reinterpret_cast<const float4 *>(&Bs[buf][k + 1][wc + 32 + tx * 4]);
      }
      float a[8] = {fa[cur][0].x, fa[cur][0].y, fa[cur][0].z, fa[cur][0].w,
                    fa[cur][1].x, fa[cur][1].y, fa[cur][1].z, fa[cur][1].w};
      float b[8] = {fb[cur][0].x, fb[cur][0].y, fb[cur][0].z, fb[cur][0].w,
                    fb[cur][1].x, fb[cur][1].y, fb[cur][1].z, fb[cur][1].w};
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
  frag_prefetch_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                          p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, frag_prefetch_kernel)

extern "C" const matmul_version matmul_12_frag_prefetch = {
  "12_frag_prefetch", "version 11 at BK=8, next k-step fragments loaded during the FMAs",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

/* Version 15: version 13 with its fragments double-buffered in registers.
 * In version 13 every tile starts with a barrier followed by the shared
 * loads of step 0, and the first FMAs wait for them: with only two warps
 * per scheduler, nothing else can issue meanwhile. Here a thread holds two
 * sets of fragments: while the 128 FMAs of step k run on one set, the
 * LDS.128 of step k+1 fill the other. At the last step of a tile the next
 * tile is stored to the other shared buffer and the barrier is passed
 * before that step's FMAs, so the fragments of the next tile's step 0 load
 * behind them too. The second set costs 24 registers; the next-next tile's
 * global loads are issued right after the barrier, a whole tile ahead of
 * their use. Tile, loads, transposition and padding are version 13's. */
#include "matmul_device.cuh"

#define BM 128
#define BN 256
#define BK 8
#define PAD 4
#define THREADS 256
#define WM 64   /* rows of C per warp: 2 warps down the tile */
#define WN 64   /* columns of C per warp: 4 warps across */
#define B_LOADS (BK * BN / 4 / THREADS)  /* float4 of B per thread per tile */

typedef float a_tile[BK][BM + PAD];
typedef float b_tile[BK][BN];

/* Thread t's share of tile k0 (columns k0.. of A, rows k0.. of B): one
 * float4 of A and B_LOADS of B, zero outside the matrices. */
__device__ __forceinline__ void load_tile(const float *A, const float *B, int M, int N, int K,
                                          int bm, int bn, int k0, int t, bool vec,
                                          float4 &next_a, float4 next_b[B_LOADS]) {
  next_a = load4(A, M, K, bm + t / (BK / 4), k0 + (t % (BK / 4)) * 4, vec);
#pragma unroll
  for (int l = 0; l < B_LOADS; l++) {
    int idx = t + l * THREADS;
    next_b[l] = load4(B, K, N, k0 + idx / (BN / 4), bn + (idx % (BN / 4)) * 4, vec);
  }
}

/* Stores them, A transposed (As[k][m]), as in version 9. */
__device__ __forceinline__ void store_tile(a_tile &As, b_tile &Bs, int t, float4 next_a,
                                           const float4 next_b[B_LOADS]) {
  int a_r = t / (BK / 4), a_c = (t % (BK / 4)) * 4;
  As[a_c + 0][a_r] = next_a.x;
  As[a_c + 1][a_r] = next_a.y;
  As[a_c + 2][a_r] = next_a.z;
  As[a_c + 3][a_r] = next_a.w;
#pragma unroll
  for (int l = 0; l < B_LOADS; l++) {
    int idx = t + l * THREADS;
    *reinterpret_cast<float4 *>(&Bs[idx / (BN / 4)][(idx % (BN / 4)) * 4]) = next_b[l];
  }
}

/* The 16 values of A and 8 of B that a thread needs at step k. */
__device__ __forceinline__ void load_fragments(const a_tile &As, const b_tile &Bs, int k, int wr,
                                               int wc, int ty, int tx, float4 fa[4],
                                               float4 fb[2]) {
#pragma unroll
  for (int p = 0; p < 4; p++)
    fa[p] = *reinterpret_cast<const float4 *>(&As[k][wr + p * 16 + ty * 4]);
#pragma unroll
  for (int q = 0; q < 2; q++)
    fb[q] = *reinterpret_cast<const float4 *>(&Bs[k][wc + q * 32 + tx * 4]);
}

__device__ __forceinline__ void outer_product(float acc[16][8], const float4 fa[4],
                                              const float4 fb[2]) {
  const float a[16] = {fa[0].x, fa[0].y, fa[0].z, fa[0].w, fa[1].x, fa[1].y, fa[1].z, fa[1].w,
                       fa[2].x, fa[2].y, fa[2].z, fa[2].w, fa[3].x, fa[3].y, fa[3].z, fa[3].w};
  const float b[8] = {fb[0].x, fb[0].y, fb[0].z, fb[0].w, fb[1].x, fb[1].y, fb[1].z, fb[1].w};
#pragma unroll
  for (int i = 0; i < 16; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
}

__global__ void __launch_bounds__(THREADS, 1)
frag_double_buffer_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                          float beta, float *C, bool vec) {
  __shared__ __align__(16) a_tile As[2];
  __shared__ __align__(16) b_tile Bs[2];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;
  /* acc[p*4+i][q*4+j]: row wr + p*16 + ty*4 + i, column wc + q*32 + tx*4 + j */
  float acc[16][8] = {{0.0f}};
  float4 fa[2][4], fb[2][2];
  float4 next_a, next_b[B_LOADS];

  /* Tile 0 is stored before the loop (K >= 1, so there is one); every
   * later tile is stored, and its step 0 loaded, at the end of the tile
   * before it. */
  int tiles = (K + BK - 1) / BK;
  load_tile(A, B, M, N, K, bm, bn, 0, t, vec, next_a, next_b);
  store_tile(As[0], Bs[0], t, next_a, next_b);
  __syncthreads();
  if (tiles > 1) load_tile(A, B, M, N, K, bm, bn, BK, t, vec, next_a, next_b);
  load_fragments(As[0], Bs[0], 0, wr, wc, ty, tx, fa[0], fb[0]);
  for (int tile = 0; tile < tiles; tile++) {
    int buf = tile % 2;
#pragma unroll
    for (int k = 0; k < BK; k++) {
      int cur = k % 2, nxt = (k + 1) % 2;
      if (k + 1 < BK) {
        load_fragments(As[buf], Bs[buf], k + 1, wr, wc, ty, tx, fa[nxt], fb[nxt]);
      } else if (tile + 1 < tiles) {
        /* The other buffer was last read before the previous tile's
         * barrier, which every thread has passed. */
        store_tile(As[1 - buf], Bs[1 - buf], t, next_a, next_b);
        __syncthreads();
        if (tile + 2 < tiles)
          load_tile(A, B, M, N, K, bm, bn, (tile + 2) * BK, t, vec, next_a, next_b);
        load_fragments(As[1 - buf], Bs[1 - buf], 0, wr, wc, ty, tx, fa[nxt], fb[nxt]);
      }
      outer_product(acc, fa[cur], fb[cur]);
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
  frag_double_buffer_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B,
                                               p->beta, p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, frag_double_buffer_kernel)

extern "C" const matmul_version matmul_15_frag_double_buffer = {
  "15_frag_double_buffer", "version 13, fragments of step k+1 loaded during step k's FMAs",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

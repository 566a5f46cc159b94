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
  float acc[16][8] = {{0.0f}};  /* the thread tile of matmul_device.cuh */
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
  store_thread_tile(C, M, N, bm, bn, wr, wc, ty, tx, acc, alpha, beta, vec);
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

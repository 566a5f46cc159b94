/* Version 10: double-buffered shared memory filled by asynchronous copies.
 * cp.async (sm_80 on) moves global memory straight into shared memory
 * without passing through registers, so the prefetch of version 9 no longer
 * costs staging registers, and K advances 16 per barrier instead of 8: the
 * copies of tile t+1 run while tile t is multiplied. The copy cannot transpose, so A is kept as it is in global
 * memory (As[m][k], 16 words a row) and the A fragment is read four steps
 * of k at a time: one LDS.128 gives A[m][k..k+3]. A quarter-warp still reads
 * one broadcast address of A and 128 consecutive bytes of B, and the copies
 * write 128 consecutive bytes per quarter-warp: no bank conflicts and no
 * padding. Tiles that overhang the matrix use cp.async's zero fill (source
 * size 0). Rows that are not 16-byte aligned fall back to 4-byte copies. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 16
#define STAGES 2  /* 3 stages made ptxas spill at the 128-register cap */
#define THREADS 256
#define WM 32
#define WN 64

/* Copies 16 (or 4) bytes global -> shared; bytes past src_bytes become 0. */
__device__ __forceinline__ void cp_async16(float *dst, const float *src, int src_bytes) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
               "r"(src_bytes));
}
__device__ __forceinline__ void cp_async4(float *dst, const float *src, int src_bytes) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src),
               "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit(void) {
  asm volatile("cp.async.commit_group;\n" ::);
}
/* Waits until at most STAGES-2 copy groups of this thread are in flight. */
__device__ __forceinline__ void cp_async_wait_stage(void) {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
}

/* Starts copying four elements m[r][c..c+3] of a rows x cols matrix to dst,
 * zero-filling what lies outside (the source address stays valid). */
__device__ __forceinline__ void copy4(float *dst, const float *m, int rows, int cols, int r,
                                      int c, bool vec) {
  bool row_in = r < rows;
  if (vec) {
    bool in = row_in && c < cols;
    cp_async16(dst, in ? m + r * cols + c : m, in ? 16 : 0);
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; e++) {
    bool in = row_in && c + e < cols;
    cp_async4(dst + e, in ? m + r * cols + c + e : m, in ? 4 : 0);
  }
}

/* Starts the copies of one tile (512 float4 of A, 512 of B: two of each per
 * thread) into one stage. */
__device__ __forceinline__ void load_tile(float (*as)[BK], float (*bs)[BN], const float *A,
                                          const float *B, int M, int N, int K, int bm,
                                          int bn, int k0, int t, bool vec) {
#pragma unroll
  for (int l = 0; l < 2; l++) {
    int idx = t + l * THREADS;
    int ar = idx / (BK / 4), ac = (idx % (BK / 4)) * 4;
    int br = idx / (BN / 4), bc = (idx % (BN / 4)) * 4;
    copy4(&as[ar][ac], A, M, K, bm + ar, k0 + ac, vec);
    copy4(&bs[br][bc], B, K, N, k0 + br, bn + bc, vec);
  }
}

__global__ void __launch_bounds__(THREADS, 2)
cp_async_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[STAGES][BM][BK];
  __shared__ __align__(16) float Bs[STAGES][BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;
  float acc[8][8] = {{0.0f}};
  int tiles = (K + BK - 1) / BK;

  for (int tile = 0; tile < STAGES - 1; tile++) {
    if (tile < tiles) load_tile(As[tile], Bs[tile], A, B, M, N, K, bm, bn, tile * BK, t, vec);
    cp_async_commit();
  }
  for (int tile = 0; tile < tiles; tile++) {
    cp_async_wait_stage();
    /* Makes every thread's copies of this tile visible, and tells every
     * thread that the stage about to be refilled (read at tile-1) is free. */
    __syncthreads();
    if (tile + STAGES - 1 < tiles) {
      int next = tile + STAGES - 1;
      load_tile(As[next % STAGES], Bs[next % STAGES], A, B, M, N, K, bm, bn, next * BK, t,
                vec);
    }
    cp_async_commit();  /* empty groups at the end keep the count uniform */
    int s = tile % STAGES;
#pragma unroll
    for (int k4 = 0; k4 < BK; k4 += 4) {
      float a[8][4];
#pragma unroll
      for (int i = 0; i < 8; i++) {
        float4 v = *reinterpret_cast<const float4 *>(&As[s][wr + (i / 4) * 16 + ty * 4 + i % 4][k4]);
        a[i][0] = v.x;
        a[i][1] = v.y;
        a[i][2] = v.z;
        a[i][3] = v.w;
      }
#pragma unroll
      for (int kk = 0; kk < 4; kk++) {
        float4 b0 = *reinterpret_cast<const float4 *>(&Bs[s][k4 + kk][wc + tx * 4]);
        float4 b1 = *reinterpret_cast<const float4 *>(&Bs[s][k4 + kk][wc + 32 + tx * 4]);
        float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
          for (int j = 0; j < 8; j++) acc[i][j] += a[i][kk] * b[j];
      }
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
  cp_async_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta, p->C,
                                     matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, cp_async_kernel)

extern "C" const matmul_version matmul_10_cp_async = {
  "10_cp_async", "cp.async into two shared buffers, BK=16, A read 4 k-steps per LDS.128",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

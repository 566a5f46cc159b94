/* Version 9: version 8 with two shared-memory buffers and the next tile
 * prefetched into registers: Ryoo et al.'s prefetch (Section 4.4, version 4
 * here) applied to the block-tiled kernel. While the warps multiply tile t
 * out of one buffer, the global loads of tile t+1 are in flight; they are
 * written to the other buffer afterwards, so one barrier per tile suffices
 * instead of two and the load latency hides behind 512 FMAs per thread.
 * The prefetch costs 8 registers; __launch_bounds__(256, 2) asks the
 * compiler to stay within 128 so that two blocks (16 warps) share an SM. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8
#define PAD 4
#define THREADS 256
#define WM 32
#define WN 64

__global__ void __launch_bounds__(THREADS, 2)
double_buffer_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                     float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[2][BK][BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;
  int a_r = t / (BK / 4), a_c = (t % (BK / 4)) * 4;
  int b_r = t / (BN / 4), b_c = (t % (BN / 4)) * 4;
  float acc[8][8] = {{0.0f}};

  float4 next_a = load4(A, M, K, bm + a_r, a_c, vec);
  float4 next_b = load4(B, K, N, b_r, bn + b_c, vec);
  int tiles = (K + BK - 1) / BK;
  for (int tile = 0; tile < tiles; tile++) {
    int buf = tile % 2;
    As[buf][a_c + 0][a_r] = next_a.x;
    As[buf][a_c + 1][a_r] = next_a.y;
    As[buf][a_c + 2][a_r] = next_a.z;
    As[buf][a_c + 3][a_r] = next_a.w;
    *reinterpret_cast<float4 *>(&Bs[buf][b_r][b_c]) = next_b;
    /* One barrier: the buffer written above was last read two tiles ago,
     * and every thread has passed the barrier of the previous tile since. */
    __syncthreads();
    if (tile + 1 < tiles) {
      int k1 = (tile + 1) * BK;
      next_a = load4(A, M, K, bm + a_r, k1 + a_c, vec);
      next_b = load4(B, K, N, k1 + b_r, bn + b_c, vec);
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
  double_buffer_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                          p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, double_buffer_kernel)

extern "C" const matmul_version matmul_09_double_buffer = {
  "09_double_buffer", "two shared buffers, next tile prefetched into registers",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

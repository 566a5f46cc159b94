/* Version 8: warp tiling. Version 7 gives thread t the 8 columns t*8..t*8+7,
 * so the 8 threads of a quarter-warp read B at 32-byte strides and pairs of
 * them meet in the same banks. Here the block's 8 warps each own a 32x64
 * piece of the 128x128 tile, and inside it a thread owns two 4-row and two
 * 4-column strips, 16 rows and 32 columns apart. A quarter-warp (8 lanes,
 * one LDS.128 phase) then reads 8 consecutive float4 of B, 128 bytes with no
 * bank repeated, and one broadcast float4 of A (rule S_1 without padding
 * the B tile). The warp's working set in shared memory is also smaller and
 * squarer: 32 + 64 floats per step of k instead of 16 + 128. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8
#define PAD 4
#define THREADS 256
#define WM 32  /* rows of C per warp: 4 warps down the tile */
#define WN 64  /* columns of C per warp: 2 warps across */

__global__ void __launch_bounds__(THREADS)
warptile_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[BK][BM + PAD];
  __shared__ __align__(16) float Bs[BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
  int ty = lane / 8, tx = lane % 8;  /* 4 x 8 lanes over the warp's tile */
  int a_r = t / (BK / 4), a_c = (t % (BK / 4)) * 4;
  int b_r = t / (BN / 4), b_c = (t % (BN / 4)) * 4;
  /* acc[p*4+i][q*4+j]: row wr + p*16 + ty*4 + i, column wc + q*32 + tx*4 + j */
  float acc[8][8] = {{0.0f}};
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 av = load4(A, M, K, bm + a_r, k0 + a_c, vec);
    As[a_c + 0][a_r] = av.x;
    As[a_c + 1][a_r] = av.y;
    As[a_c + 2][a_r] = av.z;
    As[a_c + 3][a_r] = av.w;
    *reinterpret_cast<float4 *>(&Bs[b_r][b_c]) = load4(B, K, N, k0 + b_r, bn + b_c, vec);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[k][wr + ty * 4]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[k][wr + 16 + ty * 4]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][wc + tx * 4]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][wc + 32 + tx * 4]);
      float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
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
  warptile_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta, p->C,
                                     matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, warptile_kernel)

extern "C" const matmul_version matmul_08_warptile = {
  "08_warptile", "warp tiles of 32x64, conflict-free LDS.128 fragments",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

/* A counter-example, not a step of the progression: version 7 with the
 * padding of the transposed A tile taken out. A warp's 32 threads load rows
 * 0-15 of the A tile, two float4 per row (the tile is 8 wide), and store
 * them down the columns of As[k][m]. With rows of exactly 128 words, the
 * store As[c][r] lands in bank r mod 32 whichever half of the row the thread
 * holds, so every one of the four stores is a 2-way bank conflict (rule S_1;
 * version 7 pads each row by 4 words and has none). warplint should flag
 * it; the runner times it by name (--versions extra_transposed_unpadded),
 * and the tests check that it still computes the right answer. */
#include "../matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS (BM * BN / (TM * TN))

__global__ void __launch_bounds__(THREADS)
transposed_unpadded_kernel(int M, int N, int K, float alpha, const float *A,
                           const float *B, float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[BK][BM];  /* unpadded: the point of this file */
  __shared__ __align__(16) float Bs[BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int trow = t / (BN / TN), tcol = t % (BN / TN);
  int a_r = t / (BK / 4), a_c = (t % (BK / 4)) * 4;  /* one float4 of A per thread */
  int b_r = t / (BN / 4), b_c = (t % (BN / 4)) * 4;  /* one float4 of B per thread */
  float acc[TM][TN] = {{0.0f}};
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
      float4 a0 = *reinterpret_cast<const float4 *>(&As[k][trow * TM]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[k][trow * TM + 4]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * TN]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * TN + 4]);
      float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; i++) {
    int row = bm + trow * TM + i;
    int col = bn + tcol * TN;
    store_c_quad(C, M, N, row, col,
                 make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), alpha, beta, vec);
    store_c_quad(C, M, N, row, col + 4,
                 make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), alpha, beta, vec);
  }
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, BN), matmul_tiles(p->M, BM));
  transposed_unpadded_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                       p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, transposed_unpadded_kernel)

extern "C" const matmul_version matmul_extra_transposed_unpadded = {
  "extra_transposed_unpadded", "version 7 without the padding: 2-way bank conflicts",
  BM, BN, THREADS, MATMUL_FP32, false, launch, attributes, NULL};

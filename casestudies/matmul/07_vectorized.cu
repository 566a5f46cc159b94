/* Version 7: 128-bit accesses and a transposed, padded A tile. Global loads
 * become one float4 per thread per matrix per step (rule G_2: wider accesses,
 * a quarter of the load instructions for the same bytes). The A tile is
 * stored transposed (As[k][m]) so that the 8 values of A a thread needs at
 * step k are contiguous and come in two 16-byte shared loads (LDS.128), like
 * those of B. Writing the tile transposed scatters each thread's float4 down
 * a column; rows of 128 words would put threads 16 rows apart in the same
 * bank (a 2-way conflict), so each row is padded by 4 words (rule S_1). The
 * padded width, 132 words, keeps every row 16-byte aligned for the LDS.128.
 * extra/transposed_unpadded.cu is this kernel without the padding. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define PAD 4
#define THREADS (BM * BN / (TM * TN))

__global__ void __launch_bounds__(THREADS)
vectorized_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                  float beta, float *C, bool vec) {
  __shared__ __align__(16) float As[BK][BM + PAD];
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
  vectorized_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                       p->C, matmul_vector_ok(p));
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, vectorized_kernel)

extern "C" const matmul_version matmul_07_vectorized = {
  "07_vectorized", "float4 loads, A transposed in shared memory, padded rows",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

/* Version 5: more work per thread, in one dimension. Each thread now
 * computes a column of 8 elements of C (a 64x64 tile per block of 512
 * threads, K in steps of 8). The value of B a thread reads from shared
 * memory is used for 8 FMAs instead of 1, and the 8 partial sums live in a
 * register array indexed only by unrolled loops (rule L_1), so it never
 * spills to local memory. Shared-memory loads per FMA fall from 2 to about
 * 1.1; on a GPU with 128 FP32 lanes per SM the shared-memory pipe, not the
 * FMA units, was what limited versions 2-4. */
#include "matmul_device.cuh"

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define THREADS (BM * BN / TM)

__global__ void __launch_bounds__(THREADS)
regtile_1d_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                  float beta, float *C) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int tcol = t % BN, trow = t / BN;  /* this thread's column and 8-row group */
  /* Tile loading: one element of A and one of B per thread per step. */
  int a_r = t / BK, a_c = t % BK;
  int b_r = t / BN, b_c = t % BN;
  float acc[TM] = {0.0f};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[a_r][a_c] = (bm + a_r < M && k0 + a_c < K) ? A[(bm + a_r) * K + k0 + a_c] : 0.0f;
    Bs[b_r][b_c] = (k0 + b_r < K && bn + b_c < N) ? B[(k0 + b_r) * N + bn + b_c] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float b = Bs[k][tcol];
#pragma unroll
      for (int i = 0; i < TM; i++) acc[i] += As[trow * TM + i][k] * b;
    }
    __syncthreads();
  }
  int col = bn + tcol;
  if (col >= N) return;
#pragma unroll
  for (int i = 0; i < TM; i++) {
    int row = bm + trow * TM + i;
    if (row < M) store_c(&C[row * N + col], acc[i], alpha, beta);
  }
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, BN), matmul_tiles(p->M, BM));
  regtile_1d_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                       p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, regtile_1d_kernel)

extern "C" const matmul_version matmul_05_regtile_1d = {
  "05_regtile_1d", "64x64 tiles, 8x1 outputs per thread in registers",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

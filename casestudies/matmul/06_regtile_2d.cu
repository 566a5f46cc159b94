/* Version 6: more work per thread, in two dimensions. Each thread computes
 * an 8x8 block of C as an outer product: per step of k it reads 8 values of
 * A and 8 of B from shared memory and does 64 FMAs with them, 4 FMAs per
 * value read instead of about 1 in version 5. Blocks grow to 128x128 so
 * each element brought from global memory is reused 128 times (rule S_5,
 * carried further). The source reads shared memory one word at a time; the
 * compiler, seeing the unrolled loops, merges them into 16-byte LDS.128
 * (the SASS has no LDS.32 left). What it cannot mend: global loads stay one
 * word per instruction, a quarter-warp's LDS.128 of B hit the same banks two
 * by two, and the kernel takes 162 registers, so only one block of 256
 * threads fits on an SM. Versions 7 and 8 address these. */
#include "matmul_device.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS (BM * BN / (TM * TN))

__global__ void __launch_bounds__(THREADS)
regtile_2d_kernel(int M, int N, int K, float alpha, const float *A, const float *B,
                  float beta, float *C) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  int trow = t / (BN / TN), tcol = t % (BN / TN);
  float acc[TM][TN] = {{0.0f}};
  float a[TM], b[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    /* 1024 elements of each tile, 4 per thread, consecutive threads on
     * consecutive addresses. */
#pragma unroll
    for (int l = 0; l < BM * BK / THREADS; l++) {
      int idx = t + l * THREADS;
      int r = idx / BK, c = idx % BK;
      As[r][c] = (bm + r < M && k0 + c < K) ? A[(bm + r) * K + k0 + c] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < BK * BN / THREADS; l++) {
      int idx = t + l * THREADS;
      int r = idx / BN, c = idx % BN;
      Bs[r][c] = (k0 + r < K && bn + c < N) ? B[(k0 + r) * N + bn + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; k++) {
#pragma unroll
      for (int i = 0; i < TM; i++) a[i] = As[trow * TM + i][k];
#pragma unroll
      for (int j = 0; j < TN; j++) b[j] = Bs[k][tcol * TN + j];
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
    if (row >= M) break;
#pragma unroll
    for (int j = 0; j < TN; j++) {
      int col = bn + tcol * TN + j;
      if (col < N) store_c(&C[row * N + col], acc[i][j], alpha, beta);
    }
  }
}

static void launch(const matmul_args *p) {
  dim3 grid(matmul_tiles(p->N, BN), matmul_tiles(p->M, BM));
  regtile_2d_kernel<<<grid, THREADS>>>(p->M, p->N, p->K, p->alpha, p->A, p->B, p->beta,
                                       p->C);
  CUDA_CHECK_LAUNCH();
}

MATMUL_ATTRIBUTES(attributes, regtile_2d_kernel)

extern "C" const matmul_version matmul_06_regtile_2d = {
  "06_regtile_2d", "128x128 tiles, 8x8 outputs per thread in registers",
  BM, BN, THREADS, MATMUL_FP32, true, launch, attributes, NULL};

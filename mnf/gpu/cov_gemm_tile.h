/* The GEMM-like covariance tile shared by V5 and V6: 64 x 64 outputs per
 * block of two warps, a warp 32 x 64, a thread 8 x 8 (rows wr + p*16 +
 * ty*4 + 0..3, columns q*32 + tx*4 + 0..3, p, q in {0, 1}), read from
 * shared tiles stored pixel-major [KT][TILE + PAD] as float4. */
#ifndef MNF_GPU_COV_GEMM_TILE_H
#define MNF_GPU_COV_GEMM_TILE_H

#define TILE 64
#define KT 16
#define PAD 4 /* keeps rows 16-byte aligned; the staging stores are then 2-way conflicted, the reads conflict-free */
#define THREADS 64
#define ROWS_PER_LOAD (THREADS / KT) /* band rows a load instruction covers */
#define LOADS (TILE / ROWS_PER_LOAD) /* values a thread stages per tile per stage */
static_assert(THREADS == TILE, "one thread per band of a tile loads the shifts");

/* acc[i][j] += a[i] * b[j] over one stage, for COLS = 8 (both column
 * halves) or 4 (the first half only). */
template <int COLS>
__device__ __forceinline__ void cov_gemm_stage(const float (*as)[TILE + PAD], const float (*bs)[TILE + PAD], int wr,
                                             int ty, int tx, float (&acc)[8][8])
{
#pragma unroll
  for (int k = 0; k < KT; k++) {
    float a[8], b[8];
#pragma unroll
    for (int p = 0; p < 2; p++) {
      float4 v = *reinterpret_cast<const float4 *>(&as[k][wr + p * 16 + ty * 4]);
      a[p * 4 + 0] = v.x, a[p * 4 + 1] = v.y, a[p * 4 + 2] = v.z, a[p * 4 + 3] = v.w;
    }
#pragma unroll
    for (int q = 0; q < COLS / 4; q++) {
      float4 v = *reinterpret_cast<const float4 *>(&bs[k][q * 32 + tx * 4]);
      b[q * 4 + 0] = v.x, b[q * 4 + 1] = v.y, b[q * 4 + 2] = v.z, b[q * 4 + 3] = v.w;
    }
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
      for (int j = 0; j < COLS; j++) acc[i][j] += a[i] * b[j];
  }
}

#endif

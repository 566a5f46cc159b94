/* Covariance V4 (Table 6): V3 with the staged tiles transposed to pixel-major
 * and padded (S_1). A warp stages 16 pixels of 2 bands, As[kk][lb + 16 i]
 * for kk < 16, lb < 2: with rows 130 floats long (2 banks apart) those 32
 * stores fall in 32 different banks. (Run 1-7's pad of one float, rows of
 * 113, put kk = 15, lb = 1 in the bank of kk = 0, lb = 0: warplint found
 * that 2-way conflict, S_1.) The reads along a row are conflict-free
 * whatever the pad. Two more changes make it the version CUDA-MNF
 * uses: the next stage's image values are loaded into registers while the
 * current stage is computed (the global-memory latency V3 waits for), and
 * the double-precision totals moved out of registers (each block covers at
 * most COV_BLOCK_PIXELS pixels and adds its float sums into the double
 * result with atomics), so two blocks fit on an SM instead of one. */
#include "gpu.h"
#include "kernels.h"
#include "cov_tile_grid.h"

#define TILE 112
#define KT 16
#define PER 7
#define PAD 18 /* TILE + PAD = 130 = 2 (mod 32) */

template <typename T>
__global__ void __launch_bounds__(256, 2) cov_v4_kernel(gpu_matrix a, const float *shift, double *sum, long long per_block)
{
  __shared__ float As[KT][TILE + PAD];
  __shared__ float Bs[KT][TILE + PAD];
  int ti, tj;
  cov_tile_pair(blockIdx.y, &ti, &tj);
  const bool diagonal = ti == tj;
  const int row_a = ti * TILE, row_b = tj * TILE;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int kk = threadIdx.x % KT, lb = threadIdx.x / KT;
  const long long begin = (long long)blockIdx.x * per_block, end = min(a.n, begin + per_block);
  if (begin >= end) return;

  float next_a[PER], next_b[PER];
  auto fetch = [&](long long k0) {
    const long long k = k0 + kk;
#pragma unroll
    for (int i = 0; i < PER; i++) {
      int ga = row_a + lb + 16 * i, gb = row_b + lb + 16 * i;
      next_a[i] = ga < a.bands && k < end ? load_as_float<T>(a.data, ga * a.ld + k) - (shift ? __ldg(shift + ga) : 0.0f) : 0.0f;
      if (!diagonal)
        next_b[i] = gb < a.bands && k < end ? load_as_float<T>(a.data, gb * a.ld + k) - (shift ? __ldg(shift + gb) : 0.0f) : 0.0f;
    }
  };

  float acc[PER][PER] = {};
  fetch(begin);
  for (long long k0 = begin; k0 < end; k0 += KT) {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      As[kk][lb + 16 * i] = next_a[i];
      if (!diagonal) Bs[kk][lb + 16 * i] = next_b[i];
    }
    __syncthreads();
    if (k0 + KT < end) fetch(k0 + KT);
    float(*bsrc)[TILE + PAD] = diagonal ? As : Bs;
#pragma unroll
    for (int q = 0; q < KT; q++) {
      float av[PER], bv[PER];
#pragma unroll
      for (int i = 0; i < PER; i++) av[i] = As[q][ty * PER + i], bv[i] = bsrc[q][tx * PER + i];
#pragma unroll
      for (int i = 0; i < PER; i++)
#pragma unroll
        for (int j = 0; j < PER; j++) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < PER; i++)
#pragma unroll
    for (int j = 0; j < PER; j++) {
      int gi = row_a + ty * PER + i, gj = row_b + tx * PER + j;
      if (gi < a.bands && gj <= gi) atomicAdd(&sum[(long long)gi * a.bands + gj], (double)acc[i][j]);
    }
}

void cov_v4_padded(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  static int sm_count;
  if (!sm_count) CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  int tiles = ceil_div(a->bands, TILE), pairs = tiles * (tiles + 1) / 2;
  /* Four waves of two blocks per SM where the pixels allow. Each block
   * ends with one atomic per output, so it covers at least 2048 pixels
   * (atomics then cost a few percent) and at most COV_BLOCK_PIXELS. */
  long long per_block = (a->n * pairs + 8LL * sm_count - 1) / (8LL * sm_count);
  per_block = (per_block + KT - 1) / KT * KT;
  if (per_block > COV_BLOCK_PIXELS) per_block = COV_BLOCK_PIXELS;
  if (per_block < 2048) per_block = 2048;
  dim3 grid(ceil_div(a->n, per_block), pairs);
  MNF_DISPATCH_TYPE(a->type, (cov_v4_kernel<T><<<grid, 256, 0, s>>>(*a, shift, sum, per_block)));
}

/* Covariance V4 (Table 6): V3 with the staged tiles transposed to pixel-major
 * and padded by one float per row (S_1): a warp's 16 reads of a tile row
 * fall in 16 different banks. Otherwise as V3: tiles of 112 bands x 16
 * pixels in shared memory, a 7 x 7 block of outputs per thread.
 * Float sums over each COV_BLOCK_PIXELS chunk, double across chunks. */
#include "cov_tile_grid.h"

#define TILE 112
#define KT 16
#define PER 7
#define PAD 1

template <typename T>
__global__ void __launch_bounds__(256, 1) cov_v4_kernel(gpu_matrix a, const float *shift, double *sum)
{
  __shared__ float As[KT][TILE + PAD];
  __shared__ float Bs[KT][TILE + PAD];
  int ti, tj;
  cov_tile_pair(blockIdx.y, &ti, &tj);
  const bool diagonal = ti == tj;
  const int row_a = ti * TILE, row_b = tj * TILE;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int kk = threadIdx.x % KT, lb = threadIdx.x / KT;
  double total[PER][PER] = {};
  for (long long begin = (long long)blockIdx.x * COV_BLOCK_PIXELS; begin < a.n;
       begin += (long long)gridDim.x * COV_BLOCK_PIXELS) {
    const long long end = min(a.n, begin + COV_BLOCK_PIXELS);
    float acc[PER][PER] = {};
    for (long long k0 = begin; k0 < end; k0 += KT) {
      const long long k = k0 + kk;
#pragma unroll
      for (int i = 0; i < PER; i++) {
        int band = lb + 16 * i, ga = row_a + band, gb = row_b + band;
        As[kk][band] = ga < a.bands && k < end ? load_as_float<T>(a.data, ga * a.ld + k) - (shift ? __ldg(shift + ga) : 0.0f) : 0.0f;
        if (!diagonal)
          Bs[kk][band] = gb < a.bands && k < end ? load_as_float<T>(a.data, gb * a.ld + k) - (shift ? __ldg(shift + gb) : 0.0f) : 0.0f;
      }
      __syncthreads();
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
      for (int j = 0; j < PER; j++) total[i][j] += acc[i][j];
  }
  for (int i = 0; i < PER; i++)
    for (int j = 0; j < PER; j++) {
      int gi = row_a + ty * PER + i, gj = row_b + tx * PER + j;
      if (gi < a.bands && gj <= gi) atomicAdd(&sum[(long long)gi * a.bands + gj], total[i][j]);
    }
}

void cov_v4_padded(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  dim3 grid = cov_tile_grid(a->bands, a->n, TILE);
  MNF_DISPATCH_TYPE(a->type, (cov_v4_kernel<T><<<grid, 256, 0, s>>>(*a, shift, sum)));
}

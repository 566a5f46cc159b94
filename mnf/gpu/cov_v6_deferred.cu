/* Covariance V6 (Table 6, beyond the paper): V5 with its prefetch made
 * real. Run 3's profile of V5 (RESULTS.md) showed 31% of the cycles between
 * a warp's instructions waiting on global loads: V5 converted each
 * prefetched value to float and subtracted its shift right after loading
 * it, so the warp waited for the load there, before the stage's
 * arithmetic, and with two warps per scheduler nothing else could issue.
 * V6 keeps the raw stored values in registers and converts them only when
 * they go into shared memory, a whole stage later. Second change: the
 * pixel split is sized so the grid is a whole number of waves (V5 ran two
 * waves and 4 blocks on image 1). Everything else, the tile and its
 * arithmetic (cov_gemm_tile.h), is V5's. */
#include "gpu.h"
#include "kernels.h"
#include "cov_tile_grid.h"
#include "cov_gemm_tile.h"

template <typename T>
__global__ void __launch_bounds__(THREADS, 4) cov_v6_kernel(gpu_matrix a, const float *shift, double *sum, long long per_block)
{
  __shared__ __align__(16) float As[2][KT][TILE + PAD];
  __shared__ __align__(16) float Bs[2][KT][TILE + PAD];
  __shared__ float shift_a[TILE], shift_b[TILE];
  int ti, tj;
  cov_tile_pair(blockIdx.x, &ti, &tj);
  const bool diagonal = ti == tj;
  const int row_a = ti * TILE, row_b = tj * TILE;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int wr = warp * 32, ty = lane / 8, tx = lane % 8;
  const int kk = t % KT, lr = t / KT;
  const long long begin = (long long)blockIdx.y * per_block, end = min(a.n, begin + per_block);
  if (begin >= end) return;
  const bool active = row_a + wr < a.bands;
  const bool half = diagonal && warp == 0;

  shift_a[t] = shift && row_a + t < a.bands ? shift[row_a + t] : 0.0f;
  shift_b[t] = shift && row_b + t < a.bands ? shift[row_b + t] : 0.0f;
  __syncthreads();

  const T *data = static_cast<const T *>(a.data);
  T raw_a[LOADS], raw_b[LOADS];
  /* Loads only: nothing reads raw_* until the next stage_in. */
  auto fetch = [&](long long k0) {
    const long long k = k0 + kk;
    const bool in = k < end;
#pragma unroll
    for (int i = 0; i < LOADS; i++) {
      int r = lr + ROWS_PER_LOAD * i, ga = row_a + r, gb = row_b + r;
      raw_a[i] = in && ga < a.bands ? data[ga * a.ld + k] : T(0);
      if (!diagonal) raw_b[i] = in && gb < a.bands ? data[gb * a.ld + k] : T(0);
    }
  };
  /* Pixels past the end and bands past the last are staged as 0 (not
   * -shift), so they add nothing. */
  auto stage_in = [&](int buf, long long k0) {
    const bool in = k0 + kk < end;
#pragma unroll
    for (int i = 0; i < LOADS; i++) {
      int r = lr + ROWS_PER_LOAD * i;
      As[buf][kk][r] = in && row_a + r < a.bands ? (float)raw_a[i] - shift_a[r] : 0.0f;
      if (!diagonal) Bs[buf][kk][r] = in && row_b + r < a.bands ? (float)raw_b[i] - shift_b[r] : 0.0f;
    }
  };

  float acc[8][8] = {};
  fetch(begin);
  int buf = 0;
  for (long long k0 = begin; k0 < end; k0 += KT, buf ^= 1) {
    stage_in(buf, k0);
    /* One barrier a stage: the buffer written here was last read two
     * stages ago, before the previous barrier. */
    __syncthreads();
    if (k0 + KT < end) fetch(k0 + KT);
    const float(*as)[TILE + PAD] = As[buf];
    const float(*bs)[TILE + PAD] = diagonal ? As[buf] : Bs[buf];
    if (active) {
      if (half) cov_gemm_stage<4>(as, bs, wr, ty, tx, acc);
      else cov_gemm_stage<8>(as, bs, wr, ty, tx, acc);
    }
  }
  if (!active) return;
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      int gi = row_a + wr + (i / 4) * 16 + ty * 4 + i % 4;
      int gj = row_b + (j / 4) * 32 + tx * 4 + j % 4;
      if (gi < a.bands && gj <= gi) atomicAdd(&sum[(long long)gi * a.bands + gj], (double)acc[i][j]);
    }
}

void cov_v6_deferred(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  if (a->n <= 0 || a->bands <= 0) return;
  int tiles = ceil_div(a->bands, TILE), pairs = tiles * (tiles + 1) / 2;
  /* Whole waves, at least two (cov_wave_split). */
  static int resident;
  long long per_block = cov_wave_split(a->n, pairs, cov_resident_blocks(cov_v6_kernel<int16_t>, THREADS, &resident), 2, KT,
                                       COV_BLOCK_PIXELS);
  dim3 grid(pairs, ceil_div(a->n, per_block));
  MNF_DISPATCH_TYPE(a->type, (cov_v6_kernel<T><<<grid, THREADS, 0, s>>>(*a, shift, sum, per_block)));
}

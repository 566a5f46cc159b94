/* Covariance V5 (Table 6, beyond the paper): the covariance as the
 * tall-skinny symmetric product it is, computed the way a GEMM is. V4 ran at
 * a sixth of the FP32 peak, waiting on its image loads with 16 warps per SM
 * (RESULTS.md, ncu). V5 changes the shape of the work:
 *   - 64 x 64 output tiles, one block of two warps each; a warp owns 32 x 64
 *     outputs, a thread 8 x 8, read from shared memory as float4 (4 LDS.128
 *     per 64 FMA);
 *   - only the lower triangle of tiles is launched, and inside it a warp
 *     whose rows are all past the last band does no arithmetic, and the
 *     first warp of a diagonal tile skips its 32 columns that lie above the
 *     diagonal: for 224 bands 88% of the products computed are needed (V4:
 *     67%);
 *   - stages of 16 pixels, converted from the stored type and shifted on
 *     the way into shared memory, double-buffered (one barrier a stage),
 *     the next stage's values loaded into registers while this one is used;
 *   - small blocks, four per SM (223 registers a thread with no spills:
 *     the 64 accumulators, 32 prefetched values and their addresses; at
 *     five blocks ptxas spills), so 8 warps an SM, each with 64 independent
 *     FMAs per pixel and a whole stage (about 1100 instructions) between a
 *     load and its use;
 *   - the tile pair is the fast grid index, so the blocks that read the
 *     same pixels run together and share them through L2; each block sums
 *     at most COV_BLOCK_PIXELS pixels in float and adds its sums into the
 *     double result with one atomic per output. */
#include "gpu.h"
#include "kernels.h"
#include "cov_tile_grid.h"
#include "cov_gemm_tile.h"

template <typename T>
__global__ void __launch_bounds__(THREADS, 4) cov_v5_kernel(gpu_matrix a, const float *shift, double *sum, long long per_block)
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
  /* Warp-uniform: whether this warp multiplies, and how many columns. */
  const bool active = row_a + wr < a.bands;
  const bool half = diagonal && warp == 0;

  shift_a[t] = shift && row_a + t < a.bands ? shift[row_a + t] : 0.0f;
  shift_b[t] = shift && row_b + t < a.bands ? shift[row_b + t] : 0.0f;
  __syncthreads();

  const T *data = static_cast<const T *>(a.data);
  float next_a[LOADS], next_b[LOADS];
  /* Pixels past the end and bands past the last are staged as 0 (not
   * -shift), so they add nothing. */
  auto fetch = [&](long long k0) {
    const long long k = k0 + kk;
    const bool in = k < end;
#pragma unroll
    for (int i = 0; i < LOADS; i++) {
      int r = lr + ROWS_PER_LOAD * i, ga = row_a + r, gb = row_b + r;
      next_a[i] = in && ga < a.bands ? (float)data[ga * a.ld + k] - shift_a[r] : 0.0f;
      if (!diagonal) next_b[i] = in && gb < a.bands ? (float)data[gb * a.ld + k] - shift_b[r] : 0.0f;
    }
  };
  auto stage_in = [&](int buf) {
#pragma unroll
    for (int i = 0; i < LOADS; i++) {
      As[buf][kk][lr + ROWS_PER_LOAD * i] = next_a[i];
      if (!diagonal) Bs[buf][kk][lr + ROWS_PER_LOAD * i] = next_b[i];
    }
  };

  float acc[8][8] = {};
  fetch(begin);
  int buf = 0;
  for (long long k0 = begin; k0 < end; k0 += KT, buf ^= 1) {
    stage_in(buf);
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

void cov_v5_gemm(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  if (a->n <= 0 || a->bands <= 0) return;
  int tiles = ceil_div(a->bands, TILE), pairs = tiles * (tiles + 1) / 2;
  /* About two waves of blocks, so the blocks of unequal work (diagonal,
   * edge) even out; at least 1024 pixels a block so the final atomics
   * stay a few percent of the time, at most COV_BLOCK_PIXELS for accuracy. */
  static int cache;
  long long resident = cov_resident_blocks(cov_v5_kernel<int16_t>, THREADS, &cache);
  long long per_block = (a->n * pairs + 2 * resident - 1) / (2 * resident);
  per_block = (per_block + KT - 1) / KT * KT;
  if (per_block < 1024) per_block = 1024;
  if (per_block > COV_BLOCK_PIXELS) per_block = COV_BLOCK_PIXELS;
  dim3 grid(pairs, ceil_div(a->n, per_block));
  MNF_DISPATCH_TYPE(a->type, (cov_v5_kernel<T><<<grid, THREADS, 0, s>>>(*a, shift, sum, per_block)));
}

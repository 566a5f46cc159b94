/* Covariance V7 (Table 6, beyond the paper): V6's tile with twice the warps
 * in flight. Run 4's profile of V6 (data/h100_run4/ncu_cov_v6.txt, in the
 * history at commit 072df66; mnf/data/README.md): 221 registers a thread,
 * so 8 warps per SM, 11% achieved occupancy and 46% of the issue slots busy:
 * with two warps per scheduler, a warp waiting at the barrier or on a shared
 * load left its scheduler idle. V7 keeps the 64 x 64
 * block tile and its lower-triangle grid but spends four warps on it, each
 * one 32 x 32 quarter, a thread 8 x 4 outputs (rows rh*32 + p*16 + ty*4 +
 * 0..3, p in {0, 1}; columns ch*32 + tx*4 + 0..3). Each thread then holds
 * half of V6's accumulators and stages half of its values, which fits in
 * 128 registers: four blocks, 16 warps, per SM. A quarter that lies wholly
 * above the diagonal or past the last band has no work, and its warp only
 * helps stage. Loads are issued a stage ahead into registers in the stored
 * type and converted when they go into shared memory (V6's scheme; cp.async
 * cannot copy 2-byte elements, and a band's row of int16 pixels starts at
 * any even address). */
#include "gpu.h"
#include "kernels.h"
#include "cov_tile_grid.h"

#define V7_TILE 64
#define V7_KT 16
#define V7_PAD 4 /* rows stay 16-byte aligned for the float4 reads */
#define V7_THREADS 128
#define V7_ROWS_PER_LOAD (V7_THREADS / V7_KT) /* band rows one load instruction covers */
#define V7_LOADS (V7_TILE / V7_ROWS_PER_LOAD) /* values a thread stages per tile per stage */
static_assert(V7_THREADS >= V7_TILE, "the first V7_TILE threads load the shifts");

/* acc[i][j] += a[i] * b[j] over one stage for the thread's 8 x 4 outputs. */
__device__ __forceinline__ void cov_v7_stage(const float (*as)[V7_TILE + V7_PAD], const float (*bs)[V7_TILE + V7_PAD],
                                             int row, int col, float (&acc)[8][4])
{
#pragma unroll
  for (int k = 0; k < V7_KT; k++) {
    float4 a0 = *reinterpret_cast<const float4 *>(&as[k][row]);
    float4 a1 = *reinterpret_cast<const float4 *>(&as[k][row + 16]);
    float4 bv = *reinterpret_cast<const float4 *>(&bs[k][col]);
    const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b[4] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
      for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
  }
}

template <typename T>
__global__ void __launch_bounds__(V7_THREADS, 4) cov_v7_kernel(gpu_matrix a, const float *shift, double *sum, long long per_block)
{
  __shared__ __align__(16) float As[2][V7_KT][V7_TILE + V7_PAD];
  __shared__ __align__(16) float Bs[2][V7_KT][V7_TILE + V7_PAD];
  __shared__ float shift_a[V7_TILE], shift_b[V7_TILE];
  int ti, tj;
  cov_tile_pair(blockIdx.x, &ti, &tj);
  const bool diagonal = ti == tj;
  const int row_a = ti * V7_TILE, row_b = tj * V7_TILE;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int rh = warp / 2, ch = warp % 2;
  const int row = rh * 32 + (lane / 8) * 4, col = ch * 32 + (lane % 8) * 4;
  const int kk = t % V7_KT, lr = t / V7_KT;
  const long long begin = (long long)blockIdx.y * per_block, end = min(a.n, begin + per_block);
  if (begin >= end) return;
  /* Whole-warp conditions, so the stage's shared reads stay uniform. */
  const bool active = row_a + rh * 32 < a.bands && row_b + ch * 32 < a.bands && !(diagonal && ch > rh);

  if (t < V7_TILE) {
    shift_a[t] = shift && row_a + t < a.bands ? shift[row_a + t] : 0.0f;
    shift_b[t] = shift && row_b + t < a.bands ? shift[row_b + t] : 0.0f;
  }
  __syncthreads();

  const T *data = static_cast<const T *>(a.data);
  T raw_a[V7_LOADS], raw_b[V7_LOADS];
  /* Loads only: nothing reads raw_* until the next stage_in. */
  auto fetch = [&](long long k0) {
    const long long k = k0 + kk;
    const bool in = k < end;
#pragma unroll
    for (int i = 0; i < V7_LOADS; i++) {
      int r = lr + V7_ROWS_PER_LOAD * i, ga = row_a + r, gb = row_b + r;
      raw_a[i] = in && ga < a.bands ? data[ga * a.ld + k] : T(0);
      if (!diagonal) raw_b[i] = in && gb < a.bands ? data[gb * a.ld + k] : T(0);
    }
  };
  /* Pixels past the end and bands past the last are staged as 0 (not
   * -shift), so they add nothing. */
  auto stage_in = [&](int buf, long long k0) {
    const bool in = k0 + kk < end;
#pragma unroll
    for (int i = 0; i < V7_LOADS; i++) {
      int r = lr + V7_ROWS_PER_LOAD * i;
      As[buf][kk][r] = in && row_a + r < a.bands ? (float)raw_a[i] - shift_a[r] : 0.0f;
      if (!diagonal) Bs[buf][kk][r] = in && row_b + r < a.bands ? (float)raw_b[i] - shift_b[r] : 0.0f;
    }
  };

  float acc[8][4] = {};
  fetch(begin);
  int buf = 0;
  for (long long k0 = begin; k0 < end; k0 += V7_KT, buf ^= 1) {
    stage_in(buf, k0);
    /* One barrier a stage: the buffer written here was last read two
     * stages ago, before the previous barrier. */
    __syncthreads();
    if (k0 + V7_KT < end) fetch(k0 + V7_KT);
    if (active) cov_v7_stage(As[buf], diagonal ? As[buf] : Bs[buf], row, col, acc);
  }
  if (!active) return;
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      int gi = row_a + row + (i / 4) * 16 + i % 4, gj = row_b + col + j;
      if (gi < a.bands && gj <= gi) atomicAdd(&sum[(long long)gi * a.bands + gj], (double)acc[i][j]);
    }
}

void cov_v7_occupancy(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  if (a->n <= 0 || a->bands <= 0) return;
  int tiles = ceil_div(a->bands, V7_TILE), pairs = tiles * (tiles + 1) / 2;
  /* V6's split: whole waves, at least two (cov_wave_split). */
  static int resident;
  long long per_block = cov_wave_split(a->n, pairs, cov_resident_blocks(cov_v7_kernel<int16_t>, V7_THREADS, &resident), 2,
                                       V7_KT, COV_BLOCK_PIXELS);
  dim3 grid(pairs, ceil_div(a->n, per_block));
  MNF_DISPATCH_TYPE(a->type, (cov_v7_kernel<T><<<grid, V7_THREADS, 0, s>>>(*a, shift, sum, per_block)));
}

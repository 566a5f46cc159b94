/* Version 19: version 18, with rows that are not 16-byte aligned copied
 * into shared memory by cp.async four bytes at a time instead of loaded
 * through registers one float at a time.
 *
 * When K or N is not a multiple of 4, versions 16-18 load single floats
 * into registers and store them to shared memory a tile later: 12 to 24
 * loads and up to 10 stores per thread and tile, each store waiting on a
 * load (ncu at 4095x4097x1023: long-scoreboard stall 0.19 cycles per
 * instruction, none with float4 rows), about 17% slower per SM. A 4-byte
 * cp.async moves one float from global to shared memory with no register
 * in between and no store instruction: nothing waits on it until the
 * barrier before the tile is read. This is what cuBLAS's unaligned SIMT
 * kernels do (LDGSTS.E, 4 bytes, in the main loop of
 * cutlass_80_simt_sgemm_128x256_8x4_nn_align1 of CUDA 13.0). The copies of
 * tile t+2 are issued at the start of tile t into a third shared buffer,
 * so they have two tiles, not one, to arrive.
 *
 * Warp tile, thread tile, fragments and epilogue are those of
 * sgemm_kernel.cuh; only the way tiles reach shared memory differs. A warp's
 * copy of A covers 4 rows x 8 k (4 row segments of 32 bytes, and in the
 * transposed tile, rows BM + 4 floats wide, 32 different banks); a warp's
 * copy of B covers 32 consecutive columns of one row. Rows of A past M and
 * columns of B past N are clamped, as in sgemm_kernel.cuh; the K remainder
 * is the first tile, its missing k zero-filled by the copy (source size 0). */
#include <stdio.h>

#include "sgemm_kernel.cuh"

namespace async_rows {

using sgemm::BK;
using sgemm::PAD;
enum { STAGES = 3 };

/* One float from global to shared memory; with in == false a zero, and
 * nothing is read. .ca is the only cache policy cp.async has for 4 bytes. */
__device__ __forceinline__ void copy_float(unsigned dst, const float *src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void copy_float_or_zero(unsigned dst, const float *src, bool in) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src),
               "r"(in ? 4 : 0));
}
__device__ __forceinline__ void commit(void) {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
/* Waits until at most one of this thread's copy groups is in flight. */
__device__ __forceinline__ void wait_all_but_last(void) {
  asm volatile("cp.async.wait_group 1;" ::: "memory");
}

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

/* Where thread t's copies come from and go to, fixed for the K loop.
 * Copy q of A: row sub + 4*(warp + WARPS*q) of the tile, k = lane % 8,
 * sub = lane / 8. Copy (j, r) of B: row r, column 32*(warp + WARPS*j) +
 * lane. One pointer for A (copy 0's row) with the other rows as offsets,
 * one per column of B, advanced once per tile: the address of a copy is
 * then one multiply-add. */
template <int WARPS_M, int WARPS_N>
struct copier {
  typedef sgemm::tile<WARPS_M, WARPS_N> T;
  enum {
    WARPS = WARPS_M * WARPS_N,
    A_COPIES = T::BM / (4 * WARPS),
    B_COLUMNS = T::BN / (32 * WARPS),
    A_ROW_BYTES = (T::BM + PAD) * 4,
    B_ROW_BYTES = T::BN * 4
  };
  static_assert(A_COPIES >= 1 && B_COLUMNS >= 1, "tile too small for its warps");
  const float *a, *b[B_COLUMNS];
  int a_rows[A_COPIES];  /* copy q's row, from copy 0's, in floats (rows clamped) */
  size_t n;              /* a row of B, in floats */
  unsigned a_dst, b_dst;  /* byte offsets of copy 0 in a stage of As, Bs */

  __device__ __forceinline__ copier(const float *A, const float *B, int M, int N, int K, int bm,
                                    int bn, int k0, int t) {
    int warp = t / 32, lane = t % 32;
    int row = lane / 8 + 4 * warp, k = lane % 8;
    int first = min(bm + row, M - 1);
    a = A + (size_t)first * K + k0 + k;
#pragma unroll
    for (int q = 0; q < A_COPIES; q++)
      a_rows[q] = (min(bm + row + 4 * WARPS * q, M - 1) - first) * K;
    int col = 32 * warp + lane;
#pragma unroll
    for (int j = 0; j < B_COLUMNS; j++)
      b[j] = B + (size_t)k0 * N + min(bn + col + 32 * WARPS * j, N - 1);
    n = (size_t)N;
    a_dst = k * A_ROW_BYTES + row * 4;
    b_dst = col * 4;
  }

  /* A whole tile into the stage at shared addresses as, bs; then on by BK. */
  __device__ __forceinline__ void tile(unsigned as, unsigned bs) {
#pragma unroll
    for (int q = 0; q < A_COPIES; q++) copy_float(as + a_dst + 16 * WARPS * q, a + a_rows[q]);
    a += BK;
#pragma unroll
    for (int j = 0; j < B_COLUMNS; j++) {
#pragma unroll
      for (int r = 0; r < BK; r++)
        copy_float(bs + b_dst + r * B_ROW_BYTES + 128 * WARPS * j, b[j] + r * n);
      b[j] += BK * n;
    }
  }

  /* The first tile: the K remainder, `width` (1..BK) k of A / rows of B,
   * the rest zeros; then on by width. Zero-filled copies read nothing but
   * still name a valid address: the matrix's first element. */
  __device__ __forceinline__ void first(unsigned as, unsigned bs, int width, int t,
                                        const float *A, const float *B) {
    bool in = t % 8 < width;
#pragma unroll
    for (int q = 0; q < A_COPIES; q++)
      copy_float_or_zero(as + a_dst + 16 * WARPS * q, in ? a + a_rows[q] : A, in);
    a += width;
#pragma unroll
    for (int j = 0; j < B_COLUMNS; j++) {
#pragma unroll
      for (int r = 0; r < BK; r++)
        copy_float_or_zero(bs + b_dst + r * B_ROW_BYTES + 128 * WARPS * j,
                           r < width ? b[j] + r * n : B, r < width);
      b[j] += width * n;
    }
  }
};

template <int WARPS_M, int WARPS_N, int SPLITS>
__global__ void __launch_bounds__(sgemm::tile<WARPS_M, WARPS_N>::THREADS,
                                  sgemm::tile<WARPS_M, WARPS_N>::BLOCKS_PER_SM)
async_kernel(int M, int N, int K, int k_chunk, float alpha, const float *A, const float *B,
             float beta, float *C) {
  typedef sgemm::tile<WARPS_M, WARPS_N> T;
  __shared__ __align__(16) float As[STAGES][BK][T::BM + PAD];
  __shared__ __align__(16) float Bs[STAGES][BK][T::BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * T::BM, bn = blockIdx.x * T::BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / WARPS_N) * sgemm::WARP_M, wc = (warp % WARPS_N) * sgemm::WARP_N;
  int ty = lane / 8, tx = lane % 8;
  int k0 = blockIdx.z * k_chunk, length = min(K - k0, k_chunk);
  int tiles = length > 0 ? (length + BK - 1) / BK : 0;
  float acc[16][8] = {{0.0f}};  /* the thread tile of matmul_device.cuh */
  float4 fa[2][4], fb[2][2];

  if (tiles > 0) {
    copier<WARPS_M, WARPS_N> cp(A, B, M, N, K, bm, bn, k0, t);
    const unsigned as0 = shared_address(As[0]), bs0 = shared_address(Bs[0]);
    const unsigned a_stage = sizeof As[0], b_stage = sizeof Bs[0];
    /* The remainder first, so the tiles after it are whole; then tile 1. */
    cp.first(as0, bs0, length - (tiles - 1) * BK, t, A, B);
    commit();
    if (tiles > 1) cp.tile(as0 + a_stage, bs0 + b_stage);
    commit();
    wait_all_but_last();
    __syncthreads();
    load_fragments<T::BM + PAD, T::BN>(As[0], Bs[0], 0, wr, wc, ty, tx, fa[0], fb[0]);
    /* Tile tl is read from stage cur; its first step issues the copies of
     * tile tl+2 into stage fill, last read by tile tl-1, before the barrier
     * that ended it. Its last step waits for the copies of tile tl+1 (all
     * but the group just issued), passes the barrier that makes every
     * thread's copies visible, and loads the first fragments of tile tl+1.
     * One group is committed per tile, empty past the end, so that "all
     * but the last" always means tile tl+1. */
    int cur = 0;
    for (int tl = 0; tl < tiles; tl++) {
      int nxt = cur == STAGES - 1 ? 0 : cur + 1;
      int fill = nxt == STAGES - 1 ? 0 : nxt + 1;
#pragma unroll
      for (int k = 0; k < BK; k++) {
        int now = k % 2, next = (k + 1) % 2;
        if (k == 0) {
          if (tl + 2 < tiles) cp.tile(as0 + fill * a_stage, bs0 + fill * b_stage);
          commit();
        }
        if (k + 1 < BK) {
          load_fragments<T::BM + PAD, T::BN>(As[cur], Bs[cur], k + 1, wr, wc, ty, tx, fa[next],
                                             fb[next]);
        } else {
          wait_all_but_last();
          __syncthreads();
          load_fragments<T::BM + PAD, T::BN>(As[nxt], Bs[nxt], 0, wr, wc, ty, tx, fa[next],
                                             fb[next]);
        }
        outer_product(acc, fa[now], fb[now]);
      }
      cur = nxt;
    }
  }

  if constexpr (SPLITS > 1) {
    sgemm::reduce_cluster<WARPS_M, WARPS_N, false, SPLITS>(acc, C, M, N, alpha, beta, bm, bn, wr,
                                                           wc, ty, tx);
  } else {
    store_thread_tile(C, M, N, bm, bn, wr, wc, ty, tx, acc, alpha, beta, false);
  }
}

template <int WARPS_M, int WARPS_N, int SPLITS>
static void allow_partial_tile(void) {
  static bool raised;
  if (!raised) {
    CUDA_CHECK(cudaFuncSetAttribute(async_kernel<WARPS_M, WARPS_N, SPLITS>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    sgemm::tile<WARPS_M, WARPS_N>::REDUCE_BYTES));
    raised = true;
  }
}

/* C = alpha*A*B + beta*C with BM x BN tiles and K split SPLITS ways, for
 * any alignment. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch(const matmul_args *p) {
  typedef sgemm::tile<WARPS_M, WARPS_N> T;
  dim3 grid(matmul_tiles(p->N, T::BN), matmul_tiles(p->M, T::BM), SPLITS);
  int M = p->M, N = p->N, K = p->K, chunk = matmul_k_chunk(p->K, SPLITS);
  float alpha = p->alpha, beta = p->beta;
  const float *A = p->A, *B = p->B;
  float *C = p->C;
  if (SPLITS == 1) {
    async_kernel<WARPS_M, WARPS_N, SPLITS><<<grid, T::THREADS>>>(M, N, K, chunk, alpha, A, B,
                                                                  beta, C);
  } else {
    allow_partial_tile<WARPS_M, WARPS_N, SPLITS>();
    void *args[] = {&M, &N, &K, &chunk, &alpha, &A, &B, &beta, &C};
    matmul_cluster_launch((const void *)async_kernel<WARPS_M, WARPS_N, SPLITS>, grid,
                          dim3(T::THREADS), T::REDUCE_BYTES, SPLITS, args);
  }
  CUDA_CHECK_LAUNCH();
}

/* Version 18's plan: float4 rows through sgemm_kernel.cuh, any other rows
 * through the copies above. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_any(const matmul_args *p) {
  if (matmul_vector_ok(p))
    sgemm::launch<WARPS_M, WARPS_N, SPLITS>(p);
  else
    launch<WARPS_M, WARPS_N, SPLITS>(p);
}

template <int WARPS_M, int WARPS_N>
static void attributes(struct cudaFuncAttributes *out) {
  CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)async_kernel<WARPS_M, WARPS_N, 1>));
}

}  // namespace async_rows

/* The plans of version 18's table and its rule (matmul_plan_choose), the
 * resident-block counts of the float4 kernel: at every plan the copy
 * kernel fits as many blocks on an SM. */
#define PLAN_ENTRY(WM, WN, S, NAME) SGEMM_PLAN_ENTRY(WM, WN, S, NAME, async_rows::launch_any)
static const sgemm::plan_entry plans[] = {MATMUL_PLANS(PLAN_ENTRY)};

static const sgemm::plan_entry *choose(const matmul_args *p) {
  return sgemm::choose_plan(plans, p, matmul_plan_choose);
}

static void launch(const matmul_args *p) { choose(p)->launch(p); }

/* The plan's name, as its version of the copy kernel when rows are not
 * 16-byte aligned (async_tile128x256_s1, ...). */
static const char *choice(const matmul_args *p) {
  static char text[64];
  snprintf(text, sizeof text, "%s%s", matmul_vector_ok(p) ? "" : "async_", choose(p)->name);
  return text;
}

extern "C" const matmul_version matmul_19_async_rows = {
  "19_async_rows", "version 18; rows not 16-byte aligned copied by 4-byte cp.async, 3 stages",
  0, 0, 0, MATMUL_FP32, true, launch, NULL, choice};

/* Each plan with the copy kernel, whatever the alignment, as a version of
 * its own (not in "all"): async_tile128x256_s1, ... */
#define ASYNC_PLAN_VERSION(WM, WN, S, NAME)                                                  \
  extern "C" const matmul_version matmul_async_##NAME = {                                    \
    "async_" #NAME, "one plan of version 19's table, copied by 4-byte cp.async",             \
    sgemm::tile<WM, WN>::BM, sgemm::tile<WM, WN>::BN, sgemm::tile<WM, WN>::THREADS,          \
    MATMUL_FP32, false, async_rows::launch<WM, WN, S>, async_rows::attributes<WM, WN>, NULL};
MATMUL_PLANS(ASYNC_PLAN_VERSION)

/* The kernel of versions 16 to 18: version 15 with its guards moved out of
 * the main loop, as a template over the block tile, and with an optional
 * split of K across a thread-block cluster. Versions 16-18 differ only in
 * how they launch it (which tile, how many splits); each file says why.
 *
 * - Warp tile 64x64, thread tile 16x8, fragments double-buffered in
 *   registers, A transposed and padded in shared memory: all as version 15.
 *   A block is WARPS_M x WARPS_N warps, so BM = 64*WARPS_M, BN = 64*WARPS_N.
 * - No bounds test inside the loop (version 16). The K remainder is loaded
 *   first, as a zero-padded tile, so every later tile is whole; the row and
 *   column tests do not change with k and become loop-invariant predicates;
 *   operands are reached by pointers advanced once per tile; whether rows
 *   are 16-byte aligned (float4 loads) is a template argument, not a branch
 *   (ROWS below). The order of the multiply-adds is unchanged: increasing k.
 * - Split K (version 17): blockIdx.z takes K range z*k_chunk.. and the
 *   gridDim.z blocks of one tile form a cluster. Each writes its partial
 *   tile to its own shared memory; after a cluster barrier, block r sums
 *   rows r*BM/S.. of all S partials through distributed shared memory, in
 *   the order 0..S-1 (so the result does not depend on timing), and
 *   applies alpha and beta. No workspace, no atomics, one launch.
 * - Padded copies (version 20): A and B may come with row strides of their
 *   own (lda, ldb), A with `skip` zero columns in front of each row (so
 *   that its rows stay 16-byte aligned whatever K), B with its first `skip`
 *   rows read as zeros instead of loaded; K then counts those columns. */
#ifndef WARPMEM_SGEMM_KERNEL_CUH
#define WARPMEM_SGEMM_KERNEL_CUH

#include "matmul_device.cuh"

namespace sgemm {

enum { BK = MATMUL_SPLIT_BK, PAD = 4, WARP_M = 64, WARP_N = 64 };

/* What the kernel may assume of its operands (ROWS, a set of these bits). */
enum {
  ROWS_A4 = 1,       /* rows of A 16-byte aligned: float4 loads */
  ROWS_B4 = 2,       /* rows of B 16-byte aligned: float4 loads */
  ROWS_C4 = 4,       /* rows of C 16-byte aligned: float4 stores */
  ROWS_COPIED = 8,   /* strides lda, ldb and `skip` as above; else K, N and 0 */
  ROWS_SCALAR = 0,
  ROWS_VEC = ROWS_A4 | ROWS_B4 | ROWS_C4
};

template <int WARPS_M, int WARPS_N>
struct tile {
  enum {
    BM = WARP_M * WARPS_M,
    BN = WARP_N * WARPS_N,
    THREADS = 32 * WARPS_M * WARPS_N,
    A_LOADS = BM * BK / 4 / THREADS,  /* float4 of A per thread per tile */
    B_LOADS = BK * BN / 4 / THREADS,  /* float4 of B per thread per tile */
    /* Up to 255 registers a thread: as many blocks as 64K registers hold. */
    BLOCKS_PER_SM = 256 / THREADS > 0 ? 256 / THREADS : 1,
    REDUCE_BYTES = BM * BN * 4        /* dynamic shared memory when split */
  };
  static_assert(A_LOADS >= 1 && B_LOADS >= 1, "tile too small for its threads");
};

/* Where thread t's loads come from, fixed for the whole K loop, and where
 * they go in shared memory. Rows of A past M and columns of B past N are
 * clamped to the last one: what they load only reaches rows and columns
 * of C that are never stored, so the loads of the main loop need neither
 * a test nor zeros. Only K is guarded, in the remainder tile.
 *
 * With 16-byte rows a thread loads float4 along a row: A[m][k..k+3]
 * (ROWS_A4; stored transposed, four words) and B[k][n..n+3] (ROWS_B4),
 * the columns of B clamped to the last float4 of its row. Otherwise single
 * floats, laid out so that each warp-wide load is still whole 32-byte
 * sectors: A[m..m+3][k] (eight threads along k per row; stored as one
 * float4 of the transposed tile) and B[k][n + j*BN/4] (consecutive
 * threads on consecutive columns). Either way a thread covers A_STEP rows
 * of A and B_STEP rows of B per load, so one pointer per load of A and
 * one for all loads of B suffice. */
template <int WARPS_M, int WARPS_N, int ROWS>
struct loader {
  typedef tile<WARPS_M, WARPS_N> T;
  static constexpr bool VA = ROWS & ROWS_A4, VB = ROWS & ROWS_B4;
  enum { A_STEP = T::THREADS / 2, B_STEP = T::THREADS / (T::BN / 4) };
  static_assert(T::THREADS % (T::BN / 4) == 0, "B loads must keep their columns");
  const float *a[T::A_LOADS], *b;
  size_t b_step;                 /* B_STEP rows of B, in floats */
  int a_rows[T::A_LOADS][4];     /* scalar case: the four clamped rows, from a[l], in floats */
  int b_cols[4];                 /* scalar case: the four clamped columns, from b */
  float4 next_a[T::A_LOADS], next_b[T::B_LOADS];

  /* Where in its tile thread t's load l of A starts: row, column. */
  static __device__ __forceinline__ int a_row(int t, int l) {
    return (VA ? t / 2 : t / BK * 4) + l * A_STEP;
  }
  static __device__ __forceinline__ int a_col(int t) { return VA ? t % 2 * 4 : t % BK; }
  static __device__ __forceinline__ int b_col(int t) {
    return VB ? t % (T::BN / 4) * 4 : t % (T::BN / 4);
  }

  __device__ __forceinline__ loader(const float *A, int lda, const float *B, int ldb, int M,
                                    int N, int bm, int bn, int k0, int t) {
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++) {
      int row = bm + a_row(t, l), first = min(row, M - 1);
      a[l] = A + (size_t)first * lda + k0 + a_col(t);
#pragma unroll
      for (int j = 0; j < 4; j++) a_rows[l][j] = (min(row + j, M - 1) - first) * lda;
    }
    int col = bn + b_col(t);
    int first = VB ? min(col, ldb - 4) : min(col, N - 1);
    b = B + (size_t)(k0 + t / (T::BN / 4)) * ldb + first;
#pragma unroll
    for (int j = 0; j < 4; j++) b_cols[j] = min(col + j * (T::BN / 4), N - 1) - first;
    b_step = (size_t)B_STEP * ldb;
  }

  __device__ __forceinline__ float4 load_a(int l) const {
    const float *p = a[l];
    if (VA) return *reinterpret_cast<const float4 *>(p);
    return make_float4(p[a_rows[l][0]], p[a_rows[l][1]], p[a_rows[l][2]], p[a_rows[l][3]]);
  }

  __device__ __forceinline__ float4 load_b(int l) const {
    const float *p = b + l * b_step;
    if (VB) return *reinterpret_cast<const float4 *>(p);
    return make_float4(p[b_cols[0]], p[b_cols[1]], p[b_cols[2]], p[b_cols[3]]);
  }

  /* The next tile into registers when `more`, then the pointers move on
   * by BK columns of A / rows of B. */
  __device__ __forceinline__ void load(int ldb, bool more) {
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++) {
      if (more) next_a[l] = load_a(l);
      a[l] += BK;
    }
#pragma unroll
    for (int l = 0; l < T::B_LOADS; l++)
      if (more) next_b[l] = load_b(l);
    b += (size_t)BK * ldb;
  }

  /* The first tile: the K remainder, `width` columns of A / rows of B
   * (1..BK), the rest zeros; so are rows of B before `skip` (this tile
   * starts at row k0). */
  __device__ __forceinline__ void load_first(int ldb, int t, int width, int k0, int skip) {
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++) {
      const float *p = a[l];
      int cols = width - a_col(t);
      if (VA)
        next_a[l] = make_float4(cols > 0 ? p[0] : 0.0f, cols > 1 ? p[1] : 0.0f,
                                cols > 2 ? p[2] : 0.0f, cols > 3 ? p[3] : 0.0f);
      else
        next_a[l] = cols > 0 ? load_a(l) : zero;
      a[l] += width;
    }
#pragma unroll
    for (int l = 0; l < T::B_LOADS; l++) {
      int row = t / (T::BN / 4) + l * B_STEP;
      bool in = row < width && (!(ROWS & ROWS_COPIED) || k0 + row >= skip);
      next_b[l] = in ? load_b(l) : zero;
    }
    b += (size_t)width * ldb;
  }

  /* A transposed (As[k][m]). With float4 rows, 2 threads per row and rows
   * BM + 4 wide put the 32 stores of a warp in 32 different banks (version
   * 7); in the scalar case each thread stores one float4, and the eight
   * threads of a quarter warp, one per k, cover the 32 banks. */
  __device__ __forceinline__ void store(float (*As)[T::BM + PAD], float (*Bs)[T::BN], int t) {
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++) {
      int r = a_row(t, l), c = a_col(t);
      if (VA) {
        As[c + 0][r] = next_a[l].x;
        As[c + 1][r] = next_a[l].y;
        As[c + 2][r] = next_a[l].z;
        As[c + 3][r] = next_a[l].w;
      } else {
        *reinterpret_cast<float4 *>(&As[c][r]) = next_a[l];
      }
    }
#pragma unroll
    for (int l = 0; l < T::B_LOADS; l++) {
      float *row = Bs[t / (T::BN / 4) + l * B_STEP];
      int c = b_col(t);
      if (VB) {
        *reinterpret_cast<float4 *>(&row[c]) = next_b[l];
      } else {
        row[c] = next_b[l].x;
        row[c + T::BN / 4] = next_b[l].y;
        row[c + 2 * (T::BN / 4)] = next_b[l].z;
        row[c + 3 * (T::BN / 4)] = next_b[l].w;
      }
    }
  }
};

/* The three cluster operations the split needs, in PTX (sm_90): a
 * barrier over every thread of the cluster that also orders shared
 * memory (release on arrival, acquire on leaving), this block's rank, and
 * a 16-byte load from another block's shared memory at the offset where
 * `local` lies in ours. Written out rather than taken from
 * cooperative_groups so that the file parses for any target, as warplint
 * reads it. */
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;"
               ::: "memory");
}

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

__device__ __forceinline__ float4 load_remote(const float4 *local, unsigned rank) {
  unsigned remote;
  asm volatile("{\n\t.reg .u64 a;\n\tcvta.to.shared.u64 a, %1;\n\tcvt.u32.u64 %0, a;\n\t}"
               : "=r"(remote) : "l"(local));
  asm volatile("mapa.shared::cluster.u32 %0, %0, %1;" : "+r"(remote) : "r"(rank));
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(remote));
  return v;
}

/* Block r of the cluster sums rows r*BM/SPLITS.. of the SPLITS partial
 * tiles and writes them to C. Every thread handles 32 float4 of partials
 * whatever the tile and split (BM*BN/4 over 32*WARPS_M*WARPS_N threads),
 * and issues all 32 remote loads before the first add: a load from
 * another SM's shared memory takes hundreds of cycles, and the
 * accumulators, now in shared memory, leave the registers free. Rows of
 * the partial tile are BN floats, read as float4 by consecutive threads:
 * no bank conflict on either side. */
template <int WARPS_M, int WARPS_N, bool VEC, int SPLITS>
__device__ __forceinline__ void reduce_cluster(float acc[16][8], float *C, int M, int N,
                                               float alpha, float beta, int bm, int bn, int wr,
                                               int wc, int ty, int tx) {
  typedef tile<WARPS_M, WARPS_N> T;
  enum { PER_THREAD = T::BM / SPLITS * (T::BN / 4) / T::THREADS };
  extern __shared__ float4 partial[];  /* BM x BN floats, row-major */
#pragma unroll
  for (int i = 0; i < 16; i++)
#pragma unroll
    for (int q = 0; q < 2; q++) {
      int row = wr + (i / 4) * 16 + ty * 4 + i % 4, col = wc + q * 32 + tx * 4;
      partial[(row * T::BN + col) / 4] =
          make_float4(acc[i][q * 4], acc[i][q * 4 + 1], acc[i][q * 4 + 2], acc[i][q * 4 + 3]);
    }
  cluster_sync();
  int first = (int)cluster_rank() * (T::BM / SPLITS) * (T::BN / 4);
  float4 v[PER_THREAD][SPLITS];
#pragma unroll
  for (int e = 0; e < PER_THREAD; e++)
#pragma unroll
    for (int s = 0; s < SPLITS; s++)
      v[e][s] = load_remote(&partial[first + threadIdx.x + e * T::THREADS], s);
#pragma unroll
  for (int e = 0; e < PER_THREAD; e++) {
    float4 sum = v[e][0];
#pragma unroll
    for (int s = 1; s < SPLITS; s++) {
      sum.x += v[e][s].x;
      sum.y += v[e][s].y;
      sum.z += v[e][s].z;
      sum.w += v[e][s].w;
    }
    int el = (first + threadIdx.x + e * T::THREADS) * 4;
    store_c_quad(C, M, N, bm + el / T::BN, bn + el % T::BN, sum, alpha, beta, VEC);
  }
  /* No block may leave while another still reads its shared memory. */
  cluster_sync();
}

template <int WARPS_M, int WARPS_N, int ROWS, int SPLITS>
__global__ void __launch_bounds__(tile<WARPS_M, WARPS_N>::THREADS,
                                  tile<WARPS_M, WARPS_N>::BLOCKS_PER_SM)
sgemm_kernel(int M, int N, int K, int k_chunk, float alpha, const float *A, const float *B,
             float beta, float *C, int lda, int ldb, int skip) {
  typedef tile<WARPS_M, WARPS_N> T;
  constexpr bool COPIED = ROWS & ROWS_COPIED, VC = ROWS & ROWS_C4;
  __shared__ __align__(16) float As[2][BK][T::BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][T::BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * T::BM, bn = blockIdx.x * T::BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / WARPS_N) * WARP_M, wc = (warp % WARPS_N) * WARP_N;
  int ty = lane / 8, tx = lane % 8;
  int k0 = blockIdx.z * k_chunk, length = min(K - k0, k_chunk);
  int tiles = length > 0 ? (length + BK - 1) / BK : 0;
  float acc[16][8] = {{0.0f}};  /* the thread tile of matmul_device.cuh */
  float4 fa[2][4], fb[2][2];

  if (tiles > 0) {
    if (!COPIED) {
      lda = K;
      ldb = N;
    }
    loader<WARPS_M, WARPS_N, ROWS> ld(A, lda, B, ldb, M, N, bm, bn, k0, t);
    /* The remainder first: the tiles after it are whole. */
    ld.load_first(ldb, t, length - (tiles - 1) * BK, k0, skip);
    ld.store(As[0], Bs[0], t);
    ld.load(ldb, tiles > 1);
    __syncthreads();
    load_fragments<T::BM + PAD, T::BN>(As[0], Bs[0], 0, wr, wc, ty, tx, fa[0], fb[0]);
    /* Tile tl+1 goes to the other buffer at the start of tile tl, and tile
     * tl+2 is fetched into registers: that buffer was last read before the
     * barrier that ended tile tl-1. One barrier per tile, at its last
     * step, before that step's FMAs; no branch but the loop's. The last
     * tile stores and reads a buffer that nobody uses. */
    for (int tl = 0; tl < tiles; tl++) {
      int buf = tl % 2;
#pragma unroll
      for (int k = 0; k < BK; k++) {
        int cur = k % 2, nxt = (k + 1) % 2;
        if (k == 0) {
          ld.store(As[1 - buf], Bs[1 - buf], t);
          ld.load(ldb, tl + 2 < tiles);
        }
        if (k + 1 < BK) {
          load_fragments<T::BM + PAD, T::BN>(As[buf], Bs[buf], k + 1, wr, wc, ty, tx, fa[nxt],
                                       fb[nxt]);
        } else {
          __syncthreads();
          load_fragments<T::BM + PAD, T::BN>(As[1 - buf], Bs[1 - buf], 0, wr, wc, ty, tx, fa[nxt],
                                       fb[nxt]);
        }
        outer_product(acc, fa[cur], fb[cur]);
      }
    }
  }

  if constexpr (SPLITS > 1) {
    reduce_cluster<WARPS_M, WARPS_N, VC, SPLITS>(acc, C, M, N, alpha, beta, bm, bn, wr, wc, ty,
                                                 tx);
  } else {
    store_thread_tile(C, M, N, bm, bn, wr, wc, ty, tx, acc, alpha, beta, VC);
  }
}

/* Raises the kernel's dynamic shared-memory limit to its partial tile,
 * once (the call costs host time inside every timed launch). */
template <int WARPS_M, int WARPS_N, int ROWS, int SPLITS>
static void allow_partial_tile(void) {
  static bool raised;
  if (!raised) {
    CUDA_CHECK(cudaFuncSetAttribute(sgemm_kernel<WARPS_M, WARPS_N, ROWS, SPLITS>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    tile<WARPS_M, WARPS_N>::REDUCE_BYTES));
    raised = true;
  }
}

/* C = alpha*A*B + beta*C of p with BM x BN tiles and K split SPLITS ways.
 * With ROWS_COPIED, A and B are read from the given copies instead, K
 * counts A's `skip` leading columns, and lda, ldb are their strides. */
template <int WARPS_M, int WARPS_N, int ROWS, int SPLITS>
static void launch_kernel(const matmul_args *p, const float *A, const float *B, int K, int lda,
                          int ldb, int skip) {
  typedef tile<WARPS_M, WARPS_N> T;
  dim3 grid(matmul_tiles(p->N, T::BN), matmul_tiles(p->M, T::BM), SPLITS);
  int M = p->M, N = p->N, chunk = matmul_k_chunk(K, SPLITS);
  float alpha = p->alpha, beta = p->beta;
  float *C = p->C;
  if (SPLITS == 1) {
    sgemm_kernel<WARPS_M, WARPS_N, ROWS, SPLITS><<<grid, T::THREADS>>>(
        M, N, K, chunk, alpha, A, B, beta, C, lda, ldb, skip);
  } else {
    allow_partial_tile<WARPS_M, WARPS_N, ROWS, SPLITS>();
    void *args[] = {&M, &N, &K, &chunk, &alpha, &A, &B, &beta, &C, &lda, &ldb, &skip};
    matmul_cluster_launch((const void *)sgemm_kernel<WARPS_M, WARPS_N, ROWS, SPLITS>, grid,
                          dim3(T::THREADS), T::REDUCE_BYTES, SPLITS, args);
  }
  CUDA_CHECK_LAUNCH();
}

/* C = alpha*A*B + beta*C with BM x BN tiles and K split SPLITS ways:
 * float4 rows throughout when every row is 16-byte aligned, single floats
 * throughout otherwise. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch(const matmul_args *p) {
  if (matmul_vector_ok(p))
    launch_kernel<WARPS_M, WARPS_N, ROWS_VEC, SPLITS>(p, p->A, p->B, p->K, p->K, p->N, 0);
  else
    launch_kernel<WARPS_M, WARPS_N, ROWS_SCALAR, SPLITS>(p, p->A, p->B, p->K, p->K, p->N, 0);
}

/* How many blocks of this tile, split SPLITS ways, the GPU holds at once:
 * the occupancy API's answer, which for clusters counts only those that
 * fit whole into one GPC. Asked once. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static int resident_blocks(void) {
  typedef tile<WARPS_M, WARPS_N> T;
  static int known;
  if (known) return known;
  if (SPLITS == 1) {
    int device, sms, per_sm;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, sgemm_kernel<WARPS_M, WARPS_N, ROWS_VEC, SPLITS>, T::THREADS, 0));
    known = per_sm * sms;
  } else {
    allow_partial_tile<WARPS_M, WARPS_N, ROWS_VEC, SPLITS>();
    known = matmul_cluster_capacity((const void *)sgemm_kernel<WARPS_M, WARPS_N, ROWS_VEC, SPLITS>,
                                    dim3(T::THREADS), T::REDUCE_BYTES, SPLITS);
  }
  return known;
}

/* One entry of a version's table of launch plans (versions 18-21): its
 * name, block tile in warps, K split (0: version 21's stream-K), how many
 * of its blocks an SM holds, its launch, and how many of its blocks the
 * GPU holds at once (asked at run time). */
struct plan_entry {
  const char *name;
  int warps_m, warps_n, splits, per_sm;
  void (*launch)(const matmul_args *p);
  int (*resident)(void);
};

/* The entry of plan (WM, WN, S) of sgemm_kernel, launched by
 * LAUNCH<WM, WN, S>; a table is MATMUL_PLANS of these. */
#define SGEMM_PLAN_ENTRY(WM, WN, S, NAME, LAUNCH)                                            \
  {#NAME, WM, WN, S, sgemm::tile<WM, WN>::BLOCKS_PER_SM, LAUNCH<WM, WN, S>,                 \
   sgemm::resident_blocks<WM, WN, S>},

/* The cost model's view (matmul_plan) of a version's table of launch
 * plans: made once per table (the occupancy is asked once). Each version
 * file has one table, so one per size of table is one per table. */
template <int N>
static const matmul_plan *plan_table(const plan_entry (&entries)[N]) {
  static matmul_plan table[N];
  static bool known;
  if (!known) {
    for (int i = 0; i < N; i++) {
      const plan_entry *e = &entries[i];
      table[i] = (matmul_plan){64 * e->warps_m, 64 * e->warps_n, e->warps_m * e->warps_n,
                               e->splits, e->per_sm, e->resident()};
    }
    known = true;
  }
  return table;
}

/* The plan of `plans` that `rule` (matmul_plan_choose, or version 20's
 * matmul_plan_choose_rows) picks for p. */
template <int N>
static const plan_entry *choose_plan(const plan_entry (&plans)[N], const matmul_args *p,
                                     int (*rule)(const matmul_plan *, int, matmul_shape)) {
  matmul_shape s = {p->M, p->N, p->K};
  return &plans[rule(plan_table(plans), N, s)];
}

template <int WARPS_M, int WARPS_N>
static void attributes(struct cudaFuncAttributes *out) {
  CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)sgemm_kernel<WARPS_M, WARPS_N, ROWS_VEC, 1>));
}

}  // namespace sgemm

#endif

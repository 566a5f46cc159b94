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
 *   are 16-byte aligned (float4 loads) is a template argument, not a branch.
 *   The order of the multiply-adds is unchanged: increasing k.
 * - Split K (version 17): blockIdx.z takes K range z*k_chunk.. and the
 *   gridDim.z blocks of one tile form a cluster. Each writes its partial
 *   tile to its own shared memory; after a cluster barrier, block r sums
 *   rows r*BM/S.. of all S partials through distributed shared memory, in
 *   the order 0..S-1 (so the result does not depend on timing), and
 *   applies alpha and beta. No workspace, no atomics, one launch. */
#ifndef WARPMEM_SGEMM_KERNEL_CUH
#define WARPMEM_SGEMM_KERNEL_CUH

#include <cooperative_groups.h>

#include "matmul_device.cuh"

namespace sgemm {

namespace cg = cooperative_groups;

enum { BK = MATMUL_SPLIT_BK, PAD = 4, WARP_M = 64, WARP_N = 64 };

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

/* Four consecutive floats of a row at p; `ok` says the row (A) or the
 * columns (B, vector case) are inside the matrix, `cols` how many of the
 * four columns are (B, scalar case). */
template <bool VEC>
__device__ __forceinline__ float4 load_quad(const float *p, bool ok, int cols) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (VEC) {
    if (ok) v = *reinterpret_cast<const float4 *>(p);
  } else if (ok) {
    if (cols > 0) v.x = p[0];
    if (cols > 1) v.y = p[1];
    if (cols > 2) v.z = p[2];
    if (cols > 3) v.w = p[3];
  }
  return v;
}

/* Where thread t's loads come from, fixed for the whole K loop. Load l of
 * a thread is A_STEP rows of A (B_STEP rows of B) below load 0, in the
 * same columns: one pointer per matrix, so that small blocks, with more
 * loads per thread, need no more registers. */
template <int WARPS_M, int WARPS_N, bool VEC>
struct loader {
  typedef tile<WARPS_M, WARPS_N> T;
  enum { A_STEP = T::THREADS / (BK / 4), B_STEP = T::THREADS / (T::BN / 4) };
  static_assert(T::THREADS % (T::BN / 4) == 0, "B loads must keep their columns");
  const float *a, *b;
  size_t a_step, b_step;   /* A_STEP rows of A, B_STEP rows of B, in floats */
  int a_rows;              /* loads of A whose row is inside M: 0..A_LOADS */
  int b_cols;              /* columns of B inside N: 0..4 */
  float4 next_a[T::A_LOADS], next_b[T::B_LOADS];

  __device__ __forceinline__ loader(const float *A, const float *B, int M, int N, int K, int bm,
                                    int bn, int k0, int t) {
    int row = bm + t / (BK / 4), col = bn + (t % (T::BN / 4)) * 4;
    a_rows = row < M ? min((M - 1 - row) / A_STEP + 1, (int)T::A_LOADS) : 0;
    b_cols = min(max(N - col, 0), 4);
    a = A + (size_t)(a_rows ? row : 0) * K + k0 + (t % (BK / 4)) * 4;
    b = B + (size_t)(k0 + t / (T::BN / 4)) * N + (b_cols ? col : 0);
    a_step = (size_t)A_STEP * K;
    b_step = (size_t)B_STEP * N;
  }

  /* The next tile into registers, then the pointers move on by `width`
   * columns of A / rows of B. With `width` < BK (the remainder tile) the
   * columns of A and rows of B past it read as zeros. */
  template <bool PARTIAL>
  __device__ __forceinline__ void load(int N, int t, int width) {
    int a_cols = PARTIAL ? width - (t % (BK / 4)) * 4 : 4;
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++)
      next_a[l] = load_quad<VEC>(a + l * a_step, l < a_rows && a_cols > 0, a_cols);
    a += width;
#pragma unroll
    for (int l = 0; l < T::B_LOADS; l++) {
      bool row_ok = !PARTIAL || t / (T::BN / 4) + l * B_STEP < width;
      next_b[l] = load_quad<VEC>(b + l * b_step, row_ok && b_cols > 0, row_ok ? b_cols : 0);
    }
    b += (size_t)width * N;
  }

  /* A transposed (As[k][m]): with 2 threads per row and rows BM + 4 wide,
   * the 32 stores of a warp fall in 32 different banks (version 7). */
  __device__ __forceinline__ void store(float (*As)[T::BM + PAD], float (*Bs)[T::BN], int t) {
#pragma unroll
    for (int l = 0; l < T::A_LOADS; l++) {
      int idx = t + l * T::THREADS;
      int r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
      As[c + 0][r] = next_a[l].x;
      As[c + 1][r] = next_a[l].y;
      As[c + 2][r] = next_a[l].z;
      As[c + 3][r] = next_a[l].w;
    }
#pragma unroll
    for (int l = 0; l < T::B_LOADS; l++) {
      int idx = t + l * T::THREADS;
      *reinterpret_cast<float4 *>(&Bs[idx / (T::BN / 4)][(idx % (T::BN / 4)) * 4]) = next_b[l];
    }
  }
};

/* The 16 values of A and 8 of B a thread needs at step k. */
template <int BM, int BN>
__device__ __forceinline__ void load_fragments(const float (*As)[BM + PAD],
                                               const float (*Bs)[BN], int k, int wr, int wc,
                                               int ty, int tx, float4 fa[4], float4 fb[2]) {
#pragma unroll
  for (int p = 0; p < 4; p++)
    fa[p] = *reinterpret_cast<const float4 *>(&As[k][wr + p * 16 + ty * 4]);
#pragma unroll
  for (int q = 0; q < 2; q++)
    fb[q] = *reinterpret_cast<const float4 *>(&Bs[k][wc + q * 32 + tx * 4]);
}

__device__ __forceinline__ void outer_product(float acc[16][8], const float4 fa[4],
                                              const float4 fb[2]) {
  const float a[16] = {fa[0].x, fa[0].y, fa[0].z, fa[0].w, fa[1].x, fa[1].y, fa[1].z, fa[1].w,
                       fa[2].x, fa[2].y, fa[2].z, fa[2].w, fa[3].x, fa[3].y, fa[3].z, fa[3].w};
  const float b[8] = {fb[0].x, fb[0].y, fb[0].z, fb[0].w, fb[1].x, fb[1].y, fb[1].z, fb[1].w};
#pragma unroll
  for (int i = 0; i < 16; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
}

/* Block r of the cluster sums rows r*BM/S.. of the S partial tiles and
 * writes them to C. Rows of the partial tile are BN floats, read as float4
 * by consecutive threads: no bank conflict on either side. */
template <int WARPS_M, int WARPS_N, bool VEC>
__device__ void reduce_cluster(float acc[16][8], float *C, int M, int N, float alpha, float beta,
                               int bm, int bn, int wr, int wc, int ty, int tx) {
  typedef tile<WARPS_M, WARPS_N> T;
  extern __shared__ float4 partial[];  /* BM x BN floats, row-major */
#pragma unroll
  for (int i = 0; i < 16; i++)
#pragma unroll
    for (int q = 0; q < 2; q++) {
      int row = wr + (i / 4) * 16 + ty * 4 + i % 4, col = wc + q * 32 + tx * 4;
      partial[(row * T::BN + col) / 4] =
          make_float4(acc[i][q * 4], acc[i][q * 4 + 1], acc[i][q * 4 + 2], acc[i][q * 4 + 3]);
    }
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int splits = (int)cluster.num_blocks(), rank = (int)cluster.block_rank();
  int rows = T::BM / splits, first = rank * rows * (T::BN / 4);
  for (int i = threadIdx.x; i < rows * (T::BN / 4); i += T::THREADS) {
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int s = 0; s < splits; s++) {
      float4 v = cluster.map_shared_rank(partial, s)[first + i];
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    int e = (first + i) * 4;
    store_c_quad(C, M, N, bm + e / T::BN, bn + e % T::BN, sum, alpha, beta, VEC);
  }
  /* No block may leave while another still reads its shared memory. */
  cluster.sync();
}

template <int WARPS_M, int WARPS_N, bool VEC>
__global__ void __launch_bounds__(tile<WARPS_M, WARPS_N>::THREADS,
                                  tile<WARPS_M, WARPS_N>::BLOCKS_PER_SM)
sgemm_kernel(int M, int N, int K, int k_chunk, float alpha, const float *A, const float *B,
             float beta, float *C) {
  typedef tile<WARPS_M, WARPS_N> T;
  __shared__ __align__(16) float As[2][BK][T::BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][T::BN];
  int t = threadIdx.x;
  int bm = blockIdx.y * T::BM, bn = blockIdx.x * T::BN;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / WARPS_N) * WARP_M, wc = (warp % WARPS_N) * WARP_N;
  int ty = lane / 8, tx = lane % 8;
  int k0 = blockIdx.z * k_chunk, length = min(K - k0, k_chunk);
  int tiles = length > 0 ? (length + BK - 1) / BK : 0;
  /* acc[p*4+i][q*4+j]: row wr + p*16 + ty*4 + i, column wc + q*32 + tx*4 + j */
  float acc[16][8] = {{0.0f}};
  float4 fa[2][4], fb[2][2];

  if (tiles > 0) {
    loader<WARPS_M, WARPS_N, VEC> ld(A, B, M, N, K, bm, bn, k0, t);
    /* The remainder first: the tiles after it are whole. */
    ld.template load<true>(N, t, length - (tiles - 1) * BK);
    ld.store(As[0], Bs[0], t);
    __syncthreads();
    if (tiles > 1) ld.template load<false>(N, t, BK);
    load_fragments<T::BM, T::BN>(As[0], Bs[0], 0, wr, wc, ty, tx, fa[0], fb[0]);
    for (int tl = 0; tl < tiles; tl++) {
      int buf = tl % 2;
#pragma unroll
      for (int k = 0; k < BK; k++) {
        int cur = k % 2, nxt = (k + 1) % 2;
        if (k + 1 < BK) {
          load_fragments<T::BM, T::BN>(As[buf], Bs[buf], k + 1, wr, wc, ty, tx, fa[nxt],
                                       fb[nxt]);
        } else if (tl + 1 < tiles) {
          /* As in version 15: the other buffer was last read before the
           * previous tile's barrier. */
          ld.store(As[1 - buf], Bs[1 - buf], t);
          __syncthreads();
          if (tl + 2 < tiles) ld.template load<false>(N, t, BK);
          load_fragments<T::BM, T::BN>(As[1 - buf], Bs[1 - buf], 0, wr, wc, ty, tx, fa[nxt],
                                       fb[nxt]);
        }
        outer_product(acc, fa[cur], fb[cur]);
      }
    }
  }

  if (gridDim.z > 1) {
    reduce_cluster<WARPS_M, WARPS_N, VEC>(acc, C, M, N, alpha, beta, bm, bn, wr, wc, ty, tx);
    return;
  }
#pragma unroll
  for (int i = 0; i < 16; i++) {
    int row = bm + wr + (i / 4) * 16 + ty * 4 + i % 4;
    int col = bn + wc + tx * 4;
    store_c_quad(C, M, N, row, col, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]),
                 alpha, beta, VEC);
    store_c_quad(C, M, N, row, col + 32, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]),
                 alpha, beta, VEC);
  }
}

typedef void (*kernel_fn)(int, int, int, int, float, const float *, const float *, float,
                          float *);

/* A launch of `splits` blocks a cluster, each with room for its partial
 * tile. The first use raises the kernel's dynamic shared-memory limit
 * (once: the call costs host time inside every timed launch). */
template <int WARPS_M, int WARPS_N, bool VEC>
static cudaLaunchConfig_t cluster_config(dim3 grid, int splits, cudaLaunchAttribute *cluster) {
  typedef tile<WARPS_M, WARPS_N> T;
  static bool raised;
  if (!raised) {
    CUDA_CHECK(cudaFuncSetAttribute(sgemm_kernel<WARPS_M, WARPS_N, VEC>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    T::REDUCE_BYTES));
    raised = true;
  }
  cluster->id = cudaLaunchAttributeClusterDimension;
  cluster->val.clusterDim.x = 1;
  cluster->val.clusterDim.y = 1;
  cluster->val.clusterDim.z = (unsigned)splits;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(T::THREADS);
  config.dynamicSmemBytes = T::REDUCE_BYTES;
  config.attrs = cluster;
  config.numAttrs = 1;
  return config;
}

template <int WARPS_M, int WARPS_N, bool VEC>
static void launch_kernel(const matmul_args *p, int splits) {
  typedef tile<WARPS_M, WARPS_N> T;
  kernel_fn kernel = sgemm_kernel<WARPS_M, WARPS_N, VEC>;
  dim3 grid(matmul_tiles(p->N, T::BN), matmul_tiles(p->M, T::BM), splits);
  int chunk = matmul_k_chunk(p->K, splits);
  if (splits == 1) {
    kernel<<<grid, T::THREADS>>>(p->M, p->N, p->K, chunk, p->alpha, p->A, p->B, p->beta, p->C);
  } else {
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = cluster_config<WARPS_M, WARPS_N, VEC>(grid, splits, &cluster);
    CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, p->M, p->N, p->K, chunk, p->alpha, p->A,
                                  p->B, p->beta, p->C));
  }
  CUDA_CHECK_LAUNCH();
}

/* C = alpha*A*B + beta*C with BM x BN tiles and K split `splits` ways
 * (1, 2, 4 or 8). */
template <int WARPS_M, int WARPS_N>
static void launch(const matmul_args *p, int splits) {
  if (matmul_vector_ok(p))
    launch_kernel<WARPS_M, WARPS_N, true>(p, splits);
  else
    launch_kernel<WARPS_M, WARPS_N, false>(p, splits);
}

/* How many blocks of this tile, split `splits` ways, the GPU holds at
 * once: the occupancy API's answer, which for clusters counts only those
 * that fit whole into one GPC. Asked once per split. */
template <int WARPS_M, int WARPS_N>
static int resident_blocks(int splits) {
  typedef tile<WARPS_M, WARPS_N> T;
  static int known[9];
  if (known[splits]) return known[splits];
  kernel_fn kernel = sgemm_kernel<WARPS_M, WARPS_N, true>;
  int device, sms, n;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (splits == 1) {
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, T::THREADS, 0));
    n *= sms;
  } else {
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config =
        cluster_config<WARPS_M, WARPS_N, true>(dim3(1, 1, splits), splits, &cluster);
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, kernel, &config));
    n *= splits;
  }
  known[splits] = n;
  return n;
}

template <int WARPS_M, int WARPS_N>
static void attributes(struct cudaFuncAttributes *out) {
  CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)sgemm_kernel<WARPS_M, WARPS_N, true>));
}

}  // namespace sgemm

#endif

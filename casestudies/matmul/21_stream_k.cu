/* Version 21: stream-K. Version 20's table gains one plan per block tile
 * in which the work is not cut into whole tiles or into equal K splits,
 * but into equal runs of K steps: the tiles' K steps, tile after tile,
 * are one sequence, and each of as many blocks as the GPU holds at once
 * takes an equal share of it (Osama et al., "Stream-K", PPoPP 2023).
 *
 * Why: the other plans cut the work into blocks of equal size, and when
 * the blocks do not fill the SMs evenly the busiest SM sets the time. At
 * 333x4099x2049, version 20's best plan (64x128 tiles, K split 2) gives
 * each SM three blocks of two warps: two of its four schedulers run two
 * warps and the other two one (ncu, data/run14: 1.61 warps a scheduler,
 * issue slots 59% busy). With stream-K every block gets the same number
 * of K steps, within one, and every SM the same number of blocks.
 *
 * A block walks its share from the end: its last tile first, which it
 * shares with the next block(s) when its share ends inside it, so it
 * writes that tile's partial sums to the workspace and raises its flag
 * before doing anything else. It then does its whole tiles, and last the
 * tile its share starts inside: the block that finishes a tile (does its
 * last K step) adds the partials of the blocks before it, waiting for
 * their flags, and writes C. A block waits only for blocks of lower
 * index, each of which published at its start; so, as long as blocks start
 * in index order (what the decoupled look-back of single-pass scans also
 * assumes), no block waits for one that cannot run. The partials are
 * added in a fixed order (nearest first), whatever the timing: the result
 * is the same from run to run, and differs from an unsplit sum by
 * rounding only.
 *
 * The copies of unaligned rows and their rule are version 20's
 * (row_copies.cu); the flags carry the number of the launch, so they
 * never need clearing. */
#include "row_copies.cuh"

namespace sgemm {

/* A flag raised with release semantics at GPU scope, and read with
 * acquire: what a block wrote before raising it is visible to a block
 * that saw it raised. Written out in PTX, as in sgemm_kernel.cuh. */
__device__ __forceinline__ void raise_flag(unsigned *flag, unsigned launch) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(launch) : "memory");
}

__device__ __forceinline__ unsigned read_flag(const unsigned *flag) {
  unsigned value;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

/* The share of `blocks` blocks in `total` K steps: block b does steps
 * first(b) .. first(b+1)-1; holder(i) is the block that does step i. */
struct shares {
  long long total;
  int blocks;
  __device__ __forceinline__ long long first(int b) const { return b * total / blocks; }
  __device__ __forceinline__ int holder(long long i) const {
    return (int)(((i + 1) * blocks - 1) / total);
  }
};

/* acc += the product over K range k0 .. k0+length, `tiles` steps of BK,
 * the remainder first: sgemm_kernel's main loop, repeated here rather
 * than shared because moving it out of sgemm_kernel changed the register
 * allocation of versions 16-20 (checked on the cubins), whose timings
 * depend on it. */
template <int WARPS_M, int WARPS_N, int ROWS>
__device__ __forceinline__ void accumulate(float acc[16][8],
                                           float (*As)[BK][tile<WARPS_M, WARPS_N>::BM + PAD],
                                           float (*Bs)[BK][tile<WARPS_M, WARPS_N>::BN],
                                           const float *A, int lda, const float *B, int ldb,
                                           int M, int N, int bm, int bn, int k0, int length,
                                           int tiles, int skip, int t, int wr, int wc, int ty,
                                           int tx) {
  typedef tile<WARPS_M, WARPS_N> T;
  float4 fa[2][4], fb[2][2];
  loader<WARPS_M, WARPS_N, ROWS> ld(A, lda, B, ldb, M, N, bm, bn, k0, t);
  ld.load_first(ldb, t, length - (tiles - 1) * BK, k0, skip);
  ld.store(As[0], Bs[0], t);
  ld.load(ldb, tiles > 1);
  __syncthreads();
  load_fragments<T::BM + PAD, T::BN>(As[0], Bs[0], 0, wr, wc, ty, tx, fa[0], fb[0]);
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
        load_fragments<T::BM + PAD, T::BN>(As[1 - buf], Bs[1 - buf], 0, wr, wc, ty, tx,
                                           fa[nxt], fb[nxt]);
      }
      outer_product(acc, fa[cur], fb[cur]);
    }
  }
}

/* A block's partial tile in the workspace: thread t's float4 e at
 * e*THREADS + t, so that a warp's stores and loads are whole lines. The
 * flag goes up after every thread's stores are done and fenced. */
template <int THREADS>
__device__ __forceinline__ void publish(const float acc[16][8], float4 *slot, unsigned *flag,
                                        unsigned launch, int t) {
#pragma unroll
  for (int e = 0; e < 32; e++) {
    const float *a = &acc[e / 2][e % 2 * 4];
    __stcg(&slot[e * THREADS + t], make_float4(a[0], a[1], a[2], a[3]));
  }
  __threadfence();
  __syncthreads();
  if (t == 0) raise_flag(flag, launch);
}

/* acc += block b's partial tile, once its flag is up. Loads bypass L1,
 * which does not see other SMs' stores. */
template <int THREADS>
__device__ __forceinline__ void add_partial(float acc[16][8], const float4 *slot,
                                            const unsigned *flag, unsigned launch, int t) {
  if (t == 0)
    while (read_flag(flag) != launch) __nanosleep(64);
  __syncthreads();
#pragma unroll
  for (int e = 0; e < 32; e++) {
    float4 v = __ldcg(&slot[e * THREADS + t]);
    float *a = &acc[e / 2][e % 2 * 4];
    a[0] += v.x;
    a[1] += v.y;
    a[2] += v.z;
    a[3] += v.w;
  }
}

template <int WARPS_M, int WARPS_N, int ROWS>
__global__ void __launch_bounds__(tile<WARPS_M, WARPS_N>::THREADS,
                                  tile<WARPS_M, WARPS_N>::BLOCKS_PER_SM)
stream_k_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                float *C, int lda, int ldb, int skip, float4 *partials, unsigned *flags,
                unsigned launch) {
  typedef tile<WARPS_M, WARPS_N> T;
  constexpr bool VC = ROWS & ROWS_C4;
  enum { SLOT = T::BM * T::BN / 4 };
  __shared__ __align__(16) float As[2][BK][T::BM + PAD];
  __shared__ __align__(16) float Bs[2][BK][T::BN];
  int t = threadIdx.x;
  int warp = t / 32, lane = t % 32;
  int wr = (warp / WARPS_N) * WARP_M, wc = (warp % WARPS_N) * WARP_N;
  int ty = lane / 8, tx = lane % 8;
  if (!(ROWS & ROWS_COPIED)) {
    lda = K;
    ldb = N;
  }
  /* Step 0 of a tile is its K remainder (rem columns), step s > 0 covers
   * columns rem + (s-1)*BK .. rem + s*BK - 1. */
  int steps = (K + BK - 1) / BK, rem = K - (steps - 1) * BK;
  int tiles_n = (N + T::BN - 1) / T::BN;
  shares share = {(long long)tiles_n * ((M + T::BM - 1) / T::BM) * steps, (int)gridDim.x};
  int b = blockIdx.x;
  long long begin = share.first(b), end = share.first(b + 1);
  while (end > begin) {
    long long tile_start = (end - 1) / steps * steps;
    int tile_index = (int)((end - 1) / steps);
    int first = (int)(max(begin, tile_start) - tile_start), last = (int)(end - tile_start);
    int bm = tile_index / tiles_n * T::BM, bn = tile_index % tiles_n * T::BN;
    int k0 = first == 0 ? 0 : rem + (first - 1) * BK;
    float acc[16][8] = {{0.0f}};
    accumulate<WARPS_M, WARPS_N, ROWS>(acc, As, Bs, A, lda, B, ldb, M, N, bm, bn, k0,
                                       rem + (last - 1) * BK - k0, last - first, skip, t, wr,
                                       wc, ty, tx);
    if (last < steps) {
      publish<T::THREADS>(acc, partials + (size_t)b * SLOT, flags + b, launch, t);
    } else {
      for (int from = b - 1; first > 0 && from >= share.holder(tile_start); from--)
        add_partial<T::THREADS>(acc, partials + (size_t)from * SLOT, flags + from, launch, t);
      store_thread_tile(C, M, N, bm, bn, wr, wc, ty, tx, acc, alpha, beta, VC);
    }
    end = tile_start + first;
    /* The next range's first stores go to buffers this one may still read. */
    __syncthreads();
  }
}

/* How many blocks of the stream-K kernel the GPU holds at once: the grid
 * of every stream-K launch. Asked once. */
template <int WARPS_M, int WARPS_N>
static int stream_k_blocks(void) {
  static int known;
  if (!known) {
    int device, sms, per_sm;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, stream_k_kernel<WARPS_M, WARPS_N, ROWS_VEC>, tile<WARPS_M, WARPS_N>::THREADS,
        0));
    known = per_sm * sms;
  }
  return known;
}

/* The number of the last stream-K launch, whatever its tile and row flags:
 * its flags hold it, so a flag left by an earlier launch (they share the
 * workspace) never passes for one of this launch. 0 is what a new
 * workspace holds, and is skipped. */
static unsigned stream_k_launches;

template <int WARPS_M, int WARPS_N>
struct launch_stream_k {
  const matmul_args *p;
  const row_operands *o;
  template <int ROWS>
  void run() const {
    typedef tile<WARPS_M, WARPS_N> T;
    long long total = (long long)matmul_tiles(p->M, T::BM) * matmul_tiles(p->N, T::BN) *
                      matmul_tiles(o->K, BK);
    int resident = stream_k_blocks<WARPS_M, WARPS_N>();
    int blocks = (int)(total < resident ? total : resident);
    /* Flags first (16-byte aligned), then one partial tile per block. */
    size_t flag_bytes = ((size_t)blocks * sizeof(unsigned) + 15) / 16 * 16;
    char *w = (char *)matmul_workspace(MATMUL_WORKSPACE_STREAM_K,
                                       flag_bytes + (size_t)blocks * T::BM * T::BN * 4);
    if (++stream_k_launches == 0) stream_k_launches = 1;
    stream_k_kernel<WARPS_M, WARPS_N, ROWS><<<blocks, T::THREADS>>>(
        p->M, p->N, o->K, p->alpha, o->A, o->B, p->beta, p->C, o->lda, o->ldb, o->skip,
        (float4 *)(w + flag_bytes), (unsigned *)w, stream_k_launches);
    CUDA_CHECK_LAUNCH();
  }
};

/* Stream-K with version 20's copies of unaligned rows. */
template <int WARPS_M, int WARPS_N>
static void stream_k(const matmul_args *p) {
  row_operands o;
  copy_rows(p, copies_for(p), &o);
  with_rows(o.rows, launch_stream_k<WARPS_M, WARPS_N>{p, &o});
}

template <int WARPS_M, int WARPS_N>
static void stream_k_attributes(struct cudaFuncAttributes *out) {
  CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)stream_k_kernel<WARPS_M, WARPS_N, ROWS_VEC>));
}

}  // namespace sgemm

/* Version 21's table: version 20's plans, then one stream-K plan per
 * block tile (splits 0 in the cost model: matmul_host.c). */
#define PLAN_ENTRY(WM, WN, S, NAME) SGEMM_PLAN_ENTRY(WM, WN, S, NAME, sgemm::launch_rule)
#define STREAM_K_ENTRY(WM, WN, NAME)                                                         \
  {#NAME, WM, WN, 0, sgemm::tile<WM, WN>::BLOCKS_PER_SM, sgemm::stream_k<WM, WN>,           \
   sgemm::stream_k_blocks<WM, WN>},
static const sgemm::plan_entry plans[] = {
    MATMUL_PLANS(PLAN_ENTRY) MATMUL_STREAM_K_PLANS(STREAM_K_ENTRY)};

static const sgemm::plan_entry *choose(const matmul_args *p) {
  return sgemm::choose_plan(plans, p, matmul_plan_choose_rows);
}

static void launch(const matmul_args *p) { choose(p)->launch(p); }

static const char *choice(const matmul_args *p) {
  return sgemm::plan_with_copies(choose(p)->name, p);
}

extern "C" const matmul_version matmul_21_stream_k = {
  "21_stream_k", "version 20 plus stream-K plans: equal runs of K steps per resident block",
  0, 0, 0, MATMUL_FP32, true, launch, NULL, choice};

/* Each stream-K plan as a version of its own. */
#define STREAM_K_VERSION(WM, WN, NAME)                                                       \
  extern "C" const matmul_version matmul_plan_##NAME = {                                     \
    #NAME, "one stream-K plan of version 21's table", sgemm::tile<WM, WN>::BM,               \
    sgemm::tile<WM, WN>::BN, sgemm::tile<WM, WN>::THREADS, MATMUL_FP32, false,               \
    sgemm::stream_k<WM, WN>, sgemm::stream_k_attributes<WM, WN>, NULL};
MATMUL_STREAM_K_PLANS(STREAM_K_VERSION)

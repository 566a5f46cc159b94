/* Covariance V8 (Table 6, beyond the paper): the exact covariance of an
 * integer image on the int8 tensor cores. V7 does the products as FP32
 * multiply-adds and stays at 3.1-3.7x the FP32 floor; the int8 tensor cores
 * have many times the FP32 peak. For uint8, int16 and uint16 every value is
 * an unsigned 16-bit u = x + offset (int16: x ^ 0x8000 on the bits), and
 * u = 256 h + l with bytes h, l, so for bands i, j
 *   sum_k u_i u_j = 65536 sum h_i h_j + 256 (sum h_i l_j + sum l_i h_j) + sum l_i l_j:
 * four Gram matrices of bytes, which WMMA u8 computes exactly in int32. A
 * block sums at most COV_BYTES_MAX_PIXELS = 32768 pixels, so no int32 sum
 * wraps (65025 * 32768 < 2^31), and combines them with its exact band sums
 * U_i = sum_k u_ik and the shifts into (u_i - s_i)(u_j - s_j) in double
 * (cov_bytes.h, tested on the CPU), added atomically into sum. The result
 * is exact up to that final double arithmetic, against V7's float sums.
 *
 * Shape: 32-band tiles, grid x the lower-triangle tile pairs, grid y pixel
 * ranges. Per stage of 64 pixels the block stages A = [H_I; L_I] and
 * B = [H_J; L_J] (64 byte rows each; a diagonal pair stages A only and uses
 * it for both), and warp w computes one 32 x 32 quadrant of the 64 x 64
 * byte Gram A B^T with 2 x 2 fragments 16x16x16: w0 H_I H_J, w1 H_I L_J,
 * w2 L_I H_J, w3 L_I L_J. Loads go a stage ahead into registers in the
 * stored type (V7's scheme), one barrier a stage.
 *
 * Staging layout. A thread owns word q (0..15) of 4 byte rows a tile and
 * loads pixels q, q + 16, q + 32, q + 48 of each row: 16 consecutive lanes
 * read 16 consecutive pixels (coalesced; rows start at any element, so
 * there are no wide loads), and the four bytes of its word are those four
 * pixels. That permutes the pixels within a stage, the same way in A and B,
 * which a sum over pixels does not see. The 64 pixels are four k chunks of
 * 16; each chunk is its own plane of 64 rows x 16 bytes, so every fragment
 * is 256 contiguous bytes at a 32-byte-aligned address (WMMA asks for
 * 256-bit aligned pointers; ldm = 16 bytes) and is read without bank
 * conflicts. Planes are padded by 32 bytes (8 banks) so that the two rows
 * a warp writes per store (lanes 0-15 row r, 16-31 row r + 1) hit disjoint
 * banks.
 *
 * Padding: bands past the last and pixels past the block's end are loaded
 * as the stored value whose u is 0 (-32768 for int16, 0 otherwise), so
 * they stage as zero bytes and add nothing to the Grams or to U; n is the
 * block's count of real pixels.
 *
 * int32 and float32 values do not fit in 16 bits: for them cov_v8_tensor
 * calls cov_v7_occupancy, so the interface holds for every type. (uint8
 * runs the same kernel with an all-zero H plane, three quarters of its
 * tensor work wasted; simple, and still exact.) */
#include <mma.h>
#include <type_traits>

#include "gpu.h"
#include "kernels.h"
#include "cov_bytes.h"
#include "cov_tile_grid.h"

#define V8_TILE 32                                   /* bands per tile */
#define V8_ROWS (2 * V8_TILE)                        /* byte rows per tile: H then L */
#define V8_KT 64                                     /* pixels per stage */
#define V8_CHUNK 16                                  /* pixels per WMMA k step */
#define V8_CHUNKS (V8_KT / V8_CHUNK)
#define V8_PLANE (V8_ROWS * V8_CHUNK + 32)           /* bytes of one k chunk, padded by 8 banks */
#define V8_MATRIX (V8_CHUNKS * V8_PLANE)             /* bytes of A (or B) for one stage */
#define V8_THREADS 128
#define V8_WORDS (V8_KT / 4)                         /* 32-bit words of a staged row */
#define V8_ROW_GROUP (V8_THREADS / V8_WORDS)         /* rows the block covers per load step */
#define V8_LOADS (V8_TILE / V8_ROW_GROUP)            /* rows a thread stages per tile */
static_assert(V8_PLANE % 32 == 0 && V8_PLANE / 4 % 32 == 8, "planes 32-byte aligned, 8 banks apart");
static_assert(4 * V8_TILE * V8_TILE * sizeof(int) <= 2 * 2 * V8_MATRIX, "the quadrants fit in the staging buffers");
static_assert(V8_THREADS >= V8_TILE, "the first V8_TILE threads load the shifts");

using namespace nvcuda;

/* Bits to flip in two packed 16-bit values to get u: int16's sign bit. */
template <typename T>
__device__ __forceinline__ unsigned v8_flip()
{
  return std::is_signed<T>::value ? 0x80008000u : 0u;
}

/* The bits of the stored value whose u is 0 (-32768 for int16). */
template <typename T>
__device__ __forceinline__ unsigned v8_zero()
{
  return std::is_signed<T>::value ? 0x8000u : 0u;
}

/* Writes one row's word of four pixels into the H and L planes of matrix m
 * (byte row r of H, 32 + r of L) and adds their u to u_sum. The bytes hold
 * pixels 0, 2, 1, 3 of v: any order does that is the same in every row. */
template <typename T, typename U>
__device__ __forceinline__ void v8_put(unsigned char *m, int r, int q, const U (&v)[4], unsigned &u_sum)
{
  /* Two pixels' u per register (the loads zero-extend). */
  const unsigned p01 = (v[0] | (unsigned)v[1] << 16) ^ v8_flip<T>();
  const unsigned p23 = (v[2] | (unsigned)v[3] << 16) ^ v8_flip<T>();
  u_sum += (p01 & 0xffffu) + (p01 >> 16) + (p23 & 0xffffu) + (p23 >> 16);
  unsigned char *word = m + (q / 4) * V8_PLANE + (q % 4) * 4;
  *reinterpret_cast<unsigned *>(word + r * V8_CHUNK) = (p01 >> 8 & 0x00ff00ffu) | (p23 & 0xff00ff00u);            /* high bytes */
  *reinterpret_cast<unsigned *>(word + (V8_TILE + r) * V8_CHUNK) = (p01 & 0x00ff00ffu) | (p23 << 8 & 0xff00ff00u); /* low bytes */
}

typedef wmma::fragment<wmma::accumulator, 16, 16, 16, int> v8_acc;

/* acc += the warp's 32 x 32 quadrant of A B^T over one stage: A rows
 * [arow, arow + 32), B rows [brow, brow + 32), all 64 pixels. */
__device__ __forceinline__ void v8_stage(const unsigned char *A, const unsigned char *B, int arow, int brow, v8_acc (&acc)[2][2])
{
#pragma unroll
  for (int kc = 0; kc < V8_CHUNKS; kc++) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb[2];
#pragma unroll
    for (int f = 0; f < 2; f++) {
      wmma::load_matrix_sync(fa[f], A + kc * V8_PLANE + (arow + 16 * f) * V8_CHUNK, V8_CHUNK);
      /* col_major: element (k, n) at n * ldm + k, B's rows as they are. */
      wmma::load_matrix_sync(fb[f], B + kc * V8_PLANE + (brow + 16 * f) * V8_CHUNK, V8_CHUNK);
    }
#pragma unroll
    for (int x = 0; x < 2; x++)
#pragma unroll
      for (int y = 0; y < 2; y++) wmma::mma_sync(acc[x][y], fa[x], fb[y], acc[x][y]);
  }
}

/* The sum of u over the 16 lanes that share a row (lanes 0-15 or 16-31). */
__device__ __forceinline__ unsigned v8_row_sum(unsigned u)
{
#pragma unroll
  for (int o = V8_WORDS / 2; o > 0; o /= 2) u += __shfl_xor_sync(0xffffffffu, u, o);
  return u;
}

template <typename T>
__global__ void __launch_bounds__(V8_THREADS, 4) cov_v8_kernel(gpu_matrix a, const float *shift, double *sum, long long per_block)
{
  static_assert(sizeof(T) <= 2, "16-bit integer types only");
  __shared__ __align__(32) unsigned char stage[2][2][V8_MATRIX]; /* [buffer][A, B] */
  __shared__ unsigned band_u[2][V8_TILE];
  __shared__ double band_s[2][V8_TILE];
  int ti, tj;
  cov_tile_pair(blockIdx.x, &ti, &tj);
  const bool diagonal = ti == tj;
  const int row_a = ti * V8_TILE, row_b = tj * V8_TILE;
  const int t = threadIdx.x, warp = t / 32, q = t % V8_WORDS, g = t / V8_WORDS;
  const long long begin = (long long)blockIdx.y * per_block, end = min(a.n, begin + per_block);
  if (begin >= end) return;

  /* Shifts in u's units; without a shift, s = offset exactly. */
  const int offset = cov_bytes_offset(a.type);
  if (t < V8_TILE) {
    band_s[0][t] = (shift && row_a + t < a.bands ? (double)shift[row_a + t] : 0.0) + offset;
    band_s[1][t] = (shift && row_b + t < a.bands ? (double)shift[row_b + t] : 0.0) + offset;
  }

  /* The stored bits, unsigned: the loads zero-extend and no conversion
   * is left for stage_in but the flip. */
  typedef typename std::make_unsigned<T>::type U;
  const U *data = static_cast<const U *>(a.data);
  /* Pixel begin + q of the thread's first row in each tile; its row i is
   * row_step * i further (past the last band for a partial tile's rows:
   * those addresses are never loaded). */
  const long long row_step = (long long)V8_ROW_GROUP * a.ld;
  const U *base_a = data + (row_a + g) * a.ld + begin + q, *base_b = data + (row_b + g) * a.ld + begin + q;
  const bool rows_full = row_a + V8_TILE <= a.bands && row_b + V8_TILE <= a.bands;
  U raw_a[V8_LOADS][4], raw_b[V8_LOADS][4];
  unsigned u_a[V8_LOADS] = {}, u_b[V8_LOADS] = {};
  /* Loads only: nothing reads raw_* until the next stage_in. A stage
   * wholly inside the pixels and bands (nearly all) needs no checks. */
  auto fetch = [&](long long k0) {
    const U *pa = base_a + (k0 - begin), *pb = base_b + (k0 - begin);
    if (rows_full && k0 + V8_KT <= end) {
#pragma unroll
      for (int i = 0; i < V8_LOADS; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
          raw_a[i][j] = pa[i * row_step + V8_WORDS * j];
          if (!diagonal) raw_b[i][j] = pb[i * row_step + V8_WORDS * j];
        }
      return;
    }
#pragma unroll
    for (int i = 0; i < V8_LOADS; i++) {
      const int r = g + V8_ROW_GROUP * i;
#pragma unroll
      for (int j = 0; j < 4; j++) {
        const bool in = k0 + q + V8_WORDS * j < end;
        raw_a[i][j] = in && row_a + r < a.bands ? pa[i * row_step + V8_WORDS * j] : v8_zero<T>();
        if (!diagonal) raw_b[i][j] = in && row_b + r < a.bands ? pb[i * row_step + V8_WORDS * j] : v8_zero<T>();
      }
    }
  };
  auto stage_in = [&](int buf) {
#pragma unroll
    for (int i = 0; i < V8_LOADS; i++) {
      const int r = g + V8_ROW_GROUP * i;
      v8_put<T>(stage[buf][0], r, q, raw_a[i], u_a[i]);
      if (!diagonal) v8_put<T>(stage[buf][1], r, q, raw_b[i], u_b[i]);
    }
  };

  v8_acc acc[2][2];
#pragma unroll
  for (int x = 0; x < 2; x++)
#pragma unroll
    for (int y = 0; y < 2; y++) wmma::fill_fragment(acc[x][y], 0);
  /* Warp w's quadrant: A's H (w < 2) or L rows against B's H (w even) or L rows. */
  const int arow = (warp / 2) * V8_TILE, brow = (warp % 2) * V8_TILE;
  fetch(begin);
  int buf = 0;
  for (long long k0 = begin; k0 < end; k0 += V8_KT, buf ^= 1) {
    stage_in(buf);
    /* One barrier a stage: the buffer written here was last read two
     * stages ago, before the previous barrier. */
    __syncthreads();
    if (k0 + V8_KT < end) fetch(k0 + V8_KT);
    v8_stage(stage[buf][0], diagonal ? stage[buf][0] : stage[buf][1], arow, brow, acc);
  }

  /* The quadrants go into the staging buffers once every warp is done
   * with them: quadrant w at int offset w * 32 * 32, rows of 32. */
  __syncthreads();
  int *quad = reinterpret_cast<int *>(&stage[0][0][0]);
#pragma unroll
  for (int x = 0; x < 2; x++)
#pragma unroll
    for (int y = 0; y < 2; y++)
      wmma::store_matrix_sync(quad + warp * V8_TILE * V8_TILE + 16 * x * V8_TILE + 16 * y, acc[x][y], V8_TILE,
                              wmma::mem_row_major);
#pragma unroll
  for (int i = 0; i < V8_LOADS; i++) {
    const int r = g + V8_ROW_GROUP * i;
    const unsigned ua = v8_row_sum(u_a[i]), ub = v8_row_sum(u_b[i]);
    if (q == 0) {
      band_u[0][r] = ua;
      band_u[1][r] = ub;
    }
  }
  __syncthreads();

  const int n = (int)(end - begin), bj = diagonal ? 0 : 1;
  const int *hh = quad, *hl = quad + V8_TILE * V8_TILE, *lh = hl + V8_TILE * V8_TILE, *ll = lh + V8_TILE * V8_TILE;
  for (int e = t; e < V8_TILE * V8_TILE; e += V8_THREADS) {
    const int i = e / V8_TILE, j = e % V8_TILE, gi = row_a + i, gj = row_b + j;
    if (gi < a.bands && gj <= gi)
      atomicAdd(&sum[(long long)gi * a.bands + gj],
                cov_bytes_combine(hh[e], hl[e], lh[e], ll[e], band_u[0][i], band_u[bj][j], band_s[0][i], band_s[bj][j], n));
  }
}

void cov_v8_tensor(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  if (a->type != ENVI_U8 && a->type != ENVI_I16 && a->type != ENVI_U16) {
    cov_v7_occupancy(a, shift, sum, s);
    return;
  }
  if (a->n <= 0 || a->bands <= 0) return;
  int tiles = ceil_div(a->bands, V8_TILE), pairs = tiles * (tiles + 1) / 2;
  /* Whole waves (cov_wave_split), at least four, so that even a chunk of
   * ~80k pixels gives every SM work; each block within the exactness
   * bound. */
  static int resident;
  long long per_block = cov_wave_split(a->n, pairs, cov_resident_blocks(cov_v8_kernel<int16_t>, V8_THREADS, &resident), 4,
                                       V8_KT, COV_BYTES_MAX_PIXELS);
  dim3 grid(pairs, ceil_div(a->n, per_block));
  switch (a->type) {
  case ENVI_U8: cov_v8_kernel<uint8_t><<<grid, V8_THREADS, 0, s>>>(*a, shift, sum, per_block); break;
  case ENVI_I16: cov_v8_kernel<int16_t><<<grid, V8_THREADS, 0, s>>>(*a, shift, sum, per_block); break;
  default: cov_v8_kernel<uint16_t><<<grid, V8_THREADS, 0, s>>>(*a, shift, sum, per_block); break;
  }
}

/* Launch geometry shared by the tiled covariance kernels (V3-V8): the
 * lower triangle of the bands x bands result is cut into TILE x TILE tiles,
 * and each tile's pixels are split among several blocks so the whole GPU
 * works even when there are only a few tiles. */
#ifndef MNF_GPU_COV_TILE_GRID_H
#define MNF_GPU_COV_TILE_GRID_H

#include <cuda_runtime.h>

#include "gpu.h"
#include "kernels.h"

static inline dim3 cov_tile_grid(int bands, long long n, int tile)
{
  static int sm_count;
  if (!sm_count) CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  int tiles = ceil_div(bands, tile);
  int pairs = tiles * (tiles + 1) / 2;
  int chunks = ceil_div(n, COV_BLOCK_PIXELS);
  /* About three blocks per SM in all: one resident per SM, three even waves. */
  int splits = (3 * sm_count + pairs - 1) / pairs;
  if (splits > chunks) splits = chunks;
  if (splits < 1) splits = 1;
  return dim3(splits, pairs);
}

/* Blocks of kernel (threads each) that fit on the GPU at once; cached in
 * *cache, one per kernel. */
template <typename Kernel>
static inline long long cov_resident_blocks(Kernel kernel, int threads, int *cache)
{
  if (!*cache) {
    int sm_count, per_sm;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    *cache = sm_count * (per_sm > 0 ? per_sm : 1);
  }
  return *cache;
}

/* Pixels per block when each of `pairs` tiles splits n pixels among its
 * blocks: the fewest whole waves of `resident` blocks (at least min_waves,
 * so blocks of unequal work even out) that keep every block within
 * max_pixels; a multiple of the stage, and at least 1024 pixels, so each
 * block's final atomics stay a few percent of its time. */
static inline long long cov_wave_split(long long n, int pairs, long long resident, int min_waves, int stage,
                                       long long max_pixels)
{
  long long waves = (n * pairs + resident * max_pixels - 1) / (resident * max_pixels);
  if (waves < min_waves) waves = min_waves;
  long long splits = waves * resident / pairs;
  if (splits < 1) splits = 1;
  long long per_block = (n + splits - 1) / splits;
  per_block = (per_block + stage - 1) / stage * stage;
  if (per_block < 1024) per_block = 1024;
  if (per_block > max_pixels) per_block = max_pixels;
  return per_block;
}

/* Tile pair p of the lower triangle, row-major: (0,0), (1,0), (1,1), ... */
__device__ __forceinline__ void cov_tile_pair(int p, int *ti, int *tj)
{
  int i = 0;
  while (p > i) {
    p -= i + 1;
    i++;
  }
  *ti = i;
  *tj = p;
}

#endif

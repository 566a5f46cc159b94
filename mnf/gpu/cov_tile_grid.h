/* Launch geometry shared by the tiled covariance kernels (V3, V4): the
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

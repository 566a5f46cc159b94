/* The host side of a split launch (versions 17 and 18): a grid whose
 * blocks form clusters along z, and how many such blocks the GPU holds at
 * once. Plain C over the runtime's C interface (cudaLaunchKernelExC): the
 * .cu files only hand over the kernel, so that they parse with the
 * stand-in CUDA headers warplint uses, which have no cluster API. */
#include "gpu.h"
#include "matmul.h"

static cudaLaunchConfig_t cluster_config(dim3 grid, dim3 block, size_t shared, int splits,
                                         cudaLaunchAttribute *cluster) {
  cluster->id = cudaLaunchAttributeClusterDimension;
  cluster->val.clusterDim.x = 1;
  cluster->val.clusterDim.y = 1;
  cluster->val.clusterDim.z = (unsigned)splits;
  cudaLaunchConfig_t config = {0};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.attrs = cluster;
  config.numAttrs = 1;
  return config;
}

void matmul_cluster_launch(const void *kernel, dim3 grid, dim3 block, size_t shared, int splits,
                           void **args) {
  cudaLaunchAttribute cluster;
  cudaLaunchConfig_t config = cluster_config(grid, block, shared, splits, &cluster);
  CUDA_CHECK(cudaLaunchKernelExC(&config, kernel, args));
}

int matmul_cluster_capacity(const void *kernel, dim3 block, size_t shared, int splits) {
  cudaLaunchAttribute cluster;
  dim3 grid = {1, 1, (unsigned)splits};
  cudaLaunchConfig_t config = cluster_config(grid, block, shared, splits, &cluster);
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  return clusters * splits;
}

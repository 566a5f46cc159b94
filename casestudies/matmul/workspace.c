/* Device buffers that versions keep between calls, so that a timed call
 * allocates nothing once the largest shape has been seen: version 20's
 * padded copies, version 21's partial tiles and flags. One buffer per use,
 * grown when a shape needs more (and then zeroed), never shrunk. */
#include "gpu.h"
#include "matmul.h"

static void *buffers[MATMUL_WORKSPACES];
static size_t sizes[MATMUL_WORKSPACES];

void *matmul_workspace(matmul_workspace_use use, size_t bytes) {
  if (bytes > sizes[use]) {
    if (buffers[use]) CUDA_CHECK(cudaFree(buffers[use]));
    CUDA_CHECK(cudaMalloc(&buffers[use], bytes));
    CUDA_CHECK(cudaMemset(buffers[use], 0, bytes));
    sizes[use] = bytes;
  }
  return buffers[use];
}

void matmul_release_workspace(void) {
  for (int i = 0; i < MATMUL_WORKSPACES; i++) {
    if (buffers[i]) CUDA_CHECK(cudaFree(buffers[i]));
    buffers[i] = NULL;
    sizes[i] = 0;
  }
}

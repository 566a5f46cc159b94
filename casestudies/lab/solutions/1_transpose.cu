// Exercise 1, solution: the tile in shared memory turns the strided writes
// into consecutive ones. The tile has 33 columns, not 32: with 32, the
// column a warp reads would sit in one bank (a 32-way conflict, S_1, which
// exercise 2 is about).
#include "lab_kernels.h"

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  // The block's tile, seen from out: row blockIdx.x * 32 + ..., column blockIdx.y * 32 + ...
  int ox = blockIdx.y * 32 + threadIdx.x;
  int oy = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    if (ox < rows && oy + j < cols)
      out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
  }
}

LAB_ENTRY void lab_transpose_run(const lab_transpose_args *a)
{
  dim3 grid((a->cols + 31) / 32, (a->rows + 31) / 32);
  transpose<<<grid, dim3(32, 8)>>>(a->in, a->out, a->rows, a->cols);
}

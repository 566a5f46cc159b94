// Exercise 1: coalescing through a transpose (guideline G_3).
//
// Each thread copies one element: it reads in[y][x] and writes out[x][y].
// Along a warp x grows by one, so the reads are consecutive, but the
// writes land `rows` floats apart: every lane writes its own 32-byte
// sector and the warp needs 32 memory transactions where 4 would do.
//
// TODO: make the writes consecutive too. Let a block copy a 32x32 tile of
// `in` into shared memory with consecutive reads, wait at __syncthreads(),
// then write the tile out transposed with consecutive writes (the lanes of
// a warp now walk a row of `out`, so they read a column of the tile).
// Check with `lab check 1`: G_3 must be gone, and no new guideline fire.
#include "lab_kernels.h"

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
  int x = blockIdx.x * 32 + threadIdx.x;   // column of in
  int y = blockIdx.y * 32 + threadIdx.y;   // first row of in
  for (int j = 0; j < 32; j += 8) {
    if (x < cols && y + j < rows)
      out[x * rows + y + j] = in[(y + j) * cols + x];
  }
}

LAB_ENTRY void lab_transpose_run(const lab_transpose_args *a)
{
  dim3 grid((a->cols + 31) / 32, (a->rows + 31) / 32);
  transpose<<<grid, dim3(32, 8)>>>(a->in, a->out, a->rows, a->cols);
}

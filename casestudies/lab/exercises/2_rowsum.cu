// Exercise 2: bank conflicts, through padding a tile (guideline S_1).
//
// One thread per row sums a row of a tall matrix. Reading the row straight
// from global memory would put consecutive lanes a whole row apart (G_3),
// so the block first copies a 256 x 32 slab into shared memory with
// consecutive reads. Then thread t adds up row t of the slab: the lanes of
// a warp read tile[t][k] for the same k, 32 floats apart. Shared memory has
// 32 banks of 4 bytes and word w sits in bank w % 32, so all 32 lanes hit
// the same bank and the warp's read is served one lane at a time.
//
// TODO: remove the bank conflict without changing what is summed: pad each
// row of the tile by one float, so that consecutive rows start in
// consecutive banks. Check with `lab check 2`.
#include "lab_kernels.h"

#define ROWS_PER_BLOCK 256
#define TILE_COLS 32

__global__ void row_sums(const float *in, float *sums, int cols)
{
  __shared__ float tile[ROWS_PER_BLOCK][TILE_COLS];
  int first_row = blockIdx.x * ROWS_PER_BLOCK;
  int t = threadIdx.y * 32 + threadIdx.x;   // the row this thread sums
  float sum = 0.0f;
  for (int c = 0; c < cols; c += TILE_COLS) {
    __syncthreads();   // the previous slab has been summed
    // Warp w copies rows w, w + 8, ...: each read is one consecutive row piece.
    for (int r = threadIdx.y; r < ROWS_PER_BLOCK; r += 8)
      tile[r][threadIdx.x] = in[(size_t)(first_row + r) * cols + c + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < TILE_COLS; k++)
      sum += tile[t][k];
  }
  sums[first_row + t] = sum;
}

LAB_ENTRY void lab_rowsum_run(const lab_rowsum_args *a)
{
  row_sums<<<a->rows / ROWS_PER_BLOCK, dim3(32, 8)>>>(a->in, a->sums, a->cols);
}

// Exercise 5: read-only data through `const __restrict__` or a texture
// (guideline T_4, from 2017; this exercise measures whether it still pays).
//
// A sparse matrix times a vector, the matrix in ELLPACK form: thread r
// computes row r from its 16 entries. The entries are stored column-major,
// so the reads of val and col are consecutive across a warp. The reads of
// x are not: lane r reads x[col], wherever its row's entries are. The
// paper measured on a K20c that such scattered reads are much faster
// through the texture path than through the ordinary global path (Fig. 9
// against Fig. 11) and advised (T_4): when reads of read-only data are not
// consecutive, use texture memory. Since then the L1 cache and the texture
// cache have merged; the H100's profile in benchmarks/data has its own
// numbers for both paths.
//
// TODO: give the compiler what it needs to use the read-only path for x:
// declare the pointer `const float *__restrict__` (nothing else writes x
// during the kernel, and no other pointer aliases it), or read x through
// the texture object a->x_tex with tex1Dfetch<float>(tex, index). Then run
// `lab check 5` on a GPU and read the speed-up: does the guideline pay
// here?
#include "lab_kernels.h"

#define WIDTH LAB_ELL_WIDTH

__global__ void spmv_ell(const float *val, const int *col, const float *x, float *y, int rows)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < WIDTH; k++)
    sum += val[(size_t)k * rows + r] * x[col[(size_t)k * rows + r]];
  y[r] = sum;
}

LAB_ENTRY void lab_spmv_run(const lab_spmv_args *a)
{
  spmv_ell<<<(a->rows + 255) / 256, 256>>>(a->val, a->col, a->x, a->y, a->rows);
}

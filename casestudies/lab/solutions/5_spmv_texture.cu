// Exercise 5, second solution (texture path): x read through the texture
// object the lab binds to it, as the paper's T_4 advises.
#include "lab_kernels.h"

#define WIDTH LAB_ELL_WIDTH

__global__ void spmv_ell(const float *__restrict__ val, const int *__restrict__ col,
                         cudaTextureObject_t x, float *__restrict__ y, int rows)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < WIDTH; k++)
    sum += val[(size_t)k * rows + r] * tex1Dfetch<float>(x, col[(size_t)k * rows + r]);
  y[r] = sum;
}

LAB_ENTRY void lab_spmv_run(const lab_spmv_args *a)
{
  spmv_ell<<<(a->rows + 255) / 256, 256>>>(a->val, a->col, a->x_tex, a->y, a->rows);
}

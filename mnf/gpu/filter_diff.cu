/* The shift-difference noise estimate (ENVI's default; not one of the
 * paper's versions): X(x,y) - X(x+1,y), the last column using x-1. */
#include "kernels.h"
#include "mnf_internal.h"

template <typename T>
__global__ void filter_diff_kernel(gpu_image img, int row0, int nrows, float *f)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (x >= img.samples || r >= nrows) return;
  long long row = ((long long)b * img.lines + row0 + r) * img.samples;
  int neighbour = x + 1 < img.samples ? x + 1 : x - 1;
  f[((long long)b * nrows + r) * img.samples + x] =
      (load_as_float<T>(img.data, row + x) - load_as_float<T>(img.data, row + neighbour)) * MNF_DIFF_SCALE;
}

void filter_diff(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  dim3 block(32, 8), grid(ceil_div(img->samples, 32), ceil_div(nrows, 8), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_diff_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, f)));
}

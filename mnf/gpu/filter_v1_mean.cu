/* Noise filter V1 (Table 5): the 3x3 mean instead of the median (rule L_3):
 * a running sum needs no array, so everything stays in registers. Each
 * thread still reads its nine neighbours from global memory. The
 * arithmetic is double (issue 11), as in V2 and V3. */
#include "kernels.h"
#include "mnf_internal.h"

template <typename T>
__global__ void filter_v1_kernel(gpu_image img, int row0, int nrows, float *f)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (x >= img.samples || r >= nrows) return;
  int y = row0 + r;
  long long band = (long long)b * img.lines * img.samples;
  /* In double: x - mean9 in float loses the noise floor's digits on a
   * float32 image (and even on int16 at a condition number of 1e8). */
  double sum = 0.0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int yy = min(max(y + dy, 0), img.lines - 1), xx = min(max(x + dx, 0), img.samples - 1);
      sum += load_as_float<T>(img.data, band + (long long)yy * img.samples + xx);
    }
  float centre = load_as_float<T>(img.data, band + (long long)y * img.samples + x);
  f[((long long)b * nrows + r) * img.samples + x] = (float)((centre - sum / 9.0) * MNF_MEAN3_SCALE);
}

void filter_v1_mean(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  dim3 block(32, 8), grid(ceil_div(img->samples, 32), ceil_div(nrows, 8), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_v1_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, f)));
}

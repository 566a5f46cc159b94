/* Noise filter V0 (Table 5): the 3x3 median, one thread per pixel and band.
 * The nine values go into an array that the sort indexes with run-time
 * indices, so the compiler must place it in local memory: the cost the
 * paper's L_3 rule removes. */
#include "kernels.h"
#include "mnf_internal.h"

template <typename T>
__global__ void filter_v0_kernel(gpu_image img, int row0, int nrows, float *f)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (x >= img.samples || r >= nrows) return;
  int y = row0 + r;
  long long band = (long long)b * img.lines * img.samples;
  float v[9];
  int n = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int yy = min(max(y + dy, 0), img.lines - 1), xx = min(max(x + dx, 0), img.samples - 1);
      v[n++] = load_as_float<T>(img.data, band + (long long)yy * img.samples + xx);
    }
  for (int i = 1; i < 9; i++) {
    float t = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > t; j--) v[j] = v[j - 1];
    v[j] = t;
  }
  float centre = load_as_float<T>(img.data, band + (long long)y * img.samples + x);
  f[((long long)b * nrows + r) * img.samples + x] = (float)(((double)centre - v[4]) * MNF_MEDIAN3_SCALE);
}

void filter_v0_median(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  dim3 block(32, 8), grid(ceil_div(img->samples, 32), ceil_div(nrows, 8), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_v0_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, f)));
}

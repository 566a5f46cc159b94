/* The difference noise estimates (not in the paper's tables), in double:
 *   diff   X(x,y) - X(x+1,y), the last column using x-1
 *   shift  ENVI's shift difference: X - (X(x+1,y) + X(x,y-1)) / 2; the last
 *          column and the first row have no estimate
 *   diag   SPy's default: X(x,y) - X(x+1,y+1); the last column and row
 *          have none
 * scaled as mnf_internal.h says. A pixel with no estimate gets 0, which
 * adds nothing to the covariance sums (the count of pixels with one is
 * mnf_noise_count's). Rows are image rows row0 + r of the whole image. */
#include "kernels.h"
#include "mnf_internal.h"

template <typename T>
__device__ __forceinline__ double value_at(const gpu_image &img, int b, int x, int y)
{
  return (double)static_cast<const T *>(img.data)[((long long)b * img.lines + y) * img.samples + x];
}

template <typename T>
__global__ void filter_diff_kernel(gpu_image img, int row0, int nrows, int noise, float *f)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (x >= img.samples || r >= nrows) return;
  int y = row0 + r;
  double v = 0.0;
  if (noise == MNF_NOISE_DIFF)
    v = (value_at<T>(img, b, x, y) - value_at<T>(img, b, x + 1 < img.samples ? x + 1 : x - 1, y)) * MNF_DIFF_SCALE;
  else if (noise == MNF_NOISE_SHIFT && x + 1 < img.samples && y > 0)
    v = (value_at<T>(img, b, x, y) - 0.5 * (value_at<T>(img, b, x + 1, y) + value_at<T>(img, b, x, y - 1))) * MNF_SHIFT_SCALE;
  else if (noise == MNF_NOISE_DIAG && x + 1 < img.samples && y + 1 < img.lines)
    v = (value_at<T>(img, b, x, y) - value_at<T>(img, b, x + 1, y + 1)) * MNF_DIFF_SCALE;
  f[((long long)b * nrows + r) * img.samples + x] = (float)v;
}

static void launch(const gpu_image *img, int row0, int nrows, int noise, float *f, cudaStream_t s)
{
  dim3 block(32, 8), grid(ceil_div(img->samples, 32), ceil_div(nrows, 8), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_diff_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, noise, f)));
}

void filter_diff(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  launch(img, row0, nrows, MNF_NOISE_DIFF, f, s);
}

void filter_shift(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  launch(img, row0, nrows, MNF_NOISE_SHIFT, f, s);
}

void filter_diag(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  launch(img, row0, nrows, MNF_NOISE_DIAG, f, s);
}

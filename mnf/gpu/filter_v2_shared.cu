/* Noise filter V2 (Table 5): the block's rows, with a one-pixel halo, are
 * staged in shared memory (S_5): each value is read from global memory
 * about once instead of nine times. */
#include "kernels.h"
#include "mnf_internal.h"

#define TW 32
#define TH 8

template <typename T>
__global__ void filter_v2_kernel(gpu_image img, int row0, int nrows, float *f)
{
  __shared__ float tile[TH + 2][TW + 2];
  int x0 = blockIdx.x * TW, r0 = blockIdx.y * TH, b = blockIdx.z;
  long long band = (long long)b * img.lines * img.samples;
  /* The tile's last rows may lie past the chunk's halo row: clamped to it,
   * they stay unused, and rows not yet uploaded (a resident image arrives
   * chunk by chunk) are never read. */
  int last = min(row0 + nrows, img.lines - 1);
  for (int i = threadIdx.y * TW + threadIdx.x; i < (TH + 2) * (TW + 2); i += TW * TH) {
    int ty = i / (TW + 2), tx = i % (TW + 2);
    int yy = min(max(row0 + r0 + ty - 1, 0), last);
    int xx = min(max(x0 + tx - 1, 0), img.samples - 1);
    tile[ty][tx] = load_as_float<T>(img.data, band + (long long)yy * img.samples + xx);
  }
  __syncthreads();
  int x = x0 + threadIdx.x, r = r0 + threadIdx.y;
  if (x >= img.samples || r >= nrows) return;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  double sum = (double)tile[ty - 1][tx - 1] + tile[ty - 1][tx] + tile[ty - 1][tx + 1] + tile[ty][tx - 1] + tile[ty][tx] +
               tile[ty][tx + 1] + tile[ty + 1][tx - 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 1];
  f[((long long)b * nrows + r) * img.samples + x] = (float)((tile[ty][tx] - sum / 9.0) * MNF_MEAN3_SCALE);
}

void filter_v2_shared(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  dim3 block(TW, TH), grid(ceil_div(img->samples, TW), ceil_div(nrows, TH), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_v2_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, f)));
}

/* Noise filter V3 (Table 5): maximal reuse of the 3x3 neighbourhood (S_6).
 * A block stages a 32 x 32 tile (plus halo) and computes each row's
 * horizontal 3-sums once; every output is then the sum of three of them,
 * so each staged value serves nine outputs through two additions instead
 * of eight, and the halo costs 13% extra loads instead of V2's 33%. */
#include "kernels.h"
#include "mnf_internal.h"

#define TW 32
#define TH 32
#define THREADS_Y 8

template <typename T>
__global__ void filter_v3_kernel(gpu_image img, int row0, int nrows, float *f)
{
  __shared__ float tile[TH + 2][TW + 2];
  __shared__ double across[TH + 2][TW]; /* double: see filter_v1_mean */
  int x0 = blockIdx.x * TW, r0 = blockIdx.y * TH, b = blockIdx.z;
  int tid = threadIdx.y * TW + threadIdx.x;
  long long band = (long long)b * img.lines * img.samples;
  /* The tile's last rows may lie past the chunk's halo row: clamped to it,
   * they stay unused, and rows not yet uploaded (a resident image arrives
   * chunk by chunk) are never read. */
  int last = min(row0 + nrows, img.lines - 1);
  for (int i = tid; i < (TH + 2) * (TW + 2); i += TW * THREADS_Y) {
    int ty = i / (TW + 2), tx = i % (TW + 2);
    int yy = min(max(row0 + r0 + ty - 1, 0), last);
    int xx = min(max(x0 + tx - 1, 0), img.samples - 1);
    tile[ty][tx] = load_as_float<T>(img.data, band + (long long)yy * img.samples + xx);
  }
  __syncthreads();
  for (int ty = threadIdx.y; ty < TH + 2; ty += THREADS_Y) {
    int tx = threadIdx.x;
    across[ty][tx] = (double)tile[ty][tx] + tile[ty][tx + 1] + tile[ty][tx + 2];
  }
  __syncthreads();
  int x = x0 + threadIdx.x;
  if (x >= img.samples) return;
  for (int ty = threadIdx.y; ty < TH; ty += THREADS_Y) {
    int r = r0 + ty;
    if (r >= nrows) break;
    double sum = across[ty][threadIdx.x] + across[ty + 1][threadIdx.x] + across[ty + 2][threadIdx.x];
    f[((long long)b * nrows + r) * img.samples + x] = (float)((tile[ty + 1][threadIdx.x + 1] - sum / 9.0) * MNF_MEAN3_SCALE);
  }
}

void filter_v3_reuse(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s)
{
  dim3 block(TW, THREADS_Y), grid(ceil_div(img->samples, TW), ceil_div(nrows, TH), img->bands);
  MNF_DISPATCH_TYPE(img->type, (filter_v3_kernel<T><<<grid, block, 0, s>>>(*img, row0, nrows, f)));
}

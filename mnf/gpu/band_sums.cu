/* Per-band sums of a bands x n matrix (for the means), blocked like the
 * covariances: float within a block's chunk, double across chunks. */
#include "kernels.h"

#define THREADS 256

template <typename T>
__global__ void band_sums_kernel(gpu_matrix a, const float *shift, double *sums)
{
  __shared__ double warp_sums[THREADS / 32];
  int b = blockIdx.y;
  float s = shift ? shift[b] : 0.0f;
  long long begin = (long long)blockIdx.x * COV_BLOCK_PIXELS, end = min(a.n, begin + COV_BLOCK_PIXELS);
  float part = 0.0f;
  for (long long k = begin + threadIdx.x; k < end; k += THREADS) part += load_as_float<T>(a.data, b * a.ld + k) - s;
  double total = part;
  for (int offset = 16; offset > 0; offset /= 2) total += __shfl_down_sync(0xffffffffu, total, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = total;
  __syncthreads();
  if (threadIdx.x == 0) {
    double block_total = 0.0;
    for (int w = 0; w < THREADS / 32; w++) block_total += warp_sums[w];
    atomicAdd(&sums[b], block_total);
  }
}

void band_sums(const gpu_matrix *a, const float *shift, double *sums, cudaStream_t s)
{
  dim3 grid(ceil_div(a->n, COV_BLOCK_PIXELS), a->bands);
  MNF_DISPATCH_TYPE(a->type, (band_sums_kernel<T><<<grid, THREADS, 0, s>>>(*a, shift, sums)));
}

/* Per-band sums of a bands x n matrix (for the means), blocked like the
 * covariances: a block sums at most COV_BLOCK_PIXELS pixels and adds its
 * total to the double result. Integer types sum exactly within a block (in
 * 64-bit integers, the shift subtracted once as n * shift), so with V8 the
 * data covariance's mean correction is as exact as its products; float data
 * sums its shifted values in float within a block. */
#include <type_traits>

#include "kernels.h"

#define THREADS 256

template <typename T>
__global__ void band_sums_kernel(gpu_matrix a, const float *shift, double *sums)
{
  /* A thread sums in long long (integer types) or float; a warp in long
   * long or double. */
  typedef typename std::conditional<std::is_integral<T>::value, long long, float>::type Acc;
  typedef typename std::conditional<std::is_integral<T>::value, long long, double>::type Red;
  __shared__ double warp_sums[THREADS / 32];
  int b = blockIdx.y;
  const T *row = static_cast<const T *>(a.data) + b * a.ld;
  long long begin = (long long)blockIdx.x * COV_BLOCK_PIXELS, end = min(a.n, begin + COV_BLOCK_PIXELS);
  const bool exact = std::is_integral<T>::value;
  const float shift_each = shift && !exact ? shift[b] : 0.0f;
  const double shift_all = shift && exact ? (double)shift[b] * (double)(end - begin) : 0.0;
  Acc part = 0;
  for (long long k = begin + threadIdx.x; k < end; k += THREADS) part += (Acc)row[k] - (Acc)shift_each;
  Red total = part;
  for (int offset = 16; offset > 0; offset /= 2) total += __shfl_down_sync(0xffffffffu, total, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = (double)total;
  __syncthreads();
  if (threadIdx.x == 0) {
    double block_total = 0.0;
    for (int w = 0; w < THREADS / 32; w++) block_total += warp_sums[w];
    atomicAdd(&sums[b], block_total - shift_all);
  }
}

void band_sums(const gpu_matrix *a, const float *shift, double *sums, cudaStream_t s)
{
  dim3 grid(ceil_div(a->n, COV_BLOCK_PIXELS), a->bands);
  MNF_DISPATCH_TYPE(a->type, (band_sums_kernel<T><<<grid, THREADS, 0, s>>>(*a, shift, sums)));
}

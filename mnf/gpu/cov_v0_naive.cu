/* Covariance V0 (Table 6): one thread per covariance element (i, j), j <= i,
 * reading both image rows from global memory. Neighbouring threads read
 * rows a whole band apart, so no load is coalesced. */
#include "kernels.h"

template <typename T>
__global__ void cov_v0_kernel(gpu_matrix a, const float *shift, double *sum)
{
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.bands || j > i) return;
  float si = shift ? shift[i] : 0.0f, sj = shift ? shift[j] : 0.0f;
  const long long ri = (long long)i * a.ld, rj = (long long)j * a.ld;
  double total = 0.0;
  for (long long k0 = 0; k0 < a.n; k0 += COV_BLOCK_PIXELS) {
    long long k1 = min(a.n, k0 + COV_BLOCK_PIXELS);
    float part = 0.0f;
    for (long long k = k0; k < k1; k++)
      part += (load_as_float<T>(a.data, ri + k) - si) * (load_as_float<T>(a.data, rj + k) - sj);
    total += part;
  }
  sum[(long long)i * a.bands + j] += total;
}

void cov_v0_naive(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  dim3 block(16, 16), grid(ceil_div(a->bands, 16), ceil_div(a->bands, 16));
  MNF_DISPATCH_TYPE(a->type, (cov_v0_kernel<T><<<grid, block, 0, s>>>(*a, shift, sum)));
}

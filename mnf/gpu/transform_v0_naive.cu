/* Transform V0 (Table 7): Z = T^T X with one thread per (component, pixel),
 * T read from global memory. Each pixel's bands are read once per
 * component. */
#include "kernels.h"

template <typename T>
__global__ void transform_v0_kernel(gpu_matrix x, const float *t, const float *shift, int components, float *z,
                                    long long ldz)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y;
  if (k >= x.n || m >= components) return;
  float acc = 0.0f;
  for (int b = 0; b < x.bands; b++)
    acc += t[(long long)m * x.bands + b] * (load_as_float<T>(x.data, b * x.ld + k) - (shift ? shift[b] : 0.0f));
  z[m * ldz + k] = acc;
}

void transform_v0_naive(const gpu_matrix *x, const float *t, const float *shift, int components, float *z, long long ldz,
                        cudaStream_t s)
{
  dim3 grid(ceil_div(x->n, 256), components);
  MNF_DISPATCH_TYPE(x->type, (transform_v0_kernel<T><<<grid, 256, 0, s>>>(*x, t, shift, components, z, ldz)));
}

/* Transform V1 (Table 7): V0 with T in __constant__ memory (C_2): all the
 * threads of a block read the same T entry at once, the broadcast constant
 * memory serves in one access. T larger than the 64 KB bank goes in groups
 * of components, one launch per group. */
#include "gpu.h"
#include "kernels.h"

#define CONST_FLOATS 16384

__constant__ float c_t[CONST_FLOATS];

template <typename T>
__global__ void transform_v1_kernel(gpu_matrix x, const float *shift, int components, float *z, long long ldz)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y;
  if (k >= x.n || m >= components) return;
  float acc = 0.0f;
  for (int b = 0; b < x.bands; b++)
    acc += c_t[m * x.bands + b] * (load_as_float<T>(x.data, b * x.ld + k) - (shift ? shift[b] : 0.0f));
  z[m * ldz + k] = acc;
}

void transform_v1_constant(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                           long long ldz, cudaStream_t s)
{
  int group = CONST_FLOATS / x->bands;
  for (int m0 = 0; m0 < components; m0 += group) {
    int count = components - m0 < group ? components - m0 : group;
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_t, t + (long long)m0 * x->bands, sizeof(float) * count * x->bands, 0,
                                       cudaMemcpyDeviceToDevice, s));
    dim3 grid(ceil_div(x->n, 256), count);
    float *zg = z + m0 * ldz;
    MNF_DISPATCH_TYPE(x->type, (transform_v1_kernel<T><<<grid, 256, 0, s>>>(*x, shift, count, zg, ldz)));
  }
}

/* Transform V2 (Table 7): T in __constant__ memory as in V1, and the image
 * staged in shared memory tile by tile (32 bands x 256 pixels, S_5 + S_6):
 * each thread computes up to 16 components of its pixel, so an image value
 * is read from global memory once per 16 components instead of once per
 * component. In constant memory T is stored band by band (the components
 * of one band side by side), so the 16 values a thread needs for one band
 * share a cache line of the constant cache. */
#include "gpu.h"
#include "kernels.h"

#define CONST_FLOATS 16384
#define THREADS 256
#define BAND_TILE 32
#define GROUP 16

__constant__ float c_t[CONST_FLOATS];
__device__ float g_staging[CONST_FLOATS];

/* g_staging[b * count + m] = t[(m0 + m) * bands + b]. */
__global__ void transpose_group_kernel(const float *t, int bands, int m0, int count)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bands * count) g_staging[i] = t[(long long)(m0 + i % count) * bands + i / count];
}

/* components: how many this launch computes (the row length of c_t). */
template <typename T>
__global__ void transform_v2_kernel(gpu_matrix x, const float *shift, int components, float *z, long long ldz)
{
  __shared__ float tile[BAND_TILE][THREADS];
  long long k = (long long)blockIdx.x * THREADS + threadIdx.x;
  int m0 = blockIdx.y * GROUP;
  float acc[GROUP] = {};
  for (int b0 = 0; b0 < x.bands; b0 += BAND_TILE) {
    int nb = min(BAND_TILE, x.bands - b0);
    for (int b = 0; b < nb; b++)
      tile[b][threadIdx.x] =
          k < x.n ? load_as_float<T>(x.data, (b0 + b) * x.ld + k) - (shift ? shift[b0 + b] : 0.0f) : 0.0f;
    __syncthreads();
    for (int b = 0; b < nb; b++) {
      float v = tile[b][threadIdx.x];
#pragma unroll
      for (int m = 0; m < GROUP; m++)
        if (m0 + m < components) acc[m] += c_t[(b0 + b) * components + m0 + m] * v;
    }
    __syncthreads();
  }
  if (k >= x.n) return;
#pragma unroll
  for (int m = 0; m < GROUP; m++)
    if (m0 + m < components) z[(m0 + m) * ldz + k] = acc[m];
}

void transform_v2_shared(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                         long long ldz, cudaStream_t s)
{
  /* Whole groups of GROUP components per constant-memory load; with more
   * than 1024 bands not even one group fits, and V1 does the work. */
  int per_load = CONST_FLOATS / x->bands / GROUP * GROUP;
  if (per_load < GROUP) {
    transform_v1_constant(x, t, shift, components, z, ldz, s);
    return;
  }
  for (int m0 = 0; m0 < components; m0 += per_load) {
    int count = components - m0 < per_load ? components - m0 : per_load;
    float *staging;
    CUDA_CHECK(cudaGetSymbolAddress((void **)&staging, g_staging));
    transpose_group_kernel<<<ceil_div((long long)count * x->bands, 256), 256, 0, s>>>(t, x->bands, m0, count);
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_t, staging, sizeof(float) * count * x->bands, 0, cudaMemcpyDeviceToDevice, s));
    dim3 grid(ceil_div(x->n, THREADS), ceil_div(count, GROUP));
    float *zg = z + m0 * ldz;
    MNF_DISPATCH_TYPE(x->type, (transform_v2_kernel<T><<<grid, THREADS, 0, s>>>(*x, shift, count, zg, ldz)));
  }
}

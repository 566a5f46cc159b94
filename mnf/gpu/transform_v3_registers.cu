/* Transform V3 (Table 7, beyond the paper): every component of a pixel in
 * registers, T in shared memory. Run 7 measured V2 at 1.53 ms on image 1,
 * twelve times the floor of this step (the int16 image read once and the
 * components written once, about 0.12 ms at 3 TB/s): V2 indexes its
 * constant-memory T with a run-time offset, which costs a constant load per
 * multiply-add, and its second group of 16 components (of 20) reads the
 * whole image again for 4 of them. Here a thread keeps up to 32 components
 * of two pixels in registers, so the image is read once; the T entries of
 * a band are the same for every thread, so a warp reads them as shared
 * memory broadcasts, four at a time (one 16-byte load serves eight
 * multiply-adds). T goes through shared memory in tiles of bands, so any
 * band count fits. */
#include "gpu.h"
#include "kernels.h"

#define THREADS 256
#define PIXELS 2 /* per thread, THREADS apart: the loads stay coalesced */
#define BAND_TILE 64
#define MAX_GROUP 32

/* z rows m0 .. m0 + count - 1, count <= MT; T's rows past count are staged
 * as zeros, so the inner loop needs no bounds. */
template <typename T, int MT>
__global__ void __launch_bounds__(THREADS) transform_v3_kernel(gpu_matrix x, const float *t, const float *shift, int m0,
                                                               int count, float *z, long long ldz)
{
  __shared__ __align__(16) float ts[BAND_TILE][MT];
  __shared__ float shift_s[BAND_TILE];
  const long long k0 = (long long)blockIdx.x * THREADS * PIXELS + threadIdx.x;
  const T *data = static_cast<const T *>(x.data);
  float acc[PIXELS][MT] = {};
  for (int b0 = 0; b0 < x.bands; b0 += BAND_TILE) {
    int nb = min(BAND_TILE, x.bands - b0);
    __syncthreads(); /* the previous tile is no longer read */
    for (int i = threadIdx.x; i < BAND_TILE * MT; i += THREADS) {
      int b = i / MT, m = i % MT;
      ts[b][m] = b < nb && m < count ? t[(long long)(m0 + m) * x.bands + b0 + b] : 0.0f;
    }
    if (threadIdx.x < BAND_TILE) shift_s[threadIdx.x] = shift && threadIdx.x < nb ? shift[b0 + threadIdx.x] : 0.0f;
    __syncthreads();
#pragma unroll 4
    for (int b = 0; b < nb; b++) {
      float v[PIXELS];
#pragma unroll
      for (int p = 0; p < PIXELS; p++) {
        long long k = k0 + p * THREADS;
        v[p] = k < x.n ? (float)data[(b0 + b) * x.ld + k] - shift_s[b] : 0.0f;
      }
#pragma unroll
      for (int m = 0; m < MT; m += 4) {
        float4 w = *reinterpret_cast<const float4 *>(&ts[b][m]);
#pragma unroll
        for (int p = 0; p < PIXELS; p++) {
          acc[p][m] += w.x * v[p];
          acc[p][m + 1] += w.y * v[p];
          acc[p][m + 2] += w.z * v[p];
          acc[p][m + 3] += w.w * v[p];
        }
      }
    }
  }
#pragma unroll
  for (int p = 0; p < PIXELS; p++) {
    long long k = k0 + p * THREADS;
    if (k >= x.n) continue;
#pragma unroll
    for (int m = 0; m < MT; m++)
      if (m < count) z[(m0 + m) * ldz + k] = acc[p][m];
  }
}

template <typename T>
static void launch_group(const gpu_matrix *x, const float *t, const float *shift, int m0, int count, float *z,
                         long long ldz, cudaStream_t s)
{
  dim3 grid(ceil_div(x->n, THREADS * PIXELS));
  /* The smallest register tile that holds the group: 20 components run as 24, not 32. */
  if (count <= 8) transform_v3_kernel<T, 8><<<grid, THREADS, 0, s>>>(*x, t, shift, m0, count, z, ldz);
  else if (count <= 16) transform_v3_kernel<T, 16><<<grid, THREADS, 0, s>>>(*x, t, shift, m0, count, z, ldz);
  else if (count <= 24) transform_v3_kernel<T, 24><<<grid, THREADS, 0, s>>>(*x, t, shift, m0, count, z, ldz);
  else transform_v3_kernel<T, MAX_GROUP><<<grid, THREADS, 0, s>>>(*x, t, shift, m0, count, z, ldz);
}

void transform_v3_registers(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                            long long ldz, cudaStream_t s)
{
  if (x->n <= 0) return;
  for (int m0 = 0; m0 < components; m0 += MAX_GROUP) {
    int count = components - m0 < MAX_GROUP ? components - m0 : MAX_GROUP;
    MNF_DISPATCH_TYPE(x->type, (launch_group<T>(x, t, shift, m0, count, z, ldz, s)));
  }
}

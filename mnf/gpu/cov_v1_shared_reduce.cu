/* Covariance V1 (Table 6): one block per covariance element; its threads
 * stride over the pixels together (coalesced) and the partial sums are
 * reduced in shared memory (S_5). Every product is added straight into the
 * thread's shared-memory slot: the temporaries live in shared memory. */
#include "kernels.h"

#define THREADS 256

template <typename T>
__global__ void cov_v1_kernel(gpu_matrix a, const float *shift, double *sum)
{
  __shared__ float partial[THREADS];
  __shared__ double reduce[THREADS];
  int i = blockIdx.y, j = blockIdx.x;
  if (j > i) return;
  float si = shift ? shift[i] : 0.0f, sj = shift ? shift[j] : 0.0f;
  const long long ri = (long long)i * a.ld, rj = (long long)j * a.ld;
  /* volatile: every update really goes to shared memory, as in the paper's
   * V1, instead of the compiler keeping it in a register (that is V2). */
  volatile float *slot = &partial[threadIdx.x];
  double total = 0.0;
  /* Each thread touches n / THREADS pixels; flush its float slot to the
   * double total every COV_BLOCK_PIXELS of them. */
  const long long stride = (long long)THREADS * COV_BLOCK_PIXELS;
  for (long long k0 = 0; k0 < a.n; k0 += stride) {
    long long k1 = min(a.n, k0 + stride);
    *slot = 0.0f;
    for (long long k = k0 + threadIdx.x; k < k1; k += THREADS)
      *slot += (load_as_float<T>(a.data, ri + k) - si) * (load_as_float<T>(a.data, rj + k) - sj);
    total += *slot;
  }
  reduce[threadIdx.x] = total;
  __syncthreads();
  for (int half = THREADS / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) reduce[threadIdx.x] += reduce[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sum[(long long)i * a.bands + j] += reduce[0];
}

void cov_v1_shared_reduce(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  dim3 grid(a->bands, a->bands);
  MNF_DISPATCH_TYPE(a->type, (cov_v1_kernel<T><<<grid, THREADS, 0, s>>>(*a, shift, sum)));
}

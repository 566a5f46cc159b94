/* The float64 covariance (issue 11): cov_fp64_add in kernels.h. Products of
 * floats are exact in double, so what V7 loses (float sums over 8192
 * pixels: eigenvalues near 1 off by 1-3e-8 times the condition number) is
 * gone; the H100 runs Dgemm on its FP64 tensor cores (DMMA) at the order of
 * its FP32 rate. Slices of FP64_SLICE pixels keep the buffer small and
 * each product tall enough for cuBLAS's split-K. */
#include <cublas_v2.h>

#include "gpu.h"
#include "kernels.h"

#define FP64_SLICE 131072LL

size_t cov_fp64_bytes(int bands, long long max_pixels)
{
  long long slice = max_pixels < FP64_SLICE ? max_pixels : FP64_SLICE;
  return sizeof(double) * (size_t)bands * (size_t)(slice > 0 ? slice : 1);
}

void cov_fp64_create(cov_fp64 *c, int bands, long long max_pixels, int routine, cudaStream_t s)
{
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, s));
  c->blas = h;
  c->bands = bands;
  c->routine = routine;
  c->slice = max_pixels < FP64_SLICE ? max_pixels : FP64_SLICE;
  if (c->slice < 1) c->slice = 1;
  CUDA_CHECK(cudaMalloc(&c->scratch, cov_fp64_bytes(bands, max_pixels)));
}

void cov_fp64_destroy(cov_fp64 *c)
{
  if (c->blas) cublasDestroy((cublasHandle_t)c->blas);
  cudaFree(c->scratch);
  c->blas = NULL;
  c->scratch = NULL;
}

/* out[b * n + k] = a[b][k0 + k] - shift[b], in double. */
template <typename T>
__global__ void to_double_kernel(gpu_matrix a, const float *shift, long long k0, long long n, double *out)
{
  const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int b = blockIdx.y;
  if (k >= n) return;
  const double s = shift ? (double)shift[b] : 0.0;
  out[b * n + k] = (double)static_cast<const T *>(a.data)[b * a.ld + k0 + k] - s;
}

void cov_fp64_add(cov_fp64 *c, const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s)
{
  cublasHandle_t h = (cublasHandle_t)c->blas;
  CUBLAS_CHECK(cublasSetStream(h, s));
  const double one = 1.0;
  const int B = a->bands;
  for (long long k0 = 0; k0 < a->n; k0 += c->slice) {
    long long n = a->n - k0 < c->slice ? a->n - k0 : c->slice;
    dim3 grid(ceil_div(n, 256), B);
    MNF_DISPATCH_TYPE(a->type, (to_double_kernel<T><<<grid, 256, 0, s>>>(*a, shift, k0, n, c->scratch)));
    CUDA_CHECK_LAUNCH();
    /* The slice is column-major n x B (lda n); sum is B x B, symmetric, and
     * its row-major lower triangle is cuBLAS's column-major upper one. */
    if (c->routine == COV_FP64_DSYRK)
      CUBLAS_CHECK(cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, B, (int)n, &one, c->scratch, (int)n, &one, sum, B));
    else
      CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, B, B, (int)n, &one, c->scratch, (int)n, c->scratch, (int)n,
                               &one, sum, B));
  }
}

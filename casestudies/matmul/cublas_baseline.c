/* The library baselines: cuBLAS SGEMM in strict FP32 and, as another class
 * of arithmetic, on the TF32 tensor cores.
 *
 * cuBLAS is column-major. A row-major M x N matrix is the same bytes as its
 * column-major N x M transpose, and (A*B)^T = B^T * A^T, so row-major
 * C = A*B is the column-major product B^T A^T with the operands swapped and
 * no transposition flags.
 *
 * "Strict FP32" is CUBLAS_DEFAULT_MATH: for cublasSgemm that never uses
 * TF32 (TF32 needs CUBLAS_TF32_TENSOR_OP_MATH or a FAST_TF32 compute type).
 * CUBLAS_PEDANTIC_MATH, which also rules out any reduced-precision internal
 * step, is timed alongside so the two strict modes can be compared. */
#include <cublas_v2.h>

#include "gpu.h"
#include "matmul.h"

enum { STRICT, PEDANTIC, TF32, HANDLES };
static cublasHandle_t handles[HANDLES];

static cublasHandle_t handle_for(int which) {
  static const cublasMath_t modes[HANDLES] = {CUBLAS_DEFAULT_MATH, CUBLAS_PEDANTIC_MATH,
                                              CUBLAS_DEFAULT_MATH};
  if (!handles[which]) {
    CUBLAS_CHECK(cublasCreate(&handles[which]));
    CUBLAS_CHECK(cublasSetMathMode(handles[which], modes[which]));
  }
  return handles[which];
}

static void sgemm_row_major(cublasHandle_t handle, const matmul_args *p) {
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, p->N, p->M, p->K, &p->alpha,
                           p->B, p->N, p->A, p->K, &p->beta, p->C, p->N));
}

static void launch_strict(const matmul_args *p) { sgemm_row_major(handle_for(STRICT), p); }
static void launch_pedantic(const matmul_args *p) { sgemm_row_major(handle_for(PEDANTIC), p); }

static void launch_tf32(const matmul_args *p) {
  CUBLAS_CHECK(cublasGemmEx(handle_for(TF32), CUBLAS_OP_N, CUBLAS_OP_N, p->N, p->M, p->K,
                            &p->alpha, p->B, CUDA_R_32F, p->N, p->A, CUDA_R_32F, p->K,
                            &p->beta, p->C, CUDA_R_32F, p->N, CUBLAS_COMPUTE_32F_FAST_TF32,
                            CUBLAS_GEMM_DEFAULT));
}

void matmul_release_library(void) {
  for (int i = 0; i < HANDLES; i++) {
    if (handles[i]) CUBLAS_CHECK(cublasDestroy(handles[i]));
    handles[i] = NULL;
  }
}

const matmul_version matmul_cublas_fp32 = {
  "cublas_fp32", "cublasSgemm, CUBLAS_DEFAULT_MATH (strict FP32, no TF32)",
  0, 0, 0, MATMUL_FP32, true, launch_strict, NULL, NULL};

const matmul_version matmul_cublas_pedantic = {
  "cublas_fp32_pedantic", "cublasSgemm, CUBLAS_PEDANTIC_MATH",
  0, 0, 0, MATMUL_FP32, true, launch_pedantic, NULL, NULL};

const matmul_version matmul_cublas_tf32 = {
  "cublas_tf32", "cublasGemmEx, COMPUTE_32F_FAST_TF32 (tensor cores; not FP32)",
  0, 0, 0, MATMUL_TF32, true, launch_tf32, NULL, NULL};

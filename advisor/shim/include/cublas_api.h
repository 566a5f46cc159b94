/* warplint stand-in for cublas_api.h (cuBLAS, v2 API): handles, enums and
 * the common BLAS calls, declarations only, so that files using cuBLAS parse
 * without the toolkit's headers (which pull in cuda_fp16.hpp and friends
 * that the shim cannot satisfy). Kernels never call these. */
#ifndef WARPLINT_CUBLAS_API_H
#define WARPLINT_CUBLAS_API_H
#define CUBLAS_API_H_ /* the real guard, which helper headers test */
#include "library_types.h"
#include <stdint.h>
#include "cuda_bf16.h" /* and cuda_fp16.h: the real header includes both */
#include "cuComplex.h"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8, CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15, CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3
} cublasMath_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75, CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_32I = 72
} cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
typedef struct cublasContext *cublasHandle_t;

#ifdef __cplusplus
extern "C" {
#endif
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t bytes);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);

/* Level 1. */
cublasStatus_t cublasSdot_v2(cublasHandle_t, int n, const float *x, int incx, const float *y, int incy, float *result);
cublasStatus_t cublasDdot_v2(cublasHandle_t, int n, const double *x, int incx, const double *y, int incy, double *result);
cublasStatus_t cublasSaxpy_v2(cublasHandle_t, int n, const float *alpha, const float *x, int incx, float *y, int incy);
cublasStatus_t cublasDaxpy_v2(cublasHandle_t, int n, const double *alpha, const double *x, int incx, double *y, int incy);
cublasStatus_t cublasSscal_v2(cublasHandle_t, int n, const float *alpha, float *x, int incx);
cublasStatus_t cublasDscal_v2(cublasHandle_t, int n, const double *alpha, double *x, int incx);
cublasStatus_t cublasScopy_v2(cublasHandle_t, int n, const float *x, int incx, float *y, int incy);
cublasStatus_t cublasDcopy_v2(cublasHandle_t, int n, const double *x, int incx, double *y, int incy);
cublasStatus_t cublasSnrm2_v2(cublasHandle_t, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDnrm2_v2(cublasHandle_t, int n, const double *x, int incx, double *result);
cublasStatus_t cublasSasum_v2(cublasHandle_t, int n, const float *x, int incx, float *result);
cublasStatus_t cublasIsamax_v2(cublasHandle_t, int n, const float *x, int incx, int *result);

/* Level 2. */
cublasStatus_t cublasSgemv_v2(cublasHandle_t, cublasOperation_t trans, int m, int n, const float *alpha,
                              const float *A, int lda, const float *x, int incx, const float *beta,
                              float *y, int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t, cublasOperation_t trans, int m, int n, const double *alpha,
                              const double *A, int lda, const double *x, int incx, const double *beta,
                              double *y, int incy);
cublasStatus_t cublasSger_v2(cublasHandle_t, int m, int n, const float *alpha, const float *x, int incx,
                             const float *y, int incy, float *A, int lda);
cublasStatus_t cublasDger_v2(cublasHandle_t, int m, int n, const double *alpha, const double *x, int incx,
                             const double *y, int incy, double *A, int lda);
cublasStatus_t cublasSsymv_v2(cublasHandle_t, cublasFillMode_t uplo, int n, const float *alpha,
                              const float *A, int lda, const float *x, int incx, const float *beta,
                              float *y, int incy);

/* Level 3. */
cublasStatus_t cublasSgemm_v2(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const float *alpha, const float *A, int lda, const float *B,
                              int ldb, const float *beta, float *C, int ldc);
cublasStatus_t cublasDgemm_v2(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const double *alpha, const double *A, int lda,
                              const double *B, int ldb, const double *beta, double *C, int ldc);
cublasStatus_t cublasHgemm(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m,
                           int n, int k, const __half *alpha, const __half *A, int lda, const __half *B,
                           int ldb, const __half *beta, __half *C, int ldc);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         long long strideA, const float *B, int ldb, long long strideB,
                                         const float *beta, float *C, int ldc, long long strideC,
                                         int batchCount);
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m,
                            int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                            const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo);
cublasStatus_t cublasSsyrk_v2(cublasHandle_t, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const float *alpha, const float *A, int lda, const float *beta, float *C,
                              int ldc);
cublasStatus_t cublasDsyrk_v2(cublasHandle_t, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const double *alpha, const double *A, int lda, const double *beta,
                              double *C, int ldc);
cublasStatus_t cublasSsymm_v2(cublasHandle_t, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,
                              const float *alpha, const float *A, int lda, const float *B, int ldb,
                              const float *beta, float *C, int ldc);
cublasStatus_t cublasStrsm_v2(cublasHandle_t, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                              const float *alpha, const float *A, int lda, float *B, int ldb);
cublasStatus_t cublasDtrsm_v2(cublasHandle_t, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                              const double *alpha, const double *A, int lda, double *B, int ldb);
cublasStatus_t cublasSgeam(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const float *alpha, const float *A, int lda, const float *beta, const float *B,
                           int ldb, float *C, int ldc);
/* Helpers, extensions and batched forms seen in real code. */
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasDotEx(cublasHandle_t, int n, const void *x, cudaDataType xType, int incx, const void *y,
                           cudaDataType yType, int incy, void *result, cudaDataType resultType,
                           cudaDataType executionType);
cublasStatus_t cublasSnrm2_64(cublasHandle_t, int64_t n, const float *x, int64_t incx, float *result);
cublasStatus_t cublasIcamax_64(cublasHandle_t, int64_t n, const cuComplex *x, int64_t incx, int64_t *result);
cublasStatus_t cublasCgemm_64(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                              int64_t n, int64_t k, const cuComplex *alpha, const cuComplex *A, int64_t lda,
                              const cuComplex *B, int64_t ldb, const cuComplex *beta, cuComplex *C, int64_t ldc);
cublasStatus_t cublasCdgmm_64(cublasHandle_t, cublasSideMode_t mode, int64_t m, int64_t n, const cuComplex *A,
                              int64_t lda, const cuComplex *x, int64_t incx, cuComplex *C, int64_t ldc);
cublasStatus_t cublasDgeam(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const double *alpha, const double *A, int lda, const double *beta, const double *B,
                           int ldb, double *C, int ldc);
#define WL_CUBLAS_GEMM_BATCHED(p, T) \
  cublasStatus_t cublas##p##gemmBatched(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, \
                                        int n, int k, const T *alpha, const T *const Aarray[], int lda, \
                                        const T *const Barray[], int ldb, const T *beta, T *const Carray[], int ldc, \
                                        int batchCount);
WL_CUBLAS_GEMM_BATCHED(H, __half) WL_CUBLAS_GEMM_BATCHED(S, float) WL_CUBLAS_GEMM_BATCHED(D, double)
WL_CUBLAS_GEMM_BATCHED(C, cuComplex) WL_CUBLAS_GEMM_BATCHED(Z, cuDoubleComplex)
#undef WL_CUBLAS_GEMM_BATCHED
#define WL_CUBLAS_GEMM_STRIDED(p, T) \
  cublasStatus_t cublas##p##gemmStridedBatched(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, \
                                               int m, int n, int k, const T *alpha, const T *A, int lda, \
                                               long long strideA, const T *B, int ldb, long long strideB, \
                                               const T *beta, T *C, int ldc, long long strideC, int batchCount);
WL_CUBLAS_GEMM_STRIDED(H, __half) WL_CUBLAS_GEMM_STRIDED(D, double) WL_CUBLAS_GEMM_STRIDED(C, cuComplex)
WL_CUBLAS_GEMM_STRIDED(Z, cuDoubleComplex)
#undef WL_CUBLAS_GEMM_STRIDED
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m,
                                          int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                   int k, const void *alpha, const void *const Aarray[], cudaDataType Atype,
                                   int lda, const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
#define WL_CUBLAS_LAPACK_BATCHED(p, T) \
  cublasStatus_t cublas##p##getrfBatched(cublasHandle_t, int n, T *const A[], int lda, int *P, int *info, \
                                         int batchSize); \
  cublasStatus_t cublas##p##getrsBatched(cublasHandle_t, cublasOperation_t trans, int n, int nrhs, \
                                         const T *const Aarray[], int lda, const int *devIpiv, \
                                         T *const Barray[], int ldb, int *info, int batchSize); \
  cublasStatus_t cublas##p##getriBatched(cublasHandle_t, int n, const T *const A[], int lda, const int *P, \
                                         T *const C[], int ldc, int *info, int batchSize); \
  cublasStatus_t cublas##p##gelsBatched(cublasHandle_t, cublasOperation_t trans, int m, int n, int nrhs, \
                                        T *const Aarray[], int lda, T *const Carray[], int ldc, int *info, \
                                        int *devInfoArray, int batchSize);
WL_CUBLAS_LAPACK_BATCHED(S, float) WL_CUBLAS_LAPACK_BATCHED(D, double) WL_CUBLAS_LAPACK_BATCHED(C, cuComplex)
WL_CUBLAS_LAPACK_BATCHED(Z, cuDoubleComplex)
#undef WL_CUBLAS_LAPACK_BATCHED
#ifdef __cplusplus
}
#endif
#endif

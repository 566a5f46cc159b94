/* warplint stand-in for cusolverDn.h (dense cuSOLVER): handles and the
 * common factorisations and eigen-solvers, declarations only. */
#ifndef WARPLINT_CUSOLVERDN_H
#define WARPLINT_CUSOLVERDN_H
#include "cublas_api.h"
#include "cusolver_common.h"
typedef struct cusolverDnContext *cusolverDnHandle_t;
typedef struct syevjInfo *syevjInfo_t;
typedef struct cusolverDnParams *cusolverDnParams_t;
#ifdef __cplusplus
extern "C" {
#endif
cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle);
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t stream);
cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t *stream);
cusolverStatus_t cusolverDnSsyevd_bufferSize(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const float *A, int lda, const float *W, int *lwork);
cusolverStatus_t cusolverDnDsyevd_bufferSize(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const double *A, int lda, const double *W, int *lwork);
cusolverStatus_t cusolverDnSsyevd(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  float *A, int lda, float *W, float *work, int lwork, int *info);
cusolverStatus_t cusolverDnDsyevd(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  double *A, int lda, double *W, double *work, int lwork, int *info);
cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t *info);
cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info);
cusolverStatus_t cusolverDnDsyevj_bufferSize(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const double *A, int lda, const double *W, int *lwork,
                                             syevjInfo_t params);
cusolverStatus_t cusolverDnDsyevj(cusolverDnHandle_t, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  double *A, int lda, double *W, double *work, int lwork, int *info,
                                  syevjInfo_t params);
cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t *params);
cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t params);
cusolverStatus_t cusolverDnXsyevd_bufferSize(cusolverDnHandle_t, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                             cublasFillMode_t uplo, long long n, cudaDataType dataTypeA,
                                             const void *A, long long lda, cudaDataType dataTypeW, const void *W,
                                             cudaDataType computeType, size_t *workspaceInBytesOnDevice,
                                             size_t *workspaceInBytesOnHost);
cusolverStatus_t cusolverDnXsyevd(cusolverDnHandle_t, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                  cublasFillMode_t uplo, long long n, cudaDataType dataTypeA, void *A, long long lda,
                                  cudaDataType dataTypeW, void *W, cudaDataType computeType, void *bufferOnDevice,
                                  size_t workspaceInBytesOnDevice, void *bufferOnHost, size_t workspaceInBytesOnHost,
                                  int *info);
cusolverStatus_t cusolverDnSpotrf_bufferSize(cusolverDnHandle_t, cublasFillMode_t uplo, int n, float *A,
                                             int lda, int *lwork);
cusolverStatus_t cusolverDnDpotrf_bufferSize(cusolverDnHandle_t, cublasFillMode_t uplo, int n, double *A,
                                             int lda, int *lwork);
cusolverStatus_t cusolverDnSpotrf(cusolverDnHandle_t, cublasFillMode_t uplo, int n, float *A, int lda,
                                  float *work, int lwork, int *info);
cusolverStatus_t cusolverDnDpotrf(cusolverDnHandle_t, cublasFillMode_t uplo, int n, double *A, int lda,
                                  double *work, int lwork, int *info);
cusolverStatus_t cusolverDnDgetrf_bufferSize(cusolverDnHandle_t, int m, int n, double *A, int lda, int *lwork);
cusolverStatus_t cusolverDnDgetrf(cusolverDnHandle_t, int m, int n, double *A, int lda, double *work,
                                  int *ipiv, int *info);
cusolverStatus_t cusolverDnDgetrs(cusolverDnHandle_t, cublasOperation_t trans, int n, int nrhs,
                                  const double *A, int lda, const int *ipiv, double *B, int ldb, int *info);
cusolverStatus_t cusolverDnDgesvd_bufferSize(cusolverDnHandle_t, int m, int n, int *lwork);
cusolverStatus_t cusolverDnDgesvd(cusolverDnHandle_t, signed char jobu, signed char jobvt, int m, int n,
                                  double *A, int lda, double *S, double *U, int ldu, double *VT, int ldvt,
                                  double *work, int lwork, double *rwork, int *info);
cusolverStatus_t cusolverDnSgesvd_bufferSize(cusolverDnHandle_t, int m, int n, int *lwork);
cusolverStatus_t cusolverDnCgesvd_bufferSize(cusolverDnHandle_t, int m, int n, int *lwork);
cusolverStatus_t cusolverDnZgesvd_bufferSize(cusolverDnHandle_t, int m, int n, int *lwork);
cusolverStatus_t cusolverDnSgesvd(cusolverDnHandle_t, signed char jobu, signed char jobvt, int m, int n, float *A,
                                  int lda, float *S, float *U, int ldu, float *VT, int ldvt, float *work, int lwork,
                                  float *rwork, int *info);
cusolverStatus_t cusolverDnCgesvd(cusolverDnHandle_t, signed char jobu, signed char jobvt, int m, int n,
                                  cuComplex *A, int lda, float *S, cuComplex *U, int ldu, cuComplex *VT, int ldvt,
                                  cuComplex *work, int lwork, float *rwork, int *info);
cusolverStatus_t cusolverDnZgesvd(cusolverDnHandle_t, signed char jobu, signed char jobvt, int m, int n,
                                  cuDoubleComplex *A, int lda, double *S, cuDoubleComplex *U, int ldu,
                                  cuDoubleComplex *VT, int ldvt, cuDoubleComplex *work, int lwork, double *rwork,
                                  int *info);
#ifdef __cplusplus
}
#endif
#endif

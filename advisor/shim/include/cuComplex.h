/* warplint stand-in for cuComplex.h: single and double complex numbers as
 * float2 and double2, with the arithmetic helpers, host and device. */
#ifndef WARPLINT_CUCOMPLEX_H
#define WARPLINT_CUCOMPLEX_H
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
#define WL_CUCOMPLEX(C, R, s) \
  __host__ __device__ R cuCreal##s(C x); __host__ __device__ R cuCimag##s(C x); \
  __host__ __device__ C cuConj##s(C x); __host__ __device__ C cuCadd##s(C x, C y); \
  __host__ __device__ C cuCsub##s(C x, C y); __host__ __device__ C cuCmul##s(C x, C y); \
  __host__ __device__ C cuCdiv##s(C x, C y); __host__ __device__ R cuCabs##s(C x); \
  __host__ __device__ C cuCfma##s(C x, C y, C d);
WL_CUCOMPLEX(cuFloatComplex, float, f)
WL_CUCOMPLEX(cuDoubleComplex, double, )
#undef WL_CUCOMPLEX
__host__ __device__ cuFloatComplex make_cuFloatComplex(float r, float i);
__host__ __device__ cuDoubleComplex make_cuDoubleComplex(double r, double i);
__host__ __device__ cuComplex make_cuComplex(float x, float y);
__host__ __device__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c);
__host__ __device__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c);
#endif

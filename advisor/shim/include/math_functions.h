/* warplint stand-in for math_functions.h: the device forms of the CUDA Math
 * API's single- and double-precision functions (float name##f, double
 * name, and the float overloads C++ code calls without the suffix), and the
 * integer min/max/abs family. The host forms come from <math.h> and
 * <cmath>, which cuda_shim.h includes as the real cuda_runtime.h does;
 * clang lets a __device__ function overload a __host__ one. Declarations
 * only; pointers that are only read are const. */
#ifndef WARPLINT_MATH_FUNCTIONS_H
#define WARPLINT_MATH_FUNCTIONS_H

#define WL_MATH1(name) \
  __device__ float name##f(float x); __device__ double name(double x); __device__ float name(float x);
#define WL_MATH2(name) \
  __device__ float name##f(float x, float y); __device__ double name(double x, double y); \
  __device__ float name(float x, float y);
#define WL_MATH3(name) \
  __device__ float name##f(float x, float y, float z); __device__ double name(double x, double y, double z); \
  __device__ float name(float x, float y, float z);
WL_MATH1(acos) WL_MATH1(acosh) WL_MATH1(asin) WL_MATH1(asinh) WL_MATH1(atan) WL_MATH1(atanh) WL_MATH1(cbrt)
WL_MATH1(ceil) WL_MATH1(cos) WL_MATH1(cosh) WL_MATH1(cospi) WL_MATH1(cyl_bessel_i0) WL_MATH1(cyl_bessel_i1)
WL_MATH1(erf) WL_MATH1(erfc) WL_MATH1(erfcinv) WL_MATH1(erfcx) WL_MATH1(erfinv) WL_MATH1(exp) WL_MATH1(exp10)
WL_MATH1(exp2) WL_MATH1(expm1) WL_MATH1(fabs) WL_MATH1(floor) WL_MATH1(j0) WL_MATH1(j1) WL_MATH1(lgamma)
WL_MATH1(log) WL_MATH1(log10) WL_MATH1(log1p) WL_MATH1(log2) WL_MATH1(logb) WL_MATH1(nearbyint)
WL_MATH1(normcdf) WL_MATH1(normcdfinv) WL_MATH1(rcbrt) WL_MATH1(rint) WL_MATH1(round) WL_MATH1(rsqrt)
WL_MATH1(sin) WL_MATH1(sinh) WL_MATH1(sinpi) WL_MATH1(sqrt) WL_MATH1(tan) WL_MATH1(tanh) WL_MATH1(tgamma)
WL_MATH1(trunc) WL_MATH1(y0) WL_MATH1(y1)
WL_MATH2(atan2) WL_MATH2(copysign) WL_MATH2(fdim) WL_MATH2(fmax) WL_MATH2(fmin) WL_MATH2(fmod)
WL_MATH2(hypot) WL_MATH2(nextafter) WL_MATH2(pow) WL_MATH2(remainder) WL_MATH2(rhypot)
WL_MATH3(fma) WL_MATH3(norm3d) WL_MATH3(rnorm3d)
#undef WL_MATH1
#undef WL_MATH2
#undef WL_MATH3
#define WL_MATH_FD(decl) decl(float, f) decl(double, )
#define WL_MATH_MISC(T, s) \
  __device__ T frexp##s(T x, int *exp); __device__ T ldexp##s(T x, int exp); __device__ T modf##s(T x, T *iptr); \
  __device__ T scalbn##s(T x, int n); __device__ T scalbln##s(T x, long n); __device__ int ilogb##s(T x); \
  __device__ long lrint##s(T x); __device__ long lround##s(T x); __device__ long long llrint##s(T x); \
  __device__ long long llround##s(T x); __device__ T jn##s(int n, T x); __device__ T yn##s(int n, T x); \
  __device__ T remquo##s(T x, T y, int *quo); __device__ void sincos##s(T x, T *sptr, T *cptr); \
  __device__ void sincospi##s(T x, T *sptr, T *cptr); __device__ T nan##s(const char *tag); \
  __device__ T norm4d##s(T a, T b, T c, T d); __device__ T rnorm4d##s(T a, T b, T c, T d); \
  __device__ T norm##s(int dim, const T *p); __device__ T rnorm##s(int dim, const T *p); \
  __device__ T powi##s(T x, int y);
WL_MATH_FD(WL_MATH_MISC)
#undef WL_MATH_MISC
#undef WL_MATH_FD
__device__ float frexp(float x, int *exp);
__device__ float ldexp(float x, int exp);
__device__ float modf(float x, float *iptr);
__device__ void sincos(float x, float *sptr, float *cptr);
__device__ float fdividef(float x, float y);
__device__ int signbit(float x);
__device__ int signbit(double x);
__device__ bool isfinite(float x);
__device__ bool isfinite(double x);
__device__ bool isinf(float x);
__device__ bool isinf(double x);
__device__ bool isnan(float x);
__device__ bool isnan(double x);

/* Integer functions. min and max are also callable from host code (the real
 * header defines host forms), for every pair of types it lists. */
#include <warplint_minmax.h>
#define WL_MINMAX(R, A, B) __host__ __device__ R min(A a, B b); __host__ __device__ R max(A a, B b);
WL_MINMAX_TYPES(WL_MINMAX)
#undef WL_MINMAX
__device__ unsigned int umin(unsigned int a, unsigned int b);
__device__ unsigned int umax(unsigned int a, unsigned int b);
__device__ long long llmin(long long a, long long b);
__device__ long long llmax(long long a, long long b);
__device__ unsigned long long ullmin(unsigned long long a, unsigned long long b);
__device__ unsigned long long ullmax(unsigned long long a, unsigned long long b);
__device__ int abs(int a);
__device__ long labs(long a);
__device__ long long llabs(long long a);
__device__ long abs(long a);
__device__ long long abs(long long a);
#endif

/* Toolkit mode only (included after clang's CUDA wrapper): host forms
 * that nvcc's headers give and clang's wrapper does not. nvcc's
 * crt/math_functions.hpp makes min and max __host__ __device__; clang
 * defines them for the device only, so host code calling max(a, b) would
 * not parse. clang lets a __host__ function overload a __device__ one of
 * the same signature. nvcc's crt/math_functions.h also includes <math.h>
 * (clang's wrapper only <cmath>), which puts the host's isfinite, isnan...
 * in the global namespace beside clang's device overloads; its
 * crt/common_functions.h includes <time.h> (clang's wrapper does not), so
 * code calling time() or clock() without including it compiles with nvcc.
 * nvcc defines its version, clang only the toolkit's CUDA_VERSION (from
 * cuda.h, included by the wrapper): code testing `__CUDACC_VER_MAJOR__ >= 8`
 * takes nvcc's branch. */
#ifndef WARPLINT_TOOLKIT_HOST_H
#define WARPLINT_TOOLKIT_HOST_H
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDA_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif
#include <math.h>
#include <time.h>
#include <warplint_minmax.h>
#define WL_HOST_MINMAX(R, A, B) __host__ R min(A a, B b); __host__ R max(A a, B b);
WL_MINMAX_TYPES(WL_HOST_MINMAX)
#undef WL_HOST_MINMAX
#endif

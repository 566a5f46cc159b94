/* warplint stand-in for vector_functions.h: make_<type>N for every built-in
 * vector type (vector_types.h), callable from host and device code. */
#ifndef WARPLINT_VECTOR_FUNCTIONS_H
#define WARPLINT_VECTOR_FUNCTIONS_H
#include "vector_types.h"

#define WL_MAKE(T, N) \
  __host__ __device__ N##1 make_##N##1(T x); \
  __host__ __device__ N##2 make_##N##2(T x, T y); \
  __host__ __device__ N##3 make_##N##3(T x, T y, T z); \
  __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w);
WL_MAKE(signed char, char)
WL_MAKE(unsigned char, uchar)
WL_MAKE(short, short)
WL_MAKE(unsigned short, ushort)
WL_MAKE(int, int)
WL_MAKE(unsigned int, uint)
WL_MAKE(long, long)
WL_MAKE(unsigned long, ulong)
WL_MAKE(long long, longlong)
WL_MAKE(unsigned long long, ulonglong)
WL_MAKE(float, float)
WL_MAKE(double, double)
#undef WL_MAKE
#endif

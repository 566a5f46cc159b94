/* The argument types for which the toolkit's crt/math_functions.hpp
 * defines min and max as __host__ __device__ functions: every pair of
 * integer types it lists and the float/double mixes. X(R, A, B) is called
 * once per form (result R, arguments A and B); math_functions.h (stand-ins)
 * and warplint_toolkit_host.h (toolkit mode) declare them from this list. */
#ifndef WARPLINT_MINMAX_H
#define WARPLINT_MINMAX_H
#define WL_MINMAX_TYPES(X) \
  X(int, int, int) X(unsigned int, unsigned int, unsigned int) \
  X(unsigned int, int, unsigned int) X(unsigned int, unsigned int, int) \
  X(long, long, long) X(unsigned long, unsigned long, unsigned long) \
  X(unsigned long, long, unsigned long) X(unsigned long, unsigned long, long) \
  X(long long, long long, long long) X(unsigned long long, unsigned long long, unsigned long long) \
  X(unsigned long long, long long, unsigned long long) X(unsigned long long, unsigned long long, long long) \
  X(float, float, float) X(double, double, double) X(double, float, double) X(double, double, float)
#endif

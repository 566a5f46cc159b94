/* warplint stand-in for cuda_bf16.h: the bfloat16 types (2 and 4 bytes)
 * and the common conversions and arithmetic, declarations only. */
#ifndef WARPLINT_CUDA_BF16_H
#define WARPLINT_CUDA_BF16_H
#include "cuda_fp16.h"
struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __host__ __device__ __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(float);
  __host__ __device__ __nv_bfloat16(double);
  __host__ __device__ __nv_bfloat16(int);
  __host__ __device__ operator float() const;
};
struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __host__ __device__ __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
__host__ __device__ float __low2float(__nv_bfloat162);
__host__ __device__ float __high2float(__nv_bfloat162);
__device__ __nv_bfloat16 __hadd(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hsub(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmax(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmin(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat16 __shfl_sync(unsigned int, __nv_bfloat16, int, int = 32);
__device__ __nv_bfloat16 __shfl_xor_sync(unsigned int, __nv_bfloat16, int, int = 32);
__device__ __nv_bfloat16 __ldg(const __nv_bfloat16 *);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *, __nv_bfloat16);
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16 &, const __nv_bfloat16 &);
__host__ __device__ __nv_bfloat16 operator-(const __nv_bfloat16 &, const __nv_bfloat16 &);
__host__ __device__ __nv_bfloat16 operator*(const __nv_bfloat16 &, const __nv_bfloat16 &);
__host__ __device__ __nv_bfloat16 &operator+=(__nv_bfloat16 &, const __nv_bfloat16 &);
#endif

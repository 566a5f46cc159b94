/* warplint stand-in for cuda_fp16.h: the 16-bit float types (2 and 4
 * bytes, as on the GPU, so that element sizes come out right) and the
 * common conversions and arithmetic, declarations only. */
#ifndef WARPLINT_CUDA_FP16_H
#define WARPLINT_CUDA_FP16_H
struct __align__(2) __half {
  unsigned short __x;
  __host__ __device__ __half() = default;
  __host__ __device__ __half(float);
  __host__ __device__ __half(double);
  __host__ __device__ __half(int);
  __host__ __device__ operator float() const;
};
struct __align__(4) __half2 {
  __half x, y;
  __host__ __device__ __half2() = default;
  __host__ __device__ __half2(__half a, __half b);
};
typedef struct __half half;
typedef struct __half2 half2;
typedef struct { unsigned short x; } __half_raw;

__host__ __device__ __half __float2half(float);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);
__device__ __half __int2half_rn(int);
__device__ int __half2int_rn(__half);
__device__ __half __ushort_as_half(unsigned short);
__device__ unsigned short __half_as_ushort(__half);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hneg(__half);
__device__ __half __habs(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __heq(__half, __half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half hsqrt(__half);
__device__ __half hexp(__half);
__device__ __half2 h2sqrt(__half2);
__device__ __half __shfl_sync(unsigned int, __half, int, int = 32);
__device__ __half __shfl_down_sync(unsigned int, __half, unsigned int, int = 32);
__device__ __half __shfl_xor_sync(unsigned int, __half, int, int = 32);
__device__ __half __ldg(const __half *);
__device__ __half2 __ldg(const __half2 *);
__device__ __half atomicAdd(__half *, __half);
__device__ __half2 atomicAdd(__half2 *, __half2);
__host__ __device__ __half operator+(const __half &, const __half &);
__host__ __device__ __half operator-(const __half &, const __half &);
__host__ __device__ __half operator*(const __half &, const __half &);
__host__ __device__ __half operator/(const __half &, const __half &);
__host__ __device__ __half &operator+=(__half &, const __half &);
__host__ __device__ __half &operator*=(__half &, const __half &);
__host__ __device__ __half2 operator+(const __half2 &, const __half2 &);
__host__ __device__ __half2 operator*(const __half2 &, const __half2 &);
#endif

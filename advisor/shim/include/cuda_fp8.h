/* warplint stand-in for cuda_fp8.h, from the CUDA Math API's "FP8
 * Intrinsics": the storage types, the conversions with a saturation mode
 * and an interpretation (E4M3 or E5M2), and the __nv_fp8_e4m3 /
 * __nv_fp8_e5m2 classes (1 byte) with their x2 (2 bytes) and x4 (4 bytes)
 * forms, host and device. Declarations only. */
#ifndef WARPLINT_CUDA_FP8_H
#define WARPLINT_CUDA_FP8_H
#include "cuda_bf16.h"
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;
#define WL_FP8_CVT __host__ __device__
WL_FP8_CVT __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t s, __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t s, __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t s, __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2 x, __nv_saturation_t s,
                                                          __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t s, __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw x, __nv_saturation_t s,
                                                           __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t s,
                                                          __nv_fp8_interpretation_t f);
WL_FP8_CVT __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw x, __nv_saturation_t s,
                                                               __nv_fp8_interpretation_t f);
WL_FP8_CVT __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t f);
WL_FP8_CVT __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x, __nv_fp8_interpretation_t f);
#undef WL_FP8_CVT

#define WL_FP8(name, x2, x4) \
  struct __align__(1) name { \
    __nv_fp8_storage_t __x; \
    __host__ __device__ name() = default; \
    __host__ __device__ explicit name(float f); \
    __host__ __device__ explicit name(double f); \
    __host__ __device__ explicit name(const __half &f); \
    __host__ __device__ explicit name(const __nv_bfloat16 &f); \
    __host__ __device__ explicit name(int v); \
    __host__ __device__ explicit name(unsigned int v); \
    __host__ __device__ explicit name(long long v); \
    __host__ __device__ explicit name(unsigned long long v); \
    __host__ __device__ operator float() const; \
    __host__ __device__ operator __half() const; \
    __host__ __device__ explicit operator __nv_bfloat16() const; \
  }; \
  struct __align__(2) x2 { \
    __nv_fp8x2_storage_t __x; \
    __host__ __device__ x2() = default; \
    __host__ __device__ explicit x2(float2 f); \
    __host__ __device__ explicit x2(double2 f); \
    __host__ __device__ explicit x2(const __half2 &f); \
    __host__ __device__ explicit x2(const __nv_bfloat162 &f); \
    __host__ __device__ explicit operator float2() const; \
    __host__ __device__ explicit operator __half2() const; \
  }; \
  struct __align__(4) x4 { \
    __nv_fp8x4_storage_t __x; \
    __host__ __device__ x4() = default; \
    __host__ __device__ explicit x4(float4 f); \
    __host__ __device__ explicit x4(double4 f); \
    __host__ __device__ x4(const __half2 &lo, const __half2 &hi); \
    __host__ __device__ x4(const __nv_bfloat162 &lo, const __nv_bfloat162 &hi); \
    __host__ __device__ explicit operator float4() const; \
  };
WL_FP8(__nv_fp8_e4m3, __nv_fp8x2_e4m3, __nv_fp8x4_e4m3)
WL_FP8(__nv_fp8_e5m2, __nv_fp8x2_e5m2, __nv_fp8x4_e5m2)
#undef WL_FP8
#endif

/* warplint: the API that cuda_fp16.h and cuda_bf16.h share, written from
 * the CUDA Math API's "Half Precision Intrinsics" and "Bfloat16 Precision
 * Intrinsics": WL_HALF_TYPES(H, H2, R, R2) defines the scalar type H (2
 * bytes, as on the GPU, so that element sizes come out right), the pair H2
 * (4 bytes) and their raw forms; WL_HALF_API(H, H2, R, name) declares the
 * conversions named after `name` (__float2half, __bfloat162float...), the
 * arithmetic, comparison and math functions (host and device, as since
 * CUDA 12.2), shuffles, atomics and the operators. Declarations only. */
#ifndef WARPLINT_HALF_API_H
#define WARPLINT_HALF_API_H
#define WL_HALF_HD __host__ __device__

#define WL_HALF_TYPES(H, H2, R, R2) \
  typedef struct R { unsigned short x; } R; \
  typedef struct R2 { unsigned short x, y; } R2; \
  struct __align__(2) H { \
    unsigned short __x; \
    WL_HALF_HD H() = default; \
    WL_HALF_HD H(const R &raw); \
    WL_HALF_HD H(float f); \
    WL_HALF_HD H(double f); \
    WL_HALF_HD H(short v); \
    WL_HALF_HD H(unsigned short v); \
    WL_HALF_HD H(int v); \
    WL_HALF_HD H(unsigned int v); \
    WL_HALF_HD H(long v); \
    WL_HALF_HD H(unsigned long v); \
    WL_HALF_HD H(long long v); \
    WL_HALF_HD H(unsigned long long v); \
    WL_HALF_HD operator float() const; \
    WL_HALF_HD operator R() const; \
    WL_HALF_HD H &operator=(const R &raw); \
  }; \
  struct __align__(4) H2 { \
    H x, y; \
    WL_HALF_HD H2() = default; \
    WL_HALF_HD H2(const H &a, const H &b); \
    WL_HALF_HD H2(const R2 &raw); \
    WL_HALF_HD operator R2() const; \
  };

#define WL_HALF_ROUNDED(ret, fn, arg) \
  WL_HALF_HD ret fn##_rn(arg x); WL_HALF_HD ret fn##_rz(arg x); \
  WL_HALF_HD ret fn##_rd(arg x); WL_HALF_HD ret fn##_ru(arg x);
#define WL_HALF_INTS(H, name, T, t) WL_HALF_ROUNDED(T, __##name##2##t, H) WL_HALF_ROUNDED(H, __##t##2##name, T)

#define WL_HALF_API(H, H2, R, name) \
  WL_HALF_HD H __float2##name(float f); \
  WL_HALF_ROUNDED(H, __float2##name, float) \
  WL_HALF_HD H __double2##name(double d); \
  WL_HALF_HD float __##name##2float(H h); \
  WL_HALF_HD H2 __float2##name##2_rn(float f); \
  WL_HALF_HD H2 __floats2##name##2_rn(float a, float b); \
  WL_HALF_HD H2 __float22##name##2_rn(float2 f); \
  WL_HALF_HD float2 __##name##22float2(H2 h); \
  WL_HALF_HD float __low2float(H2 h); \
  WL_HALF_HD float __high2float(H2 h); \
  WL_HALF_HD H __low2##name(H2 h); \
  WL_HALF_HD H __high2##name(H2 h); \
  WL_HALF_HD H2 __low2##name##2(H2 h); \
  WL_HALF_HD H2 __high2##name##2(H2 h); \
  WL_HALF_HD H2 __lows2##name##2(H2 a, H2 b); \
  WL_HALF_HD H2 __highs2##name##2(H2 a, H2 b); \
  WL_HALF_HD H2 __lowhigh2highlow(H2 h); \
  WL_HALF_HD H2 __halves2##name##2(H a, H b); \
  WL_HALF_HD H2 __##name##2##name##2(H h); \
  WL_HALF_HD H2 make_##name##2(H x, H y); \
  WL_HALF_INTS(H, name, int, int) WL_HALF_INTS(H, name, unsigned int, uint) \
  WL_HALF_INTS(H, name, short, short) WL_HALF_INTS(H, name, unsigned short, ushort) \
  WL_HALF_INTS(H, name, long long, ll) WL_HALF_INTS(H, name, unsigned long long, ull) \
  WL_HALF_HD signed char __##name##2char_rz(H h); \
  WL_HALF_HD unsigned char __##name##2uchar_rz(H h); \
  WL_HALF_HD short __##name##_as_short(H h); \
  WL_HALF_HD unsigned short __##name##_as_ushort(H h); \
  WL_HALF_HD H __short_as_##name(short s); \
  WL_HALF_HD H __ushort_as_##name(unsigned short s); \
  /* Arithmetic, scalar and paired. */ \
  WL_HALF_HD H __hadd(H a, H b); WL_HALF_HD H __hsub(H a, H b); WL_HALF_HD H __hmul(H a, H b); \
  WL_HALF_HD H __hdiv(H a, H b); WL_HALF_HD H __hadd_sat(H a, H b); WL_HALF_HD H __hsub_sat(H a, H b); \
  WL_HALF_HD H __hmul_sat(H a, H b); WL_HALF_HD H __hadd_rn(H a, H b); WL_HALF_HD H __hsub_rn(H a, H b); \
  WL_HALF_HD H __hmul_rn(H a, H b); WL_HALF_HD H __hfma(H a, H b, H c); WL_HALF_HD H __hfma_sat(H a, H b, H c); \
  WL_HALF_HD H __hfma_relu(H a, H b, H c); WL_HALF_HD H __hneg(H a); WL_HALF_HD H __habs(H a); \
  WL_HALF_HD H2 __hadd2(H2 a, H2 b); WL_HALF_HD H2 __hsub2(H2 a, H2 b); WL_HALF_HD H2 __hmul2(H2 a, H2 b); \
  WL_HALF_HD H2 __h2div(H2 a, H2 b); WL_HALF_HD H2 __hadd2_sat(H2 a, H2 b); WL_HALF_HD H2 __hsub2_sat(H2 a, H2 b); \
  WL_HALF_HD H2 __hmul2_sat(H2 a, H2 b); WL_HALF_HD H2 __hadd2_rn(H2 a, H2 b); WL_HALF_HD H2 __hsub2_rn(H2 a, H2 b); \
  WL_HALF_HD H2 __hmul2_rn(H2 a, H2 b); WL_HALF_HD H2 __hfma2(H2 a, H2 b, H2 c); \
  WL_HALF_HD H2 __hfma2_sat(H2 a, H2 b, H2 c); WL_HALF_HD H2 __hfma2_relu(H2 a, H2 b, H2 c); \
  WL_HALF_HD H2 __hcmadd(H2 a, H2 b, H2 c); WL_HALF_HD H2 __hneg2(H2 a); WL_HALF_HD H2 __habs2(H2 a); \
  /* Comparisons. */ \
  WL_HALF_HD bool __heq(H a, H b); WL_HALF_HD bool __hne(H a, H b); WL_HALF_HD bool __hle(H a, H b); \
  WL_HALF_HD bool __hge(H a, H b); WL_HALF_HD bool __hlt(H a, H b); WL_HALF_HD bool __hgt(H a, H b); \
  WL_HALF_HD bool __hequ(H a, H b); WL_HALF_HD bool __hneu(H a, H b); WL_HALF_HD bool __hleu(H a, H b); \
  WL_HALF_HD bool __hgeu(H a, H b); WL_HALF_HD bool __hltu(H a, H b); WL_HALF_HD bool __hgtu(H a, H b); \
  WL_HALF_HD bool __hisnan(H a); WL_HALF_HD int __hisinf(H a); WL_HALF_HD H __hmax(H a, H b); \
  WL_HALF_HD H __hmin(H a, H b); WL_HALF_HD H __hmax_nan(H a, H b); WL_HALF_HD H __hmin_nan(H a, H b); \
  WL_HALF_HD H2 __heq2(H2 a, H2 b); WL_HALF_HD H2 __hne2(H2 a, H2 b); WL_HALF_HD H2 __hle2(H2 a, H2 b); \
  WL_HALF_HD H2 __hge2(H2 a, H2 b); WL_HALF_HD H2 __hlt2(H2 a, H2 b); WL_HALF_HD H2 __hgt2(H2 a, H2 b); \
  WL_HALF_HD bool __hbeq2(H2 a, H2 b); WL_HALF_HD bool __hbne2(H2 a, H2 b); WL_HALF_HD bool __hble2(H2 a, H2 b); \
  WL_HALF_HD bool __hbge2(H2 a, H2 b); WL_HALF_HD bool __hblt2(H2 a, H2 b); WL_HALF_HD bool __hbgt2(H2 a, H2 b); \
  WL_HALF_HD H2 __hisnan2(H2 a); WL_HALF_HD H2 __hmax2(H2 a, H2 b); WL_HALF_HD H2 __hmin2(H2 a, H2 b); \
  WL_HALF_HD H2 __hmax2_nan(H2 a, H2 b); WL_HALF_HD H2 __hmin2_nan(H2 a, H2 b); \
  /* Math functions. */ \
  WL_HALF_HD H hsqrt(H a); WL_HALF_HD H hrsqrt(H a); WL_HALF_HD H hrcp(H a); WL_HALF_HD H hexp(H a); \
  WL_HALF_HD H hexp2(H a); WL_HALF_HD H hexp10(H a); WL_HALF_HD H hlog(H a); WL_HALF_HD H hlog2(H a); \
  WL_HALF_HD H hlog10(H a); WL_HALF_HD H hsin(H a); WL_HALF_HD H hcos(H a); WL_HALF_HD H htanh(H a); \
  WL_HALF_HD H hceil(H a); WL_HALF_HD H hfloor(H a); WL_HALF_HD H hrint(H a); WL_HALF_HD H htrunc(H a); \
  WL_HALF_HD H2 h2sqrt(H2 a); WL_HALF_HD H2 h2rsqrt(H2 a); WL_HALF_HD H2 h2rcp(H2 a); WL_HALF_HD H2 h2exp(H2 a); \
  WL_HALF_HD H2 h2exp2(H2 a); WL_HALF_HD H2 h2exp10(H2 a); WL_HALF_HD H2 h2log(H2 a); WL_HALF_HD H2 h2log2(H2 a); \
  WL_HALF_HD H2 h2log10(H2 a); WL_HALF_HD H2 h2sin(H2 a); WL_HALF_HD H2 h2cos(H2 a); WL_HALF_HD H2 h2tanh(H2 a); \
  WL_HALF_HD H2 h2ceil(H2 a); WL_HALF_HD H2 h2floor(H2 a); WL_HALF_HD H2 h2rint(H2 a); WL_HALF_HD H2 h2trunc(H2 a); \
  /* Warp shuffles and atomics (the address is written). */ \
  __device__ H __shfl_sync(unsigned int mask, H var, int srcLane, int width = 32); \
  __device__ H __shfl_up_sync(unsigned int mask, H var, unsigned int delta, int width = 32); \
  __device__ H __shfl_down_sync(unsigned int mask, H var, unsigned int delta, int width = 32); \
  __device__ H __shfl_xor_sync(unsigned int mask, H var, int laneMask, int width = 32); \
  __device__ H2 __shfl_sync(unsigned int mask, H2 var, int srcLane, int width = 32); \
  __device__ H2 __shfl_up_sync(unsigned int mask, H2 var, unsigned int delta, int width = 32); \
  __device__ H2 __shfl_down_sync(unsigned int mask, H2 var, unsigned int delta, int width = 32); \
  __device__ H2 __shfl_xor_sync(unsigned int mask, H2 var, int laneMask, int width = 32); \
  __device__ H atomicAdd(H *address, H val); \
  __device__ H2 atomicAdd(H2 *address, H2 val); \
  /* Operators. */ \
  WL_HALF_HD H operator+(const H &a, const H &b); WL_HALF_HD H operator-(const H &a, const H &b); \
  WL_HALF_HD H operator*(const H &a, const H &b); WL_HALF_HD H operator/(const H &a, const H &b); \
  WL_HALF_HD H &operator+=(H &a, const H &b); WL_HALF_HD H &operator-=(H &a, const H &b); \
  WL_HALF_HD H &operator*=(H &a, const H &b); WL_HALF_HD H &operator/=(H &a, const H &b); \
  WL_HALF_HD H operator-(const H &a); WL_HALF_HD H operator+(const H &a); WL_HALF_HD H &operator++(H &a); \
  WL_HALF_HD H &operator--(H &a); WL_HALF_HD H operator++(H &a, int); WL_HALF_HD H operator--(H &a, int); \
  WL_HALF_HD bool operator==(const H &a, const H &b); WL_HALF_HD bool operator!=(const H &a, const H &b); \
  WL_HALF_HD bool operator<(const H &a, const H &b); WL_HALF_HD bool operator>(const H &a, const H &b); \
  WL_HALF_HD bool operator<=(const H &a, const H &b); WL_HALF_HD bool operator>=(const H &a, const H &b); \
  WL_HALF_HD H2 operator+(const H2 &a, const H2 &b); WL_HALF_HD H2 operator-(const H2 &a, const H2 &b); \
  WL_HALF_HD H2 operator*(const H2 &a, const H2 &b); WL_HALF_HD H2 operator/(const H2 &a, const H2 &b); \
  WL_HALF_HD H2 &operator+=(H2 &a, const H2 &b); WL_HALF_HD H2 &operator-=(H2 &a, const H2 &b); \
  WL_HALF_HD H2 &operator*=(H2 &a, const H2 &b); WL_HALF_HD H2 &operator/=(H2 &a, const H2 &b); \
  WL_HALF_HD H2 operator-(const H2 &a); WL_HALF_HD bool operator==(const H2 &a, const H2 &b); \
  WL_HALF_HD bool operator!=(const H2 &a, const H2 &b);
#endif

/* warplint stand-in for device_functions.h and the sm_XX intrinsics
 * headers: synchronisation, warp vote, match, reduce and shuffle, the
 * cache-hinted loads and stores, address-space tests, timers, and the
 * integer, type-casting, single- and double-precision intrinsics of the
 * CUDA Math API, written from the CUDA C++ Programming Guide and the Math
 * API reference. Declarations only; loads take const pointers. */
#ifndef WARPLINT_DEVICE_FUNCTIONS_H
#define WARPLINT_DEVICE_FUNCTIONS_H

/* Synchronisation and fences. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

/* Warp vote, match and reduce. */
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ unsigned int __activemask(void);
__device__ int __all(int predicate);   /* before CUDA 9, no mask */
__device__ int __any(int predicate);
__device__ unsigned int __ballot(int predicate);
#define WL_MATCH(T) \
  __device__ unsigned int __match_any_sync(unsigned int mask, T value); \
  __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
WL_MATCH(int) WL_MATCH(unsigned int) WL_MATCH(long) WL_MATCH(unsigned long) WL_MATCH(long long)
WL_MATCH(unsigned long long) WL_MATCH(float) WL_MATCH(double)
#undef WL_MATCH
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

/* Shuffles, for every type the guide lists (the __half forms are in
 * cuda_fp16.h), and the maskless forms from before CUDA 9. */
#define WL_SHFL(T) \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32); \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32); \
  __device__ T __shfl(T var, int srcLane, int width = 32); \
  __device__ T __shfl_up(T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down(T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor(T var, int laneMask, int width = 32);
WL_SHFL(int) WL_SHFL(unsigned int) WL_SHFL(long) WL_SHFL(unsigned long) WL_SHFL(long long)
WL_SHFL(unsigned long long) WL_SHFL(float) WL_SHFL(double)
#undef WL_SHFL

/* The read-only data path and the cache-hinted loads and stores. */
template <typename T> __device__ T __ldg(const T *ptr);
template <typename T> __device__ T __ldcg(const T *ptr);
template <typename T> __device__ T __ldca(const T *ptr);
template <typename T> __device__ T __ldcs(const T *ptr);
template <typename T> __device__ T __ldlu(const T *ptr);
template <typename T> __device__ T __ldcv(const T *ptr);
#include <warplint_cache_stores.h>
__device__ void __prefetch_global_l1(const void *ptr);
__device__ void __prefetch_global_l2(const void *ptr);

/* Address spaces. */
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ unsigned int __isGridConstant(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);

/* Time, sleeping, traps. */
__device__ long clock(void);
__device__ long long clock64(void);
__device__ void __nanosleep(unsigned int ns);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __prof_trigger(int counter);

/* Integer intrinsics. */
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __fns(unsigned int mask, unsigned int base, int offset);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c);
/* SIMD intrinsics on 2 halfwords or 4 bytes packed in an unsigned int. */
#define WL_SIMD2(op) \
  __device__ unsigned int __v##op##2(unsigned int a, unsigned int b); \
  __device__ unsigned int __v##op##4(unsigned int a, unsigned int b);
WL_SIMD2(add) WL_SIMD2(addss) WL_SIMD2(addus) WL_SIMD2(sub) WL_SIMD2(subss) WL_SIMD2(subus)
WL_SIMD2(avgs) WL_SIMD2(avgu) WL_SIMD2(haddu) WL_SIMD2(absdiffs) WL_SIMD2(absdiffu) WL_SIMD2(sads)
WL_SIMD2(sadu) WL_SIMD2(maxs) WL_SIMD2(maxu) WL_SIMD2(mins) WL_SIMD2(minu) WL_SIMD2(cmpeq) WL_SIMD2(cmpne)
WL_SIMD2(cmpges) WL_SIMD2(cmpgeu) WL_SIMD2(cmpgts) WL_SIMD2(cmpgtu) WL_SIMD2(cmples) WL_SIMD2(cmpleu)
WL_SIMD2(cmplts) WL_SIMD2(cmpltu) WL_SIMD2(seteq) WL_SIMD2(setne) WL_SIMD2(setges) WL_SIMD2(setgeu)
WL_SIMD2(setgts) WL_SIMD2(setgtu) WL_SIMD2(setles) WL_SIMD2(setleu) WL_SIMD2(setlts) WL_SIMD2(setltu)
#undef WL_SIMD2
__device__ unsigned int __vabs2(unsigned int a);
__device__ unsigned int __vabs4(unsigned int a);
__device__ unsigned int __vabsss2(unsigned int a);
__device__ unsigned int __vabsss4(unsigned int a);
__device__ unsigned int __vneg2(unsigned int a);
__device__ unsigned int __vneg4(unsigned int a);
__device__ unsigned int __vnegss2(unsigned int a);
__device__ unsigned int __vnegss4(unsigned int a);

/* DPX: fused min/max of three, add-then-min/max, and min/max reporting which
 * input won (CUDA 12, host and device), on 32-bit values and on pairs of
 * 16-bit halves packed in an unsigned int. */
#define WL_DPX(op) \
  __host__ __device__ int __vi##op##3_s32(int a, int b, int c); \
  __host__ __device__ int __vi##op##3_s32_relu(int a, int b, int c); \
  __host__ __device__ unsigned int __vi##op##3_u32(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __vi##op##3_s16x2(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __vi##op##3_s16x2_relu(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __vi##op##3_u16x2(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ int __vi##op##_s32_relu(int a, int b); \
  __host__ __device__ unsigned int __vi##op##_s16x2_relu(unsigned int a, unsigned int b); \
  __host__ __device__ int __viadd##op##_s32(int a, int b, int c); \
  __host__ __device__ int __viadd##op##_s32_relu(int a, int b, int c); \
  __host__ __device__ unsigned int __viadd##op##_u32(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __viadd##op##_s16x2(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __viadd##op##_s16x2_relu(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ unsigned int __viadd##op##_u16x2(unsigned int a, unsigned int b, unsigned int c); \
  __host__ __device__ int __vib##op##_s32(int a, int b, bool *pred); \
  __host__ __device__ unsigned int __vib##op##_u32(unsigned int a, unsigned int b, bool *pred); \
  __host__ __device__ unsigned int __vib##op##_s16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo); \
  __host__ __device__ unsigned int __vib##op##_u16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo);
WL_DPX(max) WL_DPX(min)
#undef WL_DPX

/* Type casting intrinsics: reinterpretations and rounded conversions. */
__device__ int __float_as_int(float x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __int_as_float(int x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
__device__ double __hiloint2double(int hi, int lo);
#define WL_CVT(from, to, F, T) \
  __device__ T __##from##2##to##_rn(F x); __device__ T __##from##2##to##_rz(F x); \
  __device__ T __##from##2##to##_ru(F x); __device__ T __##from##2##to##_rd(F x);
WL_CVT(float, int, float, int) WL_CVT(float, uint, float, unsigned int) WL_CVT(float, ll, float, long long)
WL_CVT(float, ull, float, unsigned long long) WL_CVT(int, float, int, float)
WL_CVT(uint, float, unsigned int, float) WL_CVT(ll, float, long long, float)
WL_CVT(ull, float, unsigned long long, float) WL_CVT(double, float, double, float)
WL_CVT(double, int, double, int) WL_CVT(double, uint, double, unsigned int)
WL_CVT(double, ll, double, long long) WL_CVT(double, ull, double, unsigned long long)
WL_CVT(ll, double, long long, double) WL_CVT(ull, double, unsigned long long, double)
#undef WL_CVT
__device__ double __int2double_rn(int x);
__device__ double __uint2double_rn(unsigned int x);

/* Single-precision intrinsics (fast, or with a named rounding). */
#define WL_ROUNDED(name, T, ...) \
  __device__ T name##_rn(__VA_ARGS__); __device__ T name##_rz(__VA_ARGS__); \
  __device__ T name##_ru(__VA_ARGS__); __device__ T name##_rd(__VA_ARGS__);
WL_ROUNDED(__fadd, float, float x, float y) WL_ROUNDED(__fsub, float, float x, float y)
WL_ROUNDED(__fmul, float, float x, float y) WL_ROUNDED(__fdiv, float, float x, float y)
WL_ROUNDED(__fmaf, float, float x, float y, float z) WL_ROUNDED(__fmaf_ieee, float, float x, float y, float z)
WL_ROUNDED(__frcp, float, float x) WL_ROUNDED(__fsqrt, float, float x)
WL_ROUNDED(__dadd, double, double x, double y) WL_ROUNDED(__dsub, double, double x, double y)
WL_ROUNDED(__dmul, double, double x, double y) WL_ROUNDED(__ddiv, double, double x, double y)
WL_ROUNDED(__fma, double, double x, double y, double z) WL_ROUNDED(__drcp, double, double x)
WL_ROUNDED(__dsqrt, double, double x)
#undef WL_ROUNDED
__device__ float __frsqrt_rn(float x);
__device__ float __fdividef(float x, float y);
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __powf(float x, float y);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *sptr, float *cptr);
__device__ float __saturatef(float x);
#endif

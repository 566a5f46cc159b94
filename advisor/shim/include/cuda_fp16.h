/* warplint stand-in for cuda_fp16.h: __half (2 bytes) and __half2 (4
 * bytes) with the whole half-precision API (warplint_half_api.h). */
#ifndef WARPLINT_CUDA_FP16_H
#define WARPLINT_CUDA_FP16_H
#include "warplint_half_api.h"
WL_HALF_TYPES(__half, __half2, __half_raw, __half2_raw)
WL_HALF_API(__half, __half2, __half_raw, half)
typedef struct __half half;
typedef struct __half2 half2;
typedef struct __half nv_half;
typedef struct __half2 nv_half2;
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#endif

/* warplint stand-in for cuda_bf16.h: __nv_bfloat16 (2 bytes) and
 * __nv_bfloat162 (4 bytes) with the whole bfloat16 API
 * (warplint_half_api.h). */
#ifndef WARPLINT_CUDA_BF16_H
#define WARPLINT_CUDA_BF16_H
#include "cuda_fp16.h"
WL_HALF_TYPES(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw, __nv_bfloat162_raw)
WL_HALF_API(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw, bfloat16)
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#endif

/* warplint stand-in for device_atomic_functions.h and the sm_XX atomic
 * headers: every atomic of the CUDA C++ Programming Guide ("Atomic
 * Functions") for the types it lists, each also in its _block and _system
 * scopes. The address is never const: an atomic writes it. The __half and
 * __nv_bfloat16 forms are in cuda_fp16.h and cuda_bf16.h. */
#ifndef WARPLINT_DEVICE_ATOMIC_FUNCTIONS_H
#define WARPLINT_DEVICE_ATOMIC_FUNCTIONS_H

#define WL_ATOMIC(name, T) \
  __device__ T name(T *address, T val); \
  __device__ T name##_block(T *address, T val); \
  __device__ T name##_system(T *address, T val);
#define WL_ATOMIC_INTS(name) \
  WL_ATOMIC(name, int) WL_ATOMIC(name, unsigned int) WL_ATOMIC(name, unsigned long long)
WL_ATOMIC_INTS(atomicAdd) WL_ATOMIC(atomicAdd, float) WL_ATOMIC(atomicAdd, double)
WL_ATOMIC(atomicSub, int) WL_ATOMIC(atomicSub, unsigned int)
WL_ATOMIC_INTS(atomicExch) WL_ATOMIC(atomicExch, float)
WL_ATOMIC_INTS(atomicMin) WL_ATOMIC(atomicMin, long long)
WL_ATOMIC_INTS(atomicMax) WL_ATOMIC(atomicMax, long long)
WL_ATOMIC(atomicInc, unsigned int) WL_ATOMIC(atomicDec, unsigned int)
WL_ATOMIC_INTS(atomicAnd) WL_ATOMIC_INTS(atomicOr) WL_ATOMIC_INTS(atomicXor)
/* sm_90: vector float additions on global memory. */
__device__ float2 atomicAdd(float2 *address, float2 val);
__device__ float4 atomicAdd(float4 *address, float4 val);
#undef WL_ATOMIC
#undef WL_ATOMIC_INTS

#define WL_ATOMIC_CAS(T) \
  __device__ T atomicCAS(T *address, T compare, T val); \
  __device__ T atomicCAS_block(T *address, T compare, T val); \
  __device__ T atomicCAS_system(T *address, T compare, T val);
WL_ATOMIC_CAS(int) WL_ATOMIC_CAS(unsigned int) WL_ATOMIC_CAS(unsigned long long) WL_ATOMIC_CAS(unsigned short)
#undef WL_ATOMIC_CAS

/* The scoped atomics with a memory order (__nv_atomic_*): nvcc built-ins,
 * declared for clang in their own stand-in, which toolkit mode uses too. */
#include <warplint_nv_atomic.h>
#endif

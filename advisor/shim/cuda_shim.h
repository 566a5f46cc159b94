/* cuda_shim.h — what nvcc's implicit #include "cuda_runtime.h" gives every
 * .cu file, for parsing with libclang when no CUDA toolkit is installed
 * (-nocudainc): the execution-space keywords, the built-in index variables,
 * the C and C++ library headers the real cuda_runtime.h includes, and the
 * stand-ins in include/ for the runtime API, vector types, intrinsics,
 * atomics and device math. Force-included before the user's file.
 * Declarations only: nothing here is ever compiled for a GPU; warplint
 * recognises the built-in index variables by name.
 * Rule: never #define a name that a standard header may use itself. */
#ifndef WARPLINT_CUDA_SHIM_H
#define WARPLINT_CUDA_SHIM_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is not defined: clang knows it in CUDA mode, and a macro
 * would break libstdc++'s __attribute__((__noinline__)) in <memory>. */
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION 13000
/* The real headers' include guards: code that tests them (cuda-samples'
 * helper_cuda.h declares its runtime helpers under #ifdef
 * __CUDA_RUNTIME_H__) sees the runtime as included, and a real toolkit
 * header reached by a quoted include adds nothing twice. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__

/* The C and C++ library headers that the real cuda_runtime.h includes in
 * both of nvcc's passes (host and device, as nvcc -E shows): host code may
 * use malloc, atoi, memcpy, ceil, INT_MAX, time, std::swap... without
 * including them. <stdio.h> and <assert.h> are not among them: nvcc rejects
 * printf and assert in a file that does not include them. */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include <math.h>
#include <cmath>
#include <cstdlib>
#include <utility>
/* The C library calls that also exist on the device (the real
 * common_functions.h declares them __host__ __device__); clang lets these
 * __device__ forms sit beside the C library's host declarations. assert()
 * (with <assert.h>) expands to glibc's __assert_fail. */
extern "C" {
__device__ int printf(const char *format, ...);
__device__ void *malloc(size_t size);
__device__ void free(void *ptr);
/* memcpy and memset for the device are the compiler's own copy and fill,
 * as in clang's CUDA wrapper headers: -O3 then turns them into loads and
 * stores, or copies of a run-time length, where a bare declaration left a
 * call that hid its accesses. */
__device__ inline void *memcpy(void *dest, const void *src, size_t n) { return __builtin_memcpy(dest, src, n); }
__device__ inline void *memset(void *s, int c, size_t n) { return __builtin_memset(s, c, n); }
#if defined(__GLIBC__)
__device__ void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
#endif
}
/* Placement new in device code (nvcc's device pass has <new>). */
__device__ void *operator new(size_t size, void *ptr) noexcept;
__device__ void *operator new[](size_t size, void *ptr) noexcept;

/* nvcc accepts the C++17-deprecated `register` (with a warning); clang
 * makes it an error unless told otherwise. */
#pragma clang diagnostic ignored "-Wregister"

#include <vector_types.h>
#include <vector_functions.h>
#include <driver_types.h>
#include <cuda_runtime_api.h>
#include <device_functions.h>
#include <device_atomic_functions.h>
#include <math_functions.h>
#include <texture_fetch_functions.h>

/* The built-in index variables: plain device globals are enough to parse. */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* What clang lowers <<<grid, block, shmem, stream>>> to: on the host, and
 * in device code (dynamic parallelism, with -fgpu-rdc). */
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem = 0, void *stream = 0);
extern "C" __device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *func, void *parameter_buffer, dim3 grid, dim3 block,
                                                   unsigned int shared_bytes, cudaStream_t stream);
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t sharedMem = 0, cudaStream_t stream = 0);
#endif

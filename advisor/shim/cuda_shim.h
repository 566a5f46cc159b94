/* cuda_shim.h — the part of the CUDA headers that warplint needs to parse
 * kernels with libclang when no CUDA toolkit is installed (-nocudainc).
 * Declarations only: nothing here is ever compiled for a GPU. Everything a
 * kernel commonly names is declared so that user code parses; warplint
 * recognises the built-in index variables by name. */
#ifndef WARPLINT_CUDA_SHIM_H
#define WARPLINT_CUDA_SHIM_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __CUDACC__ 1
/* The real headers' include guards: a CUDA header reached by a quoted
 * include (cublas_v2.h -> "vector_types.h") then adds nothing twice. */
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 13000

typedef __SIZE_TYPE__ size_t;

struct __wl_vec1 { unsigned int x; };
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
typedef struct uint3 uint3;

/* The built-in index variables: plain device globals are enough to parse. */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

#define WL_VEC2(T, N) struct __align__(2 * sizeof(T)) N##2 { T x, y; }; typedef struct N##2 N##2;
#define WL_VEC3(T, N) struct N##3 { T x, y, z; }; typedef struct N##3 N##3;
#define WL_VEC4(T, N) struct __align__(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) N##4 { T x, y, z, w; }; typedef struct N##4 N##4;
#define WL_VECS(T, N) WL_VEC2(T, N) WL_VEC3(T, N) WL_VEC4(T, N)
WL_VECS(signed char, char)
WL_VECS(unsigned char, uchar)
WL_VECS(short, short)
WL_VECS(unsigned short, ushort)
WL_VECS(int, int)
WL_VEC2(unsigned int, uint) WL_VEC4(unsigned int, uint)
WL_VECS(long long, longlong)
WL_VECS(float, float)
WL_VECS(double, double)
#undef WL_VEC2
#undef WL_VEC3
#undef WL_VEC4
#undef WL_VECS

__host__ __device__ char2 make_char2(signed char, signed char);
__host__ __device__ char4 make_char4(signed char, signed char, signed char, signed char);
__host__ __device__ uchar4 make_uchar4(unsigned char, unsigned char, unsigned char, unsigned char);
__host__ __device__ int2 make_int2(int, int);
__host__ __device__ int4 make_int4(int, int, int, int);
__host__ __device__ float2 make_float2(float, float);
__host__ __device__ float4 make_float4(float, float, float, float);
__host__ __device__ double2 make_double2(double, double);

/* Synchronisation and warp primitives. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ unsigned int __shfl_sync(unsigned int, unsigned int, int, int = 32);
__device__ double __shfl_sync(unsigned int, double, int, int = 32);
__device__ unsigned int __shfl_down_sync(unsigned int, unsigned int, unsigned int, int = 32);
__device__ double __shfl_down_sync(unsigned int, double, unsigned int, int = 32);
__device__ long long __shfl_down_sync(unsigned int, long long, unsigned int, int = 32);
__device__ unsigned int __shfl_xor_sync(unsigned int, unsigned int, int, int = 32);
__device__ double __shfl_xor_sync(unsigned int, double, int, int = 32);
__device__ float __shfl_up_sync(unsigned int, float, unsigned int, int = 32);
__device__ int __shfl_up_sync(unsigned int, int, unsigned int, int = 32);
__device__ float __shfl_sync(unsigned int, float, int, int = 32);
__device__ int __shfl_sync(unsigned int, int, int, int = 32);
__device__ float __shfl_down_sync(unsigned int, float, unsigned int, int = 32);
__device__ int __shfl_down_sync(unsigned int, int, unsigned int, int = 32);
__device__ float __shfl_xor_sync(unsigned int, float, int, int = 32);
__device__ int __shfl_xor_sync(unsigned int, int, int, int = 32);
__device__ unsigned int __ballot_sync(unsigned int, int);

/* The read-only data path and the cache-hinted loads and stores. */
template <typename T> __device__ T __ldg(const T *);
template <typename T> __device__ T __ldcg(const T *);
template <typename T> __device__ T __ldca(const T *);
template <typename T> __device__ T __ldcs(const T *);
template <typename T> __device__ T __ldlu(const T *);
template <typename T> __device__ T __ldcv(const T *);
template <typename T> __device__ void __stcg(T *, T);
template <typename T> __device__ void __stcs(T *, T);
template <typename T> __device__ void __stwb(T *, T);
template <typename T> __device__ void __stwt(T *, T);
__device__ size_t __cvta_generic_to_shared(const void *);

/* Atomics. */
__device__ int atomicAdd(int *, int);
__device__ unsigned int atomicAdd(unsigned int *, unsigned int);
__device__ float atomicAdd(float *, float);
__device__ double atomicAdd(double *, double);
__device__ int atomicSub(int *, int);
__device__ int atomicMax(int *, int);
__device__ int atomicMin(int *, int);
__device__ int atomicExch(int *, int);
__device__ float atomicExch(float *, float);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned int atomicInc(unsigned int *, unsigned int);

/* Math (a selection; the float and double forms). */
/* __device__ only: the host forms come from <math.h> and <cmath>, and clang
 * lets a __device__ function overload a __host__ one of the same name. */
#define WL_MATH1(name) __device__ float name##f(float); __device__ double name(double);
#define WL_MATH2(name) __device__ float name##f(float, float); __device__ double name(double, double);
WL_MATH1(sqrt) WL_MATH1(rsqrt) WL_MATH1(exp) WL_MATH1(exp2) WL_MATH1(log) WL_MATH1(log2)
WL_MATH1(log10) WL_MATH1(sin) WL_MATH1(cos) WL_MATH1(tan) WL_MATH1(tanh) WL_MATH1(fabs)
WL_MATH1(floor) WL_MATH1(ceil) WL_MATH1(round) WL_MATH1(trunc)
WL_MATH2(pow) WL_MATH2(fmin) WL_MATH2(fmax) WL_MATH2(fmod) WL_MATH2(atan2)
#undef WL_MATH1
#undef WL_MATH2
__device__ float __fdividef(float, float);
__device__ float __expf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __logf(float);
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ int min(int, int);
__device__ unsigned int min(unsigned int, unsigned int);
__device__ float min(float, float);
__device__ long long min(long long, long long);
__device__ unsigned long long min(unsigned long long, unsigned long long);
__device__ double min(double, double);
__device__ int max(int, int);
__device__ long long max(long long, long long);
__device__ unsigned long long max(unsigned long long, unsigned long long);
__device__ double max(double, double);
__device__ unsigned int max(unsigned int, unsigned int);
__device__ float max(float, float);
__device__ int abs(int);
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ int __mulhi(int, int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ int __dp4a(int, int, int);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_lo(int, int, int);
__device__ unsigned int __dp2a_lo(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_hi(int, int, int);
__device__ unsigned int __dp2a_hi(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __activemask(void);
__device__ long long clock64(void);
__device__ long clock(void);
__device__ void __nanosleep(unsigned int);
__device__ unsigned int __float_as_uint(float);
__device__ float __uint_as_float(unsigned int);
__device__ int __float_as_int(float);
__device__ float __int_as_float(int);

/* Runtime API (host side). */
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
                      cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
#define cudaSuccess 0
cudaError_t cudaMalloc(void **, size_t);
template <typename T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
cudaError_t cudaMallocManaged(void **, size_t, unsigned int = 1);
cudaError_t cudaMallocHost(void **, size_t);
cudaError_t cudaFree(void *);
cudaError_t cudaFreeHost(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t = 0);
cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, size_t = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice);
template <typename T> cudaError_t cudaMemcpyToSymbol(const T &s, const void *src, size_t n,
    size_t off = 0, cudaMemcpyKind k = cudaMemcpyHostToDevice) { return cudaMemcpyToSymbol((const void *)&s, src, n, off, k); }
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t = 0,
                                    cudaMemcpyKind = cudaMemcpyHostToDevice, cudaStream_t = 0);
template <typename T> cudaError_t cudaMemcpyToSymbolAsync(const T &s, const void *src, size_t n, size_t off = 0,
    cudaMemcpyKind k = cudaMemcpyHostToDevice, cudaStream_t st = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&s, src, n, off, k, st);
}
cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost);
cudaError_t cudaGetSymbolAddress(void **, const void *);
template <typename T> cudaError_t cudaGetSymbolAddress(void **p, const T &s) { return cudaGetSymbolAddress(p, (const void *)&s); }
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout;
};
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *, const void *);
template <typename T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, T *f) { return cudaFuncGetAttributes(a, (const void *)f); }
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
                         cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int);
template <typename T> cudaError_t cudaFuncSetAttribute(T *f, cudaFuncAttribute a, int v) { return cudaFuncSetAttribute((const void *)f, a, v); }
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8,
                      cudaDevAttrWarpSize = 10, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
                      cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };
cudaError_t cudaDeviceGetAttribute(int *, cudaDeviceAttr, int);
cudaError_t cudaGetDevice(int *);
cudaError_t cudaSetDevice(int);
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaMemGetInfo(size_t *, size_t *);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaHostAlloc(void **, size_t, unsigned int);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
cudaError_t cudaEventQuery(cudaEvent_t);
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0);
cudaError_t cudaStreamQuery(cudaStream_t);
template <typename T> cudaError_t cudaMallocHost(T **p, size_t n, unsigned int flags = 0) {
  return cudaHostAlloc((void **)p, n, flags);
}
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterReadOnly 0x08
cudaError_t cudaHostRegister(void *, size_t, unsigned int);
cudaError_t cudaHostUnregister(void *);
cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned int);
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
                      cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *, const void *);
cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind,
                              cudaStream_t = 0);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, const void *, int, size_t);
template <typename T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T *f, int block,
                                                                                size_t shmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, block, shmem);
}
/* The device facts the project reads (the real struct has many more). */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin, sharedMemPerMultiprocessor, totalConstMem;
  int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  int clockRate, memoryClockRate, memoryBusWidth, l2CacheSize, multiProcessorCount, major, minor;
  int maxThreadsPerMultiProcessor, concurrentKernels, asyncEngineCount, unifiedAddressing;
};
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *, int);

/* Texture and surface objects. */
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
template <typename T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <typename T> __device__ T tex1D(cudaTextureObject_t, float);
template <typename T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <typename T> __device__ T tex3D(cudaTextureObject_t, float, float, float);
template <typename T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int);
template <typename T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int);
enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray,
                        cudaResourceTypeLinear, cudaResourceTypePitch2D };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned,
                             cudaChannelFormatKindFloat, cudaChannelFormatKindNone };
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                              cudaAddressModeBorder };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
typedef struct cudaArray *cudaArray_t;
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
};
template <typename T> cudaChannelFormatDesc cudaCreateChannelDesc(void);
cudaChannelFormatDesc cudaCreateChannelDesc(int, int, int, int, cudaChannelFormatKind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *, const cudaResourceDesc *, const cudaTextureDesc *,
                                    const void *);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
cudaError_t cudaMallocArray(cudaArray_t *, const cudaChannelFormatDesc *, size_t, size_t = 0, unsigned int = 0);
cudaError_t cudaFreeArray(cudaArray_t);
cudaError_t cudaMemcpy2DToArray(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);

/* What clang lowers <<<grid, block, shmem, stream>>> to: on the host, and
 * in device code (dynamic parallelism, with -fgpu-rdc). */
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);
extern "C" __device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *func, void *parameter_buffer, dim3 grid, dim3 block,
                                                   unsigned int shared_bytes, cudaStream_t stream);
extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);

#endif

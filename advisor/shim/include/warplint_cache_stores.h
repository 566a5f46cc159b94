/* warplint stand-in for the cache-hinted stores __stcg, __stcs, __stwb and
 * __stwt (CUDA C++ Programming Guide, "Store Functions Using Cache Hints")
 * and the loads __ldca and __ldlu: clang's CUDA wrapper gives the other
 * hinted loads (__ldcg, __ldcs, __ldcv) but not these, so both the
 * stand-in headers and toolkit mode (after the toolkit's headers) declare
 * them from here. One template each: a toolkit's own overloads
 * (cuda_fp16.h's __half2...) match exactly and win. The device model
 * reads a call of one as the load or store it is. */
#ifndef WARPLINT_CACHE_STORES_H
#define WARPLINT_CACHE_STORES_H
template <typename T> __device__ void __stcg(T *ptr, T value);
template <typename T> __device__ void __stcs(T *ptr, T value);
template <typename T> __device__ void __stwb(T *ptr, T value);
template <typename T> __device__ void __stwt(T *ptr, T value);
template <typename T> __device__ T __ldca(const T *ptr);
template <typename T> __device__ T __ldlu(const T *ptr);
#endif

/* warplint stand-in for the scoped atomics with a memory order (CUDA 12.8
 * on, CUDA C++ Programming Guide, "Atomic Functions"): nvcc knows the
 * __nv_atomic_* functions as built-ins and clang does not, so both the
 * stand-in headers and toolkit mode (after the toolkit's headers) declare
 * them from here. The order and scope enumerations are those of the
 * toolkit's crt/device_functions.h, which clang's CUDA wrapper does not
 * include. The _n forms take values; loads take const pointers. */
#ifndef WARPLINT_NV_ATOMIC_H
#define WARPLINT_NV_ATOMIC_H
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL,
       __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,
       __NV_THREAD_SCOPE_SYSTEM };
#define WL_NV_ATOMIC_FETCH(op) \
  template <class T> \
  __device__ T __nv_atomic_fetch_##op(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
WL_NV_ATOMIC_FETCH(add) WL_NV_ATOMIC_FETCH(sub) WL_NV_ATOMIC_FETCH(min) WL_NV_ATOMIC_FETCH(max)
WL_NV_ATOMIC_FETCH(and) WL_NV_ATOMIC_FETCH(or) WL_NV_ATOMIC_FETCH(xor)
#undef WL_NV_ATOMIC_FETCH
template <class T> __device__ T __nv_atomic_load_n(const T *ptr, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_load(const T *ptr, T *ret, int order,
                                                    int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store_n(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store(T *ptr, T *val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_exchange_n(T *ptr, T val, int order,
                                                       int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_exchange(T *ptr, T *val, T *ret, int order,
                                                        int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ bool __nv_atomic_compare_exchange_n(T *ptr, T *expected, T desired, bool weak,
                                                                  int success_order, int failure_order,
                                                                  int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ bool __nv_atomic_compare_exchange(T *ptr, T *expected, T *desired, bool weak,
                                                                int success_order, int failure_order,
                                                                int scope = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
#endif

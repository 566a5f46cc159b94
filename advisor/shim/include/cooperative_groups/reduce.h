/* warplint stand-in for cooperative_groups/reduce.h: reduce over a tile or
 * coalesced group with an operator, the operators it provides, and the
 * asynchronous forms that update or store the result. Values go in by
 * value (a read); the _async forms write through their destination. */
#ifndef WARPLINT_COOPERATIVE_GROUPS_REDUCE_H
#define WARPLINT_COOPERATIVE_GROUPS_REDUCE_H
#include <cooperative_groups.h>
namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const; };
template <class T> struct less { __device__ T operator()(T a, T b) const; };
template <class T> struct greater { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const; };
template <class Group, class T, class Op> __device__ T reduce(const Group &group, T val, Op op);
template <class Group, class T, class Op> __device__ void reduce_update_async(const Group &group, T &dst, T val, Op op);
template <class Group, class T, class Op> __device__ void reduce_store_async(const Group &group, T *dst, T val, Op op);
template <class Group, class T, class Op> __device__ void reduce_store_async(const Group &group, T &dst, T val, Op op);
}  // namespace cooperative_groups
#endif

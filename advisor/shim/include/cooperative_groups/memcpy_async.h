/* warplint stand-in for cooperative_groups/memcpy_async.h: a group copies
 * from src (read) to dst (written), by element count, byte count or
 * cuda::aligned_size_t, then waits for it. */
#ifndef WARPLINT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define WARPLINT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include <cooperative_groups.h>
namespace cooperative_groups {
template <class Group, class Dst, class Src, class Size>
__device__ void memcpy_async(const Group &group, Dst *dst, const Src *src, const Size &size);
template <class Group> __device__ void wait(const Group &group);
template <unsigned int NumStages, class Group> __device__ void wait_prior(const Group &group);
}  // namespace cooperative_groups
#endif

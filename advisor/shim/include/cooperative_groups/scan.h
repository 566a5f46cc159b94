/* warplint stand-in for cooperative_groups/scan.h: inclusive and exclusive
 * scans over a group, with plus by default or a given operator. */
#ifndef WARPLINT_COOPERATIVE_GROUPS_SCAN_H
#define WARPLINT_COOPERATIVE_GROUPS_SCAN_H
#include "reduce.h"
namespace cooperative_groups {
template <class Group, class T> __device__ T inclusive_scan(const Group &group, T val);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &group, T val, Op op);
template <class Group, class T> __device__ T exclusive_scan(const Group &group, T val);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &group, T val, Op op);
}  // namespace cooperative_groups
#endif

/* warplint stand-in for cooperative_groups.h, written from the CUDA C++
 * Programming Guide ("Cooperative Groups"): the group types (thread_block,
 * grid_group, cluster_group, coalesced_group, thread_block_tile<N>), their
 * queries, sync and warp collectives, and the partitioning functions.
 * cooperative_groups/reduce.h, scan.h and memcpy_async.h add the
 * collectives. Declarations only; values go in by value, as reads. */
#ifndef WARPLINT_COOPERATIVE_GROUPS_H
#define WARPLINT_COOPERATIVE_GROUPS_H
#include <warplint_cccl_std.h>

namespace cooperative_groups {

/* Any group; what the runtime-sized partitions return. */
class thread_group {
 public:
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ void sync() const;
  __device__ unsigned int get_type() const;
};

/* The warp collectives shared by tiles and coalesced groups. */
class __wl_warp_collectives {
 public:
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl(T var, unsigned int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T value) const;
  template <class T> __device__ unsigned int match_all(T value, int &pred) const;
  __device__ void sync() const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
};

class thread_block {
 public:
  __device__ operator thread_group() const;
  static __device__ void sync();
  static __device__ void barrier_wait();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_threads();
  static __device__ dim3 group_dim();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int size();
};

class grid_group {
 public:
  __device__ operator thread_group() const;
  __device__ bool is_valid() const;
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long cluster_rank() const;
  __device__ unsigned long long num_clusters() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
  __device__ dim3 dim_clusters() const;
  __device__ dim3 cluster_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class cluster_group {
 public:
  __device__ operator thread_group() const;
  static __device__ void sync();
  static __device__ void barrier_arrive();
  static __device__ void barrier_wait();
  static __device__ unsigned int thread_rank();
  static __device__ unsigned int block_rank();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int num_blocks();
  static __device__ unsigned int size();
  static __device__ dim3 block_index();
  static __device__ dim3 dim_blocks();
  static __device__ dim3 dim_threads();
  static __device__ unsigned int query_shared_rank(const void *addr);
  template <class T> static __device__ T *map_shared_rank(T *addr, int rank);
};

class coalesced_group : public __wl_warp_collectives {
 public:
  __device__ operator thread_group() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};

/* A tile of Size threads (a power of two up to 32, or larger with
 * block_tile_memory); ParentT is the group it was cut from. */
template <unsigned int Size, class ParentT = void> class thread_block_tile;
template <unsigned int Size> class thread_block_tile<Size, void> : public __wl_warp_collectives {
 public:
  __device__ operator thread_group() const;
  static constexpr __host__ __device__ unsigned long long size() { return Size; }
  static constexpr __host__ __device__ unsigned long long num_threads() { return Size; }
  __device__ unsigned long long thread_rank() const;
};
template <unsigned int Size, class ParentT> class thread_block_tile : public thread_block_tile<Size, void> {};

template <unsigned int MaxBlockSize, unsigned int TileCommunicationSize = 8>
struct block_tile_memory {
  alignas(16) unsigned char storage[TileCommunicationSize * (MaxBlockSize / 32 + 1) * 8];
};

__device__ thread_block this_thread_block();
template <unsigned int MaxBlockSize, unsigned int TileCommunicationSize>
__device__ thread_block this_thread_block(block_tile_memory<MaxBlockSize, TileCommunicationSize> &scratch);
__device__ grid_group this_grid();
__device__ cluster_group this_cluster();
__device__ coalesced_group coalesced_threads();
__device__ thread_block_tile<1, void> this_thread();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent, unsigned int tilesz);
__device__ coalesced_group tiled_partition(const coalesced_group &parent, unsigned int tilesz);
__device__ coalesced_group binary_partition(const coalesced_group &g, bool pred);
template <unsigned int Size, class ParentT>
__device__ coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &g, bool pred);
template <class Label> __device__ coalesced_group labeled_partition(const coalesced_group &g, Label label);
template <unsigned int Size, class ParentT, class Label>
__device__ coalesced_group labeled_partition(const thread_block_tile<Size, ParentT> &g, Label label);

/* The free-function forms. */
template <class Group> __device__ void sync(const Group &g);
template <class Group> __device__ unsigned long long thread_rank(const Group &g);
template <class Group> __device__ unsigned long long num_threads(const Group &g);
template <class Group> __device__ unsigned long long group_size(const Group &g);

}  // namespace cooperative_groups
#endif

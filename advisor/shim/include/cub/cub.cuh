/* warplint stand-in for CUB (cub/cub.cuh), written from the CUB reference:
 * the block- and warp-wide primitives with their TempStorage, the direct
 * loads and stores, the operators and iterators, and the device-wide
 * algorithms as opaque templates (host calls: any arguments parse).
 * In device code, inputs go in by value or const (reads) and outputs by
 * reference, so that warplint sees which arrays are written.
 * Declarations only; TempStorage sizes are rough (shared bytes only). */
#ifndef WARPLINT_CUB_CUH
#define WARPLINT_CUB_CUH
#include <warplint_cccl_std.h>
#include <warplint_iterator.h>
#include <thrust/detail/warplint_thrust.h> /* CCCL 3's CUB includes Thrust */

#define CUB_VERSION 300000
#define CUB_PTX_ARCH 900
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_RUNTIME_FUNCTION __host__ __device__
#define CubDebug(e) (e)
#define CubDebugExit(e) (e)
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_CEILING(a, b) (((a) + (b) - 1) / (b))
#define CUB_STATIC_ASSERT(c, msg) static_assert(c, #msg)

namespace cub {
struct NullType {};
template <class T> struct Uninitialized { alignas(16) unsigned char storage[sizeof(T)]; __device__ T &Alias(); };
template <class K, class V> struct KeyValuePair {
  K key;
  V value;
  __host__ __device__ KeyValuePair();
  __host__ __device__ KeyValuePair(K const &k, V const &v);
};
template <class T> struct DoubleBuffer {
  T *d_buffers[2];
  int selector;
  __host__ __device__ DoubleBuffer();
  __host__ __device__ DoubleBuffer(T *d_current, T *d_alternate);
  __host__ __device__ T *Current();
  __host__ __device__ T *Alternate();
};
template <class T> struct Traits {
  /* the unsigned integer of T's size, which holds its bits */
  typedef typename std::conditional<
      sizeof(T) == 1, unsigned char,
      typename std::conditional<sizeof(T) == 2, unsigned short,
                                typename std::conditional<sizeof(T) == 4, unsigned int,
                                                          unsigned long long>::type>::type>::type UnsignedBits;
  static __host__ __device__ T Max();
  static __host__ __device__ T Lowest();
};
template <class T> struct NumericTraits : Traits<T> {};

/* Reduction operators. */
#define WL_CUB_BINARY_OP(name, R) \
  struct name { template <class T, class U> __host__ __device__ R operator()(const T &a, const U &b) const; };
WL_CUB_BINARY_OP(Sum, T) WL_CUB_BINARY_OP(Max, T) WL_CUB_BINARY_OP(Min, T) WL_CUB_BINARY_OP(ArgMax, T)
WL_CUB_BINARY_OP(ArgMin, T) WL_CUB_BINARY_OP(Equality, bool) WL_CUB_BINARY_OP(Inequality, bool)
#undef WL_CUB_BINARY_OP

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };
enum WarpLoadAlgorithm { WARP_LOAD_DIRECT, WARP_LOAD_STRIPED, WARP_LOAD_VECTORIZE, WARP_LOAD_TRANSPOSE };
enum WarpStoreAlgorithm { WARP_STORE_DIRECT, WARP_STORE_STRIPED, WARP_STORE_VECTORIZE, WARP_STORE_TRANSPOSE };
enum WarpExchangeAlgorithm { WARP_EXCHANGE_SMEM, WARP_EXCHANGE_SHUFFLE };
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };

/* Shared scratch of Bytes bytes, the TempStorage of every primitive. */
template <unsigned long Bytes> struct __wl_temp_storage { alignas(16) unsigned char bytes[Bytes]; };
/* Loads and stores through a pointer (a const one for loads) or any other
 * iterator. */
template <class It> using __wl_if_iterator = typename std::enable_if<!std::is_pointer<It>::value>::type;

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
 public:
  typedef __wl_temp_storage<sizeof(T) * (BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z / 32 + 1)> TempStorage;
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage &temp_storage);
  template <class Op> __device__ T Reduce(T input, Op reduction_op);
  template <class Op> __device__ T Reduce(T input, Op reduction_op, int num_valid);
  template <int N, class Op> __device__ T Reduce(const T (&inputs)[N], Op reduction_op);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <int N> __device__ T Sum(const T (&inputs)[N]);
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
 public:
  typedef __wl_temp_storage<sizeof(T) * (BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z + 32)> TempStorage;
  __device__ BlockScan();
  __device__ BlockScan(TempStorage &temp_storage);
#define WL_CUB_SCAN(name, ...) \
  template <class... Extra> __device__ void name(T input, T &output, __VA_ARGS__ Extra &&...extra); \
  template <int N, class... Extra> \
  __device__ void name(const T (&input)[N], T (&output)[N], __VA_ARGS__ Extra &&...extra);
  WL_CUB_SCAN(ExclusiveSum) WL_CUB_SCAN(InclusiveSum)
  template <class Op, class... Extra> __device__ void ExclusiveScan(T input, T &output, T initial_value, Op scan_op,
                                                                    Extra &&...extra);
  template <class Op> __device__ void ExclusiveScan(T input, T &output, Op scan_op);
  template <int N, class Op, class... Extra>
  __device__ void ExclusiveScan(const T (&input)[N], T (&output)[N], T initial_value, Op scan_op, Extra &&...extra);
  template <class Op, class... Extra> __device__ void InclusiveScan(T input, T &output, Op scan_op, Extra &&...extra);
  template <int N, class Op, class... Extra>
  __device__ void InclusiveScan(const T (&input)[N], T (&output)[N], Op scan_op, Extra &&...extra);
#undef WL_CUB_SCAN
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
 public:
  typedef __wl_temp_storage<sizeof(T) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockLoad();
  __device__ BlockLoad(TempStorage &temp_storage);
  template <class U, class... Rest>
  __device__ void Load(const U *block_ptr, T (&items)[ITEMS_PER_THREAD], Rest... rest);
  template <class It, class... Rest, class = __wl_if_iterator<It>>
  __device__ void Load(It block_it, T (&items)[ITEMS_PER_THREAD], Rest... rest);
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
 public:
  typedef __wl_temp_storage<sizeof(T) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockStore();
  __device__ BlockStore(TempStorage &temp_storage);
  template <class It> __device__ void Store(It block_it, const T (&items)[ITEMS_PER_THREAD]);
  template <class It> __device__ void Store(It block_it, const T (&items)[ITEMS_PER_THREAD], int valid_items);
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
 public:
  typedef __wl_temp_storage<sizeof(T) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockExchange();
  __device__ BlockExchange(TempStorage &temp_storage);
#define WL_CUB_EXCHANGE(name) \
  __device__ void name(T (&items)[ITEMS_PER_THREAD]); \
  template <class U> __device__ void name(const U (&input)[ITEMS_PER_THREAD], U (&output)[ITEMS_PER_THREAD]);
  WL_CUB_EXCHANGE(StripedToBlocked) WL_CUB_EXCHANGE(BlockedToStriped) WL_CUB_EXCHANGE(WarpStripedToBlocked)
  WL_CUB_EXCHANGE(BlockedToWarpStriped)
#undef WL_CUB_EXCHANGE
  template <class Offset> __device__ void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD],
                                                           const Offset (&ranks)[ITEMS_PER_THREAD]);
  template <class Offset> __device__ void ScatterToStriped(T (&items)[ITEMS_PER_THREAD],
                                                           const Offset (&ranks)[ITEMS_PER_THREAD]);
};

template <class Key, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class Value = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
 public:
  typedef __wl_temp_storage<(sizeof(Key) + sizeof(Value)) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z *
                            ITEMS_PER_THREAD> TempStorage;
  __device__ BlockRadixSort();
  __device__ BlockRadixSort(TempStorage &temp_storage);
#define WL_CUB_SORT(name) \
  __device__ void name(Key (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8); \
  __device__ void name(Key (&keys)[ITEMS_PER_THREAD], Value (&values)[ITEMS_PER_THREAD], int begin_bit = 0, \
                       int end_bit = sizeof(Key) * 8);
  WL_CUB_SORT(Sort) WL_CUB_SORT(SortDescending) WL_CUB_SORT(SortBlockedToStriped)
  WL_CUB_SORT(SortDescendingBlockedToStriped)
#undef WL_CUB_SORT
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockHistogram {
 public:
  typedef __wl_temp_storage<sizeof(T) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockHistogram();
  __device__ BlockHistogram(TempStorage &temp_storage);
  template <class Counter> __device__ void InitHistogram(Counter histogram[BINS]);
  template <class Counter> __device__ void Histogram(const T (&items)[ITEMS_PER_THREAD], Counter histogram[BINS]);
  template <class Counter> __device__ void Composite(const T (&items)[ITEMS_PER_THREAD], Counter histogram[BINS]);
};

template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockAdjacentDifference {
 public:
  typedef __wl_temp_storage<sizeof(T) * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> TempStorage;
  __device__ BlockAdjacentDifference();
  __device__ BlockAdjacentDifference(TempStorage &temp_storage);
  template <int N, class Out, class Op, class... Rest>
  __device__ void SubtractLeft(const T (&input)[N], Out (&output)[N], Op op, Rest... rest);
  template <int N, class Out, class Op, class... Rest>
  __device__ void SubtractRight(const T (&input)[N], Out (&output)[N], Op op, Rest... rest);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
 public:
  typedef __wl_temp_storage<sizeof(T) * LOGICAL_WARP_THREADS> TempStorage;
  __device__ WarpReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <class Op> __device__ T Reduce(T input, Op reduction_op);
  template <class Op> __device__ T Reduce(T input, Op reduction_op, int valid_items);
  template <class Flag> __device__ T HeadSegmentedSum(T input, Flag head_flag);
  template <class Flag> __device__ T TailSegmentedSum(T input, Flag tail_flag);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
 public:
  typedef __wl_temp_storage<sizeof(T) * LOGICAL_WARP_THREADS> TempStorage;
  __device__ WarpScan(TempStorage &temp_storage);
  __device__ void InclusiveSum(T input, T &output);
  __device__ void InclusiveSum(T input, T &output, T &warp_aggregate);
  __device__ void ExclusiveSum(T input, T &output);
  __device__ void ExclusiveSum(T input, T &output, T &warp_aggregate);
  template <class Op> __device__ void InclusiveScan(T input, T &output, Op scan_op);
  template <class Op> __device__ void InclusiveScan(T input, T &output, Op scan_op, T &warp_aggregate);
  template <class Op> __device__ void ExclusiveScan(T input, T &output, Op scan_op);
  template <class Op> __device__ void ExclusiveScan(T input, T &output, T initial_value, Op scan_op);
  template <class Op> __device__ void ExclusiveScan(T input, T &output, T initial_value, Op scan_op,
                                                    T &warp_aggregate);
  __device__ T Broadcast(T input, unsigned int src_lane);
};

template <class T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0,
          WarpExchangeAlgorithm ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange {
 public:
  typedef __wl_temp_storage<sizeof(T) * LOGICAL_WARP_THREADS * ITEMS_PER_THREAD> TempStorage;
  __device__ WarpExchange(TempStorage &temp_storage);
  template <class U> __device__ void BlockedToStriped(const U (&input)[ITEMS_PER_THREAD],
                                                      U (&output)[ITEMS_PER_THREAD]);
  template <class U> __device__ void StripedToBlocked(const U (&input)[ITEMS_PER_THREAD],
                                                      U (&output)[ITEMS_PER_THREAD]);
  template <class Offset> __device__ void ScatterToStriped(T (&items)[ITEMS_PER_THREAD],
                                                           Offset (&ranks)[ITEMS_PER_THREAD]);
};

/* Direct loads and stores of a thread's items: blocked, striped by the
 * block (BLOCK_THREADS apart) or by the warp. */
#define WL_CUB_DIRECT(how, ...) \
  template <__VA_ARGS__ class T, class U, int N, class... Rest> \
  __device__ void LoadDirect##how(int linear_tid, const U *block_ptr, T (&items)[N], Rest... rest); \
  template <__VA_ARGS__ class T, class It, int N, class... Rest, class = __wl_if_iterator<It>> \
  __device__ void LoadDirect##how(int linear_tid, It block_it, T (&items)[N], Rest... rest); \
  template <__VA_ARGS__ class T, class It, int N> \
  __device__ void StoreDirect##how(int linear_tid, It block_it, const T (&items)[N]); \
  template <__VA_ARGS__ class T, class It, int N> \
  __device__ void StoreDirect##how(int linear_tid, It block_it, const T (&items)[N], int valid_items);
WL_CUB_DIRECT(Blocked) WL_CUB_DIRECT(Striped, int BLOCK_THREADS,) WL_CUB_DIRECT(WarpStriped)
#undef WL_CUB_DIRECT
template <CacheLoadModifier MODIFIER, class T> __device__ T ThreadLoad(const T *ptr);
template <CacheStoreModifier MODIFIER, class T> __device__ void ThreadStore(T *ptr, T val);
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
__device__ void CTA_SYNC();
__device__ void WARP_SYNC(unsigned int member_mask);
template <class T> __host__ __device__ constexpr T DivideAndRoundUp(T n, T d) { return (n + d - 1) / d; }

/* Fancy iterators (warplint_iterator.h). */
template <class Value, class Offset = long>
struct CountingInputIterator : __wl_iterator<CountingInputIterator<Value, Offset>, Value> {
  __host__ __device__ CountingInputIterator(const Value &val);
};
template <class Value, class Offset = long>
struct ConstantInputIterator : __wl_iterator<ConstantInputIterator<Value, Offset>, Value> {
  __host__ __device__ ConstantInputIterator(const Value &val);
};
template <class Value, class Op, class InputIt, class Offset = long>
struct TransformInputIterator : __wl_iterator<TransformInputIterator<Value, Op, InputIt, Offset>, Value> {
  __host__ __device__ TransformInputIterator(InputIt input_itr, Op conversion_op);
};
template <CacheLoadModifier MODIFIER, class Value, class Offset = long>
struct CacheModifiedInputIterator : __wl_iterator<CacheModifiedInputIterator<MODIFIER, Value, Offset>, Value> {
  __host__ __device__ CacheModifiedInputIterator(const Value *ptr);
};
template <class InputIt, class Offset = long,
          class Output = typename std::iterator_traits<InputIt>::value_type>
struct ArgIndexInputIterator
    : __wl_iterator<ArgIndexInputIterator<InputIt, Offset, Output>, KeyValuePair<Offset, Output>> {
  __host__ __device__ ArgIndexInputIterator(InputIt itr);
};
template <class Offset = long> struct DiscardOutputIterator {
  __host__ __device__ DiscardOutputIterator();
  __host__ __device__ DiscardOutputIterator &operator*();
  template <class T> __host__ __device__ void operator=(const T &) const;
  __host__ __device__ DiscardOutputIterator operator+(long n) const;
  __host__ __device__ DiscardOutputIterator &operator[](long n);
};

/* Device-wide algorithms: host calls with a temporary-storage query. */
#define WL_CUB_ALGO(name) \
  template <class... Args> static cudaError_t name(void *d_temp_storage, size_t &temp_storage_bytes, Args &&...args);
struct DeviceReduce {
  WL_CUB_ALGO(Reduce) WL_CUB_ALGO(Sum) WL_CUB_ALGO(Min) WL_CUB_ALGO(Max) WL_CUB_ALGO(ArgMin) WL_CUB_ALGO(ArgMax)
  WL_CUB_ALGO(ReduceByKey) WL_CUB_ALGO(TransformReduce)
};
struct DeviceSegmentedReduce {
  WL_CUB_ALGO(Reduce) WL_CUB_ALGO(Sum) WL_CUB_ALGO(Min) WL_CUB_ALGO(Max) WL_CUB_ALGO(ArgMin) WL_CUB_ALGO(ArgMax)
};
struct DeviceScan {
  WL_CUB_ALGO(ExclusiveSum) WL_CUB_ALGO(InclusiveSum) WL_CUB_ALGO(ExclusiveScan) WL_CUB_ALGO(InclusiveScan)
  WL_CUB_ALGO(ExclusiveSumByKey) WL_CUB_ALGO(InclusiveSumByKey) WL_CUB_ALGO(ExclusiveScanByKey)
  WL_CUB_ALGO(InclusiveScanByKey)
};
struct DeviceRadixSort {
  WL_CUB_ALGO(SortKeys) WL_CUB_ALGO(SortPairs) WL_CUB_ALGO(SortKeysDescending) WL_CUB_ALGO(SortPairsDescending)
};
struct DeviceSegmentedRadixSort {
  WL_CUB_ALGO(SortKeys) WL_CUB_ALGO(SortPairs) WL_CUB_ALGO(SortKeysDescending) WL_CUB_ALGO(SortPairsDescending)
};
struct DeviceSegmentedSort {
  WL_CUB_ALGO(SortKeys) WL_CUB_ALGO(SortPairs) WL_CUB_ALGO(StableSortKeys) WL_CUB_ALGO(StableSortPairs)
};
struct DeviceMergeSort {
  WL_CUB_ALGO(SortKeys) WL_CUB_ALGO(SortPairs) WL_CUB_ALGO(StableSortKeys) WL_CUB_ALGO(StableSortPairs)
};
struct DeviceSelect { WL_CUB_ALGO(Flagged) WL_CUB_ALGO(If) WL_CUB_ALGO(Unique) WL_CUB_ALGO(UniqueByKey) };
struct DevicePartition { WL_CUB_ALGO(Flagged) WL_CUB_ALGO(If) };
struct DeviceHistogram {
  WL_CUB_ALGO(HistogramEven) WL_CUB_ALGO(HistogramRange) WL_CUB_ALGO(MultiHistogramEven)
  WL_CUB_ALGO(MultiHistogramRange)
};
struct DeviceRunLengthEncode { WL_CUB_ALGO(Encode) WL_CUB_ALGO(NonTrivialRuns) };
struct DeviceSpmv { WL_CUB_ALGO(CsrMV) };
#undef WL_CUB_ALGO
struct CachingDeviceAllocator {
  CachingDeviceAllocator(unsigned int bin_growth = 8, unsigned int min_bin = 3, unsigned int max_bin = 7,
                         size_t max_cached_bytes = (size_t)-1, bool skip_cleanup = false, bool debug = false);
  cudaError_t DeviceAllocate(void **d_ptr, size_t bytes, cudaStream_t active_stream = 0);
  cudaError_t DeviceAllocate(int device, void **d_ptr, size_t bytes, cudaStream_t active_stream = 0);
  cudaError_t DeviceFree(void *d_ptr);
  cudaError_t DeviceFree(int device, void *d_ptr);
  cudaError_t FreeAllCached();
};
}  // namespace cub
#endif

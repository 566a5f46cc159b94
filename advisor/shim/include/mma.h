/* warplint stand-in for mma.h: the warp matrix (WMMA) fragments and their
 * load / store / multiply-accumulate calls, declarations only. */
#ifndef WARPLINT_MMA_H
#define WARPLINT_MMA_H
#include "cuda_fp16.h"
#include "cuda_bf16.h"
namespace nvcuda {
namespace wmma {
struct matrix_a;
struct matrix_b;
struct accumulator;
struct row_major;
struct col_major;
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32; }
template <typename Use, int M, int N, int K, typename T, typename Layout = void>
struct fragment {
  enum { num_elements = 8 };
  T x[num_elements];
};
template <typename Use, int M, int N, int K, typename T, typename Layout, typename U>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &a, const U *p, unsigned ldm);
template <typename Use, int M, int N, int K, typename T, typename U>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T> &a, const U *p, unsigned ldm, layout_t layout);
template <int M, int N, int K, typename T, typename U>
__device__ void store_matrix_sync(U *p, const fragment<accumulator, M, N, K, T> &a, unsigned ldm,
                                  layout_t layout);
template <typename Use, int M, int N, int K, typename T, typename Layout, typename V>
__device__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &a, const V &v);
template <int M, int N, int K, typename Ta, typename La, typename Tb, typename Lb, typename Tc>
__device__ void mma_sync(fragment<accumulator, M, N, K, Tc> &d, const fragment<matrix_a, M, N, K, Ta, La> &a,
                         const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                         const fragment<accumulator, M, N, K, Tc> &c);
__device__ float __float_to_tf32(float);
}  // namespace wmma
}  // namespace nvcuda
#endif

/* The list of versions, in the order a student reads them, and the lookups
 * over it. Each version's descriptor lives in its own kernel file. */
#include <stdint.h>
#include <string.h>

#include "matmul.h"

extern const matmul_version matmul_01_naive, matmul_02_tiled16, matmul_03_tiled_unrolled,
    matmul_04_tiled_prefetch, matmul_05_regtile_1d, matmul_06_regtile_2d,
    matmul_07_vectorized, matmul_08_warptile, matmul_09_double_buffer, matmul_10_cp_async,
    matmul_11_bk16, matmul_12_frag_prefetch, matmul_13_large_tile, matmul_14_large_bk16,
    matmul_15_frag_double_buffer, matmul_16_lean_loop, matmul_17_cluster_split_k,
    matmul_18_size_aware, matmul_19_async_rows, matmul_20_padded_rows, matmul_21_stream_k,
    matmul_extra_transposed_unpadded,
    matmul_cublas_fp32, matmul_cublas_pedantic, matmul_cublas_tf32;
#define DECLARE_PLAN(WM, WN, S, NAME) extern const matmul_version matmul_plan_##NAME;
MATMUL_PLANS(DECLARE_PLAN)
#define LIST_PLAN(WM, WN, S, NAME) &matmul_plan_##NAME,
#define DECLARE_STREAM_K_PLAN(WM, WN, NAME) extern const matmul_version matmul_plan_##NAME;
MATMUL_STREAM_K_PLANS(DECLARE_STREAM_K_PLAN)
#define LIST_STREAM_K_PLAN(WM, WN, NAME) &matmul_plan_##NAME,
#define DECLARE_ASYNC_PLAN(WM, WN, S, NAME) extern const matmul_version matmul_async_##NAME;
MATMUL_PLANS(DECLARE_ASYNC_PLAN)
#define LIST_ASYNC_PLAN(WM, WN, S, NAME) &matmul_async_##NAME,
#define DECLARE_COPY_PLANS(WM, WN, S, NAME)                                              \
  extern const matmul_version matmul_padded_##NAME, matmul_copya_##NAME, matmul_copyb_##NAME, \
      matmul_copyab_##NAME;
MATMUL_PLANS(DECLARE_COPY_PLANS)
#define LIST_COPY_PLANS(WM, WN, S, NAME) \
  &matmul_padded_##NAME, &matmul_copya_##NAME, &matmul_copyb_##NAME, &matmul_copyab_##NAME,

const matmul_version *const matmul_versions[] = {
  &matmul_01_naive,
  &matmul_02_tiled16,
  &matmul_03_tiled_unrolled,
  &matmul_04_tiled_prefetch,
  &matmul_05_regtile_1d,
  &matmul_06_regtile_2d,
  &matmul_07_vectorized,
  &matmul_08_warptile,
  &matmul_09_double_buffer,
  &matmul_10_cp_async,
  &matmul_11_bk16,
  &matmul_12_frag_prefetch,
  &matmul_13_large_tile,
  &matmul_14_large_bk16,
  &matmul_15_frag_double_buffer,
  &matmul_16_lean_loop,
  &matmul_17_cluster_split_k,
  &matmul_18_size_aware,
  &matmul_19_async_rows,
  &matmul_20_padded_rows,
  &matmul_21_stream_k,
  &matmul_extra_transposed_unpadded,
  MATMUL_PLANS(LIST_PLAN)
  MATMUL_PLANS(LIST_ASYNC_PLAN)
  MATMUL_PLANS(LIST_COPY_PLANS)
  MATMUL_STREAM_K_PLANS(LIST_STREAM_K_PLAN)
  &matmul_cublas_fp32,
  &matmul_cublas_pedantic,
  &matmul_cublas_tf32,
};
const int matmul_version_count = (int)(sizeof matmul_versions / sizeof matmul_versions[0]);

const matmul_version *matmul_find(const char *name) {
  for (int i = 0; i < matmul_version_count; i++)
    if (strcmp(matmul_versions[i]->name, name) == 0) return matmul_versions[i];
  return NULL;
}

const matmul_version *matmul_baseline(void) {
  return &matmul_cublas_fp32;
}

bool matmul_vector_ok(const matmul_args *p) {
  uintptr_t bases = (uintptr_t)p->A | (uintptr_t)p->B | (uintptr_t)p->C;
  return matmul_rows_vectorizable(p->N, p->K) && bases % 16 == 0;
}

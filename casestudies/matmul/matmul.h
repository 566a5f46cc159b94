/* The matrix-multiply case study: the versions of C = alpha*A*B + beta*C
 * (FP32, row-major, any M, N, K) and what the runner and the tests need to
 * drive them. Each kernel file defines one `matmul_version`; versions.c lists
 * them in reading order. Host C; the kernels' launch functions are C too. */
#ifndef WARPMEM_MATMUL_H
#define WARPMEM_MATMUL_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "matmul_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One problem on the device: A is M x K, B is K x N, C is M x N, all
 * row-major and densely packed. When beta is 0, C is not read (as in BLAS),
 * so a poisoned C must come out fully overwritten. */
typedef struct matmul_args {
  int M, N, K;
  float alpha, beta;
  const float *A, *B;
  float *C;
} matmul_args;

typedef enum matmul_arith {
  MATMUL_FP32,  /* IEEE single-precision FMA: what every hand-written version does */
  MATMUL_TF32   /* tensor cores on 10-bit-mantissa inputs: another class of arithmetic */
} matmul_arith;

typedef struct matmul_version {
  const char *name;      /* "03_tiled_unrolled": file name and result-line name */
  const char *summary;   /* one line for the table */
  int tile_m, tile_n;    /* C tile per thread block; 0 for library calls */
  int threads;           /* threads per block; 0 for library calls */
  matmul_arith arith;
  bool in_all;           /* false for teaching counter-examples (extra/) */
  /* Launches on the default stream and checks the launch. */
  void (*launch)(const matmul_args *args);
  /* The compiler's resource report for the kernel; NULL for library calls
   * and for versions that pick a kernel per shape. */
  void (*attributes)(struct cudaFuncAttributes *out);
  /* Versions that pick a kernel per shape: the name of the one they pick
   * for these arguments; NULL for the others. */
  const char *(*choice)(const matmul_args *args);
} matmul_version;

/* Version 18's table of launch plans (18_size_aware.cu): warps down and
 * across the block (64x64 of C each), K split, and the name under which
 * the plan runs as a version of its own. One list, expanded by X. */
#define MATMUL_PLANS(X)            \
  X(2, 4, 1, tile128x256_s1)       \
  X(2, 4, 2, tile128x256_s2)       \
  X(2, 4, 4, tile128x256_s4)       \
  X(2, 4, 8, tile128x256_s8)       \
  X(2, 2, 1, tile128x128_s1)       \
  X(2, 2, 2, tile128x128_s2)       \
  X(2, 2, 4, tile128x128_s4)       \
  X(2, 2, 8, tile128x128_s8)       \
  X(1, 2, 1, tile64x128_s1)        \
  X(1, 2, 2, tile64x128_s2)        \
  X(1, 2, 4, tile64x128_s4)        \
  X(1, 2, 8, tile64x128_s8)

/* Version 21's stream-K plans (21_stream_k.cu): warps down and across the
 * block, and the plan's name as a version of its own. */
#define MATMUL_STREAM_K_PLANS(X)   \
  X(2, 4, stream_k_tile128x256)    \
  X(2, 2, stream_k_tile128x128)    \
  X(1, 2, stream_k_tile64x128)

extern const matmul_version *const matmul_versions[];
extern const int matmul_version_count;

/* The version called `name`, or NULL. */
const matmul_version *matmul_find(const char *name);
/* The strict-FP32 cuBLAS baseline that percentages are taken against. */
const matmul_version *matmul_baseline(void);
/* Destroys the cuBLAS handles the library versions created, if any. */
void matmul_release_library(void);
/* workspace.c: a device buffer of at least `bytes`, kept between calls and
 * zeroed whenever it is (re)allocated; one per use. */
typedef enum matmul_workspace_use {
  MATMUL_WORKSPACE_COPIES,    /* version 20's padded copies of A and B */
  MATMUL_WORKSPACE_STREAM_K,  /* version 21's flags and partial tiles */
  MATMUL_WORKSPACES
} matmul_workspace_use;
void *matmul_workspace(matmul_workspace_use use, size_t bytes);
/* Frees every workspace. */
void matmul_release_workspace(void);

/* cluster_launch.c: launches `kernel` (arguments as for cudaLaunchKernel)
 * with the blocks of each z column grouped `splits` to a cluster and
 * `shared` bytes of dynamic shared memory; and how many of its blocks, so
 * grouped, the GPU holds at once (clusters must fit whole into a GPC).
 * The kernel's dynamic shared-memory limit must already allow `shared`. */
void matmul_cluster_launch(const void *kernel, dim3 grid, dim3 block, size_t shared, int splits,
                           void **args);
int matmul_cluster_capacity(const void *kernel, dim3 block, size_t shared, int splits);

/* True when every row of A, B and C starts on a 16-byte boundary, so the
 * vectorized versions may move float4 at a time. */
bool matmul_vector_ok(const matmul_args *args);

#ifdef __cplusplus
}
#endif

#endif

/* The GPU kernel versions of the MNF study, one file each, all with the same
 * launch interface per hotspot so the runner and the tests can loop over
 * them (Fang et al., Tables 5, 6, 7):
 *   filter_v0_median     V0: 3x3 median, the 9 values sorted in a local array
 *   filter_v1_mean       V1: 3x3 mean in registers (L_3)
 *   filter_v2_shared     V2: the block's rows staged in shared memory (S_5)
 *   filter_v3_reuse      V3: separable sums, each loaded value reused (S_6)
 *   filter_diff, filter_shift, filter_diag
 *                        the difference estimates (not in the tables)
 *   cov_v0_naive         V0: a thread per covariance element, global memory
 *   cov_v1_shared_reduce V1: a block per element, partial sums in shared memory (S_5)
 *   cov_v2_registers     V2: as V1, temporaries in registers
 *   cov_v3_tiled         V3: image tiles in shared memory, 7x7 outputs per thread (S_5+S_6)
 *   cov_v4_padded        V4: as V3, tiles transposed and padded: no bank conflicts (S_1)
 *   cov_v5_gemm          V5: GEMM-like, 64x64 tiles of two warps, 8x8 outputs per thread,
 *                        double-buffered stages, lower-triangle tiles only (not in the paper)
 *   cov_v6_deferred      V6: V5 with the prefetched values converted only when staged,
 *                        the grid in whole waves (not in the paper)
 *   cov_v7_occupancy     V7: V6's 64x64 tiles with four warps, 8x4 outputs per thread,
 *                        <= 128 registers: 16 warps per SM (not in the paper)
 *   cov_v8_tensor        V8: exact for uint8/int16/uint16, byte planes of u = x + offset on the
 *                        int8 tensor cores (WMMA u8, int32 sums); other types run V7 (not in the paper)
 *   transform_v0_naive   V0: a thread per (component, pixel), T in global memory
 *   transform_v1_constant V1: T in __constant__ memory (C_2)
 *   transform_v2_shared  V2: image tiles in shared memory (S_5+S_6)
 *   transform_v3_registers V3: all components of two pixels in registers, T in
 *                        shared memory read as broadcasts (not in the paper)
 * Every kernel reads the image in its stored type. */
#ifndef MNF_GPU_KERNELS_H
#define MNF_GPU_KERNELS_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "envi.h"

/* A bands x n matrix of some ENVI type on the device: row b starts at
 * data + b * ld elements. */
struct gpu_matrix {
  const void *data;
  int type;
  int bands;
  long long n;
  long long ld;
};

/* The whole image on the device, BSQ. */
struct gpu_image {
  const void *data;
  int type;
  int samples, lines, bands;
};

/* S1 for image rows [row0, row0 + nrows): f[b][r][x], b < bands, r < nrows. */
typedef void (*filter_launch)(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_v0_median(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_v1_mean(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_v2_shared(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_v3_reuse(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_diff(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_shift(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);
void filter_diag(const gpu_image *img, int row0, int nrows, float *f, cudaStream_t s);

/* S2/S4: sum[i][j] += sum_k (a_ik - shift_i)(a_jk - shift_j) for j <= i
 * (the lower triangle; the upper one is left alone). shift may be NULL.
 * Products are summed in float over at most COV_BLOCK_PIXELS pixels, and
 * those partial sums in double: the blocked accumulation that keeps the
 * result accurate over millions of pixels. */
#define COV_BLOCK_PIXELS 8192
typedef void (*cov_launch)(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v0_naive(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v1_shared_reduce(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v2_registers(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v3_tiled(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v4_padded(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v5_gemm(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v6_deferred(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v7_occupancy(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);
void cov_v8_tensor(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);

/* S2/S4 accurate to double precision, for float data (the noise estimate,
 * float32 and int32 images): slices of the matrix converted to double
 * (shift subtracted, exact) and their product added by cuBLAS on the FP64
 * tensor cores, Dgemm (the whole square) or Dsyrk (the lower triangle as
 * the float kernels fill it). The context holds the handle and the
 * conversion buffer (bands x slice doubles). */
enum cov_fp64_routine { COV_FP64_DGEMM, COV_FP64_DSYRK };
struct cov_fp64 {
  void *blas; /* cublasHandle_t */
  double *scratch;
  long long slice;
  int bands, routine;
};
/* Bytes of the conversion buffer for bands x at most max_pixels. */
size_t cov_fp64_bytes(int bands, long long max_pixels);
void cov_fp64_create(cov_fp64 *c, int bands, long long max_pixels, int routine, cudaStream_t s);
void cov_fp64_destroy(cov_fp64 *c);
void cov_fp64_add(cov_fp64 *c, const gpu_matrix *a, const float *shift, double *sum, cudaStream_t s);

/* sums[b] += sum_k (a_bk - shift_b), blocked like the covariances. */
void band_sums(const gpu_matrix *a, const float *shift, double *sums, cudaStream_t s);

/* S8 for the n pixels of x: z[m * ldz + k] = sum_b t[m * bands + b] *
 * (x[b][k] - shift[b]), m < components; t (M x B) and shift (B floats, or
 * NULL for none) are on the device. The shift is subtracted before the
 * products so that float sums see centred values (mnf_centring). */
typedef void (*transform_launch)(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                                 long long ldz, cudaStream_t s);
void transform_v0_naive(const gpu_matrix *x, const float *t, const float *shift, int components, float *z, long long ldz,
                        cudaStream_t s);
void transform_v1_constant(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                           long long ldz, cudaStream_t s);
void transform_v2_shared(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                         long long ldz, cudaStream_t s);
void transform_v3_registers(const gpu_matrix *x, const float *t, const float *shift, int components, float *z,
                            long long ldz, cudaStream_t s);
/* z[m * ldz + k] += offset[m] for k < n, m < rows (offset on the device). */
void add_offsets(float *z, long long ldz, long long n, int rows, const float *offset, cudaStream_t s);

/* Reads element i of a typed device array as float. */
template <typename T>
__device__ __forceinline__ float load_as_float(const void *data, long long i)
{
  return (float)static_cast<const T *>(data)[i];
}

/* Calls body with T set to the C type of an ENVI type. */
#define MNF_DISPATCH_TYPE(type, body)                         \
  switch (type) {                                             \
  case ENVI_U8: { typedef uint8_t T; body; } break;           \
  case ENVI_I16: { typedef int16_t T; body; } break;          \
  case ENVI_U16: { typedef uint16_t T; body; } break;         \
  case ENVI_I32: { typedef int32_t T; body; } break;          \
  default: { typedef float T; body; } break;                  \
  }

static inline int ceil_div(long long a, long long b) { return (int)((a + b - 1) / b); }

#endif

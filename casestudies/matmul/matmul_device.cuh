/* Device helpers shared by the kernel files: the epilogue every version ends
 * with, and the descriptor boilerplate. Kept small on purpose: each kernel
 * file should read on its own. */
#ifndef WARPMEM_MATMUL_DEVICE_CUH
#define WARPMEM_MATMUL_DEVICE_CUH

#include "gpu.h"
#include "matmul.h"

/* C[i] = alpha*acc + beta*C[i]; C is not read when beta is 0, as in BLAS. */
__device__ __forceinline__ void store_c(float *c, float acc, float alpha, float beta) {
  *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

/* Four neighbours in a row at once; the caller checked alignment and bounds. */
__device__ __forceinline__ void store_c4(float *c, float4 acc, float alpha, float beta) {
  float4 out;
  if (beta == 0.0f) {
    out = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
  } else {
    float4 old = *reinterpret_cast<const float4 *>(c);
    out = make_float4(alpha * acc.x + beta * old.x, alpha * acc.y + beta * old.y,
                      alpha * acc.z + beta * old.z, alpha * acc.w + beta * old.w);
  }
  *reinterpret_cast<float4 *>(c) = out;
}

/* Four consecutive elements of row r of a rows x cols row-major matrix,
 * starting at column c; zeros outside the matrix, so partial tiles need no
 * special case in the inner loop. With vec the four are one 16-byte load:
 * the caller guarantees c % 4 == 0 and cols % 4 == 0, so the four are all
 * inside or all outside. */
__device__ __forceinline__ float4 load4(const float *m, int rows, int cols, int r, int c,
                                        bool vec) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (r >= rows) return v;
  const float *p = m + r * cols + c;
  if (vec) {
    if (c < cols) v = *reinterpret_cast<const float4 *>(p);
  } else {
    if (c < cols) v.x = p[0];
    if (c + 1 < cols) v.y = p[1];
    if (c + 2 < cols) v.z = p[2];
    if (c + 3 < cols) v.w = p[3];
  }
  return v;
}

/* Stores four results at C[row][col..col+3], inside the matrix only. */
__device__ __forceinline__ void store_c_quad(float *C, int M, int N, int row, int col,
                                             float4 acc, float alpha, float beta,
                                             bool vec) {
  if (row >= M) return;
  float *c = C + row * N + col;
  if (vec) {
    if (col < N) store_c4(c, acc, alpha, beta);
    return;
  }
  if (col < N) store_c(c, acc.x, alpha, beta);
  if (col + 1 < N) store_c(c + 1, acc.y, alpha, beta);
  if (col + 2 < N) store_c(c + 2, acc.z, alpha, beta);
  if (col + 3 < N) store_c(c + 3, acc.w, alpha, beta);
}

/* Defines the version's attributes() from its kernel symbol. */
#define MATMUL_ATTRIBUTES(fn_name, kernel)                          \
  static void fn_name(struct cudaFuncAttributes *out) {             \
    CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)kernel));   \
  }

#endif

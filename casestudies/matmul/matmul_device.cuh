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

/* The thread tile of versions 15-18 (version 13's): 16x8 outputs, rows
 * wr + p*16 + ty*4 + i and columns wc + q*32 + tx*4 + j of the block tile
 * (p < 4, q < 2, i, j < 4), kept as acc[p*4+i][q*4+j]. A is transposed in
 * shared memory, rows of A_ROW floats; B rows are B_ROW floats. */

/* The 16 values of A and 8 of B a thread needs at step k: six LDS.128. */
template <int A_ROW, int B_ROW>
__device__ __forceinline__ void load_fragments(const float (*As)[A_ROW], const float (*Bs)[B_ROW],
                                               int k, int wr, int wc, int ty, int tx,
                                               float4 fa[4], float4 fb[2]) {
#pragma unroll
  for (int p = 0; p < 4; p++)
    fa[p] = *reinterpret_cast<const float4 *>(&As[k][wr + p * 16 + ty * 4]);
#pragma unroll
  for (int q = 0; q < 2; q++)
    fb[q] = *reinterpret_cast<const float4 *>(&Bs[k][wc + q * 32 + tx * 4]);
}

/* The 128 multiply-adds of one step of k. */
__device__ __forceinline__ void outer_product(float acc[16][8], const float4 fa[4],
                                              const float4 fb[2]) {
  const float a[16] = {fa[0].x, fa[0].y, fa[0].z, fa[0].w, fa[1].x, fa[1].y, fa[1].z, fa[1].w,
                       fa[2].x, fa[2].y, fa[2].z, fa[2].w, fa[3].x, fa[3].y, fa[3].z, fa[3].w};
  const float b[8] = {fb[0].x, fb[0].y, fb[0].z, fb[0].w, fb[1].x, fb[1].y, fb[1].z, fb[1].w};
#pragma unroll
  for (int i = 0; i < 16; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
}

/* The thread's 16x8 results into C, whose block tile starts at (bm, bn). */
__device__ __forceinline__ void store_thread_tile(float *C, int M, int N, int bm, int bn, int wr,
                                                  int wc, int ty, int tx, const float acc[16][8],
                                                  float alpha, float beta, bool vec) {
#pragma unroll
  for (int i = 0; i < 16; i++) {
    int row = bm + wr + (i / 4) * 16 + ty * 4 + i % 4;
    int col = bn + wc + tx * 4;
    store_c_quad(C, M, N, row, col, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]),
                 alpha, beta, vec);
    store_c_quad(C, M, N, row, col + 32,
                 make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), alpha, beta, vec);
  }
}

/* Defines the version's attributes() from its kernel symbol. */
#define MATMUL_ATTRIBUTES(fn_name, kernel)                          \
  static void fn_name(struct cudaFuncAttributes *out) {             \
    CUDA_CHECK(cudaFuncGetAttributes(out, (const void *)kernel));   \
  }

#endif

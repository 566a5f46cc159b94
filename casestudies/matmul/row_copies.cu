/* Padded copies of operands whose rows are not 16-byte aligned: see
 * row_copies.cuh, and 20_padded_rows.cu for why and when. */
#include <stdint.h>
#include <stdio.h>

#include "row_copies.cuh"

namespace sgemm {

/* dst (rows x ld) = src (rows x cols) shifted right by `front` zero
 * columns, zeros after it up to ld. Each thread copies one column of
 * PAD_ROWS rows per step, the loads of all of them before the first
 * store: consecutive lanes read and write consecutive floats, and a block
 * moves enough bytes to be worth its start. */
enum { PAD_ROWS = 8 };
__global__ void pad_rows_kernel(const float *src, int rows, int cols, float *dst, int ld,
                                int front) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ld) return;
  bool in = c >= front && c - front < cols;
  for (int r0 = blockIdx.y * PAD_ROWS; r0 < rows; r0 += gridDim.y * PAD_ROWS) {
    float v[PAD_ROWS];
#pragma unroll
    for (int i = 0; i < PAD_ROWS; i++)
      v[i] = in && r0 + i < rows ? src[(size_t)(r0 + i) * cols + c - front] : 0.0f;
#pragma unroll
    for (int i = 0; i < PAD_ROWS; i++)
      if (r0 + i < rows) dst[(size_t)(r0 + i) * ld + c] = v[i];
  }
}

static int round_up(int n, int m) { return (n + m - 1) / m * m; }

static void pad_rows(const float *src, int rows, int cols, float *dst, int ld, int front) {
  int steps = matmul_tiles(rows, PAD_ROWS);
  dim3 block(128), grid(matmul_tiles(ld, 128), steps < 65535 ? steps : 65535);
  pad_rows_kernel<<<grid, block>>>(src, rows, cols, dst, ld, front);
  CUDA_CHECK_LAUNCH();
}

/* A copy of A gets its padding in front of each row (skip zero columns,
 * so that every tile after the K remainder starts on a float4), and the
 * product runs over K + skip, reading B's first skip rows as zeros; a copy
 * of B gets it at the end. */
void copy_rows(const matmul_args *p, int copy, row_operands *out) {
  uintptr_t bases = (uintptr_t)p->A | (uintptr_t)p->B | (uintptr_t)p->C;
  if (bases % 16 != 0) {
    *out = row_operands{p->A, p->B, p->K, p->K, p->N, 0, ROWS_SCALAR};
    return;
  }
  bool a4 = p->K % 4 == 0, b4 = p->N % 4 == 0;
  if (a4) copy &= ~COPY_A;
  if (b4) copy &= ~COPY_B;
  row_operands o = {p->A, p->B, p->K, p->K, p->N, 0, 0};
  int a_ld = round_up(p->K, 4), b_ld = round_up(p->N, 4);
  size_t a_floats = copy & COPY_A ? (size_t)p->M * a_ld : 0;
  size_t b_floats = copy & COPY_B ? (size_t)p->K * b_ld : 0;
  float *w = copy ? (float *)matmul_workspace(MATMUL_WORKSPACE_COPIES,
                                              (a_floats + b_floats) * sizeof(float))
                  : NULL;
  if (copy & COPY_B) {
    pad_rows(p->B, p->K, p->N, w + a_floats, b_ld, 0);
    o.B = w + a_floats;
    o.ldb = b_ld;
  }
  if (copy & COPY_A) {
    o.lda = a_ld;
    o.skip = a_ld - p->K;
    pad_rows(p->A, p->M, p->K, w, a_ld, o.skip);
    o.A = w;
    o.K = p->K + o.skip;
    o.B -= (size_t)o.skip * o.ldb;  /* row k of the product is row k - skip of B */
  }
  o.rows = (copy ? ROWS_COPIED : 0) | (a4 || (copy & COPY_A) ? ROWS_A4 : 0) |
           (b4 || (copy & COPY_B) ? ROWS_B4 : 0) | (b4 ? ROWS_C4 : 0);
  *out = o;
}

/* Copy an unaligned operand when the product reuses each of its elements
 * at least COPY_MIN_REUSE times (N times for A, M for B), so that the
 * copy's 8 bytes an element are a small share of the product's time: at
 * 2.5 TB/s against 45 TFLOP/s, 72/N of it for A, 72/M for B. */
#define COPY_MIN_REUSE 2048
int copies_for(const matmul_args *p) {
  return (p->N >= COPY_MIN_REUSE ? COPY_A : 0) | (p->M >= COPY_MIN_REUSE ? COPY_B : 0);
}

/* Which of the rule's copies a call makes: those of unaligned rows. */
static int copies_made(const matmul_args *p) {
  return copies_for(p) & ((p->K % 4 != 0 ? COPY_A : 0) | (p->N % 4 != 0 ? COPY_B : 0));
}

const char *plan_with_copies(const char *plan, const matmul_args *p) {
  static const char *const copied[] = {"", " + copy A", " + copy B", " + copy A, B"};
  static char text[64];
  snprintf(text, sizeof text, "%s%s", plan, copied[copies_made(p)]);
  return text;
}

}  // namespace sgemm

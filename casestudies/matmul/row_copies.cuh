/* Padded copies of operands whose rows are not 16-byte aligned (version
 * 20's idea, used by versions 20 and 21): the rule that decides which to
 * copy and the copies themselves, made on the default stream before the
 * product, into the workspace (workspace.c). See 20_padded_rows.cu for why. */
#ifndef WARPMEM_ROW_COPIES_CUH
#define WARPMEM_ROW_COPIES_CUH

#include <stdio.h>
#include <stdlib.h>

#include "sgemm_kernel.cuh"

namespace sgemm {

enum { COPY_A = 1, COPY_B = 2 };

/* The operands a product reads after the copies: A and B themselves or
 * their copies, their row strides, the K the product runs over (A's copy
 * has `skip` zero columns in front of each row), and the ROWS flags of
 * sgemm_kernel.cuh that say what the kernel may assume of them. */
struct row_operands {
  const float *A, *B;
  int K, lda, ldb, skip, rows;
};

/* Makes the copies `copy` asks for (COPY_A | COPY_B) of the operands whose
 * rows are unaligned, and describes what the product should read. When a
 * base address is off 16 bytes (never the case for cudaMalloc'd matrices)
 * nothing is copied and every operand is read a float at a time
 * (ROWS_SCALAR, version 18's path there). */
void copy_rows(const matmul_args *p, int copy, row_operands *out);

/* The rule: which operands to copy (COPY_A | COPY_B) if their rows are
 * unaligned. */
int copies_for(const matmul_args *p);

/* `plan` and the copies the rule makes for p ("tile128x128_s2 + copy A"),
 * for the runner's table: a buffer of its own, rewritten at each call. */
const char *plan_with_copies(const char *plan, const matmul_args *p);

/* Calls launch.template run<R>() for the ROWS flags R = rows, one of those
 * that a shape and its copies can produce: each is a kernel of its own. */
template <typename Launch>
static void with_rows(int rows, const Launch &launch) {
  switch (rows) {
#define ROWS_CASE(R) \
  case R: launch.template run<R>(); break;
    ROWS_CASE(ROWS_SCALAR)
    ROWS_CASE(ROWS_A4)
    ROWS_CASE(ROWS_B4 | ROWS_C4)
    ROWS_CASE(ROWS_VEC)
    ROWS_CASE(ROWS_COPIED | ROWS_A4)
    ROWS_CASE(ROWS_COPIED | ROWS_B4)
    ROWS_CASE(ROWS_COPIED | ROWS_A4 | ROWS_B4)
    ROWS_CASE(ROWS_COPIED | ROWS_VEC)
#undef ROWS_CASE
    default:
      fprintf(stderr, "matmul: no kernel for row flags %d\n", rows);
      abort();
  }
}

/* The plan's kernel for the operands' row flags. */
template <int WARPS_M, int WARPS_N, int SPLITS>
struct launch_operands {
  const matmul_args *p;
  const row_operands *o;
  template <int ROWS>
  void run() const {
    launch_kernel<WARPS_M, WARPS_N, ROWS, SPLITS>(p, o->A, o->B, o->K, o->lda, o->ldb,
                                                         o->skip);
  }
};

/* The plan's launch with the copies `copy` asks for. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_copies(const matmul_args *p, int copy) {
  row_operands o;
  copy_rows(p, copy, &o);
  with_rows(o.rows, launch_operands<WARPS_M, WARPS_N, SPLITS>{p, &o});
}

/* The plan's launch with the copies of the rule. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_rule(const matmul_args *p) {
  launch_copies<WARPS_M, WARPS_N, SPLITS>(p, copies_for(p));
}

}  // namespace sgemm

#endif

/* Version 20: version 18's table and rule, with an operand whose rows are
 * not 16-byte aligned first copied into rows padded to a multiple of 4
 * floats, when the copy costs less than the single-float loads it saves.
 *
 * Version 19 showed that the single-float loads of versions 16-18 are not
 * slow for want of a better way to move single floats: 4-byte cp.async was
 * slower still. What is slow is a row that cannot be read 16 bytes at a
 * time. A padded copy reads each element once and writes it once (8 bytes
 * an element, at a few TB/s); the product then reads the copy with float4
 * loads. Each element of A takes part in N multiply-adds, each of B in M,
 * so the copy of A costs a share of the product that falls as 1/N, the
 * copy of B as 1/M. An operand is copied when that share is under what its
 * single-float loads cost the product (the rule below, measured in
 * RESULTS.md). C is written in place, a float at a time, as in versions
 * 16-18 when its rows are not aligned; the plan is chosen as in version 18
 * except that with such rows an unsplit plan counts 1.09 times its cost
 * (matmul_plan_choose_rows, measured at three shapes: matmul_host.c).
 *
 * The copies run on the same stream before the product, inside the timed
 * call, into one device buffer kept between calls (allocated, or grown, at
 * the first call that needs more). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgemm_kernel.cuh"

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

/* The buffer of the copies: grown when a shape needs more, never shrunk. */
static float *workspace;
static size_t workspace_floats;

static float *workspace_for(size_t floats) {
  if (floats > workspace_floats) {
    if (workspace) CUDA_CHECK(cudaFree(workspace));
    CUDA_CHECK(cudaMalloc((void **)&workspace, floats * sizeof(float)));
    workspace_floats = floats;
  }
  return workspace;
}

extern "C" void matmul_release_workspace(void) {
  if (workspace) CUDA_CHECK(cudaFree(workspace));
  workspace = NULL;
  workspace_floats = 0;
}

enum { COPY_A = 1, COPY_B = 2 };

/* The kernel of sgemm_kernel.cuh for the row flags `rows` (those a shape
 * and its copies can produce: see launch_copies). */
template <int WM, int WN, int S>
static void launch_rows(int rows, const matmul_args *p, const float *A, const float *B, int K,
                        int lda, int ldb, int skip) {
  using namespace sgemm;
  switch (rows) {
#define ROWS_CASE(R) \
  case R: launch_kernel<WM, WN, R, S>(p, A, B, K, lda, ldb, skip); break;
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
      fprintf(stderr, "20_padded_rows: no kernel for row flags %d\n", rows);
      abort();
  }
}

/* The plan's launch with the copies `copy` asks for, of the operands whose
 * rows are not 16-byte aligned. A copy of A gets its padding in front of
 * each row (skip zero columns, so that every tile after the remainder
 * starts on a float4), and the product runs over K + skip, reading B's
 * first skip rows as zeros; a copy of B gets it at the end. Base addresses
 * off 16 bytes (never the case for cudaMalloc'd matrices) take version
 * 18's single-float path. */
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_copies(const matmul_args *p, int copy) {
  uintptr_t bases = (uintptr_t)p->A | (uintptr_t)p->B | (uintptr_t)p->C;
  if (bases % 16 != 0) {
    sgemm::launch<WARPS_M, WARPS_N, SPLITS>(p);
    return;
  }
  bool a4 = p->K % 4 == 0, b4 = p->N % 4 == 0;
  if (a4) copy &= ~COPY_A;
  if (b4) copy &= ~COPY_B;
  const float *A = p->A, *B = p->B;
  int K = p->K, lda = p->K, ldb = p->N, skip = 0;
  int a_ld = round_up(p->K, 4), b_ld = round_up(p->N, 4);
  size_t a_floats = copy & COPY_A ? (size_t)p->M * a_ld : 0;
  size_t b_floats = copy & COPY_B ? (size_t)p->K * b_ld : 0;
  float *w = copy ? workspace_for(a_floats + b_floats) : NULL;
  if (copy & COPY_B) {
    pad_rows(p->B, p->K, p->N, w + a_floats, b_ld, 0);
    B = w + a_floats;
    ldb = b_ld;
  }
  if (copy & COPY_A) {
    lda = a_ld;
    skip = a_ld - p->K;
    pad_rows(p->A, p->M, p->K, w, a_ld, skip);
    A = w;
    K = p->K + skip;
    B -= (size_t)skip * ldb;  /* row k of the product is row k - skip of B */
  }
  int rows = (copy ? sgemm::ROWS_COPIED : 0) | (a4 || (copy & COPY_A) ? sgemm::ROWS_A4 : 0) |
             (b4 || (copy & COPY_B) ? sgemm::ROWS_B4 : 0) | (b4 ? sgemm::ROWS_C4 : 0);
  launch_rows<WARPS_M, WARPS_N, SPLITS>(rows, p, A, B, K, lda, ldb, skip);
}

/* The rule: copy an unaligned operand when the product reuses each of its
 * elements at least COPY_MIN_REUSE times (N times for A, M for B), so that
 * the copy's 8 bytes an element are a small share of the product's time:
 * at 2.5 TB/s against 45 TFLOP/s, 72/N of it for A, 72/M for B. */
#define COPY_MIN_REUSE 2048
static int copies_for(const matmul_args *p) {
  return (p->N >= COPY_MIN_REUSE ? COPY_A : 0) | (p->M >= COPY_MIN_REUSE ? COPY_B : 0);
}

static int copies_made(const matmul_args *p) {
  return copies_for(p) & ((p->K % 4 != 0 ? COPY_A : 0) | (p->N % 4 != 0 ? COPY_B : 0));
}

template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_rule(const matmul_args *p) {
  launch_copies<WARPS_M, WARPS_N, SPLITS>(p, copies_for(p));
}
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_copy_a(const matmul_args *p) {
  launch_copies<WARPS_M, WARPS_N, SPLITS>(p, COPY_A);
}
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_copy_b(const matmul_args *p) {
  launch_copies<WARPS_M, WARPS_N, SPLITS>(p, COPY_B);
}
template <int WARPS_M, int WARPS_N, int SPLITS>
static void launch_copy_ab(const matmul_args *p) {
  launch_copies<WARPS_M, WARPS_N, SPLITS>(p, COPY_A | COPY_B);
}

typedef struct plan_entry {
  const char *name;
  int warps_m, warps_n, splits, per_sm;
  void (*launch)(const matmul_args *p);
  int (*resident)(void);
} plan_entry;

#define PLAN_ENTRY(WM, WN, S, NAME)                                                          \
  {#NAME, WM, WN, S, sgemm::tile<WM, WN>::BLOCKS_PER_SM, launch_rule<WM, WN, S>,            \
   sgemm::resident_blocks<WM, WN, S>},
static const plan_entry plans[] = {MATMUL_PLANS(PLAN_ENTRY)};
#define PLAN_COUNT (int)(sizeof plans / sizeof plans[0])

static const plan_entry *choose(const matmul_args *p) {
  matmul_shape s = {p->M, p->N, p->K};
  return &plans[matmul_plan_choose_rows(sgemm::plan_table(plans), PLAN_COUNT, s)];
}

static void launch(const matmul_args *p) { choose(p)->launch(p); }

static const char *choice(const matmul_args *p) {
  static const char *const copied[] = {"", " + copy A", " + copy B", " + copy A, B"};
  static char text[64];
  snprintf(text, sizeof text, "%s%s", choose(p)->name, copied[copies_made(p)]);
  return text;
}

extern "C" const matmul_version matmul_20_padded_rows = {
  "20_padded_rows", "version 18; unaligned rows of A / B through a padded copy when it pays",
  0, 0, 0, MATMUL_FP32, true, launch, NULL, choice};

#define COPY_VERSION(PREFIX, LAUNCH, WM, WN, S, NAME)                                          \
  extern "C" const matmul_version matmul_##PREFIX##_##NAME = {                                 \
    #PREFIX "_" #NAME, "one plan of version 20's table", sgemm::tile<WM, WN>::BM,              \
    sgemm::tile<WM, WN>::BN, sgemm::tile<WM, WN>::THREADS, MATMUL_FP32, false,                 \
    LAUNCH<WM, WN, S>, sgemm::attributes<WM, WN>, NULL};
#define PADDED_VERSION(WM, WN, S, NAME) COPY_VERSION(padded, launch_rule, WM, WN, S, NAME)
#define COPY_A_VERSION(WM, WN, S, NAME) COPY_VERSION(copya, launch_copy_a, WM, WN, S, NAME)
#define COPY_B_VERSION(WM, WN, S, NAME) COPY_VERSION(copyb, launch_copy_b, WM, WN, S, NAME)
#define COPY_AB_VERSION(WM, WN, S, NAME) COPY_VERSION(copyab, launch_copy_ab, WM, WN, S, NAME)
MATMUL_PLANS(PADDED_VERSION)
MATMUL_PLANS(COPY_A_VERSION)
MATMUL_PLANS(COPY_B_VERSION)
MATMUL_PLANS(COPY_AB_VERSION)

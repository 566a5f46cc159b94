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
 * The copies (row_copies.cu) run on the same stream before the product,
 * inside the timed call, into a device buffer kept between calls
 * (workspace.c). */
#include "row_copies.cuh"

namespace {

/* The plans with the copies forced, to measure the rule. */
template <int WARPS_M, int WARPS_N, int SPLITS>
void launch_copy_a(const matmul_args *p) {
  sgemm::launch_copies<WARPS_M, WARPS_N, SPLITS>(p, sgemm::COPY_A);
}
template <int WARPS_M, int WARPS_N, int SPLITS>
void launch_copy_b(const matmul_args *p) {
  sgemm::launch_copies<WARPS_M, WARPS_N, SPLITS>(p, sgemm::COPY_B);
}
template <int WARPS_M, int WARPS_N, int SPLITS>
void launch_copy_ab(const matmul_args *p) {
  sgemm::launch_copies<WARPS_M, WARPS_N, SPLITS>(p, sgemm::COPY_A | sgemm::COPY_B);
}

}  // namespace

#define PLAN_ENTRY(WM, WN, S, NAME) SGEMM_PLAN_ENTRY(WM, WN, S, NAME, sgemm::launch_rule)
static const sgemm::plan_entry plans[] = {MATMUL_PLANS(PLAN_ENTRY)};

static const sgemm::plan_entry *choose(const matmul_args *p) {
  return sgemm::choose_plan(plans, p, matmul_plan_choose_rows);
}

static void launch(const matmul_args *p) { choose(p)->launch(p); }

static const char *choice(const matmul_args *p) {
  return sgemm::plan_with_copies(choose(p)->name, p);
}

extern "C" const matmul_version matmul_20_padded_rows = {
  "20_padded_rows", "version 18; unaligned rows of A / B through a padded copy when it pays",
  0, 0, 0, MATMUL_FP32, true, launch, NULL, choice};

#define COPY_VERSION(PREFIX, LAUNCH, WM, WN, S, NAME)                                          \
  extern "C" const matmul_version matmul_##PREFIX##_##NAME = {                                 \
    #PREFIX "_" #NAME, "one plan of version 20's table", sgemm::tile<WM, WN>::BM,              \
    sgemm::tile<WM, WN>::BN, sgemm::tile<WM, WN>::THREADS, MATMUL_FP32, false,                 \
    LAUNCH<WM, WN, S>, sgemm::attributes<WM, WN>, NULL};
#define PADDED_VERSION(WM, WN, S, NAME) COPY_VERSION(padded, sgemm::launch_rule, WM, WN, S, NAME)
#define COPY_A_VERSION(WM, WN, S, NAME) COPY_VERSION(copya, launch_copy_a, WM, WN, S, NAME)
#define COPY_B_VERSION(WM, WN, S, NAME) COPY_VERSION(copyb, launch_copy_b, WM, WN, S, NAME)
#define COPY_AB_VERSION(WM, WN, S, NAME) COPY_VERSION(copyab, launch_copy_ab, WM, WN, S, NAME)
MATMUL_PLANS(PADDED_VERSION)
MATMUL_PLANS(COPY_A_VERSION)
MATMUL_PLANS(COPY_B_VERSION)
MATMUL_PLANS(COPY_AB_VERSION)

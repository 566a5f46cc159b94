/* Version 18: one entry point for every size, choosing among a small table
 * of launch plans as cuBLAS chooses among its kernels. A plan is a block
 * tile of the kernel in sgemm_kernel.cuh and a K split; matmul_plan_cost()
 * (matmul_host.c) predicts each plan's time from its grid, the number of
 * its blocks the GPU holds at once, and the speed of an SM at the
 * occupancy the grid leaves it, and the cheapest plan runs. The
 * smaller tiles exist for the shapes that 128x256 tiles cut badly: fewer
 * tiles than SMs, or a last wave nearly empty. Every plan is also a
 * version of its own (not in "all"), so that the table behind the rule can
 * be measured: matmul --versions tile128x256_s1,... */
#include "sgemm_kernel.cuh"

#define PLAN_ENTRY(WM, WN, S, NAME) SGEMM_PLAN_ENTRY(WM, WN, S, NAME, sgemm::launch)
static const sgemm::plan_entry plans[] = {MATMUL_PLANS(PLAN_ENTRY)};

static const sgemm::plan_entry *choose(const matmul_args *p) {
  return sgemm::choose_plan(plans, p, matmul_plan_choose);
}

static void launch(const matmul_args *p) { choose(p)->launch(p); }

static const char *choice(const matmul_args *p) { return choose(p)->name; }

extern "C" const matmul_version matmul_18_size_aware = {
  "18_size_aware", "one entry point: the plan of least predicted time from a table of tiles and splits",
  0, 0, 0, MATMUL_FP32, true, launch, NULL, choice};

/* Each plan as a version of its own. */
#define PLAN_VERSION(WM, WN, S, NAME)                                                        \
  extern "C" const matmul_version matmul_plan_##NAME = {                                     \
    #NAME, "one plan of version 18's table", sgemm::tile<WM, WN>::BM, sgemm::tile<WM, WN>::BN, \
    sgemm::tile<WM, WN>::THREADS, MATMUL_FP32, false, sgemm::launch<WM, WN, S>,                \
    sgemm::attributes<WM, WN>, NULL};
MATMUL_PLANS(PLAN_VERSION)

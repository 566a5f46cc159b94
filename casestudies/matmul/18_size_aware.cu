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

typedef struct plan_entry {
  const char *name;
  int warps_m, warps_n, splits, per_sm;
  void (*launch)(const matmul_args *p);
  int (*resident)(void);
} plan_entry;

#define PLAN_ENTRY(WM, WN, S, NAME) \
  {#NAME, WM, WN, S, sgemm::tile<WM, WN>::BLOCKS_PER_SM, sgemm::launch<WM, WN, S>,          \
   sgemm::resident_blocks<WM, WN, S>},
static const plan_entry plans[] = {MATMUL_PLANS(PLAN_ENTRY)};
#define PLAN_COUNT (int)(sizeof plans / sizeof plans[0])

static const plan_entry *choose(const matmul_args *p) {
  matmul_shape s = {p->M, p->N, p->K};
  return &plans[matmul_plan_choose(sgemm::plan_table(plans), PLAN_COUNT, s)];
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

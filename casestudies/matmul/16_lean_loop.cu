/* Version 16: version 15 with nothing but the work in its main loop. In
 * version 15's SASS the loop of one tile holds 1024 FFMA and 48 LDS.128,
 * and 180 other instructions: bounds tests recomputed for every load, the
 * runtime choice between float4 and scalar loads, 64-bit addresses rebuilt
 * from indices. All of that is the same for every tile. The kernel in
 * sgemm_kernel.cuh loads the K remainder first, so every later tile is
 * whole; keeps the row and column tests as loop-invariant predicates;
 * advances one pointer per load; and makes the float4 choice a template
 * argument. Same tile as versions 13 and 15: 128x256, 256 threads, one
 * block per SM. */
#include "sgemm_kernel.cuh"

static void launch(const matmul_args *p) { sgemm::launch<2, 4, 1>(p); }

extern "C" const matmul_version matmul_16_lean_loop = {
  "16_lean_loop", "version 15 with the bounds tests and address arithmetic out of the loop",
  sgemm::tile<2, 4>::BM, sgemm::tile<2, 4>::BN, sgemm::tile<2, 4>::THREADS, MATMUL_FP32, true,
  launch, sgemm::attributes<2, 4>, NULL};

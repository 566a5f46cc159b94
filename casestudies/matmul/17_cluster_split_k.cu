/* Version 17: version 16 with K split across a thread-block cluster when
 * the tiles alone would leave SMs idle. At 1024^3 version 16 has 4 x 8 =
 * 32 tiles of 128x256 for 132 SMs. Splitting K four ways gives 128 blocks
 * of K = 256 each; the four blocks of a tile form a cluster (Hopper), write
 * their partial tiles to their own shared memory and sum them through
 * distributed shared memory (sgemm_kernel.cuh): no workspace in global
 * memory, no atomics, one launch, and a sum whose order does not depend on
 * timing. The split is the largest of 1, 2, 4, 8 whose blocks all fit on
 * the GPU at once (the occupancy API counts only the clusters that fit
 * into one GPC) while each keeps at least 256 of K:
 * matmul_split_to_fill(). */
#include "sgemm_kernel.cuh"

static void launch(const matmul_args *p) {
  const int resident[4] = {sgemm::resident_blocks<2, 4, 1>(), sgemm::resident_blocks<2, 4, 2>(),
                           sgemm::resident_blocks<2, 4, 4>(), sgemm::resident_blocks<2, 4, 8>()};
  int tiles = matmul_tiles(p->M, sgemm::tile<2, 4>::BM) * matmul_tiles(p->N, sgemm::tile<2, 4>::BN);
  switch (matmul_split_to_fill(tiles, p->K, resident)) {
    case 1: sgemm::launch<2, 4, 1>(p); break;
    case 2: sgemm::launch<2, 4, 2>(p); break;
    case 4: sgemm::launch<2, 4, 4>(p); break;
    default: sgemm::launch<2, 4, 8>(p); break;
  }
}

extern "C" const matmul_version matmul_17_cluster_split_k = {
  "17_cluster_split_k", "version 16, K split over a cluster when tiles leave SMs idle",
  sgemm::tile<2, 4>::BM, sgemm::tile<2, 4>::BN, sgemm::tile<2, 4>::THREADS, MATMUL_FP32, true,
  launch, sgemm::attributes<2, 4>, NULL};

/* The suite end to end on a GPU: `warpbench --quick` must finish, every
 * pointer chase must have ended where the host predicted, and the measured
 * profile must be physically sane (no fixed numbers):
 *   shared latency < global latency; a 32-way bank conflict >= 8x a 1-way
 *   access; char4 copy bandwidth >= 1.5x char; cudaMemcpy D2D within 60-100%
 *   of the theoretical bandwidth the device reports; the L1 hit by address
 *   chase no slower than the index chase; the levels in order: L2 near hit <
 *   L2 far hit < DRAM behind the far partition, DRAM near < DRAM far; both L2
 *   partitions together hold between half and 1.25 times the L2 the device
 *   reports; a measured SM clock.
 * Arguments: the warpbench executable and a scratch output directory. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "profile.h"
#include "testing.h"

static double must(const profile *p, const char *key) {
  double v = profile_value(p, key);
  if (!(v > 0)) test_fail(__FILE__, __LINE__, "profile lacks a positive %s", key);
  return v;
}

int main(int argc, char **argv) {
  if (!gpu_or_skip("test_bench_quick")) return GPU_SKIP_EXIT;
  if (argc != 3) {
    fprintf(stderr, "usage: test_bench_quick WARPBENCH OUTPUT_DIR\n");
    return 2;
  }
  char command[8192], path[4096], err[512];
  snprintf(path, sizeof path, "%s/quick.json", argv[2]);
  remove(path);
  snprintf(command, sizeof command, "'%s' --quick --out '%s' --name quick", argv[1], argv[2]);
  CHECK(system(command) == 0);

  profile p;
  if (!profile_read(path, &p, err, sizeof err)) {
    test_fail(__FILE__, __LINE__, "%s", err);
    return test_summary();
  }
  CHECK(p.chases > 100);
  CHECK(p.chase_failures == 0);

  double shared = must(&p, "latency.shared"), global = must(&p, "latency.global");
  CHECK(shared < global);
  CHECK(must(&p, "latency.global_cg") > global);  /* L2 is further away than L1 */
  CHECK(must(&p, "latency.l1_hit") <= global);     /* no index arithmetic on the chain */
  double near = must(&p, "latency.l2_near_hit"), far = must(&p, "latency.l2_far_hit");
  double dram_near = must(&p, "latency.dram_near"), dram_far = must(&p, "latency.dram_far");
  CHECK(near < far && far < dram_far && dram_near < dram_far);
  gpu_device_info dev;
  gpu_device_info_get(0, &dev);
  double l2 = must(&p, "cache.l2.size");
  CHECK(l2 >= 0.5 * dev.l2_bytes && l2 <= 1.25 * dev.l2_bytes);
  CHECK(must(&p, "clock.sm_mhz") > 0);

  double way1 = must(&p, "bank_conflict.way_1"), way32 = must(&p, "bank_conflict.way_32");
  CHECK(way32 >= 8 * way1);
  CHECK(must(&p, "bank_conflict.tile_32x32") >= 8 * must(&p, "bank_conflict.tile_32x33"));

  CHECK(must(&p, "bandwidth.type.char4") >= 1.5 * must(&p, "bandwidth.type.char"));
  double d2d = must(&p, "bandwidth.memcpy_d2d"), peak = must(&p, "bandwidth.theoretical");
  CHECK(d2d >= 0.60 * peak && d2d <= 1.00 * peak);
  printf("shared %.1f, global %.1f cycles; L2 near %.0f, far %.0f, DRAM near %.0f, far %.0f "
         "cycles; L2 %.1f MiB; conflict 32/1 = %.1f; char4/char = %.2f; D2D %.0f of %.0f GB/s "
         "(%.0f%%)\n",
         shared, global, near, far, dram_near, dram_far, l2 / 1048576, way32 / way1,
         profile_value(&p, "bandwidth.type.char4") / profile_value(&p, "bandwidth.type.char"),
         d2d, peak, 100 * d2d / peak);
  for (int m = 0; m < TABLE2_MEMORIES; m++) CHECK(p.table2[m].known);
  profile_free(&p);
  return test_summary();
}

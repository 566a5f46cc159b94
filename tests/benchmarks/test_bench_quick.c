/* The suite end to end on a GPU: `warpbench --quick` must finish, every
 * pointer chase must have ended where the host predicted, and the measured
 * profile must be physically sane (no fixed numbers):
 *   shared latency < global latency; a 32-way bank conflict >= 8x a 1-way
 *   access; char4 copy bandwidth >= 1.5x char; cudaMemcpy D2D within 60-100%
 *   of the theoretical bandwidth the device reports.
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

  double way1 = must(&p, "bank_conflict.way_1"), way32 = must(&p, "bank_conflict.way_32");
  CHECK(way32 >= 8 * way1);
  CHECK(must(&p, "bank_conflict.tile_32x32") >= 8 * must(&p, "bank_conflict.tile_32x33"));

  CHECK(must(&p, "bandwidth.type.char4") >= 1.5 * must(&p, "bandwidth.type.char"));
  double d2d = must(&p, "bandwidth.memcpy_d2d"), peak = must(&p, "bandwidth.theoretical");
  CHECK(d2d >= 0.60 * peak && d2d <= 1.00 * peak);
  printf("shared %.1f, global %.1f cycles; conflict 32/1 = %.1f; char4/char = %.2f; "
         "D2D %.0f of %.0f GB/s (%.0f%%)\n",
         shared, global, way32 / way1,
         profile_value(&p, "bandwidth.type.char4") / profile_value(&p, "bandwidth.type.char"),
         d2d, peak, 100 * d2d / peak);
  for (int m = 0; m < TABLE2_MEMORIES; m++) CHECK(p.table2[m].known);
  profile_free(&p);
  return test_summary();
}

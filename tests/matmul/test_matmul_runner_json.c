/* The runner end to end: it runs a few versions at two sizes, exits 0, and
 * its --json file holds one well-formed result line per version and size
 * with the fields the schema promises. Skipped without a GPU.
 * Arguments: the matmul executable and a scratch folder. */
#define _DEFAULT_SOURCE /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "json_reader.h"
#include "testing.h"

static void check_line(const json_value *line, int *seen_baseline, int *seen_plan) {
  CHECK_STR(json_string_or(json_get(line, "schema"), ""), "warpmem.result/1");
  CHECK_STR(json_string_or(json_get(line, "suite"), ""), "matmul");
  CHECK_STR(json_string_or(json_get(line, "metric"), ""), "time_ms");
  const char *name = json_string_or(json_get(line, "name"), "");
  double median = json_number_or(json_get(line, "median"), -1);
  double gflops = json_number_or(json_get(line, "gflops"), -1);
  CHECK(median > 0);
  CHECK(gflops > 0);
  CHECK(json_number_or(json_get(line, "repeats"), 0) == 3);
  CHECK(json_number_or(json_path(line, "params.M"), 0) > 0);
  CHECK(json_number_or(json_get(line, "ratio_to_cublas"), -1) > 0);
  CHECK(json_number_or(json_get(line, "fraction_of_peak"), -1) > 0);
  if (strcmp(name, "cublas_fp32") == 0) {
    ++*seen_baseline;
    CHECK_NEAR(json_number_or(json_get(line, "ratio_to_cublas"), -1), 1.0, 1e-12);
  } else if (strcmp(name, "18_size_aware") == 0) {
    /* It picks a kernel per shape and says which. */
    ++*seen_plan;
    CHECK(strncmp(json_string_or(json_path(line, "params.plan"), ""), "tile", 4) == 0);
    CHECK(json_number_or(json_get(line, "correct"), 0) == 1);
  } else {
    CHECK(json_number_or(json_path(line, "params.registers"), 0) > 0);
    CHECK(json_number_or(json_get(line, "correct"), 0) == 1);
    CHECK(json_number_or(json_get(line, "rel_err"), 1) < 5e-5);
  }
}

int main(int argc, char **argv) {
  if (!gpu_or_skip("test_matmul_runner_json")) return GPU_SKIP_EXIT;
  if (argc != 3) {
    fprintf(stderr, "usage: test_matmul_runner_json MATMUL_EXE SCRATCH_DIR\n");
    return 2;
  }
  /* A file of its own, so that runs side by side (the sanitizer's tools)
   * never read each other's output. */
  char path[4096];
  snprintf(path, sizeof path, "%s/runner-XXXXXX.jsonl", argv[2]);
  int fd = mkstemps(path, 6);
  CHECK(fd >= 0);
  if (fd < 0) return test_summary();
  close(fd);
  char command[8192];
  snprintf(command, sizeof command,
           "'%s' --versions 01_naive,08_warptile,10_cp_async,18_size_aware --sizes 256,100x300x50 "
           "--repeats 3 --json '%s'",
           argv[1], path);
  CHECK(system(command) == 0);

  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) {
    remove(path);
    return test_summary();
  }
  char line[16384];
  int lines = 0, seen_baseline = 0, seen_plan = 0;
  while (fgets(line, sizeof line, f)) {
    char err[256];
    json_value *v = json_parse(line, strlen(line), err, sizeof err);
    if (!v) {
      test_fail(__FILE__, __LINE__, "line %d does not parse: %s", lines + 1, err);
      continue;
    }
    check_line(v, &seen_baseline, &seen_plan);
    json_free(v);
    lines++;
  }
  fclose(f);
  remove(path);
  /* cuBLAS baseline + 4 versions, at 2 sizes */
  CHECK(lines == 10);
  CHECK(seen_baseline == 2);
  CHECK(seen_plan == 2);
  return test_summary();
}

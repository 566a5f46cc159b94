/* On a GPU, `lab check N SOLUTION` for every exercise and teacher's
 * solution: every version measured (starting kernel, the file checked,
 * the solutions) computes the right result on fresh random inputs, and the
 * solution is measurably faster than the starting kernel (lab_compare: a
 * speed-up of at least 1.05 and a median below the start's fastest run),
 * as measured in that run. For an exercise whose point is that a 2017
 * guideline may no longer pay, the test instead checks that the lab says
 * which way it went, with the numbers, and that what it says agrees with
 * its measurements. Skipped without a GPU.
 * Arguments: the lab executable and a folder for the outputs (kept, in a
 * new run-XXXXXX folder each time: each check's text and result lines).
 * With WARPMEM_TEST_SMALL (under compute-sanitizer) each version is timed
 * once and only correctness is held: speed is not a sanitizer's question. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "json_reader.h"
#include "lab.h"
#include "lab_test_run.h"
#include "testing.h"

static const char *lab, *out_dir;

typedef struct measured {
  char version[64];
  bool correct;
  int verdict;
  double speedup, median;
} measured;

/* Reads the result lines of one check; returns how many. */
static int read_results(const char *path, measured *m, int max) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[8192];
  int n = 0;
  while (n < max && fgets(line, sizeof line, f)) {
    char err[256];
    json_value *v = json_parse(line, strlen(line), err, sizeof err);
    if (!v) continue;
    snprintf(m[n].version, sizeof m[n].version, "%s",
             json_string_or(json_path(v, "params.version"), ""));
    m[n].correct = json_number_or(json_get(v, "correct"), 0) == 1;
    m[n].verdict = (int)json_number_or(json_get(v, "verdict"), -2);
    m[n].speedup = json_number_or(json_get(v, "speedup"), 0);
    m[n].median = json_number_or(json_get(v, "median"), 0);
    json_free(v);
    n++;
  }
  fclose(f);
  return n;
}

static bool write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fputs(text, f);
  return fclose(f) == 0;
}

/* The old guideline's line: it pays exactly when a solution was faster. */
static void check_old_guideline(const lab_exercise *ex, const char *out, const measured *m,
                                int count) {
  bool any_faster = false;
  for (int i = 2; i < count; i++) any_faster = any_faster || m[i].verdict == LAB_FASTER;
  char line[128];
  snprintf(line, sizeof line, "guideline %s (2017) on ", ex->rules);
  const char *said = strstr(out, line);
  CHECK(said != NULL);
  if (!said) return;
  const char *expected = any_faster ? "it pays here" : "it does not pay here";
  const char *end = strchr(said, '\n');
  const char *found = strstr(said, expected);
  CHECK(found != NULL && (!end || found < end));
  /* With the numbers: each solution's speed-up and time. */
  CHECK(strstr(said, "x (") != NULL && strstr(said, " ms") != NULL);
}

static void check_solution(const lab_exercise *ex, const char *stem) {
  char json[4096], text[4096];
  snprintf(json, sizeof json, "%s/%s.jsonl", out_dir, stem);
  snprintf(text, sizeof text, "%s/%s.txt", out_dir, stem);
  remove(json);
  int status;
  char *out = lab_test_run(&status, "'%s' check %d '%s/casestudies/lab/solutions/%s.cu' --json '%s'%s",
                           lab, ex->number, test_source_dir(), stem, json,
                           test_small_sizes() ? " --rounds 1 --repeats 1" : "");
  CHECK(write_text(text, out));
  CHECK(status == 0);
  measured m[8];
  int count = read_results(json, m, 8);
  CHECK(count == (ex->second_solution ? 4 : 3));
  CHECK(count > 2 && strcmp(m[0].version, "start") == 0 && strcmp(m[1].version, "yours") == 0);
  for (int i = 0; i < count; i++) {
    if (!m[i].correct) test_fail(__FILE__, __LINE__, "%s: %s is wrong", stem, m[i].version);
    else test_passed++;
    CHECK(m[i].median > 0 && m[i].speedup > 0);
  }
  if (ex->old_guideline) {
    check_old_guideline(ex, out, m, count);
  } else if (!test_small_sizes()) {
    /* The file checked (the solution compiled as a student's file) and
     * the built solution: both measurably faster than the start. */
    for (int i = 1; i < count; i++)
      if (m[i].verdict != LAB_FASTER)
        test_fail(__FILE__, __LINE__, "%s: %s is not measurably faster (%.2fx)", stem,
                  m[i].version, m[i].speedup);
      else
        test_passed++;
  }
  printf("%s: %s\n", stem, status == 0 ? "ok" : "FAILED");
  for (int i = 0; i < count; i++)
    printf("  %-16s %9.4f ms  %6.2fx  %s\n", m[i].version, m[i].median, m[i].speedup,
           m[i].correct ? "correct" : "WRONG");
  free(out);
}

int main(int argc, char **argv) {
  if (!gpu_or_skip("test_lab_gpu")) return GPU_SKIP_EXIT;
  if (argc != 3) {
    fprintf(stderr, "usage: test_lab_gpu LAB OUTPUT_DIR\n");
    return 2;
  }
  lab = argv[1];
  /* A folder of its own under the one given, so that runs side by side
   * (the sanitizer's tools) never read each other's output. */
  static char dir[4096];
  int status;
  free(lab_test_run(&status, "mkdir -p '%s'", argv[2]));
  snprintf(dir, sizeof dir, "%s/run-XXXXXX", argv[2]);
  out_dir = mkdtemp(dir);
  CHECK(out_dir != NULL);
  if (!out_dir) return test_summary();
  printf("outputs in %s\n", out_dir);
  for (int i = 0; i < lab_exercise_count; i++) {
    const lab_exercise *ex = &lab_exercises[i];
    check_solution(ex, ex->stem);
    if (ex->second_solution) check_solution(ex, ex->second_solution);
  }
  return test_summary();
}

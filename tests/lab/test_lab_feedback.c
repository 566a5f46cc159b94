/* What `lab check` says on a machine without a GPU, for every exercise:
 * the starting kernel draws the exercise's guideline in warplint and the
 * check is not done (exit 1); each teacher's solution draws no guideline
 * and is done (exit 0). ptxas's report confirms exercise 4's point: the
 * starting kernel keeps its array in local memory (a stack frame), the
 * solution does not, and no other solution uses local memory. A file that
 * does not compile is reported with nvcc's errors, one without the entry
 * point as such.
 * Arguments: the lab executable, the warplint executable, a scratch folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "lab_test_run.h"
#include "testing.h"

static const char *lab, *warplint, *scratch;

static char *check(int number, const char *folder, const char *stem, int *status) {
  return lab_test_run(status, "'%s' check %d '%s/casestudies/lab/%s/%s.cu' --cpu --warplint '%s'",
                      lab, number, test_source_dir(), folder, stem, warplint);
}

/* The largest "N bytes stack frame" in the output, -1 when there is none. */
static int largest_stack_frame(const char *out) {
  int largest = -1;
  for (const char *p = strstr(out, " bytes stack frame"); p; p = strstr(p + 1, " bytes stack frame")) {
    const char *digits = p;
    while (digits > out && digits[-1] >= '0' && digits[-1] <= '9') digits--;
    int n = atoi(digits);
    if (n > largest) largest = n;
  }
  return largest;
}

/* "  line L  RULE  ..." for every rule the exercise teaches. */
static bool draws_rules(const lab_exercise *ex, const char *out) {
  char rules[64];
  snprintf(rules, sizeof rules, "%s", ex->rules);
  for (char *rule = strtok(rules, " "); rule; rule = strtok(NULL, " ")) {
    char pattern[32];
    snprintf(pattern, sizeof pattern, "  %s  ", rule);
    bool found = false;
    for (const char *line = strstr(out, "  line "); line && !found; line = strstr(line + 1, "  line "))
      found = strncmp(strchr(line + 7, ' '), pattern, strlen(pattern)) == 0;
    if (!found) return false;
  }
  return true;
}

static void test_starting_kernel(const lab_exercise *ex) {
  int status;
  char *out = check(ex->number, "exercises", ex->stem, &status);
  if (status != 1 || !draws_rules(ex, out) || !strstr(out, "still fires") ||
      !strstr(out, "not yet"))
    test_fail(__FILE__, __LINE__, "starting kernel of %s: status %d, output:\n%s", ex->stem,
              status, out);
  else
    test_passed++;
  int stack = largest_stack_frame(out);
  CHECK(ex->number == 4 ? stack > 0 : stack == 0);
  free(out);
}

static void test_solution(const lab_exercise *ex, const char *stem) {
  int status;
  char *out = check(ex->number, "solutions", stem, &status);
  if (status != 0 || strstr(out, "  line ") || !strstr(out, "none fires") ||
      !strstr(out, "done: no guideline fires, the kernel compiles (its result"))
    test_fail(__FILE__, __LINE__, "solution %s: status %d, output:\n%s", stem, status, out);
  else
    test_passed++;
  CHECK(largest_stack_frame(out) == 0);
  free(out);
}

/* Writes TEXT to scratch/NAME and checks it as exercise 1: not done
 * (exit 1), with EXPECTED in the output. */
static void expect_not_compiled(const char *name, const char *text, const char *expected) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
  int status;
  char *out = lab_test_run(&status, "'%s' check 1 '%s' --cpu --warplint '%s'", lab, path,
                           warplint);
  if (status != 1 || !strstr(out, expected))
    test_fail(__FILE__, __LINE__, "%s: status %d, output:\n%s", name, status, out);
  else
    test_passed++;
  free(out);
}

static void test_compile_errors(void) {
  /* nvcc's error, with the file and line. */
  expect_not_compiled("broken.cu",
                      "#include \"lab_kernels.h\"\n"
                      "LAB_ENTRY void lab_transpose_run(const lab_transpose_args *a) { a->rows = 0; }\n",
                      "broken.cu(2)");
  expect_not_compiled("no_entry.cu",
                      "#include \"lab_kernels.h\"\n"
                      "LAB_ENTRY void lab_transpose(const lab_transpose_args *a) { (void)a; }\n",
                      "does not define lab_transpose_run");
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: test_lab_feedback LAB WARPLINT SCRATCH_DIR\n");
    return 2;
  }
  lab = argv[1];
  warplint = argv[2];
  scratch = argv[3];
  int status;
  free(lab_test_run(&status, "mkdir -p '%s'", scratch));
  for (int i = 0; i < lab_exercise_count; i++) {
    const lab_exercise *ex = &lab_exercises[i];
    test_starting_kernel(ex);
    test_solution(ex, ex->stem);
    if (ex->second_solution) test_solution(ex, ex->second_solution);
  }
  test_compile_errors();
  return test_summary();
}

/* The lab program's command line, on any machine: help, usage errors, bad
 * files, `lab list` and `lab start` (a student's copy is made once and
 * never overwritten), and `lab check` finding that copy by default.
 * Arguments: the lab executable and a scratch folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "lab_test_run.h"
#include "testing.h"

static const char *lab, *scratch;

static int count_lines(const char *text) {
  int n = 0;
  for (; *text; text++) n += *text == '\n';
  return n;
}

static void test_help(void) {
  const char *forms[] = {"--help", "-h", "list --help", "start -h", "check --help",
                         "check 3 --help"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    int status;
    char *out = lab_test_run(&status, "'%s' %s", lab, forms[i]);
    CHECK(status == 0);
    CHECK(strstr(out, "usage: lab list") != NULL);
    free(out);
  }
}

/* Each usage error: exit status 2 and a first line that names the problem. */
static void expect_usage_error(const char *arguments, const char *message) {
  int status;
  char *out = lab_test_run(&status, "'%s' %s", lab, arguments);
  if (status != 2 || strncmp(out, message, strlen(message)) != 0)
    test_fail(__FILE__, __LINE__, "lab %s: status %d, output \"%.200s\"", arguments, status, out);
  else
    test_passed++;
  free(out);
}

static void test_usage_errors(void) {
  expect_usage_error("", "usage: lab list");
  expect_usage_error("frobnicate", "lab: unknown command \"frobnicate\"");
  expect_usage_error("check", "lab: check needs an exercise number");
  expect_usage_error("check 9", "lab: no exercise \"9\"");
  expect_usage_error("check x1", "lab: no exercise \"x1\"");
  expect_usage_error("check 1 --seed", "lab: --seed needs a number");
  expect_usage_error("check 1 --rounds 0", "lab: --rounds needs a number");
  expect_usage_error("check 1 --colour", "lab: unknown option --colour");
  expect_usage_error("check 1 a.cu b.cu", "lab: one FILE at a time (b.cu)");
  expect_usage_error("check 1 /nonexistent/kernel.cu",
                     "lab: cannot read /nonexistent/kernel.cu: No such file or directory");
  expect_usage_error("start 0", "lab: no exercise \"0\"");
}

static void test_list(void) {
  int status;
  char *out = lab_test_run(&status, "'%s' list", lab);
  CHECK(status == 0);
  CHECK(count_lines(out) == lab_exercise_count);
  for (int i = 0; i < lab_exercise_count; i++) CHECK(strstr(out, lab_exercises[i].stem) != NULL);
  /* The columns line up: the rule and the file start at the same place in
   * every row, however long the title. */
  long rule_column = -1, file_column = -1;
  for (const char *row = out; row && *row; row = strchr(row, '\n') ? strchr(row, '\n') + 1 : NULL) {
    const lab_exercise *ex = lab_find_exercise(atoi(row));
    const char *rule = ex ? strstr(row, ex->rules) : NULL, *file = strstr(row, "exercises/");
    CHECK(rule && file);
    if (!rule || !file) break;
    if (rule_column < 0) { rule_column = rule - row; file_column = file - row; }
    if (rule - row != rule_column || file - row != file_column)
      test_fail(__FILE__, __LINE__, "lab list: row %d is not aligned: %.80s", ex->number, row);
  }
  free(out);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = calloc(1, 1 << 16);
  if (text && fread(text, 1, (1 << 16) - 1, f) == 0 && ferror(f)) {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

/* lab start copies the starting kernel; a second start keeps the edit. */
static void test_start(void) {
  int status;
  char *out = lab_test_run(&status, "rm -rf '%s/lab-work' && cd '%s' && '%s' start 3", scratch,
                           scratch, lab);
  CHECK(status == 0);
  CHECK(strstr(out, "lab-work/3_mix.cu") != NULL);
  free(out);
  char copy[4096], original[4096];
  snprintf(copy, sizeof copy, "%s/lab-work/3_mix.cu", scratch);
  snprintf(original, sizeof original, "%s/casestudies/lab/exercises/3_mix.cu", test_source_dir());
  char *a = read_text(copy), *b = read_text(original);
  CHECK(a && b && strcmp(a, b) == 0);
  free(a);
  free(b);

  FILE *f = fopen(copy, "a");
  CHECK(f != NULL);
  if (f) {
    fputs("// the student's edit\n", f);
    fclose(f);
  }
  out = lab_test_run(&status, "cd '%s' && '%s' start 3", scratch, lab);
  CHECK(status == 2);
  CHECK(strstr(out, "it is your work, so it is left as it is") != NULL);
  free(out);
  a = read_text(copy);
  CHECK(a && strstr(a, "// the student's edit") != NULL);
  free(a);

  /* check without FILE takes the copy. */
  out = lab_test_run(&status, "cd '%s' && '%s' check 3 --cpu", scratch, lab);
  CHECK(strstr(out, "file: lab-work/3_mix.cu") != NULL);
  free(out);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_lab_cli LAB SCRATCH_DIR\n");
    return 2;
  }
  lab = argv[1];
  scratch = argv[2];
  int status;
  free(lab_test_run(&status, "mkdir -p '%s'", scratch));
  test_help();
  test_usage_errors();
  test_list();
  test_start();
  return test_summary();
}

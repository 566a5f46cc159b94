/* Runs warplint on every annotated fixture and compares what it reports
 * with what the fixture expects, clang-tidy style:
 *   a line ending in "// expect: S_1 G_3" must draw exactly those findings
 *   (as a multiset), every other line none.
 * Also checks that each finding's estimate came from the profile, and that
 * nvcc accepts the shim_*.cu fixtures where it is installed.
 * usage: test_warplint_fixtures WARPLINT DIR [DIR...] */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_reader.h"
#include "testing.h"
#include "wl_test_util.h"

#define MAX_EXPECT 256

typedef struct expect { unsigned line; char rule[16]; bool seen; } expect;

static int read_expectations(const char *path, expect *out) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[2048];
  unsigned number = 0;
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    number++;
    const char *at = strstr(line, "// expect:");
    if (!at) continue;
    at += strlen("// expect:");
    char rule[16];
    int used;
    while (sscanf(at, " %15[A-Z0-9_]%n", rule, &used) == 1 && n < MAX_EXPECT) {
      out[n].line = number;
      snprintf(out[n].rule, sizeof out[n].rule, "%s", rule);
      out[n++].seen = false;
      at += used;
    }
  }
  fclose(f);
  return n;
}

static void check_fixture(const char *warplint, const char *profile, const char *path) {
  expect want[MAX_EXPECT];
  int n = read_expectations(path, want);
  CHECK(n >= 0);
  char *cmd = wl_test_format("'%s' check --format=json --gpu '%s' '%s'", warplint, profile, path);
  int status;
  json_value *doc = wl_test_run_json(cmd, &status);
  free(cmd);
  if (!doc) { test_fail(__FILE__, __LINE__, "%s: no JSON from warplint", path); return; }
  CHECK(status == (n > 0 ? 1 : 0));
  const json_value *findings = json_get(doc, "findings");
  const json_value *errors = json_get(doc, "errors");
  if (errors && errors->count) test_fail(__FILE__, __LINE__, "%s: %s", path, json_string_or(json_at(errors, 0), "?"));
  for (size_t i = 0; findings && i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    const char *rule = json_string_or(json_get(f, "rule"), "?");
    unsigned line = (unsigned)json_number_or(json_get(f, "line"), 0);
    bool matched = false;
    for (int k = 0; k < n && !matched; k++) {
      if (!want[k].seen && want[k].line == line && strcmp(want[k].rule, rule) == 0) {
        want[k].seen = true;
        matched = true;
      }
    }
    if (matched) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s:%u: unexpected %s: %s", path, line, rule,
                   json_string_or(json_get(f, "message"), ""));
    /* every estimate must name measured keys that the profile holds */
    const json_value *metrics = json_path(f, "estimate.metrics");
    CHECK(metrics && metrics->count >= 1);
    for (size_t m = 0; metrics && m < metrics->count; m++) {
      const json_value *mv = json_at(metrics, m);
      if (json_get(mv, "measured")->boolean) CHECK(json_get(mv, "value")->type == JSON_NUMBER);
    }
  }
  for (int k = 0; k < n; k++) {
    if (want[k].seen) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s:%u: expected %s, not reported", path, want[k].line, want[k].rule);
  }
  json_free(doc);
}

/* The shim_*.cu fixtures exercise the stand-in headers: where a CUDA
 * toolkit is installed they must also be accepted by nvcc (front end and
 * device code, as the real-code evaluation's nvcc.sh runs it), so that the
 * stand-ins never accept what the real headers reject in those files. */
static void check_nvcc_accepts(const char *path) {
  const char *nvcc = "/usr/local/cuda/bin/nvcc";
  const char *base = strrchr(path, '/');
  if (strncmp(base ? base + 1 : path, "shim_", 5) != 0) return;
  if (access(nvcc, X_OK) != 0) {
    printf("nvcc not found: %s is not compiled\n", path);
    return;
  }
  char *cmd = wl_test_format("%s -arch=sm_90 --cuda -o /dev/null '%s' 2>&1", nvcc, path);
  int status;
  char *out = wl_test_run(cmd, &status);
  if (status != 0) test_fail(__FILE__, __LINE__, "%s: nvcc rejects it:\n%s", path, out);
  else test_passed++;
  free(out);
  free(cmd);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s WARPLINT DIR...\n", argv[0]);
    return 2;
  }
  char *profile = wl_test_format("%s/tests/advisor/profiles/synthetic-sm90.json", test_source_dir());
  int files = 0;
  for (int d = 2; d < argc; d++) {
    DIR *dir = opendir(argv[d]);
    CHECK(dir != NULL);
    if (!dir) continue;
    char *names[1024];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && count < 1024) {
      size_t len = strlen(e->d_name);
      if (len > 3 && strcmp(e->d_name + len - 3, ".cu") == 0) names[count++] = wl_test_format("%s/%s", argv[d], e->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof names[0], by_name);
    for (int i = 0; i < count; i++) {
      check_fixture(argv[1], profile, names[i]);
      check_nvcc_accepts(names[i]);
      free(names[i]);
      files++;
    }
  }
  printf("%d fixture files\n", files);
  CHECK(files > 0);
  free(profile);
  return test_summary();
}

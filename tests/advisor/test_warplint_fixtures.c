/* Runs warplint on every annotated fixture and compares what it reports
 * with what the fixture expects, clang-tidy style:
 *   a line ending in "// expect: S_1 G_3" must draw exactly those findings
 *   (as a multiset), every other line none.
 * "// expect-without-nvcc: L_2" expects findings only where warplint finds
 * no nvcc to ask whether the kernel keeps its private arrays in registers.
 * The run draws no note unless a fixture names it: "// expect-note: TEXT"
 * must be noted for that file in every run, "// allow-note: TEXT" may be
 * (a fallback that only some headers cause).
 * Also checks that each finding's estimate came from the profile, that
 * the report is the same at -j 1 as at -j 4, and that nvcc accepts the
 * shim_*.cu fixtures where it is installed.
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

/* Where warplint looks for nvcc (ptxas.c's find_nvcc): WARPLINT_NVCC, else
 * the toolkit's; the fixtures' toolkit is the installer's. */
static bool nvcc_found(void) {
  const char *env = getenv("WARPLINT_NVCC");
  return access(env && *env ? env : "/usr/local/cuda/bin/nvcc", X_OK) == 0;
}

static int read_expectations(const char *path, expect *out) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[2048];
  unsigned number = 0;
  int n = 0;
  bool nvcc = nvcc_found();
  while (fgets(line, sizeof line, f)) {
    number++;
    const char *at = strstr(line, "// expect:");
    if (!at && !nvcc) at = strstr(line, "// expect-without-nvcc:");
    if (!at) continue;
    at = strchr(at, ':') + 1;
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

static json_value *catalog;

/* The note markers of one fixture: text after "// expect-note:" (required)
 * or "// allow-note:" (permitted). */
typedef struct note_marker { char text[256]; bool required; bool seen; } note_marker;

static int read_note_markers(const char *path, note_marker *out, int cap) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[2048];
  int n = 0;
  while (fgets(line, sizeof line, f) && n < cap) {
    const char *expect = strstr(line, "// expect-note:"), *allow = strstr(line, "// allow-note:");
    const char *at = expect ? expect + strlen("// expect-note:") : allow ? allow + strlen("// allow-note:") : NULL;
    if (!at) continue;
    while (*at == ' ') at++;
    snprintf(out[n].text, sizeof out[n].text, "%.*s", (int)strcspn(at, "\r\n"), at);
    out[n].required = expect != NULL;
    out[n++].seen = false;
  }
  fclose(f);
  return n;
}

/* Every note of the run is one some fixture names; every required one is
 * drawn. */
static void check_notes(const json_value *notes, char **names, int count, const char *mode) {
  for (size_t i = 0; notes && i < notes->count; i++) {
    const char *note = json_string_or(json_at(notes, i), "?");
    bool named = false;
    for (int f = 0; f < count && !named; f++) {
      if (!strstr(note, names[f])) continue;
      note_marker m[8];
      int n = read_note_markers(names[f], m, 8);
      for (int k = 0; k < n && !named; k++) named = strstr(note, m[k].text) != NULL;
    }
    if (named) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s: unexpected note: %s", mode, note);
  }
  for (int f = 0; f < count; f++) {
    note_marker m[8];
    int n = read_note_markers(names[f], m, 8);
    for (int k = 0; k < n; k++) {
      if (!m[k].required) continue;
      bool drawn = false;
      for (size_t i = 0; notes && i < notes->count && !drawn; i++) {
        const char *note = json_string_or(json_at(notes, i), "");
        drawn = strstr(note, names[f]) && strstr(note, m[k].text);
      }
      if (drawn) test_passed++;
      else test_fail(__FILE__, __LINE__, "%s (%s): expected the note \"%s\", not drawn", names[f], mode, m[k].text);
    }
  }
}

/* key matches pattern, where <name> stands for any text. */
static bool key_matches(const char *key, const char *pattern) {
  if (!*pattern) return !*key;
  if (*pattern == '<') {
    const char *close = strchr(pattern, '>');
    if (!close) return false;
    for (const char *k = key;; k++) {
      if (key_matches(k, close + 1)) return true;
      if (!*k) return false;
    }
  }
  return *key == *pattern && key_matches(key + 1, pattern + 1);
}

/* A finding's two metrics are the comparison its rule names in the catalog
 * (evidence.cost, evidence.instead). */
static void check_evidence(const json_value *f, const char *path) {
  const char *rule = json_string_or(json_get(f, "rule"), "?");
  const json_value *rules = json_get(catalog, "rules"), *evidence = NULL;
  for (size_t i = 0; rules && i < rules->count; i++)
    if (strcmp(json_string_or(json_get(json_at(rules, i), "id"), ""), rule) == 0)
      evidence = json_get(json_at(rules, i), "evidence");
  if (!evidence) return;
  const json_value *metrics = json_path(f, "estimate.metrics");
  const char *cost = json_string_or(json_get(json_at(metrics, 0), "key"), "");
  const char *instead = json_string_or(json_get(json_at(metrics, 1), "key"), "");
  if (key_matches(cost, json_string_or(json_get(evidence, "cost"), "")) &&
      key_matches(instead, json_string_or(json_get(evidence, "instead"), "")))
    test_passed++;
  else
    test_fail(__FILE__, __LINE__, "%s: %s quotes %s vs %s, not its catalog evidence", path, rule, cost, instead);
}

/* The findings of one file in the JSON document, against its expectations. */
static void check_fixture(const json_value *doc, const char *path, const char *mode) {
  expect want[MAX_EXPECT];
  int n = read_expectations(path, want);
  CHECK(n >= 0);
  const json_value *files = json_get(doc, "files");
  bool listed = false;
  for (size_t i = 0; files && i < files->count; i++) {
    const json_value *f = json_at(files, i);
    if (strcmp(json_string_or(json_get(f, "file"), ""), path) != 0) continue;
    listed = true;
    if (strcmp(json_string_or(json_get(f, "status"), ""), "analysed") != 0 ||
        json_number_or(json_get(f, "kernels_skipped"), 0) != 0)
      test_fail(__FILE__, __LINE__, "%s (%s): not wholly analysed: %s", path, mode,
                json_string_or(json_get(f, "reason"), "a kernel was skipped"));
  }
  if (!listed) test_fail(__FILE__, __LINE__, "%s (%s): not in the report's files", path, mode);
  const json_value *findings = json_get(doc, "findings");
  for (size_t i = 0; findings && i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    if (strcmp(json_string_or(json_get(f, "file"), ""), path) != 0) continue;
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
    else test_fail(__FILE__, __LINE__, "%s:%u (%s): unexpected %s: %s", path, line, mode, rule,
                   json_string_or(json_get(f, "message"), ""));
    check_evidence(f, path);
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
    else test_fail(__FILE__, __LINE__, "%s:%u (%s): expected %s, not reported", path, want[k].line, mode,
                   want[k].rule);
  }
}

/* warplint's JSON report on every fixture with JOBS threads (headers: ""
 * for the default, the toolkit where one is installed, or "--shim"). */
static char *run_all(const char *warplint, const char *profile, const char *headers, int jobs, char **names,
                     int count, int *status) {
  size_t len = 0;
  for (int i = 0; i < count; i++) len += strlen(names[i]) + 3;
  char *list = calloc(len + 1, 1);
  for (int i = 0; i < count; i++) {
    strcat(list, " '");
    strcat(list, names[i]);
    strcat(list, "'");
  }
  char *cmd = wl_test_format("'%s' check --format=json -j %d %s --gpu '%s'%s", warplint, jobs, headers, profile, list);
  char *out = wl_test_run(cmd, status);
  free(cmd);
  free(list);
  return out;
}

/* One warplint run over every fixture (-j 4); returns the headers the
 * report says it parsed with, and its text in *report. */
static char *check_all(const char *warplint, const char *profile, const char *headers, char **names, int count,
                       char **kernel_headers, int kernel_header_count, char **report, int *report_status) {
  int status;
  char *out = run_all(warplint, profile, headers, 4, names, count, &status);
  char err[256];
  json_value *doc = out ? json_parse(out, strlen(out), err, sizeof err) : NULL;
  *report = out;
  *report_status = status;
  if (!doc) { test_fail(__FILE__, __LINE__, "no JSON from warplint %s: %.400s", headers, out ? out : ""); return NULL; }
  const char *mode = json_string_or(json_get(doc, "headers"), "?");
  printf("%d fixture files, headers: %s\n", count, mode);
  CHECK(status == 1);   /* the positive fixtures draw warnings */
  const json_value *errors = json_get(doc, "errors"), *notes = json_get(doc, "notes");
  for (size_t i = 0; errors && i < errors->count; i++)
    test_fail(__FILE__, __LINE__, "%s: %s", mode, json_string_or(json_at(errors, i), "?"));
  check_notes(notes, names, count, mode);
  for (int i = 0; i < count; i++) check_fixture(doc, names[i], mode);
  for (int i = 0; i < kernel_header_count; i++) check_fixture(doc, kernel_headers[i], mode);
  char *used = strdup(mode);
  json_free(doc);
  return used;
}

/* The report of the stand-ins' run (REPORT, exit STATUS, at -j 4) is the
 * one a run with one thread gives, byte for byte: the threads change
 * nothing but the time. (The -j 4 run is check_all's own, so only the
 * -j 1 run is added.) */
static void same_report_at_one_job(const char *warplint, const char *profile, char **names, int count,
                                   const char *report, int status, const char *headers) {
  int one_status;
  char *one = run_all(warplint, profile, headers, 1, names, count, &one_status);
  if (one && report && strcmp(one, report) == 0 && one_status == status) test_passed++;
  else test_fail(__FILE__, __LINE__, "-j 1 and -j 4 give different reports (%s; exit %d and %d)", headers, one_status,
                 status);
  free(one);
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
  char *catalog_path = wl_test_format("%s/rules/catalog.json", test_source_dir());
  char err[256];
  catalog = json_parse_file(catalog_path, err, sizeof err);
  free(catalog_path);
  CHECK(catalog != NULL);
  char *names[1024], *headers[64];
  int count = 0, header_count = 0;
  for (int d = 2; d < argc; d++) {
    DIR *dir = opendir(argv[d]);
    CHECK(dir != NULL);
    if (!dir) continue;
    struct dirent *e;
    while ((e = readdir(dir)) && count < 1024) {
      size_t len = strlen(e->d_name);
      if (len > 3 && strcmp(e->d_name + len - 3, ".cu") == 0) names[count++] = wl_test_format("%s/%s", argv[d], e->d_name);
      /* headers with kernels: checked through the .cu files that include them */
      else if (len > 4 && strcmp(e->d_name + len - 4, ".cuh") == 0 && header_count < 64)
        headers[header_count++] = wl_test_format("%s/%s", argv[d], e->d_name);
    }
    closedir(dir);
  }
  qsort(names, (size_t)count, sizeof names[0], by_name);
  CHECK(count > 0);
  /* The default headers (a CUDA toolkit's where one is installed), and the
   * stand-ins too when the default was a toolkit: both must agree with
   * every fixture. */
  char *report, *shim_report = NULL;
  int report_status, shim_status = 0;
  wl_test_forget_report("fixtures.json");
  char *mode = check_all(argv[1], profile, "", names, count, headers, header_count, &report, &report_status);
  bool stand_ins = mode && strcmp(mode, "stand-ins") == 0;
  if (mode && !stand_ins)
    free(check_all(argv[1], profile, "--shim", names, count, headers, header_count, &shim_report, &shim_status));
  free(mode);
  /* The stand-ins' report, for test_warplint_fixits: which fixtures draw fix-its. */
  wl_test_save_report("fixtures.json", shim_report ? shim_report : stand_ins ? report : NULL);
  same_report_at_one_job(argv[1], profile, names, count, shim_report ? shim_report : report,
                         shim_report ? shim_status : report_status, shim_report ? "--shim" : "");
  free(report);
  free(shim_report);
  for (int i = 0; i < count; i++) check_nvcc_accepts(names[i]);
  for (int i = 0; i < count; i++) free(names[i]);
  for (int i = 0; i < header_count; i++) free(headers[i]);
  free(profile);
  json_free(catalog);
  return test_summary();
}

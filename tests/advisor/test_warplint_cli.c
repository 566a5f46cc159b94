/* warplint's interfaces: JSON and SARIF structure, --fix, suppressions,
 * -p with a compilation database, bad input, the subcommands, their
 * exit statuses, explain's evidence, --changed-since, singular messages,
 * G_3's advice on a transpose. (-j: test_warplint_fixtures compares its
 * -j 4 report on every fixture with a -j 1 one.)
 * usage: test_warplint_cli WARPLINT SCRATCH_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json_reader.h"
#include "testing.h"
#include "wl_test_util.h"

static const char *warplint, *scratch;
static char *profile;

/* The command line with --shim after the subcommand: these tests are about
 * the interface, and the stand-in headers parse fastest (the CUDA toolkit's
 * headers are checked by the fixture tests and test_toolkit_headers). */
static char *command(const char *args, const char *redirect) {
  size_t subcommand = strcspn(args, " ");
  return wl_test_format("'%s' %.*s --shim%s %s", warplint, (int)subcommand, args, args + subcommand, redirect);
}

static json_value *run_json(const char *args, int *status) {
  char *cmd = command(args, "2>/dev/null");
  json_value *doc = wl_test_run_json(cmd, status);
  free(cmd);
  return doc;
}

/* `check --format=json` of one file with the test profile. */
static json_value *check_json(const char *path) {
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, path);
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  return doc;
}

static char *run_text(const char *args, int *status) {
  char *cmd = command(args, "2>&1");
  char *out = wl_test_run(cmd, status);
  free(cmd);
  return out ? out : calloc(1, 1);
}

static char *scratch_file(const char *name, const char *text) {
  char *path = wl_test_format("%s/%s", scratch, name);
  CHECK(wl_test_write_file(path, text, strlen(text)));
  return path;
}

static bool has_keys(const json_value *o, const char *const *keys) {
  for (; *keys; keys++) {
    if (!json_get(o, *keys)) {
      fprintf(stderr, "missing key '%s'\n", *keys);
      return false;
    }
  }
  return true;
}

static int count_rule(const json_value *doc, const char *rule) {
  const json_value *f = json_get(doc, "findings");
  int n = 0;
  for (size_t i = 0; f && i < f->count; i++)
    n += strcmp(json_string_or(json_get(json_at(f, i), "rule"), ""), rule) == 0;
  return n;
}

static void test_json_schema(void) {
  char *args = wl_test_format("check --format=json --gpu '%s' '%s/tests/advisor/fixtures/s1_positive.cu' "
                              "'%s/tests/advisor/fixtures/t4_positive.cu'", profile, test_source_dir(),
                              test_source_dir());
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  if (!doc) return;
  CHECK(status == 1);
  static const char *const top[] = {"tool", "version", "findings", "arrays", "errors", NULL};
  static const char *const finding[] = {"rule", "severity", "file", "line", "column", "kernel", "array",
                                         "space", "message", "estimate", "fixes", NULL};
  static const char *const fix[] = {"file", "line", "column", "length", "replacement", NULL};
  static const char *const array[] = {"file", "kernel", "array", "space", "element_type", "classes", "line",
                                      "column", NULL};
  CHECK(has_keys(doc, top));
  CHECK_STR(json_string_or(json_get(doc, "tool"), NULL), "warplint");
  const json_value *findings = json_get(doc, "findings");
  CHECK(findings && findings->type == JSON_ARRAY && findings->count >= 6);
  int fixes = 0;
  for (size_t i = 0; findings && i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    CHECK(has_keys(f, finding));
    CHECK(json_number_or(json_get(f, "line"), 0) >= 1);
    CHECK(json_number_or(json_get(f, "column"), 0) >= 1);
    CHECK(json_get(f, "estimate")->type == JSON_OBJECT);
    const json_value *fx = json_get(f, "fixes");
    for (size_t k = 0; fx && k < fx->count; k++, fixes++) CHECK(has_keys(json_at(fx, k), fix));
  }
  CHECK(fixes >= 2);  /* the [32][32] padding and const __restrict__ */
  const json_value *arrays = json_get(doc, "arrays");
  CHECK(arrays && arrays->count >= 6);
  for (size_t i = 0; arrays && i < arrays->count; i++) {
    CHECK(has_keys(json_at(arrays, i), array));
    CHECK(json_get(json_at(arrays, i), "classes")->type == JSON_ARRAY);
  }
  json_free(doc);
}

static void test_sarif(void) {
  char *args = wl_test_format("check --format=sarif --gpu '%s' '%s/tests/advisor/fixtures/g3_positive.cu'",
                              profile, test_source_dir());
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  if (!doc) return;
  CHECK_STR(json_string_or(json_get(doc, "version"), NULL), "2.1.0");
  CHECK(json_get(doc, "$schema") != NULL);
  const json_value *run = json_at(json_get(doc, "runs"), 0);
  CHECK_STR(json_string_or(json_path(run, "tool.driver.name"), NULL), "warplint");
  const json_value *rules = json_path(run, "tool.driver.rules");
  char err[256];
  char *catalog_path = wl_test_format("%s/rules/catalog.json", test_source_dir());
  json_value *catalog = json_parse_file(catalog_path, err, sizeof err);
  free(catalog_path);
  const json_value *catalog_rules = json_get(catalog, "rules");
  CHECK(rules && catalog_rules && catalog_rules->count >= 22 && rules->count == catalog_rules->count);
  json_free(catalog);
  for (size_t i = 0; rules && i < rules->count; i++) {
    CHECK(json_get(json_at(rules, i), "id") != NULL);
    CHECK(json_path(json_at(rules, i), "shortDescription.text") != NULL);
  }
  const json_value *results = json_get(run, "results");
  CHECK(results && results->count == 3);
  for (size_t i = 0; results && i < results->count; i++) {
    const json_value *r = json_at(results, i);
    CHECK_STR(json_string_or(json_get(r, "ruleId"), NULL), "G_3");
    CHECK(json_path(r, "message.text") != NULL);
    const json_value *loc = json_at(json_get(r, "locations"), 0);
    CHECK(json_path(loc, "physicalLocation.artifactLocation.uri") != NULL);
    CHECK(json_number_or(json_path(loc, "physicalLocation.region.startLine"), 0) >= 1);
  }
  json_free(doc);
}

static const char fixable[] =
  "__global__ void transpose(const float *__restrict__ in, float *out, int n) {\n"
  "  __shared__ float tile[32][32];\n"
  "  tile[threadIdx.y][threadIdx.x] = in[(blockIdx.y * 32 + threadIdx.y) * n + blockIdx.x * 32 + threadIdx.x];\n"
  "  __syncthreads();\n"
  "  out[(blockIdx.x * 32 + threadIdx.y) * n + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
  "}\n"
  "__global__ void gather(const float *src, const int *__restrict__ perm, float *out) {\n"
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
  "  out[i] = src[perm[i]];\n"
  "}\n"
  "void launch(const float *in, float *out, int n) {\n"
  "  transpose<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);\n"
  "}\n";

static void test_fix(void) {
  char *path = scratch_file("fixable.cu", fixable);
  char *broken = scratch_file("broken_fix.cu", "__global__ void k(float *a) { a[threadIdx.x * 2] = 1 }\n");
  char *orig = wl_test_format("%s.orig", path);
  remove(orig);
  char *args = wl_test_format("check --fix --gpu '%s' '%s' '%s'", profile, path, broken);
  int status;
  free(run_text(args, &status));
  free(args);
  CHECK(status == 2);  /* broken_fix.cu does not parse */
  CHECK(access(orig, F_OK) != 0);  /* no backup unless asked */
  size_t len;
  FILE *f = fopen(broken, "r");
  char buf[256] = "";
  len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[len] = 0;
  CHECK_STR(buf, "__global__ void k(float *a) { a[threadIdx.x * 2] = 1 }\n");  /* untouched */
  args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, path);
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  CHECK(status == 0);
  CHECK(doc && json_get(doc, "findings")->count == 0);
  json_free(doc);
  char *text = run_text("--version", &status);
  free(text);
  /* The fixed file still compiles where a CUDA toolkit is installed. */
  const char *nvcc = "/usr/local/cuda/bin/nvcc";
  if (access(nvcc, X_OK) == 0) {
    char *cmd = wl_test_format("%s -arch=sm_90 -c -o '%s/fixable.o' '%s' 2>&1", nvcc, scratch, path);
    char *out = wl_test_run(cmd, &status);
    if (status != 0) fprintf(stderr, "%s\n", out);
    CHECK(status == 0);
    free(out);
    free(cmd);
  } else {
    printf("nvcc not found: the compile check of the fixed file is skipped\n");
  }
  /* --backup keeps the original; the run says what it applied and does
   * not repeat the warnings its fix-its removed: nothing is left, exit 0. */
  free(scratch_file("fixable.cu", fixable));
  args = wl_test_format("check --fix --backup --gpu '%s' '%s'", profile, path);
  char *said = run_text(args, &status);
  free(args);
  CHECK(status == 0);
  CHECK(access(orig, F_OK) == 0);
  char *applied = wl_test_format("warplint: applied 2 fix-its to %s; backup %s.orig\n", path, path);
  CHECK(strstr(said, applied) != NULL);
  CHECK(strstr(said, "warning:") == NULL && strstr(said, "; 0 warnings, 0 notes\n") != NULL);
  if (!strstr(said, applied)) fprintf(stderr, "--fix --backup said:\n%s\n", said);
  free(applied);
  free(said);
  free(path);
  free(broken);
  free(orig);
}

static void test_suppressions(void) {
  char *path = scratch_file("suppressed.cu",
    "__global__ void k(float *a, char *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  a[i * 2] = 1.0f;  // NOLINT(warplint-G_3)\n"
    "  // NOLINTNEXTLINE(warplint-G_3)\n"
    "  a[i * 4] = 2.0f;\n"
    "  a[i * 8] = 3.0f;  // NOLINT\n"
    "  a[i * 16] = 4.0f;  // NOLINT(warplint-S_1)\n"
    "  c[i] = 1;  // NOLINT(warplint-G_3, warplint-G_2)\n"
    "}\n");
  json_value *doc = check_json(path);
  CHECK(doc != NULL);
  const json_value *f = json_get(doc, "findings");
  CHECK(f && f->count == 1);  /* only the line whose NOLINT names another rule */
  CHECK(f && f->count >= 1 && json_number_or(json_get(json_at(f, 0), "line"), 0) == 7);
  json_free(doc);
  free(path);
}

static void test_compile_database(void) {
  char *dir = wl_test_format("%s/cdb", scratch);
  char *inc = wl_test_format("%s/cdb/include", scratch);
  mkdir(dir, 0755);
  mkdir(inc, 0755);
  char *header = wl_test_format("%s/stride.h", inc);
  CHECK(wl_test_write_file(header, "#define SPREAD(i) ((i) * STRIDE)\n", 33));
  char *src = wl_test_format("%s/k.cu", dir);
  const char *code = "#include \"stride.h\"\n"
                     "__global__ void k(float *a) {\n"
                     "  a[SPREAD(blockIdx.x * blockDim.x + threadIdx.x)] = 0.0f;\n"
                     "}\n";
  CHECK(wl_test_write_file(src, code, strlen(code)));
  char *db = wl_test_format("[{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
                            "\"/usr/local/cuda/bin/nvcc -I%s -D STRIDE=4 -O2 -c %s -o k.o\"}]\n",
                            dir, src, inc, src);
  char *db_path = wl_test_format("%s/compile_commands.json", dir);
  CHECK(wl_test_write_file(db_path, db, strlen(db)));
  int status;
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, src);
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(status == 2);  /* without the database the header is not found */
  json_free(doc);
  args = wl_test_format("check --format=json --gpu '%s' -p '%s' '%s'", profile, dir, src);
  doc = run_json(args, &status);
  free(args);
  CHECK(doc && count_rule(doc, "G_3") == 1);
  json_free(doc);
  args = wl_test_format("check --format=json --gpu '%s' -p '%s'", profile, dir);  /* every .cu in it */
  doc = run_json(args, &status);
  free(args);
  CHECK(doc && count_rule(doc, "G_3") == 1);
  json_free(doc);
  /* Dynamic parallelism needs relocatable device code: nvcc's -rdc=true in
   * the database, which warplint's host parse assumes and its device
   * compile takes on clang's refusal, so the file is analysed either way. */
  char *cdp = wl_test_format("%s/cdp.cu", dir);
  const char *cdp_code = "__global__ void child(float *a) { a[threadIdx.x * 2] = 0.0f; }\n"
                         "__global__ void parent(float *a) { child<<<1, 128>>>(a); }\n";
  CHECK(wl_test_write_file(cdp, cdp_code, strlen(cdp_code)));
  free(db);
  db = wl_test_format("[{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
                      "\"/usr/local/cuda/bin/nvcc -rdc=true -c %s -o cdp.o\"}]\n", dir, cdp, cdp);
  CHECK(wl_test_write_file(db_path, db, strlen(db)));
  for (int with_db = 0; with_db < 2; with_db++) {
    args = with_db ? wl_test_format("check --format=json --gpu '%s' -p '%s' '%s'", profile, dir, cdp)
                   : wl_test_format("check --format=json --gpu '%s' '%s'", profile, cdp);
    doc = run_json(args, &status);
    free(args);
    const json_value *file = json_at(json_get(doc, "files"), 0);
    CHECK(json_number_or(json_get(file, "kernels_analysed"), 0) == 2);
    CHECK(json_number_or(json_get(file, "kernels_skipped"), 0) == 0);
    CHECK(doc && count_rule(doc, "G_3") == 1);
    json_free(doc);
  }
  free(cdp);
  free(dir); free(inc); free(header); free(src); free(db); free(db_path);
}

static void test_bad_input(void) {
  char *missing = wl_test_format("%s/does_not_exist.cu", scratch);
  char *broken = scratch_file("broken.cu", "__global__ void k(float *a) { a[0] = ; }\n");
  char *empty = scratch_file("empty.cu", "");
  char *garbage = wl_test_format("%s/garbage.cu", scratch);
  char bytes[4096];
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof bytes; i++) { x = x * 1103515245u + 12345u; bytes[i] = (char)(x >> 16); }
  bytes[100] = 0;
  CHECK(wl_test_write_file(garbage, bytes, sizeof bytes));
  char *good = wl_test_format("%s/tests/advisor/fixtures/g3_positive.cu", test_source_dir());
  char *args = wl_test_format("check --format=json --gpu '%s' '%s' '%s' '%s' '%s' '%s'", profile, missing, broken,
                              empty, garbage, good);
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  CHECK(status == 2);
  CHECK(doc && count_rule(doc, "G_3") == 3);  /* the good file is still analysed */
  const json_value *errors = json_get(doc, "errors");
  const char *want[] = {missing, broken, empty, garbage};
  for (int w = 0; w < 4; w++) {
    bool named = false;
    for (size_t i = 0; errors && i < errors->count; i++)
      named |= strstr(json_string_or(json_at(errors, i), ""), want[w]) != NULL;
    if (named) test_passed++;
    else test_fail(__FILE__, __LINE__, "no error names %s", want[w]);
  }
  json_free(doc);
  /* The text form prints one clear line per problem on stderr. */
  args = wl_test_format("check --gpu '%s' '%s' '%s'", profile, missing, empty);
  char *out = run_text(args, &status);
  CHECK(status == 2);
  CHECK(strstr(out, "cannot read file") != NULL);
  CHECK(strstr(out, "file is empty") != NULL);
  free(out);
  free(args);
  free(missing); free(broken); free(empty); free(garbage); free(good);
}

/* A parse error outside a kernel never hides it: the kernel is analysed and
 * the error is a note; a kernel whose own code is broken is skipped with one
 * line; JSON, SARIF and the text summary say which. */
static void test_error_tolerance(void) {
  char *path = scratch_file("tolerant.cu",
      "#include \"no_such_helper.h\"\n"
      "void host_side(void) { undefined_setup(); }\n"
      "__global__ void strided(float *a, int n) {\n"
      "  a[threadIdx.x * n] = 1.0f;\n"
      "}\n"
      "__global__ void broken(float *a) {\n"
      "  a[threadIdx.x] = missing_value;\n"
      "}\n");
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, path);
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  CHECK(status == 1);
  CHECK(doc && count_rule(doc, "G_3") == 1);
  const json_value *file = json_at(json_get(doc, "files"), 0);
  CHECK(strcmp(json_string_or(json_get(file, "status"), ""), "analysed") == 0);
  CHECK(json_number_or(json_get(file, "kernels_analysed"), 0) == 1);
  CHECK(json_number_or(json_get(file, "kernels_skipped"), 0) == 1);
  const json_value *notes = json_get(doc, "notes");
  bool names_include = false, names_kernel = false;
  for (size_t i = 0; notes && i < notes->count; i++) {
    const char *n = json_string_or(json_at(notes, i), "");
    names_include |= strstr(n, "tolerant.cu:1:") && strstr(n, "no_such_helper.h");
    names_kernel |= strstr(n, "tolerant.cu:6:") && strstr(n, "kernel 'broken' skipped");
  }
  CHECK(names_include);
  CHECK(names_kernel);
  json_free(doc);
  /* SARIF: the notes as toolExecutionNotifications of invocations[0]. */
  args = wl_test_format("check --format=sarif --gpu '%s' '%s'", profile, path);
  doc = run_json(args, &status);
  free(args);
  const json_value *invocation = json_at(json_path(json_at(json_get(doc, "runs"), 0), "invocations"), 0);
  CHECK(invocation && json_get(invocation, "executionSuccessful")->boolean);
  const json_value *notifications = json_get(invocation, "toolExecutionNotifications");
  CHECK(notifications && notifications->count >= 2);
  json_free(doc);
  /* Text: the summary line, singulars right; clang cannot compile the
   * file's device code, so the kernel is read from its syntax. */
  args = wl_test_format("check --gpu '%s' '%s'", profile, path);
  char *out = run_text(args, &status);
  free(args);
  CHECK(strstr(out, "warplint: 1 file analysed (1 kernel, 1 from its syntax alone), 1 kernel skipped; 1 warning, 0 notes") != NULL);
  free(out);
  free(path);
}

/* A file skipped is named, with its reason, in JSON (files), SARIF
 * (executionSuccessful false, an error notification) and the summary. */
static void test_skipped_file_reported(void) {
  char *broken = scratch_file("skipped.cu", "__global__ void k(float *a) { a[0] = ; }\n");
  char *good = wl_test_format("%s/tests/advisor/fixtures/s1_positive.cu", test_source_dir());
  char *args = wl_test_format("check --format=sarif --gpu '%s' '%s' '%s'", profile, broken, good);
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(status == 2);
  const json_value *invocation = json_at(json_path(json_at(json_get(doc, "runs"), 0), "invocations"), 0);
  CHECK(invocation && !json_get(invocation, "executionSuccessful")->boolean);
  const json_value *notifications = json_get(invocation, "toolExecutionNotifications");
  bool named = false;
  for (size_t i = 0; notifications && i < notifications->count; i++) {
    const json_value *n = json_at(notifications, i);
    named |= strcmp(json_string_or(json_get(n, "level"), ""), "error") == 0 &&
             strstr(json_string_or(json_path(n, "message.text"), ""), "skipped.cu") &&
             strstr(json_string_or(json_path(n, "message.text"), ""), "file skipped");
  }
  CHECK(named);
  json_free(doc);
  args = wl_test_format("check --gpu '%s' '%s' '%s'", profile, broken, good);
  char *out = run_text(args, &status);
  free(args);
  CHECK(strstr(out, "warplint: 1 file analysed (") != NULL);
  CHECK(strstr(out, "), 1 file skipped, 1 kernel skipped;") != NULL);
  free(out);
  free(broken);
  free(good);
}

/* The same kernel against two profiles that differ only in the read-only
 * path's cost: T_4 is a warning where that path pays and a note that says
 * why where it does not; every other finding is the same. */
static void test_advice_follows_profile(void) {
  char *slower = wl_test_format("%s/tests/advisor/profiles/synthetic-nc-slower.json", test_source_dir());
  char *kernel = wl_test_format("%s/tests/advisor/fixtures/t4_positive.cu", test_source_dir());
  char *a1 = wl_test_format("check --format=json --gpu '%s' '%s'", profile, kernel);
  char *a2 = wl_test_format("check --format=json --gpu '%s' '%s'", slower, kernel);
  int s1, s2;
  json_value *pays = run_json(a1, &s1), *not_pays = run_json(a2, &s2);
  const json_value *f1 = json_get(pays, "findings"), *f2 = json_get(not_pays, "findings");
  CHECK(f1 && f2 && f1->count == f2->count);
  int t4 = 0;
  for (size_t i = 0; f1 && f2 && i < f1->count && i < f2->count; i++) {
    const json_value *x = json_at(f1, i), *y = json_at(f2, i);
    const char *rule = json_string_or(json_get(x, "rule"), "");
    CHECK_STR(rule, json_string_or(json_get(y, "rule"), ""));
    const char *sx = json_string_or(json_get(x, "severity"), ""), *sy = json_string_or(json_get(y, "severity"), "");
    if (strcmp(rule, "T_4") == 0) {
      t4++;
      CHECK_STR(sx, "warning");
      CHECK_STR(sy, "note");
      CHECK(strstr(json_string_or(json_get(y, "message"), ""), "does not pay") != NULL);
    } else {
      CHECK_STR(sx, sy);
    }
  }
  CHECK(t4 >= 1);
  json_free(pays);
  json_free(not_pays);
  free(a1); free(a2); free(slower);
  /* The measured profiles: on the H100 the read-only path (ld.global.nc)
   * costs what the plain path does, so T_4 is a note with no fix-it; the
   * K20c's paper data do not give both figures, so the guideline stands. */
  a1 = wl_test_format("check --format=json --gpu h100-sxm '%s'", kernel);
  a2 = wl_test_format("check --format=json --gpu k20c-paper '%s'", kernel);
  json_value *h100 = run_json(a1, &s1), *k20c = run_json(a2, &s2);
  for (int p = 0; p < 2; p++) {
    const json_value *fs = json_get(p == 0 ? h100 : k20c, "findings");
    int seen = 0;
    for (size_t i = 0; fs && i < fs->count; i++) {
      const json_value *x = json_at(fs, i);
      if (strcmp(json_string_or(json_get(x, "rule"), ""), "T_4") != 0) continue;
      seen++;
      CHECK_STR(json_string_or(json_get(x, "severity"), ""), p == 0 ? "note" : "warning");
      if (p == 0) CHECK(json_get(x, "fixes")->count == 0);
    }
    CHECK(seen >= 1);
  }
  json_free(h100);
  json_free(k20c);
  free(a1); free(a2); free(kernel);
}

static void test_large_file(void) {
  char *path = wl_test_format("%s/large.cu", scratch);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  int lines = 0;
  for (int k = 0; lines < 50000; k++) {
    fprintf(f, "__global__ void kernel_%d(float *a, const float *__restrict__ b, int n) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i < n) {\n"
               "    float s = 0.0f;\n"
               "    for (int k = 0; k < 4; k++) s += b[i + k * n];\n"
               "    a[i * %d] = s;\n"
               "  }\n"
               "}\n"
               "\n"
               "\n", k, k % 2 ? 1 : 2);
    lines += 10;
  }
  fclose(f);
  /* It finishes, with the findings; its time is printed, not asserted (a
   * loaded machine stretches it: advisor/bench measures speed, and ctest's
   * timeout catches a hang). */
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, path);
  int status;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  json_value *doc = run_json(args, &status);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("the 50,000-line file: %.1f s\n", seconds);
  free(args);
  CHECK(doc != NULL);
  CHECK(status == 1);
  CHECK(doc && count_rule(doc, "G_3") == 2500);
  json_free(doc);
  free(path);
}

static void test_subcommands(void) {
  int status;
  char *out = run_text("--version", &status);
  CHECK(status == 0 && strncmp(out, "warplint ", 9) == 0);
  CHECK(strstr(out, "\nlibclang: ") && strstr(out, "clang version") && strstr(out, "\nCUDA headers: "));
  free(out);
  out = run_text("--help", &status);
  CHECK(status == 0 && strstr(out, "--format") != NULL);
  free(out);
  out = run_text("rules", &status);
  CHECK(status == 0 && strstr(out, "S_1") && strstr(out, "checked") && strstr(out, "advice"));
  free(out);
  char *args = wl_test_format("explain S_1 --gpu '%s'", profile);
  out = run_text(args, &status);
  CHECK(status == 0 && strstr(out, "bank_conflict.way_32") && strstr(out, "3200"));
  free(out);
  free(args);
  out = run_text("explain Z_9", &status);
  CHECK(status == 2);
  free(out);
  out = run_text("check --format=xml x.cu", &status);
  CHECK(status == 2 && strstr(out, "--format"));
  free(out);
  args = wl_test_format("arrays --gpu '%s' '%s/tests/advisor/fixtures/matmul_naive.cu'", profile, test_source_dir());
  out = run_text(args, &status);
  CHECK(strstr(out, "read-only,reusable") && strstr(out, "shared (S_5)"));
  free(out);
  free(args);
}

/* The same mistake gives the same exit status (2) whatever the command. */
static void test_same_error_same_status(void) {
  static const char *const commands[] = {"check x.cu", "arrays x.cu", "explain G_3", "rules"};
  static const char *const mistakes[] = {"--no-such-option", "--format=xml", "--fail-on=sometimes", "-j 0"};
  for (int c = 0; c < 4; c++) {
    for (int m = 0; m < 4; m++) {
      char *args = wl_test_format("%s %s", commands[c], mistakes[m]);
      int status;
      free(run_text(args, &status));
      if (status == 2) test_passed++;
      else test_fail(__FILE__, __LINE__, "'warplint %s' exited %d, not 2", args, status);
      free(args);
    }
  }
  /* A --gpu that cannot be loaded stops every command that reads a profile. */
  for (int c = 0; c < 3; c++) {
    char *args = wl_test_format("%s --gpu no-such-profile", commands[c]);
    int status;
    char *out = run_text(args, &status);
    if (status == 2 && strstr(out, "no-such-profile")) test_passed++;
    else test_fail(__FILE__, __LINE__, "'warplint %s' exited %d (want 2, naming the profile)", args, status);
    free(out);
    free(args);
  }
}

/* Rule ids in any case; explain's evidence: each profile's values, and the
 * keys the paper gives no value for said once, not as rows of blanks. */
static void test_explain(void) {
  int status;
  char *out = run_text("explain g_3", &status);
  CHECK(status == 0 && strncmp(out, "G_3: ", 5) == 0);
  free(out);
  out = run_text("explain s_1 --gpu k20c-paper", &status);
  CHECK(status == 0 && strncmp(out, "S_1: ", 5) == 0);
  CHECK(strstr(out, "the paper gives none of these values") != NULL);
  CHECK(strstr(out, "not measured") == NULL);
  CHECK(strstr(out, "k20c-paper") == NULL);  /* one column, headed as the paper, and only over values */
  free(out);
  char *args = wl_test_format("explain T_4 --gpu '%s'", profile);
  out = run_text(args, &status);
  free(args);
  CHECK(status == 0);
  CHECK(strstr(out, "synthetic-sm90") && strstr(out, "K20c (the paper)"));
  CHECK(strstr(out, "320 cycles (read from the text about Fig. 11(b))") != NULL);
  CHECK(strstr(out, "115.6 cycles (Table 1)") != NULL);
  CHECK(strstr(out, "the paper gives no value for: pattern.global.strided") != NULL);
  free(out);
  args = wl_test_format("explain L_1 --gpu '%s'", profile);
  out = run_text(args, &status);
  free(args);
  CHECK(status == 0 && strstr(out, "local_array.max_registers.vecadd.<arch>") && strstr(out, "73 elements (Table 3)"));
  CHECK(strstr(out, "__global__") != NULL);  /* the bad and good examples, from the data folder */
  free(out);
}

/* Output of a command as exactly one line: exit status, then whether the
 * line is the one wanted. */
static void expect_one_line(const char *args, int want_status, const char *want) {
  int status;
  char *out = run_text(args, &status);
  size_t len = strlen(out);
  bool one_line = len > 0 && strchr(out, '\n') == out + len - 1;
  if (status == want_status && one_line && strcmp(out, want) == 0) test_passed++;
  else test_fail(__FILE__, __LINE__, "warplint %s: exit %d, printed:\n%s(want exit %d and the line: %s)", args, status,
                 out, want_status, want);
  free(out);
}

/* What a new user meets (issue 21): each mistake named in one line. */
static void test_errors_say_what(void) {
  expect_one_line("check --format=xml x.cu", 2,
                  "warplint: --format 'xml' is not one of text, json, sarif or html (see warplint --help)\n");
  expect_one_line("check --fail-on=sometimes x.cu", 2,
                  "warplint: --fail-on 'sometimes' is not one of warning or note (see warplint --help)\n");
  int status;
  char *cmd = wl_test_format("'%s' lint x.cu 2>&1", warplint);
  char *out = wl_test_run(cmd, &status);
  CHECK(status == 2);
  CHECK_STR(out, "warplint: command 'lint' is not one of check, arrays, explain, rules or verify (see warplint --help)\n");
  free(out);
  free(cmd);
  /* --arch with no profile measured on it: stop, naming those there are. */
  out = run_text("check --arch sm_80 x.cu", &status);
  CHECK(status == 2);
  CHECK(strncmp(out, "warplint: error: no GPU profile for sm_80 in ", 45) == 0);
  CHECK(strstr(out, "h100-sxm (sm_90)") && strstr(out, "k20c-paper (sm_35)") && strstr(out, "name one with --gpu"));
  CHECK(strchr(out, '\n') == out + strlen(out) - 1);
  free(out);
  /* A folder: the .cu files under it are analysed; one with none is an
   * error of its own, and the other inputs are still analysed. */
  char *folder = wl_test_format("%s/adir", scratch), *sub = wl_test_format("%s/adir/sub", scratch);
  char *empty = wl_test_format("%s/emptydir", scratch);
  mkdir(folder, 0755);
  mkdir(sub, 0755);
  mkdir(empty, 0755);
  free(scratch_file("adir/a.cu", "__global__ void k(float *a, int n) { a[threadIdx.x * n] = 1.0f; }\n"));
  free(scratch_file("adir/sub/b.cu", "__global__ void k(float *a, int n) { a[threadIdx.x * n] = 2.0f; }\n"));
  free(scratch_file("adir/notes.txt", "not CUDA\n"));
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, folder);
  json_value *doc = run_json(args, &status);
  free(args);
  const json_value *files = json_get(doc, "files");
  CHECK(status == 1 && files && files->count == 2);
  CHECK(doc && count_rule(doc, "G_3") == 2);
  for (size_t i = 0; files && i < files->count; i++)
    CHECK(strstr(json_string_or(json_get(json_at(files, i), "file"), ""), i ? "/adir/sub/b.cu" : "/adir/a.cu"));
  json_free(doc);
  char *good = wl_test_format("%s/adir/a.cu", scratch);
  args = wl_test_format("check --gpu '%s' '%s' '%s'", profile, empty, good);
  out = run_text(args, &status);
  free(args);
  char *line = wl_test_format("%s: error: a folder with no .cu file in it\n", empty);
  CHECK(status == 2);
  CHECK(strstr(out, line) != NULL);   /* stderr's line, wherever it falls among stdout's */
  CHECK(strstr(out, "[G_3]") != NULL);   /* the other input still analysed */
  free(line);
  free(out);
  /* A text file with no kernel: said, exit 0. */
  char *text = scratch_file("notes.txt", "Just some notes, no CUDA here.\n");
  args = wl_test_format("check --gpu '%s' '%s'", profile, text);
  out = run_text(args, &status);
  free(args);
  line = wl_test_format("%s: note: no kernel found (no __global__ function defined in this file)\n", text);
  CHECK(status == 0);
  CHECK(strstr(out, line) != NULL);
  free(line);
  free(out);
  free(text); free(good); free(folder); free(sub); free(empty);
}

/* The summary's count of notes is the count of note: lines it stands for:
 * the findings at note severity, and the lines that explain findings. */
static void test_summary_counts_note_lines(void) {
  char *args = wl_test_format("check --gpu '%s' '%s/tests/advisor/fixtures/s1_positive.cu'", profile,
                              test_source_dir());
  int status;
  char *out = run_text(args, &status);
  free(args);
  long note_lines = 0, note_findings = 0, warnings = 0, said_findings = -1, said_lines = 0, said_warnings = -1;
  for (const char *p = out; (p = strstr(p, ": note: ")); p++) note_lines++;
  for (const char *p = out; (p = strstr(p, ": warning: ")); p++) warnings++;
  const char *summary = strstr(out, "\nwarplint: ");
  CHECK(summary != NULL);
  if (summary) {
    const char *counts = strstr(summary, "; ");
    CHECK(counts && sscanf(counts, "; %ld warning%*[s], %ld note", &said_warnings, &said_findings) == 2);
    const char *under = strstr(summary, "(and ");
    if (under) sscanf(under, "(and %ld", &said_lines);
  }
  /* a finding at note severity prints "FILE:L:C: note: MESSAGE [RULE]" */
  for (const char *p = out; (p = strstr(p, ": note: ")); p++) {
    const char *end = strchr(p, '\n');
    if (end && end[-1] == ']' && end - p > 4 && end[-5] == '[') note_findings++;
  }
  CHECK(warnings == said_warnings);
  CHECK(note_findings == said_findings);
  CHECK(note_lines == said_findings + said_lines);
  CHECK(said_lines > 0);
  if (note_lines != said_findings + said_lines) fprintf(stderr, "%s\n", out);
  free(out);
}

/* Counts of one read in the singular. */
static void test_singulars(void) {
  char *path = scratch_file("singular.cu",
      "__global__ void rows8(float *out) {\n"
      "  __shared__ float tile[32][8];\n"
      "  tile[threadIdx.x][0] = 1.0f;\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = tile[threadIdx.x][0];\n"
      "}\n"
      "__global__ void one(float *a) { a[threadIdx.x] = 1.0f; }\n"
      "void launch(float *a) { rows8<<<1, 32>>>(a); one<<<1, 1>>>(a); }\n");
  char *args = wl_test_format("check --gpu '%s' '%s'", profile, path);
  int status;
  char *out = run_text(args, &status);
  CHECK(strstr(out, "block of 1 thread is not a multiple") != NULL);
  CHECK(strstr(out, "fix-it: replace 1 byte with '9'") != NULL);
  CHECK(strstr(out, " 1 threads") == NULL && strstr(out, " 1 bytes") == NULL);
  free(out);
  free(args);
  free(path);
}

/* Each kernel says which model analysed it: the device code where clang
 * compiled it, else the syntax with the reason (here an arch guard leaves
 * the kernel out of sm_90's device code), in the text summary, a note,
 * JSON's files[].kernels and SARIF's run properties. */
static void test_analysis_named(void) {
  char *path = scratch_file("two_models.cu",
      "__global__ void plain(float *a, int n) { a[threadIdx.x * n] = 1.0f; }\n"
      "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 1000\n"
      "__global__ void future(float *a, int n) { a[threadIdx.x * n] = 2.0f; }\n"
      "#endif\n");
  char *args = wl_test_format("check --format=json --gpu '%s' '%s'", profile, path);
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  const json_value *kernels = json_get(json_at(json_get(doc, "files"), 0), "kernels");
  CHECK(kernels && kernels->count == 2);
  for (size_t i = 0; kernels && i < kernels->count; i++) {
    const json_value *k = json_at(kernels, i);
    const char *name = json_string_or(json_get(k, "kernel"), "");
    const char *analysis = json_string_or(json_get(k, "analysis"), "");
    if (strcmp(name, "plain") == 0) CHECK(strcmp(analysis, "device") == 0);
    else CHECK(strcmp(analysis, "syntax") == 0 && strstr(json_string_or(json_get(k, "reason"), ""), "architecture"));
  }
  const json_value *notes = json_get(doc, "notes");
  bool noted = false;
  for (size_t i = 0; notes && i < notes->count; i++)
    noted = noted || strstr(json_string_or(json_at(notes, i), ""), "kernel 'future' analysed from its syntax alone");
  CHECK(noted);
  json_free(doc);
  args = wl_test_format("check --format=sarif --gpu '%s' '%s'", profile, path);
  doc = run_json(args, &status);
  free(args);
  kernels = json_path(json_at(json_get(doc, "runs"), 0), "properties.kernels");
  CHECK(kernels && kernels->count == 2);
  json_free(doc);
  args = wl_test_format("check --gpu '%s' '%s'", profile, path);
  char *out = run_text(args, &status);
  free(args);
  CHECK(strstr(out, "(2 kernels, 1 from its syntax alone)") != NULL);
  free(out);
  free(path);
}

/* Issue 19's template example: block_sum<float, 256> reads
 * buf[(threadIdx.x * 2) % BLOCK] (a 2-way conflict), writes out only by
 * atomicAdd (written, not read-only), and its shared array's element type
 * is the launch's float, not T or type-parameter-0-0. */
static void test_template_example(void) {
  char *path = scratch_file("block_sum.cu",
      "template <typename T, int BLOCK>\n"
      "__global__ void block_sum(const T *in, T *out) {\n"
      "  __shared__ T buf[BLOCK];\n"
      "  buf[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  T v = buf[(threadIdx.x * 2) % BLOCK];\n"
      "  atomicAdd(out, v);\n"
      "}\n"
      "void run(const float *in, float *out, int n) { block_sum<float, 256><<<n / 256, 256>>>(in, out); }\n");
  json_value *doc = check_json(path);
  CHECK(doc && count_rule(doc, "S_1") == 1);
  const json_value *arrays = json_get(doc, "arrays");
  int checked = 0;
  for (size_t i = 0; arrays && i < arrays->count; i++) {
    const json_value *a = json_at(arrays, i);
    const char *name = json_string_or(json_get(a, "array"), "");
    CHECK_STR(json_string_or(json_get(a, "element_type"), ""), "float");
    if (strcmp(name, "out") == 0) {
      const json_value *classes = json_get(a, "classes");
      bool written = false, read_only = false;
      for (size_t c = 0; classes && c < classes->count; c++) {
        written = written || strcmp(json_string_or(json_at(classes, c), ""), "written") == 0;
        read_only = read_only || strcmp(json_string_or(json_at(classes, c), ""), "read-only") == 0;
      }
      CHECK(written && !read_only);
    }
    checked++;
  }
  CHECK(checked == 3);
  json_free(doc);
  free(path);
}

/* A template kernel reading every other element (test_template_instances). */
static const char every_other[] =
    "template <typename T>\n"
    "__global__ void every_other(const T *in, T *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[2 * i];\n"
    "}\n";

/* A template kernel's file with host code after it. */
static char *every_other_file(const char *name, const char *host) {
  char *source = wl_test_format("%s%s", every_other, host);
  char *path = scratch_file(name, source);
  free(source);
  return path;
}

/* Template instances, with and without the precompiled header (built on
 * the second run, read on the third): a kernel launched as two instances
 * is one kernel analysed (the parse's own declarations, which libclang
 * walks when the header's are left out, list the instances as well); a
 * kernel instantiated only through a host template's explicit instance,
 * on a toolkit type, has the toolkit's element type, read from the
 * instance's mangled name. */
static void test_template_instances(void) {
  char *twice = every_other_file("two_instances.cu",
                                 "void run(const float *a, float *b, const int *c, int *d, int n) {\n"
                                 "  every_other<<<n / 256, 256>>>(a, b, n);\n"
                                 "  every_other<<<n / 256, 256>>>(c, d, n);\n"
                                 "}\n");
  char *toolkit = every_other_file("toolkit_type.cu",
                                   "template <typename T>\n"
                                   "void invoke(const T *a, T *b, int n) { every_other<<<n / 256, 256>>>(a, b, n); }\n"
                                   "template void invoke<float4>(const float4 *, float4 *, int);\n");
  for (int run = 0; run < 3; run++) {
    json_value *doc = check_json(twice);
    const json_value *files = doc ? json_get(doc, "files") : NULL;
    CHECK(files && files->count == 1 && json_number_or(json_get(json_at(files, 0), "kernels_analysed"), 0) == 1);
    CHECK(count_rule(doc, "G_3") == 1);
    json_free(doc);
    doc = check_json(toolkit);
    const json_value *arrays = doc ? json_get(doc, "arrays") : NULL;
    CHECK(arrays && arrays->count == 2);
    for (size_t i = 0; arrays && i < arrays->count; i++)
      CHECK_STR(json_string_or(json_get(json_at(arrays, i), "element_type"), ""), "float4");
    json_free(doc);
  }
  free(twice);
  free(toolkit);
}

/* Of a document's findings of rule (on line, where line > 0), how many
 * say text; *all, where not NULL, counts them whatever they say. */
static int findings_saying(const json_value *doc, const char *rule, int line, const char *text, int *all) {
  const json_value *findings = doc ? json_get(doc, "findings") : NULL;
  int saying = 0;
  if (all) *all = 0;
  for (size_t i = 0; findings && i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    if (strcmp(json_string_or(json_get(f, "rule"), ""), rule) ||
        (line > 0 && (int)json_number_or(json_get(f, "line"), 0) != line))
      continue;
    if (all) ++*all;
    saying += strstr(json_string_or(json_get(f, "message"), ""), text) != NULL;
  }
  return saying;
}

/* A private array whose first stores are its initialiser list (no name
 * written there) is named by the first access that writes its name:
 * blake2b's m[16] = { in[0], .. } then m[k / 8] |= .. with a run-time k. */
static void test_private_array_named(void) {
  char *path = scratch_file("private_named.cu",
      "__global__ void mix(const unsigned long long *in, unsigned long long *out, unsigned k) {\n"
      "  unsigned long long m[4] = {in[0], in[1], in[2], in[3]};\n"
      "  m[k / 8] |= 1ull;\n"
      "  out[threadIdx.x] = m[0] ^ m[1] ^ m[2] ^ m[3];\n"
      "}\n");
  json_value *doc = check_json(path);
  int all;
  CHECK(findings_saying(doc, "L_2", 0, "'m'", &all) == 1);
  CHECK(all == 1);
  json_free(doc);
  free(path);
}

/* One finding of `rule` on `line` (0: any) whose message says `text`. */
typedef struct saying { const char *rule; int line; const char *text; } saying;

/* warplint on `source`, written to the scratch folder as `name`: each of
 * want[] said exactly once. */
static void check_sayings(const char *name, const char *source, const saying *want, int count) {
  char *path = scratch_file(name, source);
  json_value *doc = check_json(path);
  for (int i = 0; i < count; i++)
    if (findings_saying(doc, want[i].rule, want[i].line, want[i].text, NULL) != 1)
      test_fail(__FILE__, __LINE__, "%s: not one %s finding on line %d saying \"%s\"", name, want[i].rule,
                want[i].line, want[i].text);
  json_free(doc);
  free(path);
}

/* A lane stride the run-time size only clamps (min(i, n - 1) of records)
 * is quoted in bytes; one the size scales (i * n) is given in n. */
static void test_clamped_stride_quoted(void) {
  static const saying want[] = {{"G_3", 4, "4-byte fields 128 bytes apart"}, {"G_3", 5, "n elements apart"}};
  check_sayings("clamped_stride.cu",
                "struct rec { float x, y, score; float data[29]; };\n"
                "__global__ void clamp(const rec *r, float *out, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[i] = r[min(i, n - 1)].score;\n"
                "  out[i + n] = r[i * n].x;\n"
                "}\n",
                want, 2);
}

/* A stride the kernel loads (a field of a struct it is handed) is named as
 * the source reads it, not as "(loaded)". */
static void test_loaded_stride_named(void) {
  static const saying want[] = {{"G_3", 0, "s->ld elements apart"}};
  check_sayings("loaded_stride.cu",
                "struct Shape { int rows, cols, ld; };\n"
                "__global__ void pitch(const float *in, float *out, const Shape *s) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[i * s->ld] = in[i];\n"
                "}\n",
                want, 1);
}

/* A parameter declared as an array (double phi[][N][N]) is named as
 * written, and its stride is given in its scalar elements, not in rows. */
static void test_array_parameter_named(void) {
  static const saying want[] = {{"G_3", 4, "'phi': consecutive lanes are 160000 elements apart"},
                                {"G_3", 4, "'out': consecutive lanes are 160000 elements apart"}};
  check_sayings("array_parameter.cu",
                "#define N 400\n"
                "__global__ void planes(double out[][N][N], const double phi[][N][N]) {\n"
                "  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[x][0][0] = phi[x][1][0];\n"
                "}\n",
                want, 2);
}

/* A helper's three reads of one line, x[i - 1], x[i], x[i + 1], with no
 * loop in the source: S_5 says so, naming no loop. */
static void test_helper_stencil_named(void) {
  static const saying want[] = {{"S_5", 2, "each of its 3 reads here moves the index as threadIdx.x does"}};
  check_sayings("helper_stencil.cu",
                "__device__ float blur(int i, const float *x) {\n"
                "  return 0.25f * (x[i - 1] + 2.0f * x[i] + x[i + 1]);\n"
                "}\n"
                "__global__ void smooth(const float *in, float *out, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;\n"
                "  if (i < n - 1) out[i] = blur(i, in);\n"
                "}\n",
                want, 1);
}

/* G_3 in a transpose (fixtures/g3_transpose.cu) advises a shared-memory
 * tile naming S_3 and S_1, in the element type, with the reading array
 * staged into the rows; the kernels that are no transpose keep the advice
 * to remap threadIdx.x. */
static void test_transpose_advice(void) {
  char *args = wl_test_format("check --format=json --gpu '%s' '%s/tests/advisor/fixtures/g3_transpose.cu'", profile,
                              test_source_dir());
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  const json_value *f = doc ? json_get(doc, "findings") : NULL;
  int tiles = 0, remaps = 0;
  for (size_t i = 0; f && i < f->count; i++) {
    const json_value *x = json_at(f, i);
    if (strcmp(json_string_or(json_get(x, "rule"), ""), "G_3") != 0) continue;
    int line = (int)json_number_or(json_get(x, "line"), 0);
    const char *note = json_string_or(json_at(json_get(x, "notes"), 0), "");
    bool tile = strstr(note, "tile[32][33]") && strstr(note, "(S_3)") && strstr(note, "(S_1)") &&
                strstr(note, "read 'in' into its rows and write 'out' from its columns");
    if (line == 12 || line == 21 || line == 29) {
      CHECK(tile);
      CHECK(strstr(note, line == 29 ? "'__shared__ double tile" : "'__shared__ float tile") != NULL);
      CHECK(strstr(note, line == 29 ? "'out' (line 29) is written along the lanes and 'in' read across them"
                                    : "is read along the lanes and 'out' written across them") != NULL);
      tiles++;
    } else {
      CHECK(!strstr(note, "tile") && strstr(note, "map threadIdx.x to the fastest-varying index"));
      remaps++;
    }
  }
  CHECK(tiles == 3 && remaps == 3);
  json_free(doc);
}

/* SARIF for code scanning names files as given: relative from the
 * repository root, as the CI recipe of advisor/README.md runs it. */
static void test_sarif_relative_uri(void) {
  char *cmd = wl_test_format("cd '%s' && '%s' check --shim --format=sarif tests/advisor/fixtures/g3_positive.cu "
                             "2>/dev/null", test_source_dir(), warplint);
  int status;
  json_value *doc = wl_test_run_json(cmd, &status);
  free(cmd);
  const json_value *results = json_get(json_at(json_get(doc, "runs"), 0), "results");
  CHECK(results && results->count > 0);
  for (size_t i = 0; results && i < results->count; i++) {
    const json_value *loc = json_at(json_get(json_at(results, i), "locations"), 0);
    CHECK_STR(json_string_or(json_path(loc, "physicalLocation.artifactLocation.uri"), ""),
              "tests/advisor/fixtures/g3_positive.cu");
  }
  json_free(doc);
}

static void git(const char *dir, const char *args) {
  char *cmd = wl_test_format("cd '%s' && git -c user.name=warplint -c user.email=warplint@test %s 2>&1", dir, args);
  int status;
  char *out = wl_test_run(cmd, &status);
  if (status != 0) test_fail(__FILE__, __LINE__, "git %s: %s", args, out ? out : "");
  free(out);
  free(cmd);
}

/* The names of the files a JSON report analysed, one string "a b ". */
static char *analysed_files(const json_value *doc) {
  const json_value *files = json_get(doc, "files");
  char *names = calloc(1, 1);
  for (size_t i = 0; files && i < files->count; i++) {
    char *more = wl_test_format("%s%s ", names, json_string_or(json_get(json_at(files, i), "file"), "?"));
    free(names);
    names = more;
  }
  return names;
}

static json_value *run_in(const char *dir, const char *args, int *status) {
  char *cmd = wl_test_format("cd '%s' && '%s' check --shim %s 2>/dev/null", dir, warplint, args);
  json_value *doc = wl_test_run_json(cmd, status);
  free(cmd);
  return doc;
}

/* --changed-since REV: only the .cu files changed since REV (modified,
 * added, not deleted ones), with the database's flags under -p, FILES as
 * pathspecs; a clean run when none changed; exit 2 outside a repository or
 * for a REV that is no commit. */
static void test_changed_since(void) {
  int status;
  char *repo = wl_test_format("%s/repo", scratch), *cmd = wl_test_format("rm -rf '%s'", repo);
  free(wl_test_run(cmd, &status));
  free(cmd);
  char *sub = wl_test_format("%s/sub", repo), *inc = wl_test_format("%s/include", repo);
  mkdir(repo, 0755);
  mkdir(sub, 0755);
  mkdir(inc, 0755);
  const char *strided = "__global__ void k(float *a, int n) { a[threadIdx.x * n] = 1.0f; }\n";
  free(scratch_file("repo/old.cu", strided));
  free(scratch_file("repo/gone.cu", strided));
  free(scratch_file("repo/include/stride.h", "#define SPREAD(i) ((i) * STRIDE)\n"));
  git(repo, "init -q");
  git(repo, "add .");
  git(repo, "commit -q -m base");
  free(scratch_file("repo/old.cu", "__global__ void k(float *a) { a[threadIdx.x * 4] = 1.0f; }\n"));
  free(scratch_file("repo/notes.txt", "not CUDA\n"));
  char *added = scratch_file("repo/sub/new.cu", "#include \"stride.h\"\n"
                             "__global__ void k(float *a) { a[SPREAD(threadIdx.x)] = 0.0f; }\n");
  git(repo, "add sub/new.cu notes.txt");
  git(repo, "rm -q gone.cu");
  char *db = wl_test_format("[{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
                            "\"nvcc -I%s -DSTRIDE=8 -c %s -o new.o\"}]\n", repo, added, inc, added);
  char *db_path = wl_test_format("%s/compile_commands.json", repo);
  CHECK(wl_test_write_file(db_path, db, strlen(db)));
  char *args = wl_test_format("--format=json --gpu '%s' -p . --changed-since HEAD", profile);
  json_value *doc = run_in(repo, args, &status);
  free(args);
  char *names = analysed_files(doc);
  CHECK_STR(names, "old.cu sub/new.cu ");
  CHECK(status == 1 && doc && count_rule(doc, "G_3") == 2);
  json_free(doc);
  free(names);
  /* Without the database, sub/new.cu misses its include path. */
  args = wl_test_format("--format=json --gpu '%s' --changed-since HEAD", profile);
  doc = run_in(repo, args, &status);
  free(args);
  CHECK(status == 2 && doc && count_rule(doc, "G_3") == 1);
  json_free(doc);
  /* FILES narrow it down, as pathspecs, from a subfolder too. */
  args = wl_test_format("--format=json --gpu '%s' -p .. --changed-since HEAD .", profile);
  doc = run_in(sub, args, &status);
  free(args);
  names = analysed_files(doc);
  CHECK_STR(names, "new.cu ");
  json_free(doc);
  free(names);
  /* Nothing changed: a clean run with an empty report. */
  git(repo, "add -A");
  git(repo, "commit -q -m next");
  args = wl_test_format("--format=json --gpu '%s' --changed-since HEAD", profile);
  doc = run_in(repo, args, &status);
  free(args);
  CHECK(status == 0 && doc && json_get(doc, "files") && json_get(doc, "files")->count == 0);
  json_free(doc);
  /* Errors: REV no commit; not in a repository (git looks no higher than scratch). */
  cmd = wl_test_format("cd '%s' && '%s' check --changed-since no-such-rev 2>&1", repo, warplint);
  char *out = wl_test_run(cmd, &status);
  CHECK(status == 2 && out && strstr(out, "'no-such-rev' is not a commit"));
  free(out);
  free(cmd);
  char *outside = wl_test_format("%s/not-a-repo", scratch);
  mkdir(outside, 0755);
  cmd = wl_test_format("cd '%s' && GIT_CEILING_DIRECTORIES='%s' '%s' check --changed-since HEAD 2>&1", outside,
                       scratch, warplint);
  out = wl_test_run(cmd, &status);
  CHECK(status == 2 && out && strstr(out, "is not in a git repository"));
  free(out);
  free(cmd);
  free(outside); free(repo); free(sub); free(inc); free(added); free(db); free(db_path);
}

/* --ptxas: where nvcc exists, the data-dependent private array (L_2) is
 * confirmed by the local memory ptxas reports for its kernel. */
static void test_ptxas(void) {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0) {
    printf("nvcc not found: --ptxas test skipped\n");
    return;
  }
  char *args = wl_test_format("check --ptxas --format=json --gpu '%s' '%s/tests/advisor/fixtures/l_positive.cu'",
                              profile, test_source_dir());
  int status;
  json_value *doc = run_json(args, &status);
  free(args);
  CHECK(doc != NULL);
  const json_value *f = json_get(doc, "findings");
  int confirmed = 0, verdicts = 0;
  for (size_t i = 0; f && i < f->count; i++) {
    const json_value *x = json_at(f, i);
    const json_value *v = json_path(x, "estimate.ptxas_confirmed");
    if (!v) continue;
    verdicts++;
    if (strcmp(json_string_or(json_get(x, "kernel"), ""), "histogram_private") == 0) confirmed += v->boolean;
  }
  CHECK(verdicts >= 5);
  CHECK(confirmed == 3);
  json_free(doc);
  /* nvcc gets the file's -I and -D: a size from an include folder */
  char *include_dir = wl_test_format("%s/ptxas_include", scratch);
  mkdir(include_dir, 0755);
  char *header = wl_test_format("%s/bins.h", include_dir);
  CHECK(wl_test_write_file(header, "#define BINS 8\n", 15));
  char *src = scratch_file("ptxas_include.cu",
                           "#include \"bins.h\"\n"
                           "__global__ void bins(const int *in, int *out) {\n"
                           "  int local[BINS] = {0};\n"
                           "  local[in[threadIdx.x] % BINS]++;\n"
                           "  out[threadIdx.x] = local[threadIdx.x % BINS];\n"
                           "}\n");
  args = wl_test_format("check --ptxas --format=json --gpu '%s' '%s' -- -I '%s' -DUNUSED=1", profile, src,
                        include_dir);
  doc = run_json(args, &status);
  free(args);
  f = doc ? json_get(doc, "findings") : NULL;
  confirmed = 0;
  for (size_t i = 0; f && i < f->count; i++) {
    const json_value *v = json_path(json_at(f, i), "estimate.ptxas_confirmed");
    confirmed += v && v->boolean;
  }
  CHECK(confirmed >= 1);
  json_free(doc);
  free(src);
  free(header);
  free(include_dir);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WARPLINT SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  warplint = argv[1];
  scratch = argv[2];
  mkdir(scratch, 0755);
  profile = wl_test_format("%s/tests/advisor/profiles/synthetic-sm90.json", test_source_dir());
  test_json_schema();
  test_sarif();
  test_fix();
  test_suppressions();
  test_compile_database();
  test_bad_input();
  test_error_tolerance();
  test_skipped_file_reported();
  test_advice_follows_profile();
  test_large_file();
  test_subcommands();
  test_same_error_same_status();
  test_explain();
  test_singulars();
  test_analysis_named();
  test_template_example();
  test_template_instances();
  test_private_array_named();
  test_clamped_stride_quoted();
  test_loaded_stride_named();
  test_array_parameter_named();
  test_helper_stencil_named();
  test_transpose_advice();
  test_errors_say_what();
  test_summary_counts_note_lines();
  test_sarif_relative_uri();
  test_changed_since();
  test_ptxas();
  free(profile);
  return test_summary();
}

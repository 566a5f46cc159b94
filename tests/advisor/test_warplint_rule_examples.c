/* Every checked rule's bad example in rules/examples draws that rule (on the
 * line marked "// expect: ID" where there is one) and its good example does
 * not. Advice-only rules are skipped: warplint never reports them.
 * usage: test_warplint_rule_examples WARPLINT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_reader.h"
#include "testing.h"
#include "wl_test_util.h"

static unsigned marked_line(const char *path, const char *rule) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[2048], marker[64];
  snprintf(marker, sizeof marker, "// expect: %s", rule);
  unsigned n = 0, found = 0;
  while (fgets(line, sizeof line, f) && !found) {
    n++;
    if (strstr(line, marker)) found = n;
  }
  fclose(f);
  return found;
}

/* One warplint run over every example file (rules/examples, *.cu) with the
 * given headers option ("" or "--shim"). */
static json_value *check_examples(const char *warplint, const char *profile, const char *headers) {
  char *cmd = wl_test_format("'%s' check --format=json -j 4 %s --gpu '%s' '%s'/rules/examples/*.cu", warplint,
                             headers, profile, test_source_dir());
  int status;
  char *out = wl_test_run(cmd, &status);
  char err[256] = "";
  json_value *doc = out ? json_parse(out, strlen(out), err, sizeof err) : NULL;
  if (!doc) fprintf(stderr, "not JSON (%s) from: %s\n%.400s\n", err, cmd, out ? out : "");
  free(cmd);
  /* The stand-ins' report, for test_warplint_fixits: which examples draw fix-its. */
  if (doc && strcmp(json_string_or(json_get(doc, "headers"), ""), "stand-ins") == 0)
    wl_test_save_report("rule_examples.json", out);
  free(out);
  if (!doc) return NULL;
  const json_value *errors = json_get(doc, "errors");
  for (size_t i = 0; errors && i < errors->count; i++)
    test_fail(__FILE__, __LINE__, "%s", json_string_or(json_at(errors, i), "?"));
  printf("headers: %s\n", json_string_or(json_get(doc, "headers"), "?"));
  return doc;
}

/* Number of findings of rule in path; *on_line counts those on line. */
static int count_rule(const json_value *doc, const char *path, const char *rule, unsigned line, int *on_line) {
  const json_value *findings = json_get(doc, "findings");
  int n = 0;
  *on_line = 0;
  for (size_t i = 0; findings && i < findings->count; i++) {
    const json_value *f = json_at(findings, i);
    if (strcmp(json_string_or(json_get(f, "rule"), ""), rule) != 0 ||
        strcmp(json_string_or(json_get(f, "file"), ""), path) != 0)
      continue;
    n++;
    if ((unsigned)json_number_or(json_get(f, "line"), 0) == line) (*on_line)++;
  }
  return n;
}

/* Every checked rule: its bad example draws it (on the marked line), its
 * good example does not. Returns the number of checked rules. */
static int check_rules(const json_value *catalog, const json_value *doc) {
  const json_value *rules = json_get(catalog, "rules");
  int checked = 0;
  for (size_t i = 0; rules && i < rules->count; i++) {
    const json_value *r = json_at(rules, i);
    const char *id = json_string_or(json_get(r, "id"), "?");
    if (strcmp(json_string_or(json_get(r, "check"), ""), "static") != 0) continue;
    checked++;
    char *bad = wl_test_format("%s/rules/%s", test_source_dir(), json_string_or(json_get(r, "bad"), ""));
    char *good = wl_test_format("%s/rules/%s", test_source_dir(), json_string_or(json_get(r, "good"), ""));
    unsigned line = marked_line(bad, id);
    int on_line;
    int n = count_rule(doc, bad, id, line, &on_line);
    if (n >= 1) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s: bad example draws no %s", bad, id);
    if (line) {
      if (on_line >= 1) test_passed++;
      else test_fail(__FILE__, __LINE__, "%s:%u: %s not reported on the marked line", bad, line, id);
    }
    n = count_rule(doc, good, id, 0, &on_line);
    if (n == 0) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s: good example draws %s (%d)", good, id, n);
    free(bad);
    free(good);
  }
  return checked;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s WARPLINT\n", argv[0]);
    return 2;
  }
  char err[256];
  char *catalog_path = wl_test_format("%s/rules/catalog.json", test_source_dir());
  json_value *catalog = json_parse_file(catalog_path, err, sizeof err);
  free(catalog_path);
  CHECK(catalog != NULL);
  if (!catalog) return test_summary();
  char *profile = wl_test_format("%s/tests/advisor/profiles/synthetic-sm90.json", test_source_dir());
  /* The default headers (a toolkit's where one is installed), then the
   * stand-ins when the default was a toolkit. */
  wl_test_forget_report("rule_examples.json");
  json_value *doc = check_examples(argv[1], profile, "");
  CHECK(doc != NULL);
  int checked = doc ? check_rules(catalog, doc) : 0;
  if (doc && strcmp(json_string_or(json_get(doc, "headers"), ""), "stand-ins") != 0) {
    json_value *shim = check_examples(argv[1], profile, "--shim");
    CHECK(shim != NULL);
    if (shim) check_rules(catalog, shim);
    json_free(shim);
  }
  json_free(doc);
  printf("%d checked rules\n", checked);
  CHECK(checked >= 10);
  free(profile);
  json_free(catalog);
  return test_summary();
}

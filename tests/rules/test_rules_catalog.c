/* Checks rules/catalog.json, the one source of truth for the guidelines of
 * Section 7: every guideline present once with all its fields, the checked
 * ones exactly those issue 4 names, and every example file present, with an
 * `expect: <ID>` marker in each checked rule's bad example and none in any
 * other example (warplint's tests rely on those markers); and rules/README.md
 * has a section per rule that carries the catalog's title. */
#include "json_reader.h"
#include "testing.h"
#include "text_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const expected_ids[] = {
  "L_1", "L_2", "L_3", "L_4",
  "S_1", "S_2", "S_3", "S_4", "S_5", "S_6",
  "C_1", "C_2", "C_3", "C_4", "C_5",
  "G_1", "G_2", "G_3", "G_4",
  "T_1", "T_2", "T_3", "T_4",
};
#define N_RULES (sizeof expected_ids / sizeof expected_ids[0])

static const char *const checked_ids[] = {
  "G_2", "G_3", "S_1", "S_4", "S_5", "S_6", "C_1", "C_2", "C_3", "T_4",
  "L_1", "L_2", "L_3",
};
#define N_CHECKED (sizeof checked_ids / sizeof checked_ids[0])

static const char *const string_fields[] = {
  "id", "title", "guideline", "why", "check", "paper", "bad", "good", "fix",
};
#define N_STRING_FIELDS (sizeof string_fields / sizeof string_fields[0])

/* The key families of benchmarks/PROFILE.md. */
static const char *const profile_prefixes[] = {
  "latency.", "warp.", "pattern.", "bank_conflict.", "bank_conflict8.",
  "bandwidth.", "local_array.", "cache.", "onchip_bw.",
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return true;
  return false;
}

static size_t count_occurrences(const char *text, const char *needle)
{
  size_t n = 0;
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

/* README.md documents each rule under "### <ID>" followed by its title. */
static void check_readme_section(const char *readme, const json_value *rule, const char *id)
{
  char heading[32];
  snprintf(heading, sizeof heading, "### %s\n", id);
  const char *section = strstr(readme, heading);
  const char *title = json_string_or(json_get(rule, "title"), "");
  if (!section || title[0] == '\0' || !strstr(section, title))
    test_fail(__FILE__, __LINE__, "rules/README.md: no section \"### %s\" with the title \"%s\"", id, title);
  else test_passed++;
}

/* The rules whose cost warplint compares between the code as written and
 * the fix; the others quote limits (L_), occupancy (S_4) or a pattern (C_1). */
static const char *const compared_ids[] = {"G_2", "G_3", "S_1", "S_5", "S_6", "C_2", "C_3", "T_4"};
#define N_COMPARED (sizeof compared_ids / sizeof compared_ids[0])

/* evidence: {cost, instead, better: lower|higher, compares} */
static void check_evidence(const json_value *rule, const char *id)
{
  const json_value *evidence = json_get(rule, "evidence");
  bool compared = in_list(id, compared_ids, N_COMPARED);
  if (!compared) {
    if (evidence) test_fail(__FILE__, __LINE__, "%s: evidence on a rule warplint does not compare", id);
    else test_passed++;
    return;
  }
  const char *better = json_string_or(json_get(evidence, "better"), "");
  CHECK(evidence && evidence->type == JSON_OBJECT && evidence->count == 4);
  CHECK(strcmp(better, "lower") == 0 || strcmp(better, "higher") == 0);
  CHECK(json_string_or(json_get(evidence, "cost"), "")[0] != '\0');
  CHECK(json_string_or(json_get(evidence, "instead"), "")[0] != '\0');
  CHECK(json_string_or(json_get(evidence, "compares"), "")[0] != '\0');
}

static void check_fields(const json_value *rule, const char *id)
{
  bool has_evidence = json_get(rule, "evidence") != NULL;
  CHECK(rule->type == JSON_OBJECT && rule->count == N_STRING_FIELDS + 1 + has_evidence);
  check_evidence(rule, id);
  for (size_t i = 0; i < N_STRING_FIELDS; i++) {
    const char *value = json_string_or(json_get(rule, string_fields[i]), "");
    if (value[0] == '\0') test_fail(__FILE__, __LINE__, "%s: field \"%s\" missing or empty", id, string_fields[i]);
    else test_passed++;
  }
  const json_value *keys = json_get(rule, "profile_keys");
  CHECK(keys && keys->type == JSON_ARRAY && keys->count > 0);
  for (size_t i = 0; keys && keys->type == JSON_ARRAY && i < keys->count; i++) {
    const char *key = json_string_or(json_at(keys, i), "");
    bool known = false;
    for (size_t p = 0; p < sizeof profile_prefixes / sizeof profile_prefixes[0]; p++)
      known = known || strncmp(key, profile_prefixes[p], strlen(profile_prefixes[p])) == 0;
    if (!known) test_fail(__FILE__, __LINE__, "%s: \"%s\" is not a key of benchmarks/PROFILE.md", id, key);
    else test_passed++;
  }
}

/* kind is "bad" or "good": the path must be examples/<ID>_<kind>.cu, the
 * file non-empty, and its expect markers those the rule's check calls for. */
static void check_example(const json_value *rule, const char *id, const char *kind, bool is_static)
{
  char expected_path[64], full[4096], marker[32];
  snprintf(expected_path, sizeof expected_path, "examples/%s_%s.cu", id, kind);
  CHECK_STR(json_string_or(json_get(rule, kind), ""), expected_path);
  snprintf(full, sizeof full, "%s/rules/%s", test_source_dir(), expected_path);
  size_t len;
  char *text = read_text_file(full, &len);
  if (!text || text[0] == '\0') {
    test_fail(__FILE__, __LINE__, "%s: missing or empty", full);
    free(text);
    return;
  }
  test_passed++;
  snprintf(marker, sizeof marker, "expect: %s", id);
  size_t wanted = is_static && strcmp(kind, "bad") == 0 ? 1 : 0;
  size_t own = count_occurrences(text, marker), any = count_occurrences(text, "expect:");
  if (own != wanted || any != wanted)
    test_fail(__FILE__, __LINE__, "%s: %zu \"%s\" and %zu \"expect:\" markers, expected %zu",
              full, own, marker, any, wanted);
  else test_passed++;
  free(text);
}

int main(void)
{
  char path[4096], err[256];
  snprintf(path, sizeof path, "%s/rules/catalog.json", test_source_dir());
  json_value *root = json_parse_file(path, err, sizeof err);
  if (!root) {
    fprintf(stderr, "%s\n", err);
    CHECK(root != NULL);
    return test_summary();
  }
  CHECK_STR(json_string_or(json_get(root, "schema"), ""), "warpmem.rules/1");
  const json_value *rules = json_get(root, "rules");
  CHECK(rules && rules->type == JSON_ARRAY && rules->count == N_RULES);

  snprintf(path, sizeof path, "%s/rules/README.md", test_source_dir());
  size_t readme_len;
  char *readme = read_text_file(path, &readme_len);
  CHECK(readme != NULL);

  size_t seen[N_RULES] = {0};
  size_t n = rules && rules->type == JSON_ARRAY ? rules->count : 0;
  for (size_t r = 0; r < n; r++) {
    const json_value *rule = json_at(rules, r);
    const char *id = json_string_or(json_get(rule, "id"), "");
    bool known = false;
    for (size_t i = 0; i < N_RULES; i++)
      if (strcmp(id, expected_ids[i]) == 0) { seen[i]++; known = true; }
    if (!known) {
      test_fail(__FILE__, __LINE__, "rule %zu has unknown id \"%s\"", r, id);
      continue;
    }
    check_fields(rule, id);
    const char *check = json_string_or(json_get(rule, "check"), "");
    bool is_static = in_list(id, checked_ids, N_CHECKED);
    CHECK_STR(check, is_static ? "static" : "advice");
    check_example(rule, id, "bad", is_static);
    check_example(rule, id, "good", is_static);
    if (readme) check_readme_section(readme, rule, id);
  }
  for (size_t i = 0; i < N_RULES; i++)
    if (seen[i] != 1) test_fail(__FILE__, __LINE__, "%s appears %zu times", expected_ids[i], seen[i]);
    else test_passed++;

  free(readme);
  json_free(root);
  return test_summary();
}

/* Checks benchmarks/data/k20c-paper.json, the K20c profile transcribed from
 * the paper: the profile schema of benchmarks/PROFILE.md, every measurement
 * a number with a unit and the table or figure it came from, all four rows
 * of Table 2, and spot values that must match the paper's Tables 1, 3 and 4
 * exactly (a typo in a transcription is the failure this can catch). No
 * value is read off a plot: every figure value says it was read from the
 * text about that figure. */
#include "json_reader.h"
#include "testing.h"

#include <stdio.h>
#include <string.h>

static const char *const profile_prefixes[] = {
  "latency.", "warp.", "pattern.", "bank_conflict.", "bank_conflict8.",
  "bandwidth.", "local_array.", "cache.", "onchip_bw.",
};

static bool known_key(const char *key)
{
  for (size_t p = 0; p < sizeof profile_prefixes / sizeof profile_prefixes[0]; p++)
    if (strncmp(key, profile_prefixes[p], strlen(profile_prefixes[p])) == 0) return true;
  return false;
}

static double value_of(const json_value *measurements, const char *key)
{
  return json_number_or(json_get(json_get(measurements, key), "value"), -1.0);
}

static void check_measurement(const char *key, const json_value *m)
{
  const json_value *value = json_get(m, "value");
  bool ok = known_key(key) && value && value->type == JSON_NUMBER &&
            json_string_or(json_get(m, "unit"), "")[0] != '\0' &&
            json_string_or(json_get(m, "source"), "")[0] != '\0';
  if (!ok) test_fail(__FILE__, __LINE__, "measurement \"%s\": unknown key, or no value, unit or source", key);
  else test_passed++;
  const char *source = json_string_or(json_get(m, "source"), "");
  if (strstr(source, "Fig.") && strncmp(source, "read from the text about Fig. ", 30) != 0)
    test_fail(__FILE__, __LINE__, "measurement \"%s\": a figure's value must be 'read from the text about Fig. N'", key);
  else test_passed++;
}

/* ld.global.nc on sm_35 goes through the texture cache: its keys carry the
 * paper's texture figures and say why. */
static void check_read_only_path(const json_value *ms)
{
  CHECK_NEAR(value_of(ms, "pattern.texture.strided"), 320, 1e-9);
  CHECK_NEAR(value_of(ms, "pattern.global_nc.strided"), value_of(ms, "pattern.texture.strided"), 1e-9);
  CHECK_NEAR(value_of(ms, "pattern.texture.aligned"), 127, 1e-9);
  CHECK_NEAR(value_of(ms, "pattern.global_nc.aligned"), value_of(ms, "pattern.texture.aligned"), 1e-9);
  const char *keys[] = {"pattern.global_nc.strided", "pattern.global_nc.aligned"};
  for (int i = 0; i < 2; i++) {
    const char *source = json_string_or(json_get(json_get(ms, keys[i]), "source"), "");
    CHECK(strstr(source, "texture cache") && strstr(source, "Memory Statistics - Global"));
  }
}

static void check_table2(const json_value *table2)
{
  static const char *const memories[] = {"shared", "constant", "global", "texture"};
  static const char *const consecutive[] = {"no impact", "N/A", "large impact", "small impact"};
  for (size_t i = 0; i < 4; i++) {
    const json_value *row = json_get(table2, memories[i]);
    const json_value *parallel = json_get(row, "parallel");
    CHECK(parallel && parallel->type == JSON_BOOL && parallel->boolean == (i != 1));
    CHECK_STR(json_string_or(json_get(row, "consecutive"), ""), consecutive[i]);
  }
}

int main(void)
{
  char path[4096], err[256];
  snprintf(path, sizeof path, "%s/benchmarks/data/k20c-paper.json", test_source_dir());
  json_value *root = json_parse_file(path, err, sizeof err);
  if (!root) {
    fprintf(stderr, "%s\n", err);
    CHECK(root != NULL);
    return test_summary();
  }
  CHECK_STR(json_string_or(json_get(root, "schema"), ""), "warpmem.profile/1");
  CHECK_STR(json_string_or(json_path(root, "gpu.source"), ""), "transcribed");
  CHECK_STR(json_string_or(json_path(root, "gpu.arch"), ""), "sm_35");
  CHECK(strstr(json_string_or(json_path(root, "gpu.reference"), ""), "Table 1") != NULL);

  const json_value *ms = json_get(root, "measurements");
  CHECK(ms && ms->type == JSON_OBJECT && ms->count > 0);
  for (size_t i = 0; ms && ms->type == JSON_OBJECT && i < ms->count; i++)
    check_measurement(ms->keys[i], ms->items[i]);

  CHECK_NEAR(value_of(ms, "latency.shared"), 47.69, 1e-9);
  CHECK_NEAR(value_of(ms, "latency.global"), 218.86, 1e-9);
  CHECK_NEAR(value_of(ms, "latency.local"), 203.75, 1e-9);
  CHECK_NEAR(value_of(ms, "local_array.max_registers.vecadd.sm_35"), 73, 1e-9);
  CHECK_NEAR(value_of(ms, "local_array.max_registers.sort.sm_35"), 0, 1e-9);
  CHECK_NEAR(value_of(ms, "bandwidth.type.char"), 63.02, 1e-9);
  CHECK_NEAR(value_of(ms, "bandwidth.type.char4"), 148.599, 1e-9);
  CHECK_NEAR(json_number_or(json_get(json_get(ms, "bandwidth.memcpy_d2d"), "min"), -1), 158.989, 1e-9);
  CHECK_NEAR(json_number_or(json_get(json_get(ms, "bandwidth.memcpy_d2d"), "max"), -1), 159.757, 1e-9);
  check_read_only_path(ms);
  check_table2(json_get(root, "table2"));

  json_free(root);
  return test_summary();
}

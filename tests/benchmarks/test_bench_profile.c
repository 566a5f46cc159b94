/* The GPU profile: statistics go in as median/min/max/n, a written profile
 * reads back the same, bad files are refused with a message naming them,
 * and the run-to-run comparison flags exactly the quantities that moved
 * more than 5%. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "testing.h"

/* Scratch files go to the working directory (the test's build folder). */
static const char *scratch(const char *name) { return name; }

static void fill(profile *p) {
  profile_init(p);
  snprintf(p->name, sizeof p->name, "Synthetic GPU \"quoted\"");
  snprintf(p->short_name, sizeof p->short_name, "synthetic");
  snprintf(p->arch, sizeof p->arch, "sm_90");
  snprintf(p->driver, sizeof p->driver, "13.0");
  p->sm_count = 132;
  p->sm_clock_mhz = 1980;
  p->chases = 40;
  p->chase_failures = 1;
  double samples[] = {33, 30, 31, 29, 40};
  stats_summary s;
  stats_summarize(samples, 5, &s);
  profile_set(p, "latency.shared", "cycles", &s);
  profile_set_value(p, "bandwidth.theoretical", "GB/s", 3352.3, "device properties");
  double more[] = {500, 520, 480};
  stats_summarize(more, 3, &s);
  profile_set(p, "latency.global_cg", "cycles", &s);
  p->table2[0].known = true;
  p->table2[0].broadcast = p->table2[0].parallel = true;
  snprintf(p->table2[0].aligned, sizeof p->table2[0].aligned, "no impact");
  snprintf(p->table2[0].consecutive, sizeof p->table2[0].consecutive, "small impact");
}

static void test_statistics_go_in(void) {
  profile p;
  fill(&p);
  const profile_measurement *m = profile_find(&p, "latency.shared");
  CHECK(m != NULL);
  if (!m) return;
  CHECK_NEAR(m->value, 31, 0);  /* the median, not the mean (32.6) */
  CHECK_NEAR(m->min, 29, 0);
  CHECK_NEAR(m->max, 40, 0);
  CHECK(m->n == 5);
  CHECK(isnan(profile_value(&p, "latency.texture")));
  double replaced[] = {7};
  stats_summary s;
  stats_summarize(replaced, 1, &s);
  profile_set(&p, "latency.shared", "cycles", &s);
  CHECK(p.count == 3);
  CHECK_NEAR(profile_value(&p, "latency.shared"), 7, 0);
  profile_free(&p);
}

static void test_round_trip(void) {
  profile a, b;
  fill(&a);
  const char *path = scratch("test_bench_profile.json");
  char err[512] = "";
  CHECK(profile_write(&a, path, err, sizeof err));
  CHECK(profile_read(path, &b, err, sizeof err));
  CHECK_STR(b.name, a.name);
  CHECK_STR(b.short_name, "synthetic");
  CHECK_STR(b.arch, "sm_90");
  CHECK_STR(b.source, "measured");
  CHECK(b.sm_count == 132 && b.sm_clock_mhz == 1980);
  CHECK(b.chases == 40 && b.chase_failures == 1);
  CHECK(b.count == a.count);
  for (size_t i = 0; i < a.count && i < b.count; i++) {
    CHECK_STR(b.items[i].key, a.items[i].key);
    CHECK_STR(b.items[i].unit, a.items[i].unit);
    CHECK_NEAR(b.items[i].value, a.items[i].value, 1e-9 * fabs(a.items[i].value));
    CHECK_NEAR(b.items[i].min, a.items[i].min, 1e-9 * fabs(a.items[i].min));
    CHECK(b.items[i].n == a.items[i].n);
  }
  CHECK_STR(profile_find(&b, "bandwidth.theoretical")->source, "device properties");
  CHECK(b.table2[0].known && b.table2[0].broadcast && b.table2[0].parallel);
  CHECK_STR(b.table2[0].consecutive, "small impact");
  CHECK(!b.table2[1].known);
  FILE *tmp = fopen(scratch("test_bench_profile.json.tmp"), "r");
  CHECK(tmp == NULL);  /* the temporary file was renamed away */
  if (tmp) fclose(tmp);
  profile_free(&a);
  profile_free(&b);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_bad_files(void) {
  profile p;
  char err[512] = "";
  const char *missing = scratch("test_bench_no_such_profile.json");
  remove(missing);
  CHECK(!profile_read(missing, &p, err, sizeof err));
  CHECK(strstr(err, "test_bench_no_such_profile.json") != NULL);

  const char *wrong = scratch("test_bench_wrong_schema.json");
  write_text(wrong, "{\"schema\": \"other/2\", \"measurements\": {}}");
  CHECK(!profile_read(wrong, &p, err, sizeof err));
  CHECK(strstr(err, "test_bench_wrong_schema.json") != NULL && strstr(err, "other/2") != NULL);

  const char *truncated = scratch("test_bench_truncated.json");
  write_text(truncated, "{\"schema\": \"warpmem.profile/1\", \"measurements\": {\"a\": {\"value\": ");
  CHECK(!profile_read(truncated, &p, err, sizeof err));

  const char *no_value = scratch("test_bench_no_value.json");
  write_text(no_value, "{\"schema\": \"warpmem.profile/1\", \"measurements\": {\"latency.x\": {\"unit\": \"cycles\"}}}");
  CHECK(!profile_read(no_value, &p, err, sizeof err));
  CHECK(strstr(err, "latency.x") != NULL);

  /* The paper's transcription writes Table 2 cells as words. */
  const char *words = scratch("test_bench_words.json");
  write_text(words, "{\"schema\": \"warpmem.profile/1\", \"gpu\": {\"source\": \"transcribed\"},"
                    " \"measurements\": {\"latency.shared\": {\"value\": 47.69, \"unit\": \"cycles\","
                    " \"source\": \"Table 1\"}}, \"table2\": {\"constant\": {\"broadcast\": \"support\","
                    " \"parallel\": \"not support\", \"aligned\": \"N/A\", \"consecutive\": \"N/A\"}}}");
  CHECK(profile_read(words, &p, err, sizeof err));
  CHECK_STR(p.source, "transcribed");
  CHECK(p.table2[1].known && p.table2[1].broadcast && !p.table2[1].parallel);
  CHECK_STR(profile_find(&p, "latency.shared")->source, "Table 1");
  profile_free(&p);
}

static void test_compare_flags_changes_over_5_percent(void) {
  profile a, b;
  fill(&a);
  fill(&b);
  double moved[] = {31 * 1.049};  /* under 5%: not flagged */
  stats_summary s;
  stats_summarize(moved, 1, &s);
  profile_set(&b, "latency.shared", "cycles", &s);
  double far[] = {500 * 1.2};
  stats_summarize(far, 1, &s);
  profile_set(&b, "latency.global_cg", "cycles", &s);
  profile_set_value(&b, "latency.new_only", "cycles", 1, "");
  FILE *sink = fopen(scratch("test_bench_compare.txt"), "w");
  CHECK(sink != NULL);
  if (!sink) return;
  CHECK(profile_compare(&a, &b, 0.05, sink) == 1);
  CHECK(profile_compare(&a, &a, 0.05, sink) == 0);
  fclose(sink);
  profile_free(&a);
  profile_free(&b);
}

int main(void) {
  test_statistics_go_in();
  test_round_trip();
  test_bad_files();
  test_compare_flags_changes_over_5_percent();
  return test_summary();
}

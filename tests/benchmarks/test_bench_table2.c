#define _POSIX_C_SOURCE 200809L /* fmemopen */
/* The Table 2 inference (Fang et al. Sections 4.2-4.3) on synthetic
 * measurements: each rule of the paper, the thresholds' edges, and rows
 * whose inputs are missing. */
#include "profile.h"
#include "table2.h"
#include "testing.h"

static void set(profile *p, const char *key, double v) { profile_set_value(p, key, "cycles", v, ""); }

/* A memory with warp latency `d32` for 32 distinct addresses, `d1` for one
 * broadcast address, thread-level latency `thread`, and the three patterns. */
static void memory(profile *p, const char *m, double d32, double d1, double thread,
                   double aligned, double misaligned, double strided) {
  char key[96];
  snprintf(key, sizeof key, "warp.%s.distinct_32", m); set(p, key, d32);
  snprintf(key, sizeof key, "warp.%s.distinct_1", m); set(p, key, d1);
  snprintf(key, sizeof key, "latency.%s", m); set(p, key, thread);
  if (aligned > 0) {
    snprintf(key, sizeof key, "pattern.%s.aligned", m); set(p, key, aligned);
    snprintf(key, sizeof key, "pattern.%s.misaligned", m); set(p, key, misaligned);
    snprintf(key, sizeof key, "pattern.%s.strided", m); set(p, key, strided);
  }
}

static void test_the_papers_k20c_shape(void) {
  profile p;
  profile_init(&p);
  memory(&p, "shared", 48, 47, 47.69, 48, 48, 48);           /* flat, equal: both */
  memory(&p, "constant", 1100, 110, 110.13, 0, 0, 0);        /* falls: broadcast only */
  memory(&p, "global", 228, 218, 218.86, 220, 224, 1200);    /* flat; consecutive matters */
  memory(&p, "texture", 110, 110, 115.6, 110, 111, 122);     /* +11%: small impact */
  table2_infer(&p);
  const table2_row *shared = &p.table2[0], *constant = &p.table2[1];
  const table2_row *global = &p.table2[2], *texture = &p.table2[3];
  CHECK(shared->known && shared->broadcast && shared->parallel);
  CHECK_STR(shared->aligned, "no impact");
  CHECK_STR(shared->consecutive, "no impact");
  CHECK(constant->known && constant->broadcast && !constant->parallel);
  CHECK_STR(constant->aligned, "N/A");
  CHECK_STR(constant->consecutive, "N/A");
  CHECK(global->broadcast && global->parallel);
  CHECK_STR(global->aligned, "no impact");
  CHECK_STR(global->consecutive, "large impact");
  CHECK(texture->broadcast && texture->parallel);
  CHECK_STR(texture->consecutive, "small impact");
  profile_free(&p);
}

static void test_rules_two_and_three(void) {
  profile p;
  profile_init(&p);
  /* Rule 2: latency grows with the broadcast degree: parallel, no broadcast. */
  memory(&p, "shared", 30, 60, 30, 0, 0, 0);
  /* Rule 3, warp far above thread level: neither. */
  memory(&p, "global", 600, 590, 300, 0, 0, 0);
  table2_infer(&p);
  CHECK(p.table2[0].known && !p.table2[0].broadcast && p.table2[0].parallel);
  CHECK_STR(p.table2[0].aligned, "N/A");  /* no pattern data: not judged */
  CHECK(p.table2[2].known && !p.table2[2].broadcast && !p.table2[2].parallel);
  CHECK(!p.table2[1].known && !p.table2[3].known);  /* nothing measured */
  profile_free(&p);
}

static void test_threshold_edges(void) {
  profile p;
  profile_init(&p);
  /* Just under the trend ratio and within the equal tolerance: both. */
  double d1 = 100, d32 = d1 * table2_trend_ratio * 0.99;
  memory(&p, "shared", d32, d1, d32 / (1 + table2_equal_tolerance) * 1.01, 100,
         100 * table2_no_impact_max * 0.99, 100 * table2_small_impact_max * 0.99);
  /* Just over: a trend. */
  memory(&p, "texture", d1 * table2_trend_ratio * 1.01, d1, 100, 100,
         100 * table2_no_impact_max * 1.01, 100 * table2_small_impact_max * 1.01);
  table2_infer(&p);
  CHECK(p.table2[0].broadcast && p.table2[0].parallel);
  CHECK_STR(p.table2[0].aligned, "no impact");
  CHECK_STR(p.table2[0].consecutive, "small impact");
  CHECK(p.table2[3].broadcast && !p.table2[3].parallel);
  profile_free(&p);
}

static void test_print_marks_differences(void) {
  profile a, b;
  profile_init(&a);
  profile_init(&b);
  snprintf(a.short_name, sizeof a.short_name, "A");
  snprintf(b.short_name, sizeof b.short_name, "B");
  memory(&a, "constant", 100, 100, 100, 0, 0, 0);
  memory(&b, "constant", 1000, 100, 100, 0, 0, 0);
  table2_infer(&a);
  table2_infer(&b);
  char buffer[4096] = "";
  FILE *f = fmemopen(buffer, sizeof buffer - 1, "w");
  CHECK(f != NULL);
  if (!f) return;
  table2_print(f, &a, &b);
  fclose(f);
  CHECK(strstr(buffer, "differs: constant memory") != NULL);
  CHECK(strstr(buffer, "not support") != NULL);
  profile_free(&a);
  profile_free(&b);
}

/* The committed profiles load, and the H100's stored Table 2 is what the
 * inference makes of its own measurements today. */
static void test_committed_profiles(void) {
  char path[4096], err[512];
  profile measured, paper;
  snprintf(path, sizeof path, "%s/benchmarks/data/h100-sxm.json", test_source_dir());
  if (!profile_read(path, &measured, err, sizeof err)) {
    test_fail(__FILE__, __LINE__, "%s", err);
    return;
  }
  CHECK_STR(measured.source, "measured");
  CHECK(measured.chases > 0 && measured.chase_failures == 0);
  table2_row stored[TABLE2_MEMORIES];
  memcpy(stored, measured.table2, sizeof stored);
  table2_infer(&measured);
  for (int m = 0; m < TABLE2_MEMORIES; m++) {
    const table2_row *now = &measured.table2[m];
    CHECK(stored[m].known && now->known);
    CHECK(stored[m].broadcast == now->broadcast);
    CHECK(stored[m].parallel == now->parallel);
    CHECK_STR(now->aligned, stored[m].aligned);
    CHECK_STR(now->consecutive, stored[m].consecutive);
  }
  profile_free(&measured);

  snprintf(path, sizeof path, "%s/benchmarks/data/k20c-paper.json", test_source_dir());
  if (!profile_read(path, &paper, err, sizeof err)) {
    test_fail(__FILE__, __LINE__, "%s", err);
    return;
  }
  CHECK_STR(paper.source, "transcribed");
  CHECK(paper.table2[1].known && !paper.table2[1].parallel);  /* constant: no parallel access */
  profile_free(&paper);
}

int main(void) {
  test_committed_profiles();
  test_the_papers_k20c_shape();
  test_rules_two_and_three();
  test_threshold_edges();
  test_print_marks_differences();
  return test_summary();
}

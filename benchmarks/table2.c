#include "table2.h"

#include <math.h>
#include <string.h>

/* All the judgement in the inference is in these four numbers.
 * A change of a factor 1.25 between 32 distinct addresses and one broadcast
 * address is a trend (the K20c's constant memory changed by ~10x, its global
 * memory by ~5%, which the paper reads as "the same"). Warp-level latency
 * within 25% of the thread-level latency is "equal" (Section 4.2 rule 3).
 * A constraint that costs under 8% is no impact; the paper calls its texture
 * result (+12 cycles on ~110, +11%) small, its global one (several-fold)
 * large. */
const double table2_trend_ratio = 1.25;
const double table2_equal_tolerance = 0.25;
const double table2_no_impact_max = 1.08;
const double table2_small_impact_max = 1.5;

const char *table2_support_word(bool supported) {
  return supported ? "support" : "not support";
}

static double value_of(const profile *p, const char *space, const char *what) {
  char key[96];
  snprintf(key, sizeof key, "%s.%s", space, what);
  return profile_value(p, key);
}

static const char *impact_word(double ratio) {
  if (ratio < table2_no_impact_max) return "no impact";
  if (ratio < table2_small_impact_max) return "small impact";
  return "large impact";
}

/* Section 4.2: compare one warp touching 32 distinct addresses (no
 * broadcast) with one touching a single address (broadcast degree 32). */
static bool infer_capability(const profile *p, const char *memory, table2_row *r) {
  char warp[64], thread[64];
  snprintf(warp, sizeof warp, "warp.%s", memory);
  snprintf(thread, sizeof thread, "latency.%s", memory);
  double distinct32 = value_of(p, warp, "distinct_32");
  double distinct1 = value_of(p, warp, "distinct_1");
  double thread_level = profile_value(p, thread);
  if (!isfinite(distinct32) || !isfinite(distinct1) || distinct1 <= 0) return false;

  double ratio = distinct32 / distinct1;
  if (ratio > table2_trend_ratio) {            /* rule 1: falls as broadcast grows */
    r->broadcast = true;
    r->parallel = false;
  } else if (ratio < 1 / table2_trend_ratio) { /* rule 2: rises as broadcast grows */
    r->broadcast = false;
    r->parallel = true;
  } else {                                     /* rule 3: flat; compare with one thread */
    if (!isfinite(thread_level) || thread_level <= 0) return false;
    bool equal = distinct32 <= thread_level * (1 + table2_equal_tolerance);
    r->broadcast = r->parallel = equal;
  }
  return true;
}

/* Section 4.3: only explored where parallel access is supported. */
static void infer_constraints(const profile *p, const char *memory, table2_row *r) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "pattern.%s", memory);
  double aligned = value_of(p, pattern, "aligned");
  double misaligned = value_of(p, pattern, "misaligned");
  double strided = value_of(p, pattern, "strided");
  bool have = isfinite(aligned) && aligned > 0 && isfinite(misaligned) && isfinite(strided);
  if (!r->parallel || !have) {
    snprintf(r->aligned, sizeof r->aligned, "N/A");
    snprintf(r->consecutive, sizeof r->consecutive, "N/A");
    return;
  }
  snprintf(r->aligned, sizeof r->aligned, "%s", impact_word(misaligned / aligned));
  snprintf(r->consecutive, sizeof r->consecutive, "%s", impact_word(strided / aligned));
}

void table2_infer(profile *p) {
  for (int i = 0; i < TABLE2_MEMORIES; i++) {
    table2_row *r = &p->table2[i];
    memset(r, 0, sizeof *r);
    if (!infer_capability(p, table2_memory_names[i], r)) continue;
    r->known = true;
    infer_constraints(p, table2_memory_names[i], r);
  }
}

static void print_cell(FILE *out, const profile *p, int memory, int field) {
  const table2_row *r = &p->table2[memory];
  const char *text = "-";
  if (r->known) {
    switch (field) {
    case 0: text = table2_support_word(r->broadcast); break;
    case 1: text = table2_support_word(r->parallel); break;
    case 2: text = r->aligned; break;
    default: text = r->consecutive; break;
    }
  }
  fprintf(out, " %-12s", text);
}

static void print_one(FILE *out, const profile *p) {
  static const char *const fields[] = {"broadcast", "parallel", "aligned", "consecutive"};
  fprintf(out, "%-12s", p->short_name[0] ? p->short_name : p->name);
  for (int m = 0; m < TABLE2_MEMORIES; m++) fprintf(out, " %-12s", table2_memory_names[m]);
  fputc('\n', out);
  for (int f = 0; f < 4; f++) {
    fprintf(out, "%-12s", fields[f]);
    for (int m = 0; m < TABLE2_MEMORIES; m++) print_cell(out, p, m, f);
    fputc('\n', out);
  }
}

void table2_print(FILE *out, const profile *a, const profile *b) {
  print_one(out, a);
  if (!b) return;
  fputc('\n', out);
  print_one(out, b);
  for (int m = 0; m < TABLE2_MEMORIES; m++) {
    const table2_row *x = &a->table2[m], *y = &b->table2[m];
    if (!x->known || !y->known) continue;
    if (x->broadcast != y->broadcast || x->parallel != y->parallel ||
        strcmp(x->aligned, y->aligned) != 0 || strcmp(x->consecutive, y->consecutive) != 0)
      fprintf(out, "differs: %s memory (%s vs %s)\n", table2_memory_names[m],
              a->short_name, b->short_name);
  }
}

/* draw.c — where the 32 lanes of one warp land in memory (wl_warp_map),
 * and that warp drawn in text: under each finding with check --draw, and
 * for a rule's examples in explain. report_html.c draws the same map as
 * SVG, so both show the same banks, sectors and words. */
#include "warplint.h"

#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* 0: as good as it gets; 1: twice the ideal; 2: up to 4x; 3: up to 8x; 4: more. */
static int level_of(int times) { return times <= 1 ? 0 : times <= 2 ? 1 : times <= 4 ? 2 : times <= 8 ? 3 : 4; }

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static int count_distinct(const long long *v, int n) {
  int distinct = 0;
  for (int i = 0; i < n; i++) {
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = v[j] == v[i];
    distinct += !seen;
  }
  return distinct;
}

static int by_value(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? -1 : x > y;
}

static bool lane_active(const wl_warp *w, int lane) { return w->active >> lane & 1; }

/* Shared memory: 32 banks of 4-byte words. Lanes wider than a word are
 * served in phases of 128 bytes (16 lanes of 8 bytes, 8 of 16); within a
 * phase a bank holding n distinct words serves them one after another (an
 * n-way conflict); lanes on the same word share it. */
static void map_banks(const wl_warp *w, wl_warp_map *m) {
  int words = w->width >= 4 ? w->width / 4 : 1;
  m->target_name = "bank";
  m->phase_lanes = 32 / words > 0 ? 32 / words : 1;
  m->target_count = 32;
  for (int b = 0; b < 32; b++) m->target_id[b] = b;
  for (int phase = 0; phase < 32; phase += m->phase_lanes) {
    long long word[32 * 8];
    int n = 0;
    for (int l = phase; l < phase + m->phase_lanes && l < 32; l++)
      for (int k = 0; k < words && lane_active(w, l); k++) word[n++] = floor_div(w->offset[l], 4) + k;
    for (int b = 0; b < 32; b++) {
      long long in_bank[32 * 8];
      int c = 0;
      for (int i = 0; i < n; i++)
        if (((word[i] % 32) + 32) % 32 == b) in_bank[c++] = word[i];
      int d = count_distinct(in_bank, c);
      if (d > m->target_load[b]) m->target_load[b] = d;
    }
  }
  m->best = 1;
  m->cost = 1;
  for (int b = 0; b < 32; b++)
    if (m->target_load[b] > m->cost) m->cost = m->target_load[b];
  for (int l = 0; l < 32; l++) {
    if (!lane_active(w, l)) continue;
    m->first[l] = (int)(((floor_div(w->offset[l], 4) % 32) + 32) % 32);
    m->span[l] = words;
    for (int k = 0; k < words; k++) {
      int lv = level_of(m->target_load[(m->first[l] + k) % 32]);
      if (lv > m->level[l]) m->level[l] = lv;
    }
  }
}

/* The targets (sectors or words) the lanes touch, ascending; each lane's
 * first target and how many it covers. Lanes of at most WL_MAP_WIDEST bytes
 * touch two sectors each at the most, which WL_MAP_TARGETS holds. */
static bool collect_targets(const wl_warp *w, const long long *first, const long long *last, wl_warp_map *m) {
  long long id[32 * 8];
  int n = 0;
  for (int l = 0; l < 32; l++)
    for (long long t = first[l]; lane_active(w, l) && t <= last[l] && n < 32 * 8; t++) id[n++] = t;
  qsort(id, (size_t)n, sizeof *id, by_value);
  m->target_count = 0;
  for (int i = 0; i < n; i++) {
    if (m->target_count && m->target_id[m->target_count - 1] == id[i]) continue;
    if (m->target_count == WL_MAP_TARGETS) return false;
    m->target_id[m->target_count++] = id[i];
  }
  for (int l = 0; l < 32; l++) {
    if (!lane_active(w, l)) continue;
    for (int t = 0; t < m->target_count; t++) {
      if (m->target_id[t] < first[l] || m->target_id[t] > last[l]) continue;
      if (m->span[l]++ == 0) m->first[l] = t;
      m->target_load[t]++;
    }
  }
  return true;
}

/* Each thread's private array is spread so that the same element of the 32
 * lanes' copies lies in consecutive words (CUDA C++ Programming Guide,
 * "Local Memory"); wider elements are taken as interleaved in units of
 * their width, so that one lane's element stays whole. */
static long long local_address(long long offset, int lane, int width) {
  long long unit = width > 4 ? width : 4;
  return floor_div(offset, unit) * 32 * unit + lane * unit + (offset - floor_div(offset, unit) * unit);
}

/* Global, texture, local: the 32-byte sectors each lane's bytes fall in. */
static bool map_sectors(const wl_warp *w, bool local, wl_warp_map *m) {
  long long first[32] = {0}, last[32] = {0};
  for (int l = 0; l < 32; l++) {
    long long address = local ? local_address(w->offset[l], l, w->width) : w->offset[l];
    first[l] = floor_div(address, 32);
    last[l] = floor_div(address + w->width - 1, 32);
  }
  m->target_name = "sector";
  m->phase_lanes = 32;
  if (!collect_targets(w, first, last, m)) return false;
  long long line[WL_MAP_TARGETS];
  for (int t = 0; t < m->target_count; t++) line[t] = floor_div(m->target_id[t], 4);
  m->lines = count_distinct(line, m->target_count);
  m->cost = m->target_count;
  m->best = (m->active * w->width + 31) / 32;
  return true;
}

/* Constant memory: the cache serves one address per cycle to the lanes
 * that share it; n distinct words are n reads, one after another. */
static bool map_words(const wl_warp *w, wl_warp_map *m) {
  long long word[32];
  for (int l = 0; l < 32; l++) word[l] = floor_div(w->offset[l], 4);
  m->target_name = "word";
  m->phase_lanes = 32;
  if (!collect_targets(w, word, word, m)) return false;
  m->cost = m->target_count;
  m->best = 1;
  return true;
}

bool wl_warp_map_of(const wl_warp *w, const char *space, wl_warp_map *m) {
  memset(m, 0, sizeof *m);
  if (!w->known || !w->active || w->width < 1 || w->width > WL_MAP_WIDEST) return false;
  m->width = w->width;
  for (int l = 0; l < 32; l++) m->active += lane_active(w, l);
  bool ok = true;
  if (strcmp(space, "shared") == 0) map_banks(w, m);
  else if (strcmp(space, "constant") == 0) ok = map_words(w, m);
  else ok = map_sectors(w, strcmp(space, "local") == 0, m);
  if (!ok) return false;
  if (strcmp(m->target_name, "bank") != 0)
    for (int l = 0; l < 32; l++) m->level[l] = level_of((m->cost + m->best - 1) / m->best);
  return true;
}

int wl_warp_level(const wl_warp_map *m, int target) {
  if (strcmp(m->target_name, "bank") == 0) return level_of(m->target_load[target]);
  return level_of((m->cost + m->best - 1) / m->best);
}

void wl_warp_summary(const wl_warp_map *m, const char *space, char *out, size_t size) {
  char lanes[96];
  snprintf(lanes, sizeof lanes, "%d-byte %s accesses, %d %s active", m->width, space, m->active,
           plural(m->active, "lane", "lanes"));
  if (strcmp(m->target_name, "bank") == 0) {
    char phases[96] = "";
    if (m->phase_lanes < 32)
      snprintf(phases, sizeof phases, " (served in phases of %d lanes; the worst phase counts)", m->phase_lanes);
    if (m->cost > 1)
      snprintf(out, size, "%s: %d-way bank conflict, %d wavefronts%s", lanes, m->cost, m->cost, phases);
    else
      snprintf(out, size, "%s: conflict-free, no bank holds two words at once%s", lanes, phases);
  } else if (strcmp(m->target_name, "word") == 0) {
    if (m->cost > 1)
      snprintf(out, size, "%s: %d distinct words, served one after another", lanes, m->cost);
    else
      snprintf(out, size, "%s: one word, a broadcast to every lane", lanes);
  } else {
    char ideal[96];
    if (m->cost > m->best) snprintf(ideal, sizeof ideal, "; consecutive lanes would touch %d", m->best);
    else if (m->cost == m->best) snprintf(ideal, sizeof ideal, ", as many as consecutive lanes touch");
    else snprintf(ideal, sizeof ideal, ", fewer than consecutive lanes touch (lanes share them)");
    snprintf(out, size, "%s%s: %d %s in %d 128-byte %s%s", lanes,
             strcmp(space, "local") == 0 ? " (each lane its own copy, interleaved)" : "", m->cost,
             plural(m->cost, "sector", "sectors"), m->lines, plural(m->lines, "line", "lines"), ideal);
  }
}

/* C_3's fix moves the table out of constant memory, to global memory read
 * through the read-only path (or to shared memory): every lane keeps its
 * word, and the warp's distinct words are served together. So its "after"
 * is the same lanes drawn in global memory; the check's own picture, every
 * lane on one word, would be a broadcast that changes what the code
 * computes. */
static bool moves_to_global(const wl_finding *f) { return strcmp(f->rule, "C_3") == 0; }

const wl_warp *wl_fixed_warp(const wl_finding *f, const char **space) {
  *space = f->space;
  if (moves_to_global(f)) {
    *space = "global";
    return f->warp.known ? &f->warp : NULL;
  }
  return f->fixed.known ? &f->fixed : NULL;
}

bool wl_fixed_metric(const wl_finding *f, char *key, size_t size) {
  wl_warp_map m;
  if (!moves_to_global(f) || !f->warp.known || !wl_warp_map_of(&f->warp, "constant", &m)) return false;
  int distinct = 1;
  while (distinct < m.cost && distinct < 32) distinct *= 2;   /* the profile's 1, 2, 4 ... 32 */
  snprintf(key, size, "warp.global.distinct_%d", distinct);
  return true;
}

const char *wl_warp_missing(const wl_finding *f, bool fixed) {
  if (strcmp(f->space, "launch") == 0) return "a launch shape, no memory access to draw";
  if (fixed && moves_to_global(f))
    return "the fix moves the table to global memory (read-only path) or shared memory, where the lanes keep "
           "their words; their offsets are not known lane by lane";
  if (fixed && strcmp(f->space, "local") == 0) return "the fix keeps the values in registers: no memory access";
  if (fixed) return "warplint models no addresses after this fix";
  return "the lanes' offsets are not known lane by lane (they depend on run-time values)";
}

/* A row of the text drawing: a label, then one cell per lane of the block. */
static void draw_row(FILE *out, const char *label, const long long *cell, const bool *shown, int from, int n,
                     int width) {
  fprintf(out, "    %-7s", label);
  for (int l = from; l < from + n; l++) {
    if (shown[l]) fprintf(out, "%*lld", width, cell[l]);
    else fprintf(out, "%*s", width, "-");
  }
  fputc('\n', out);
}

/* lane / byte / bank (sector, word) rows, 16 lanes a block (8 when the
 * offsets are wide), so that the drawing fits 80 columns. */
static void draw_warp(FILE *out, const wl_warp *w, const char *space, const char *title) {
  wl_warp_map m;
  if (!wl_warp_map_of(w, space, &m)) {
    fprintf(out, "  %s: not drawn (elements wider than %d bytes)\n", title, WL_MAP_WIDEST);
    return;
  }
  char summary[320];
  wl_warp_summary(&m, space, summary, sizeof summary);
  if (w->example[0])
    fprintf(out, "  %s, drawn for %s as an example (the offsets depend on run-time sizes%s): %s\n", title,
            w->example, wl_example_scales(w) ? "; any larger size draws the same sectors and lines" : "", summary);
  else fprintf(out, "  %s: %s\n", title, summary);
  long long lane[32], byte[32], target[32], ways[32];
  bool shown[32], all[32];
  int digits = 2;
  for (int l = 0; l < 32; l++) {
    all[l] = true;
    shown[l] = w->active >> l & 1;
    lane[l] = l;
    byte[l] = w->offset[l];
    target[l] = shown[l] ? m.target_id[m.first[l]] : 0;
    ways[l] = shown[l] ? m.target_load[m.first[l]] : 0;
    int d = snprintf(NULL, 0, "%lld", shown[l] ? byte[l] : 0);
    if (d > digits) digits = d;
  }
  int cell = digits + 1, per_block = 12 + 16 * cell <= 80 ? 16 : 8;
  for (int from = 0; from < 32; from += per_block) {
    draw_row(out, "lane", lane, all, from, per_block, cell);
    draw_row(out, "byte", byte, shown, from, per_block, cell);
    draw_row(out, m.target_name, target, shown, from, per_block, cell);
    if (strcmp(m.target_name, "bank") == 0) draw_row(out, "ways", ways, shown, from, per_block, cell);
  }
}

/* Lanes of an example drawing 128 bytes or more apart: each has a line of
 * its own, which a larger size keeps. */
bool wl_example_scales(const wl_warp *w) {
  int first = -1;
  for (int l = 0; l < 32 && first < 0; l++)
    if (lane_active(w, l)) first = l;
  for (int l = first + 1; first >= 0 && l < 32; l++)
    if (lane_active(w, l)) return w->offset[l] - w->offset[first] >= 128LL * (l - first);
  return false;
}

static void draw_fixed(FILE *out, const wl_finding *f, const char *title) {
  const char *space;
  const wl_warp *fixed = wl_fixed_warp(f, &space);
  char label[160];
  if (moves_to_global(f)) snprintf(label, sizeof label, "%s (the table in global memory, read-only path)", title);
  else snprintf(label, sizeof label, "%s", title);
  if (fixed) draw_warp(out, fixed, space, label);
  else fprintf(out, "  %s: not drawn: %s\n", title, wl_warp_missing(f, true));
}

void wl_draw_finding(FILE *out, const wl_finding *f) {
  if (f->warp.known) draw_warp(out, &f->warp, f->space, "warp as written");
  else fprintf(out, "  warp as written: not drawn: %s\n", wl_warp_missing(f, false));
  draw_fixed(out, f, "after the fix");
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The first finding of rule in r, one with a drawn warp if there is one. */
static const wl_finding *rule_finding(const wl_file_result *r, const char *rule, int *count) {
  const wl_finding *pick = NULL;
  *count = 0;
  for (size_t i = 0; i < r->finding_count; i++) {
    const wl_finding *f = &r->findings[i];
    if (strcmp(f->rule, rule) != 0) continue;
    ++*count;
    if (!pick || (!pick->warp.known && f->warp.known)) pick = f;
  }
  return pick;
}

void wl_draw_rule_examples(FILE *out, const char *rule, const char *bad_path, const char *good_path,
                           const wl_options *opt) {
  if (!wl_rule_is_checked(rule) || !bad_path) return;
  CXIndex index = clang_createIndex(0, 0);
  wl_file_result bad = {0}, good = {0};
  wl_analyze_file(index, bad_path, NULL, 0, opt, &bad);
  int count;
  const wl_finding *f = rule_finding(&bad, rule, &count);
  fprintf(out, "\nwarp drawings:\n");
  if (!f) {
    fprintf(out, "  warplint finds no %s in %s: nothing to draw\n", rule, base_name(bad_path));
  } else {
    fprintf(out, "bad example, %s:%u (%s):\n", base_name(bad_path), f->line, rule);
    if (f->warp.known) draw_warp(out, &f->warp, f->space, "warp as written");
    else fprintf(out, "  warp as written: not drawn: %s\n", wl_warp_missing(f, false));
  }
  if (good_path) {
    wl_analyze_file(index, good_path, NULL, 0, opt, &good);
    int good_count;
    rule_finding(&good, rule, &good_count);
    fprintf(out, "good example, %s: ", base_name(good_path));
    if (good_count) fprintf(out, "warplint still finds %d %s\n", good_count, rule);
    else fprintf(out, "warplint finds no %s\n", rule);
  }
  if (f) draw_fixed(out, f, "the bad example's warp after the fix");
  char key[64];
  wl_metric before, after;
  if (f && f->metric_count && wl_fixed_metric(f, key, sizeof key)) {
    wl_metric_lookup(opt, key, &after);
    before = f->metrics[0];
    if (before.present && after.present)
      fprintf(out, "  measured on %s: %.4g %s as written (%s), %.4g %s after the fix (%s)\n",
              opt->profile_name ? opt->profile_name : "the profile", before.value, before.unit, before.key,
              after.value, after.unit, after.key);
  }
  wl_result_free(&bad);
  wl_result_free(&good);
  clang_disposeIndex(index);
}

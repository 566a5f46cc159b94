/* Findings (one per rule, array and line), their profile metrics and notes,
 * the array inventory (classes and recommended space), and NOLINT /
 * NOLINTNEXTLINE suppressions. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

const char *const wl_space_names[] = {"global", "shared", "constant", "local", "texture"};

/* ---- findings ---- */

/* A lane model known only as a stride that holds run-time sizes (the naive
 * transpose's out[x * n + y]: lanes n elements apart) is drawn for a stated
 * example: every size in the stride taken as EXAMPLE_SIZE, the smallest at
 * which lanes of 4-byte elements are a 128-byte line apart, so that a larger
 * size draws the same sectors and lines. Lane l is taken as threadIdx.x = l
 * (a block at least a warp wide). Strides that hold thread or block indices
 * are left undrawn. */
#define EXAMPLE_SIZE 32

static void example_picture(const kernel_ctx *k, wl_warp *w, const lane_model *m, long long width) {
  if (m->kind != LANE_SYMBOLIC || m->stride.unknown || m->stride.count == 0 || k->atom_count <= 0) return;
  long long *values = calloc((size_t)k->atom_count, sizeof *values), stride;
  char names[96] = "";
  size_t used = 0;
  bool drawable = values != NULL;
  for (int i = 0; drawable && i < m->stride.count; i++) {
    const poly_term *t = &m->stride.terms[i];
    for (int a = 0; a < t->degree && drawable; a++) {
      int id = t->atoms[a];
      drawable = id >= ATOM_FIRST_SYMBOL && id < k->atom_count;
      if (!drawable || values[id]) continue;
      values[id] = EXAMPLE_SIZE;
      used += (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0, "%s%s = %d",
                               used ? ", " : "", k->atoms[id].name, EXAMPLE_SIZE);
    }
  }
  if (drawable && names[0] && used < sizeof names && poly_eval(&m->stride, values, k->atom_count, &stride) &&
      stride > 0) {
    lane_model example = *m;
    example.kind = LANE_CONCRETE;
    if (!example.active) example.active = 0xffffffffu;
    for (int l = 0; l < 32; l++) example.offset[l] = l * stride;
    warp_picture(w, &example, width);
    snprintf(w->example, sizeof w->example, "%s", names);
  }
  free(values);
}

wl_finding *new_finding(kernel_ctx *k, const char *rule, const access_info *x,
                               const array_info *a) {
  wl_file_result *r = x->file ? result_for_file(k->fc, x->file) : k->res;
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    if (strcmp(f->rule, rule) == 0 && f->line == x->line && f->array && strcmp(f->array, a->name) == 0)
      return NULL;  /* one finding per rule, array and line */
  }
  GROW(r->findings, r->finding_count, r->finding_cap);
  wl_finding *f = &r->findings[r->finding_count++];
  memset(f, 0, sizeof *f);
  snprintf(f->rule, sizeof f->rule, "%s", rule);
  f->severity = "warning";
  f->line = x->line;
  f->column = x->column;
  f->kernel = wl_strdup(k->name);
  f->array = wl_strdup(a->name);
  f->space = wl_space_names[a->space];
  warp_picture(&f->warp, &x->lanes, x->width);
  if (x->call_line) {
    char *kernel_file = cx_take(clang_getFileName(k->file));
    add_note(f, x->line, x->column, wl_format("in kernel '%s', through the call at %s:%u", k->name, kernel_file,
                                              x->call_line));
    free(kernel_file);
  }
  if (x->lanes.turn_name[0])
    add_note(f, x->line, x->column, wl_format("the lanes as on the turn of the loop where '%s' is %lld, the costliest "
                                              "of the turns tried ('%s' scaled by a power of two each turn)",
                                              x->lanes.turn_name, x->lanes.turn_value, x->lanes.turn_name));
  if (x->lanes.first_turn)
    add_note(f, x->line, x->column, wl_strdup("the lanes as on the first turn of the loop around it: a value the "
                                              "loop changes each turn (offset *= 2) is taken as it enters"));
  /* Sectors and lines only: which bank a lane hits (shared) depends on the
   * size itself, not only on its being large. */
  if (!f->warp.known && (a->space == SP_GLOBAL || a->space == SP_TEXTURE))
    example_picture(k, &f->warp, &x->lanes, x->width);
  return f;
}

/* The lanes of a concrete (or uniform) model, relative to the lowest
 * active lane's address; nothing for symbolic or unknown ones. */
void warp_picture(wl_warp *w, const lane_model *m, long long width) {
  memset(w, 0, sizeof *w);
  if ((m->kind != LANE_CONCRETE && m->kind != LANE_UNIFORM) || !m->active) return;
  long long low = 0;
  bool any = false;
  for (int l = 0; l < 32; l++)
    if ((m->active >> l & 1) && (!any || m->offset[l] < low)) { low = m->offset[l]; any = true; }
  w->known = true;
  w->active = m->active;
  w->width = (int)width;
  for (int l = 0; l < 32; l++) w->offset[l] = (m->active >> l & 1) ? m->offset[l] - low : 0;
}

void add_metric(kernel_ctx *k, wl_finding *f, const char *key) {
  if (f->metric_count >= 2) return;
  wl_metric_lookup(k->opt, key, &f->metrics[f->metric_count++]);
}

void add_note(wl_finding *f, unsigned line, unsigned column, char *text) {
  if (f->note_count >= 4) { free(text); return; }
  f->note_line[f->note_count] = line;
  f->note_column[f->note_count] = column;
  f->notes[f->note_count++] = text;
}

/* "measured on H100: 8-way 250 cycles vs 1-way 31 cycles" */
char *compare_text(kernel_ctx *k, wl_finding *f, const char *label_a, const char *label_b) {
  char a[160], b[160];
  wl_metric_text(k->opt, &f->metrics[0], label_a, a, sizeof a);
  wl_metric_text(k->opt, &f->metrics[1], label_b, b, sizeof b);
  const wl_options *o = k->opt;
  return wl_format("measured on %s: %s vs %s", o->profile_short ? o->profile_short : "no profile", a, b);
}

void set_message(wl_finding *f, char *head, char *evidence) {
  f->message = wl_format("%s; %s", head, evidence);
  free(head);
  free(evidence);
}


void append_pattern(array_info *a, const char *text) {
  if (strstr(a->patterns, text)) return;
  size_t len = strlen(a->patterns);
  snprintf(a->patterns + len, sizeof a->patterns - len, "%s%s", len ? "; " : "", text);
}


bool is_read_only(const array_info *a) {
  return !a->written && !a->escaped && !a->atomic;
}

void classify(kernel_ctx *k, array_info *a, wl_file_result *r) {
  int classes = 0;
  if (a->space == SP_LOCAL) classes |= WL_CLASS_TEMPORAL;
  if (a->written || a->atomic) classes |= WL_CLASS_WRITTEN;
  else if ((!a->escaped || a->space == SP_TEXTURE) && a->space != SP_LOCAL) classes |= WL_CLASS_READONLY;
  if (a->reusable) classes |= WL_CLASS_REUSABLE;
  const char *rec = wl_space_names[a->space];
  for (size_t i = 0; i < r->finding_count; i++) {
    const wl_finding *f = &r->findings[i];
    if (!f->array || strcmp(f->array, a->name) != 0 || strcmp(f->kernel, k->name) != 0 ||
        strcmp(f->severity, "warning") != 0)
      continue;                           /* a note (the fix does not pay) recommends nothing */
    if (strcmp(f->rule, "S_5") == 0) rec = "shared (S_5)";
    else if (strcmp(f->rule, "C_2") == 0) rec = "constant (C_2)";
    else if (strcmp(f->rule, "T_4") == 0) rec = "read-only path (T_4)";
    else if (f->rule[0] == 'L') rec = "registers (L_)";
    else if (strcmp(f->rule, "S_6") == 0) rec = "registers (S_6)";
    else if (strcmp(f->rule, "S_1") == 0) rec = "shared, padded (S_1)";
    else if (strcmp(f->rule, "C_3") == 0) rec = "global/read-only (C_3)";
  }
  GROW(r->arrays, r->array_count, r->array_cap);
  wl_array_info *o = &r->arrays[r->array_count++];
  o->kernel = wl_strdup(k->name);
  o->array = wl_strdup(a->name);
  o->element_type = wl_strdup(a->elem_type);
  o->patterns = wl_strdup(a->patterns[0] ? a->patterns : "-");
  o->recommended = wl_strdup(rec);
  o->space = wl_space_names[a->space];
  o->classes = classes;
  o->line = a->line;
  o->column = a->column;
}

/* An integer literal token, or a macro that the file defines as one
 * (#define THREADS 256, the last definition before offset `before`). */

/* ---- suppressions ---- */

static bool line_suppresses(const char *line, size_t len, const char *marker, const char *rule) {
  const char *end = line + len;
  size_t mlen = strlen(marker);
  for (const char *p = line; p + mlen <= end; p++) {
    if (memcmp(p, marker, mlen) != 0) continue;
    const char *q = p + mlen;
    if (strcmp(marker, "NOLINT") == 0 && q + 8 <= end && memcmp(q, "NEXTLINE", 8) == 0) continue;
    if (q >= end || *q != '(') return true;  /* bare marker: everything */
    const char *close = memchr(q, ')', (size_t)(end - q));
    if (!close) return true;
    char want[32];
    snprintf(want, sizeof want, "warplint-%s", rule);
    size_t wl = strlen(want);
    for (const char *s = q + 1; s + wl <= close; s++)
      if (memcmp(s, want, wl) == 0) return true;
    if (close - q == 2 && q[1] == '*') return true;
    return false;
  }
  return false;
}

void apply_suppressions(wl_file_result *r, const char *text, size_t len) {
  /* line starts */
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  size_t *start = malloc((lines + 1) * sizeof *start);
  if (!start) return;
  size_t n = 0;
  start[n++] = 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n') start[n++] = i + 1;
  start[n] = len + 1;
  size_t kept = 0;
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    bool drop = false;
    if (f->line >= 1 && f->line <= n) {
      size_t s = start[f->line - 1], e = start[f->line] - 1;
      drop = line_suppresses(text + s, e - s, "NOLINT", f->rule);
      if (!drop && f->line >= 2) {
        size_t ps = start[f->line - 2], pe = start[f->line - 1] - 1;
        drop = line_suppresses(text + ps, pe - ps, "NOLINTNEXTLINE", f->rule);
      }
    }
    if (drop) {
      free(f->kernel); free(f->array); free(f->message);
      for (int j = 0; j < f->note_count; j++) free(f->notes[j]);
      for (int j = 0; j < f->fix_count; j++) free(f->fixes[j].replacement);
    } else {
      r->findings[kept++] = *f;
    }
  }
  r->finding_count = kept;
  free(start);
}


/* The rule's evidence (catalog.json): the finding's first metric is the
 * cost of the code as written, its second the cost after the fix. When the
 * chosen profile measured both and the fix saves less than 5% (the
 * benchmark suite's noise bound), the finding is a note that says so, not
 * a warning, and offers no fix-it. */
void judge_payoff(kernel_ctx *k, wl_finding *f) {
  const json_value *evidence = json_get(wl_rule(f->rule), "evidence");
  if (!evidence || f->metric_count < 2 || !f->metrics[0].present || !f->metrics[1].present) return;
  bool lower = strcmp(json_string_or(json_get(evidence, "better"), "lower"), "lower") == 0;
  double cost = f->metrics[0].value, fixed = f->metrics[1].value;
  if (lower ? fixed < 0.95 * cost : fixed > 1.05 * cost) return;
  f->severity = "note";
  const char *gpu = k->opt->profile_short ? k->opt->profile_short : "this GPU";
  char *message = wl_format("%s; on %s the change does not pay (it saves less than 5%%)", f->message, gpu);
  free(f->message);
  f->message = message;
  for (int i = 0; i < f->note_count; i++) free(f->notes[i]);
  for (int i = 0; i < f->fix_count; i++) free(f->fixes[i].replacement);
  f->note_count = f->fix_count = 0;
}

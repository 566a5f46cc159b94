/* Shared-memory checks (rule family S_): bank conflicts (S_1), launches with
 * too few warps (S_4), global data that belongs in shared memory (S_5), and
 * shared staging that no other thread reads (S_6). */
#include "analysis.h"

#include <string.h>

static bool last_extent_range(const array_info *a, unsigned *line, unsigned *column, unsigned *length,
                              char **text) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a->decl);
  CXToken *tokens;
  unsigned n;
  /* From the name on: the declaration may begin inside a macro (__shared__). */
  CXSourceRange from_name = clang_getRange(clang_getCursorLocation(a->decl),
                                           clang_getRangeEnd(clang_getCursorExtent(a->decl)));
  clang_tokenize(tu, from_name, &tokens, &n);
  bool ok = false;
  int brackets = 0;
  for (unsigned i = 0; i + 2 < n; i++) {
    char *s = cx_take(clang_getTokenSpelling(tu, tokens[i]));
    bool open = strcmp(s, "[") == 0;
    free(s);
    if (!open) continue;
    if (++brackets != a->ndim) continue;
    char *close = cx_take(clang_getTokenSpelling(tu, tokens[i + 2]));
    if (strcmp(close, "]") == 0) {
      unsigned begin, end;
      CXSourceRange r = clang_getTokenExtent(tu, tokens[i + 1]);
      clang_getExpansionLocation(clang_getRangeStart(r), NULL, line, column, &begin);
      clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
      *length = end - begin;
      *text = cx_take(clang_getTokenSpelling(tu, tokens[i + 1]));
      ok = true;
    }
    free(close);
    break;
  }
  clang_disposeTokens(tu, tokens, n);
  return ok;
}

/* A lane stride such as threadIdx.x * n: every lane lands in one bank
 * whenever n * element size is a multiple of 128 bytes. Reported only when
 * threadIdx.x is the one lane-varying index and its coefficient is a single
 * product of uniform symbols. */
static void check_shared_symbolic(kernel_ctx *k, const access_info *x) {
  array_info *a = &k->arrays[x->array];
  const lane_model *m = &x->lanes;
  if (m->stride.unknown || m->stride.count != 1 || m->stride.terms[0].degree == 0 ||
      m->stride.terms[0].coef % x->width != 0)
    return;
  if (poly_uses_atom(&x->off, ATOM_TY) || poly_uses_atom(&x->off, ATOM_TZ) || x->width > 4) return;
  for (int d = 0; d < m->stride.terms[0].degree; d++) {
    int atom = m->stride.terms[0].atoms[d];
    if (is_thread_atom(atom) || (atom >= ATOM_FIRST_SYMBOL && k->atoms[atom].quotient)) return;
  }
  poly elements = m->stride;
  elements.terms[0].coef /= x->width;
  char stride[120];
  poly_text(k, &elements, stride, sizeof stride);
  wl_finding *f = new_finding(k, "S_1", x, a);
  if (!f) return;
  append_pattern(a, "stride symbolic: 32-way when a multiple of 32");
  add_metric(k, f, "bank_conflict.way_32");
  add_metric(k, f, "bank_conflict.way_1");
  /* With c * s words between lanes, lanes 32 / gcd(c, 32) apart share a
   * bank at different words whatever s (nonzero) is. */
  long long c = elements.terms[0].coef < 0 ? -elements.terms[0].coef : elements.terms[0].coef, g = 32;
  for (long long r; c % g != 0; r = c % g, c = g, g = r) {}
  char *least = g >= 2 ? wl_format("at least a %lld-way bank conflict (a multiple of %lld words), ", g, g)
                        : wl_strdup("");
  set_message(f, wl_format("lanes of a warp access shared '%s' %s elements apart: %sa 32-way bank conflict "
                           "when %s is a multiple of 32", a->name, stride, least, stride),
              compare_text(k, f, "32-way", "1-way"));
  /* a stride a loop changes (2 * s * tid in an interleaved reduction) is
   * not fixed by padding: the lanes must work on consecutive words */
  bool loop_stride = false;
  for (int d = 0; d < m->stride.terms[0].degree; d++) {
    int atom = m->stride.terms[0].atoms[d];
    loop_stride = loop_stride || (atom >= ATOM_FIRST_SYMBOL && k->atoms[atom].kind == ATOMK_LOOP);
  }
  add_note(f, a->line, a->column,
           wl_strdup(loop_stride ? "the stride changes with the loop, so padding cannot remove the conflict: let "
                                   "consecutive lanes take consecutive words (in a reduction, sequential "
                                   "addressing: s[tid] += s[tid + stride] with the stride halving) (S_1)"
                                 : "pad the row (an odd stride) or swap the index order (S_1)"));
  free(least);
}

/* A store that reads nothing: 16-byte stores go by quarter-warps (lanes.c). */
static bool stores_only(const access_info *x) { return x->write && !x->read; }

/* The S_1 fix-it: padding the last dimension by one element, when the
 * warp model of the padded array (computed by the walk) is conflict-free. */
static void padding_fix(kernel_ctx *k, const access_info *x, wl_finding *f) {
  array_info *a = &k->arrays[x->array];
  /* a vector read through a cast (a float4 of a float tile) needs its rows
   * to stay 16-byte aligned: one more element would misalign them */
  if (x->width > a->elem_size) return;
  if (x->padded.kind != LANE_CONCRETE || conflict_degree(&x->padded, x->width, stores_only(x), NULL, NULL) != 1) return;
  unsigned line, column, length;
  char *text;
  if (!last_extent_range(a, &line, &column, &length, &text)) return;
  long long value;
  char *repl = (sscanf(text, "%lld", &value) == 1 && value == a->ext[a->ndim - 1])
                   ? wl_format("%lld", value + 1) : wl_format("%s + 1", text);
  wl_fix *fix = &f->fixes[f->fix_count++];
  fix->line = line;
  fix->column = column;
  fix->length = length;
  fix->replacement = repl;
  warp_picture(&f->fixed, &x->padded, x->width);
  add_note(f, a->line, a->column, wl_format("pad the last dimension of '%s': [%s] -> [%s] removes the conflict",
                                            a->name, text, repl));
  free(text);
}

/* S_1: the active lanes of a warp hit the same bank at different words. */
void check_s1_bank_conflict(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  const lane_model *m = &x->lanes;
  if (m->kind == LANE_UNIFORM) { append_pattern(a, "broadcast"); return; }
  if (m->kind == LANE_SYMBOLIC) { check_shared_symbolic(k, x); return; }
  if (m->kind != LANE_CONCRETE) return;
  int wavefronts, floor, degree = conflict_degree(m, x->width, stores_only(x), &wavefronts, &floor);
  if (degree < 2) {
    if (m->stride_const && m->stride_value == 0) append_pattern(a, "broadcast within rows (S_2)");
    else if (lanes_consecutive(m, x->width)) append_pattern(a, "consecutive");
    else if (!m->stride_const) append_pattern(a, "irregular, conflict-free");
    else append_pattern(a, "strided, conflict-free (S_3)");
    return;
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%d-way bank conflict", degree);
  append_pattern(a, buf);
  wl_finding *f = new_finding(k, "S_1", x, a);
  if (!f) return;
  /* priced by wavefronts, whatever the element's width: a wavefront is one
   * word per bank (the 4-byte measurements), against the fewest the words
   * could take */
  char key[64], label[32], least[32], fewest[48] = "";
  snprintf(key, sizeof key, "bank_conflict.way_%d", pow2_at_least(wavefronts));
  add_metric(k, f, key);
  snprintf(key, sizeof key, "bank_conflict.way_%d", pow2_at_least(floor));
  add_metric(k, f, key);
  snprintf(label, sizeof label, "%d wavefronts", pow2_at_least(wavefronts));
  snprintf(least, sizeof least, "%d wavefront%s", pow2_at_least(floor), floor > 1 ? "s" : "");
  if (floor > 1) snprintf(fewest, sizeof fewest, " where %d would do", floor);
  set_message(f, wl_format("%d-way bank conflict on shared '%s': %d shared-memory wavefronts per request%s",
                           degree, a->name, wavefronts, fewest),
              compare_text(k, f, label, least));
  padding_fix(k, x, f);
}

/* An S_5 finding on reusable global data, priced as global against shared
 * latency; its pattern for the inventory. */
static wl_finding *s5_finding(kernel_ctx *k, const access_info *x, array_info *a, const char *pattern) {
  a->reusable = true;
  append_pattern(a, pattern);
  wl_finding *f = new_finding(k, "S_5", x, a);
  if (!f) return NULL;
  add_metric(k, f, "latency.global");
  add_metric(k, f, "latency.shared");
  return f;
}

/* A neighbourhood read, as in the paper's 3x3 filter: the index moves with
 * a unit-step loop variable exactly as with a thread index
 * (in[(y + dy) * w + x + dx]), so neighbouring threads read the same element
 * in different iterations; a loop of run-time length too (a filter of
 * run-time width, the j > i half of an all-pairs loop, x[j] for
 * j = i + 1 .. n). */
static bool check_stencil_reuse(kernel_ctx *k, const access_info *x, array_info *a) {
  if (active_lanes(x->lanes.active) < 2) return false;   /* a block of one thread has no neighbours */
  for (int t = ATOM_TX; t <= ATOM_TZ; t++) {
    if (!poly_uses_atom(&x->off, t)) continue;
    poly ct;
    poly_coefficient(&x->off, t, &ct);
    for (int i = 0; i < x->loop_count; i++) {
      int loop = x->loops[i];
      if (loop < 0 || !k->atoms[loop].unit_step) continue;
      poly cl;
      poly_coefficient(&x->off, loop, &cl);
      if (!poly_equal(&ct, &cl)) continue;
      wl_finding *f = s5_finding(k, x, a, "neighbourhood reused by adjacent threads");
      if (!f) return true;
      char readers[64] = "by the neighbouring threads, each on its own turn";
      if (k->atoms[loop].trips > 1)
        snprintf(readers, sizeof readers, "by up to %lld neighbouring threads", k->atoms[loop].trips);
      /* "loop": ir.c's name for a counter the source does not name;
       * "unrolled": reads a line repeats with no loop in the source
       * (field[pos - 1], field[pos], field[pos + 1] in a helper) */
      char over[96] = "the loop";
      if (strcmp(k->atoms[loop].name, "unrolled") == 0)
        snprintf(over, sizeof over, "each of its %lld reads here", k->atoms[loop].trips);
      else if (strcmp(k->atoms[loop].name, "loop") != 0)
        snprintf(over, sizeof over, "the loop over '%s'", k->atoms[loop].name);
      set_message(f, wl_format("reusable global data '%s': %s moves the index as threadIdx.%c does, so each "
                               "element is read %s; stage the block's tile and halo in shared memory", a->name,
                               over, 'x' + (t - ATOM_TX), readers),
                  compare_text(k, f, "global (L1 hit)", "shared"));
      return true;
    }
  }
  return false;
}

/* A stencil's neighbour read: its elements are other warps' own reads,
 * or most of its own warp's through another read. */
static void check_s5_neighbours(kernel_ctx *k, access_info *x, array_info *a) {
  wl_finding *f = s5_finding(k, x, a, x->neighbour_shifted ? "neighbours read by the same warp"
                                      : x->neighbour_rows   ? "neighbouring rows read by the same block"
                                                            : "neighbours read by other warps");
  if (!f) return;
  char *repeated = x->neighbour_shifted
                       ? wl_format("most of a warp's request here is the same warp's request at another read (line "
                                   "%u), shifted by a few elements (in[i - 1] beside in[i])", x->neighbour_line)
                   : x->neighbour_rows
                       ? wl_format("the block is %lld threads wide, so its warps span rows of it, and most of a "
                                   "warp's request here is read by the lanes of a neighbouring row at another read "
                                   "(line %u)", k->block[0], x->neighbour_line)
                       : wl_format("a warp's request here is another warp's own request (the read at line %u)",
                                   x->neighbour_line);
  set_message(f, wl_format("reusable global data '%s': %s: the block loads these elements twice; stage the block's "
                           "tile and halo in shared memory", a->name, repeated),
              compare_text(k, f, "global (L1 hit)", "shared"));
  free(repeated);
}

/* A sliding window: on later turns of the loop lanes read what other
 * threads of the block read on the first. */
static void check_s5_window(kernel_ctx *k, access_info *x, array_info *a) {
  wl_finding *f = s5_finding(k, x, a, "windows of neighbouring threads overlapping");
  if (!f) return;
  set_message(f, wl_format("reusable global data '%s': on later turns of the loop the lanes read elements that "
                           "other threads of the block read on earlier ones (overlapping windows): each element is "
                           "loaded once per reader; stage the block's tile and halo in shared memory", a->name),
              compare_text(k, f, "global (L1 hit)", "shared"));
}

/* The most turns of a constant loop over a table C_2 speaks for alone (the
 * paper's C_2 example walks 8 coefficients; a filter's 17 taps, a table of
 * 45 flags are such tables). */
#define SMALL_TABLE_TURNS 64

/* A read at an index the whole grid shares, moved by a loop of run-time
 * length or of more than a few constant turns (the all-pairs loop of an
 * N-body step or a neighbour search, x[j] for j < n): every warp of a block
 * asks for the same element, a request each; tiles staged in shared memory load it once per block. A
 * loop of constant length over a small table is C_2's alone: the paper
 * puts small tables in constant memory and large or run-time-sized data in
 * shared memory (Section 8.2.3; rules/README.md). */
static void check_s5_grid_uniform(kernel_ctx *k, access_info *x, array_info *a) {
  if (active_lanes(x->lanes.active) < 2 || x->width > 16) return;
  /* a table of pointers (one per buffer) or of records larger than a
   * vector (one per image component, per pyramid level) has few elements,
   * whatever bound the loop takes from the host: C_2's alone */
  if (x->moves_pointer || (a->elem_type && strchr(a->elem_type, '*')) || a->elem_size > 16) return;
  if (k->block_known && k->block[0] * k->block[1] * k->block[2] <= 32) return;  /* one warp: one request */
  const atom_info *loop = NULL;
  for (int t = ATOM_FIRST_SYMBOL; t < k->atom_count && !loop; t++)
    if ((k->atoms[t].kind == ATOMK_LOOP || k->atoms[t].loop_carried) &&
        !(k->atoms[t].const_trip && k->atoms[t].trips <= SMALL_TABLE_TURNS) && poly_uses_atom(&x->off, t))
      loop = &k->atoms[t];
  if (!loop) return;
  wl_finding *f = s5_finding(k, x, a, "read by every warp of a block at once");
  if (!f) return;
  char turn[96];
  if (loop->kind == ATOMK_LOOP) snprintf(turn, sizeof turn, "on each turn of the loop over '%s'", loop->name);
  else snprintf(turn, sizeof turn, "on each turn of the loop, at an index %s",
                loop->loaded ? "it loads anew" : "it carries");
  set_message(f, wl_format("reusable global data '%s': every warp of a block reads the same element %s, one index "
                           "for the whole grid: a request per warp; stage tiles of it in shared memory, one load "
                           "per block", a->name, turn),
              compare_text(k, f, "global (L1 hit)", "shared"));
}

/* S_5: read-only global data read in a loop (its index moves with the
 * loop) by several active threads of a block at once (the index ignores a
 * thread dimension, or all of them), a neighbourhood read, or a stencil's
 * neighbour row. */
void check_s5_reused_global(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  if (!x->read || x->write || !is_read_only(a)) return;
  if (x->neighbour_reuse) { check_s5_neighbours(k, x, a); return; }
  bool moves = !x->off.unknown && moves_with_loop(k, &x->off);
  if (moves && !uses_index_atoms(k, &x->off)) { check_s5_grid_uniform(k, x, a); return; }
  if (moves && check_stencil_reuse(k, x, a)) return;
  /* what the polynomial cannot tell, the device code's turns may */
  if (!moves || x->reuse < 2) {
    if (x->window_reuse) check_s5_window(k, x, a);
    return;
  }
  char dims[64] = "", free_of[64] = "";
  for (int d = 0; d < 3; d++) {
    if (poly_uses_atom(&x->off, ATOM_TX + d) || k->block[d] < 2) continue;
    size_t len = strlen(dims);
    snprintf(dims + len, sizeof dims - len, "%sblockDim.%c", len ? "*" : "", 'x' + d);
    len = strlen(free_of);
    snprintf(free_of + len, sizeof free_of - len, "%sthreadIdx.%c", len ? ", " : "", 'x' + d);
  }
  if (!*free_of) snprintf(free_of, sizeof free_of, "the active threads");
  wl_finding *f = s5_finding(k, x, a, "reused by several threads");
  if (!f) return;
  char buf[200];
  if (k->block_known || x->reuse_restricted)
    snprintf(buf, sizeof buf, "each element is read by %lld threads of a block", x->reuse);
  else
    snprintf(buf, sizeof buf, "each element is read by %s threads of a block", dims);
  set_message(f, wl_format("reusable global data '%s': %s (index independent of %s); stage it in shared memory",
                           a->name, buf, free_of),
              compare_text(k, f, "global (L1 hit)", "shared"));
}

/* S_6: every access of a shared array uses the same thread-dependent
 * index, so each thread reads back only what it wrote itself. */
void check_s6_private_staging(kernel_ctx *k, array_info *a) {
  int ai = (int)(a - k->arrays);
  const access_info *first = NULL, *first_read = NULL;
  for (int i = 0; i < k->access_count; i++) {
    const access_info *x = &k->accesses[i];
    if (x->array != ai || x->merged) continue;
    if (x->off.unknown) return;
    if (!first) first = x;
    else if (!poly_equal(&first->off, &x->off)) {
      a->reusable = a->written && a->read;  /* threads read what others wrote */
      return;
    }
    if (x->read && !x->write && !first_read) first_read = x;
  }
  if (!first || !first_read || !a->written || !poly_uses_atom(&first->off, ATOM_TX)) return;
  for (int d = 1; d < 3; d++)
    if (k->uses_dim[d] && !poly_uses_atom(&first->off, ATOM_TX + d)) return;
  append_pattern(a, "each element read only by its writer");
  wl_finding *f = new_finding(k, "S_6", first_read, a);
  if (!f) return;
  /* the array is what the fix removes: the warning sits on its
   * declaration, a note on the read that shows the staging private */
  if (!clang_Cursor_isNull(a->decl) && a->line > 0) {
    add_note(f, f->line, f->column, wl_strdup("read back here by the thread that wrote the element, and by no other"));
    f->line = a->line;
    f->column = a->column;
  }
  add_metric(k, f, "latency.shared");
  add_metric(k, f, "latency.register");
  set_message(f, wl_format("each element of shared '%s' is read only by the thread that wrote it: the "
                           "staging is pure overhead; keep the value in a register", a->name),
              compare_text(k, f, "shared", "register"));
}

/* S_4 at a launch: its block b; with bound, b is only the most the
 * kernel's __launch_bounds__ allows, so only "fewer than 128" is sure. */
/* Reported at the launch's <<< (a launch written over two lines,
 * `kernel<double>` above `<<<grid, threads>>>`, is the block's line). */
void check_s4_launch(file_ctx *fc, CXCursor callee, CXCursor config, const long long *b, unsigned branch_line,
                     bool bound) {
  long long threads = b[0] * b[1] * b[2];
  if (threads <= 0 || threads > 1024) return;  /* not a valid launch: not ours to judge */
  if (threads >= 128 && (threads % 32 == 0 || bound)) return;
  CXFile file;
  clang_getExpansionLocation(clang_getCursorLocation(config), &file, NULL, NULL, NULL);
  wl_file_result *r = result_for_file(fc, file);
  unsigned line, column;
  location_of(config, &line, &column);
  /* One macro line may launch several instantiations (a dispatch over
   * element types): one finding is enough. */
  for (size_t i = 0; i < r->finding_count; i++)
    if (strcmp(r->findings[i].rule, "S_4") == 0 && r->findings[i].line == line && r->findings[i].column == column)
      return;
  GROW(r->findings, r->finding_count, r->finding_cap);
  wl_finding *f = &r->findings[r->finding_count++];
  memset(f, 0, sizeof *f);
  snprintf(f->rule, sizeof f->rule, "S_4");
  f->severity = "warning";
  f->line = line;
  f->column = column;
  f->kernel = cx_take(clang_getCursorSpelling(clang_getCursorReferenced(callee)));
  f->space = "launch";
  wl_metric_lookup(fc->opt, "warp.shared.distinct_32", &f->metrics[f->metric_count++]);
  char evidence[200];
  char metric[160];
  wl_metric_text(fc->opt, &f->metrics[0], "one warp's 32-lane shared request", metric, sizeof metric);
  snprintf(evidence, sizeof evidence, "measured on %s: %s",
           fc->opt->profile_short ? fc->opt->profile_short : "no profile", metric);
  char shape[96];
  if (bound) snprintf(shape, sizeof shape, "block of at most %lld thread%s (the kernel's __launch_bounds__)", threads,
                     threads == 1 ? "" : "s");
  else if (branch_line) snprintf(shape, sizeof shape, "block of %lld thread%s (unless the branch at line %u sets another)",
                                 threads, threads == 1 ? "" : "s", branch_line);
  else snprintf(shape, sizeof shape, "block of %lld thread%s", threads, threads == 1 ? "" : "s");
  f->message = threads % 32 && !bound
      ? wl_format("%s is not a multiple of the 32-thread warp: the last warp runs partly empty; %s", shape, evidence)
      : wl_format("%s is smaller than 128: too few warps per block to hide latency; %s", shape, evidence);
}


/* Global-memory checks (rule family G_): how one warp request maps onto
 * 32-byte sectors. G_3: lanes not on consecutive elements (strides, arrays
 * of structs, irregular patterns); G_2: 1- and 2-byte elements. The access
 * patterns of global arrays in the inventory are described here too. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

static void describe_global(array_info *a, const access_info *x) {
  const lane_model *m = &x->lanes;
  if (lanes_consecutive(m, x->width)) append_pattern(a, "consecutive");
  if (m->kind == LANE_UNIFORM) append_pattern(a, "broadcast");
  if (m->kind == LANE_UNKNOWN && x->data_dependent && x->off.lane_varying)
    append_pattern(a, "gather (index loaded from memory)");
}

/* Whether a warp's lanes are cut into rows by a block whose width is no
 * multiple of 32 (lanes_strided's row_sectors). */
static bool rows_of_narrow_block(const kernel_ctx *k, const lane_model *m) {
  return m->kind == LANE_SYMBOLIC && m->stride_const && k->block_known && k->block[0] % 32 != 0;
}

/* "consecutive lanes are 3 elements apart", or for a field of a struct
 * "consecutive lanes read 4-byte fields 12 bytes apart (an array of
 * structs)"; the pattern for the inventory in pattern. */
static char *stride_text(const kernel_ctx *k, const access_info *x, const array_info *a, char *pattern, size_t size) {
  const lane_model *m = &x->lanes;
  if (rows_of_narrow_block(k, m)) {
    long long bx = k->block[0];
    snprintf(pattern, size, "rows of a %lld-wide block", bx);
    char along[64];
    if (m->stride_value == x->width) snprintf(along, sizeof along, "consecutive elements");
    else snprintf(along, sizeof along, "%lld bytes apart", llabs(m->stride_value));
    return wl_format("the block is %lld threads wide, so a warp spans rows of it: runs of %lld lanes on %s, each "
                     "row's run in sectors of its own", bx, bx < 32 ? bx : 32, along);
  }
  if (lanes_irregular(m)) {
    snprintf(pattern, size, "irregular lane offsets");
    return wl_strdup("the lanes' offsets follow no single stride");
  }
  bool field = x->width < a->elem_size;
  if (m->probed) {                        /* the probe's sizes, not the code's */
    snprintf(pattern, size, "stride of a run-time size");
    return wl_strdup("consecutive lanes are a run-time size apart");
  }
  if (m->kind == LANE_CONCRETE || m->stride_const) {
    if (field) {
      snprintf(pattern, size, "fields %lld bytes apart (array of structs)", m->stride_value);
      return wl_format("consecutive lanes %s %lld-byte fields %lld bytes apart (an array of structs)",
                       x->write && !x->read ? "write" : "read", x->width, m->stride_value);
    }
    snprintf(pattern, size, "stride %lld", m->stride_value / x->width);
    return wl_format("consecutive lanes are %lld elements apart", m->stride_value / x->width);
  }
  /* symbolic: the stride in elements where every coefficient divides */
  poly s = m->stride;
  bool whole = true;
  for (int i = 0; i < s.count; i++) {
    whole = whole && s.terms[i].coef % x->width == 0;
    s.terms[i].coef /= x->width;
  }
  char text[120];
  poly_text(k, whole ? &s : &m->stride, text, sizeof text);
  snprintf(pattern, size, "stride %s%s", text, whole ? "" : " bytes");
  return wl_format("consecutive lanes are %s %s apart", text, whole ? "elements" : "bytes");
}

/* A lane stride that is a parameter which may be 1 (a contiguous
 * tensor's innermost stride) is no finding by itself: a note says on what
 * the access depends. */
static void unit_stride_note(kernel_ctx *k, access_info *x, array_info *a, int parameter) {
  wl_finding *f = new_finding(k, "G_3", x, a);
  if (!f) return;
  add_metric(k, f, "pattern.global.strided");
  add_metric(k, f, "pattern.global.aligned");
  f->severity = "note";
  const char *p = k->atoms[parameter].name;
  set_message(f, wl_format("consecutive lanes of '%s' are '%s' elements apart: coalesced only if '%s' == 1 "
                           "(the innermost stride of a contiguous tensor); otherwise %d sectors per request "
                           "instead of %d", a->name, p, p, active_lanes(x->lanes.active),
                           ideal_sectors(&x->lanes, x->width)),
              compare_text(k, f, "strided", "aligned"));
}

/* A transpose: as deep in loops, another global array of x's width (4 or
 * 8 bytes) is accessed the other way (read where x writes, written where x
 * reads) along the lanes. No mapping of threadIdx.x makes both consecutive;
 * a shared-memory tile does. Returns that access, or NULL. */
static const access_info *transpose_partner(const kernel_ctx *k, const access_info *x) {
  if ((x->width != 4 && x->width != 8) || x->width < k->arrays[x->array].elem_size ||
      (x->lanes.kind == LANE_CONCRETE && lanes_irregular(&x->lanes)))
    return NULL;
  for (int i = 0; i < k->access_count; i++) {
    const access_info *y = &k->accesses[i];
    if (y->merged || y->array == x->array || k->arrays[y->array].space != SP_GLOBAL || y->width != x->width ||
        (x->write ? !y->read || y->write : !y->write || y->read) || y->loop_count != x->loop_count ||
        !lanes_consecutive(&y->lanes, y->width))
      continue;
    return y;
  }
  return NULL;
}

/* Each lane walks its own span from a start it loads (a hash over its own
 * key, a CSR row per thread): at each step the lanes are as far apart as
 * their spans. */
static void lane_walk(kernel_ctx *k, access_info *x, array_info *a) {
  append_pattern(a, "each lane walks its own span");
  wl_finding *f = new_finding(k, "G_3", x, a);
  if (!f) return;
  add_metric(k, f, "pattern.global.strided");
  add_metric(k, f, "pattern.global.aligned");
  set_message(f, wl_format("non-consecutive global access to '%s': each lane walks its own span from a start it "
                           "loads, so at each step the lanes are as far apart as their spans: up to %d sectors per "
                           "warp request instead of %d", a->name, active_lanes(x->lanes.active),
                           ideal_sectors(&x->lanes, x->width)),
              compare_text(k, f, "strided", "aligned"));
  add_note(f, x->line, x->column,
           wl_strdup("let the lanes of a warp walk one span together (lane l reads the span's element l, a warp "
                     "per key or row), or store the spans interleaved, element j of every span side by side (G_3)"));
}

/* Lanes apart through a per-lane value the kernel loads or counts (an
 * atomic's result, a rank): added to a stride of the lanes' own (n1 * MN +
 * atomicAdd(..)), or scaled by one (N * rank + bid), where lanes whose
 * values differ are that far apart. Whatever the values, the lanes cannot
 * be consecutive unless they cancel the stride or all agree. */
static void data_strided(kernel_ctx *k, access_info *x, array_info *a) {
  const lane_model *m = &x->data_free;
  int got, ideal;
  if (!lanes_strided(k, m, x->width, &got, &ideal)) return;
  char apart[64];
  if (m->probed) snprintf(apart, sizeof apart, "a run-time size");
  else if (m->stride_const && !lanes_irregular(m) && m->stride_value % x->width == 0)
    snprintf(apart, sizeof apart, "%lld elements", llabs(m->stride_value / x->width));
  else snprintf(apart, sizeof apart, "several elements");
  append_pattern(a, x->data_scaled ? "a loaded per-lane value scaled" : "stride plus a loaded per-lane value");
  wl_finding *f = new_finding(k, "G_3", x, a);
  if (!f) return;
  add_metric(k, f, "pattern.global.strided");
  add_metric(k, f, "pattern.global.aligned");
  char *head = x->data_scaled
      ? wl_format("non-consecutive global access to '%s': the index scales a per-lane value the kernel loads or "
                  "counts by %s, so lanes whose values differ are that far apart: up to %d sectors per warp "
                  "request instead of %d", a->name, apart, active_lanes(m->active), ideal_sectors(m, x->width))
      : wl_format("non-consecutive global access to '%s': consecutive lanes are %s apart before a per-lane value "
                  "the kernel loads or counts is added, up to %d sectors per warp request instead of %d", a->name,
                  apart, active_lanes(m->active), ideal_sectors(m, x->width));
  set_message(f, head, compare_text(k, f, "strided", "aligned"));
  add_note(f, x->line, x->column,
           wl_strdup(x->data_scaled
                         ? "let the lanes of a warp share one value and walk its span together (lane l on element "
                           "l of it), or lay the array out so that the lanes' own index is the fastest-varying "
                           "one (G_3)"
                         : "lay the array out so that the lanes' own index is the fastest-varying one (element j "
                           "of every lane's span side by side), so that consecutive lanes land on consecutive "
                           "elements (G_3)"));
}

void check_g3_strided(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  describe_global(a, x);
  if (x->lane_walk) { lane_walk(k, x, a); return; }
  if (x->lanes.kind == LANE_UNKNOWN && x->data_free.kind == LANE_CONCRETE) { data_strided(k, x, a); return; }
  int got, ideal;
  if (!lanes_strided(k, &x->lanes, x->width, &got, &ideal)) return;
  int parameter = unit_stride_parameter(k, &x->lanes, x->width);
  if (parameter >= 0) { unit_stride_note(k, x, a, parameter); return; }
  char pattern[160];
  char *how = stride_text(k, x, a, pattern, sizeof pattern);
  append_pattern(a, pattern);
  wl_finding *f = new_finding(k, "G_3", x, a);
  if (!f) { free(how); return; }
  add_metric(k, f, "pattern.global.strided");
  add_metric(k, f, "pattern.global.aligned");
  char *head = got > 0
      ? wl_format("non-consecutive global access to '%s': %s, %d sectors per warp request instead of %d", a->name,
                  how, got, ideal)
      : wl_format("non-consecutive global access to '%s': %s, up to %d sectors per warp request instead of %d",
                  a->name, how, active_lanes(x->lanes.active), ideal_sectors(&x->lanes, x->width));
  free(how);
  set_message(f, head, compare_text(k, f, "strided", "aligned"));
  lane_model consecutive = x->lanes;      /* the fix: lane l on element l */
  consecutive.kind = LANE_CONCRETE;
  if (!consecutive.active) consecutive.active = 0xffffffffu;
  for (int l = 0; l < 32; l++) consecutive.offset[l] = l * x->width;
  warp_picture(&f->fixed, &consecutive, x->width);
  const access_info *other = transpose_partner(k, x);
  if (other) {
    const char *type = a->elem_type && *a->elem_type ? a->elem_type : "float";
    add_note(f, x->line, x->column,
             wl_format("a transpose: '%s' (line %u) is %s along the lanes and '%s' %s across them, and no mapping of "
                       "threadIdx.x makes both consecutive. Stage a 32 x 32 tile in shared memory, "
                       "'__shared__ %s tile[32][33]': read '%s' into its rows and write '%s' from its columns after "
                       "__syncthreads(), both along the lanes (G_3); shared memory needs no consecutive access (S_3), "
                       "and the 33rd column keeps the column accesses free of bank conflicts (S_1)",
                       k->arrays[other->array].name, other->line, other->read ? "read" : "written", a->name,
                       x->write ? "written" : "read", type, x->write ? k->arrays[other->array].name : a->name,
                       x->write ? a->name : k->arrays[other->array].name));
    return;
  }
  if (rows_of_narrow_block(k, &x->lanes)) {
    add_note(f, x->line, x->column,
             wl_format("make the block's x extent a multiple of 32 (dim3(32, ...) instead of dim3(%lld, ...)), so "
                       "that each warp %s one row's consecutive elements (G_3, G_4)",
                       k->block[0], x->write && !x->read ? "writes" : "reads"));
    return;
  }
  add_note(f, x->line, x->column, x->width < a->elem_size
               ? wl_strdup("store each field in an array of its own (a structure of arrays), so that consecutive "
                           "lanes read consecutive elements (G_3)")
               : wl_strdup("map threadIdx.x to the fastest-varying index (G_3); G_4: tune the block's shape if "
                           "the pattern must stay"));
}

void check_g2_narrow(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  const lane_model *m = &x->lanes;
  /* symbolic models too (y * w + x in a 2-D block walks bytes along x),
   * for whole elements of a known type: a field's width can be a guess
   * where a header was not found; and lanes in runs of consecutive
   * elements (rows of 8 threads) */
  if ((x->width != 1 && x->width != 2) || a->size_assumed || x->size_assumed ||
      !(lanes_contiguous(m, x->width) || lanes_in_runs(m, x->width)))
    return;
  if (m->kind != LANE_CONCRETE && a->elem_size != x->width) return;
  wl_finding *f = new_finding(k, "G_2", x, a);
  if (!f) return;
  bool byte = x->width == 1;
  add_metric(k, f, byte ? "bandwidth.type.char" : "bandwidth.type.short");
  add_metric(k, f, byte ? "bandwidth.type.char4" : "bandwidth.type.int");
  set_message(f, wl_format("%lld-byte elements of '%s' accessed by consecutive lanes: pack %s into %s",
                           x->width, a->name, byte ? "four" : "two", byte ? "char4" : "a 4-byte type"),
              compare_text(k, f, byte ? "char" : "short", byte ? "char4" : "int"));
}

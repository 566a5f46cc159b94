/* Global-memory checks (rule family G_): how one warp request maps onto
 * 32-byte sectors. G_3: non-consecutive lanes; G_2: 1- and 2-byte elements.
 * The access patterns of global arrays in the inventory are described here
 * too. */
#include "analysis.h"

#include <string.h>

static void describe_global(array_info *a, const access_info *x, const lane_model *m) {
  if (lanes_consecutive(m)) append_pattern(a, "consecutive");
  if (m->kind == LANE_UNIFORM) append_pattern(a, "broadcast");
  if (m->kind == LANE_UNKNOWN && x->off.data_dependent) append_pattern(a, "gather (index loaded from memory)");
}

void check_g3_strided(kernel_ctx *k, access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  describe_global(a, x, m);
  int got, ideal;
  if (!lanes_strided(m, a->elem_size, &got, &ideal)) return;
  char stride[200];
  if (lanes_irregular(m)) {
    snprintf(stride, sizeof stride, "irregular lane offsets");
  } else if (m->kind == LANE_CONCRETE) {
    snprintf(stride, sizeof stride, "stride %lld", m->stride_value);
  } else {
    char s[120];
    poly_text(k, &m->stride, s, sizeof s);
    snprintf(stride, sizeof stride, "stride %s", s);
  }
  append_pattern(a, stride);
  wl_finding *f = new_finding(k, "G_3", x, a);
  if (!f) return;
  add_metric(k, f, "pattern.global.strided");
  add_metric(k, f, "pattern.global.aligned");
  char *head = lanes_irregular(m)
      ? wl_format("non-consecutive global access to '%s': the lanes' offsets follow no single stride, "
                  "%d sectors per warp request instead of %d", a->name, got, ideal)
      : m->kind == LANE_CONCRETE
      ? wl_format("non-consecutive global access to '%s': consecutive lanes are %lld elements apart, "
                  "%d sectors per warp request instead of %d", a->name, m->stride_value, got, ideal)
      : wl_format("non-consecutive global access to '%s': consecutive lanes are %s elements apart, "
                  "up to 32 sectors per warp request instead of %d", a->name, stride + 7, ideal);
  set_message(f, head, compare_text(k, f, "strided", "aligned"));
  add_note(f, x->line, x->column, wl_strdup("map threadIdx.x to the fastest-varying index (G_3); "
                                            "G_4: tune the block's shape if the pattern must stay"));
}

void check_g2_narrow(kernel_ctx *k, access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  if ((a->elem_size != 1 && a->elem_size != 2) || m->kind != LANE_CONCRETE || !m->stride_const ||
      m->stride_value != 1)
    return;
  wl_finding *f = new_finding(k, "G_2", x, a);
  if (!f) return;
  bool byte = a->elem_size == 1;
  add_metric(k, f, byte ? "bandwidth.type.char" : "bandwidth.type.short");
  add_metric(k, f, byte ? "bandwidth.type.char4" : "bandwidth.type.int");
  set_message(f, wl_format("%lld-byte elements of '%s' accessed by consecutive lanes: pack %s into %s",
                           a->elem_size, a->name, byte ? "four" : "two", byte ? "char4" : "a 4-byte type"),
              compare_text(k, f, byte ? "char" : "short", byte ? "char4" : "int"));
}

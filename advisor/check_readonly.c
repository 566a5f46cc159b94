/* Read-only / texture checks (rule family T_). T_4: read-only data read
 * non-consecutively (or gathered) on the plain global path. */
#include "analysis.h"

#include <string.h>

/* const float *__restrict__ name, for the T_4 fix-it on the parameter;
 * none for a pointer to rows (double in[][N][N]), whose spelling that
 * would not keep. */
static void restrict_fix(wl_finding *f, const array_info *a) {
  if (f->fix_count >= 2 || a->ndim > 1) return;
  CXSourceRange range = clang_getCursorExtent(a->decl);
  unsigned begin_line, begin_col, begin_off, end_off;
  clang_getExpansionLocation(clang_getRangeStart(range), NULL, &begin_line, &begin_col, &begin_off);
  clang_getExpansionLocation(clang_getRangeEnd(range), NULL, NULL, NULL, &end_off);
  if (end_off <= begin_off) return;
  wl_fix *fix = &f->fixes[f->fix_count++];
  fix->line = begin_line;
  fix->column = begin_col;
  fix->length = end_off - begin_off;
  fix->replacement = wl_format("const %s *__restrict__ %s", a->elem_type, a->name);
  add_note(f, begin_line, begin_col,
           wl_format("declare '%s' as 'const %s *__restrict__' so loads take the read-only path (T_4)",
                     a->name, a->elem_type));
}

void check_t4_readonly_path(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  /* a __restrict__ parameter the kernel never writes is on the read-only
   * path already, const or not: nvcc loads it with ld.global.nc */
  if (!x->read || x->ldg || !is_read_only(a) || !a->is_param || a->param_restrict) return;
  int got, ideal;
  bool gather = x->lanes.kind == LANE_UNKNOWN && x->data_dependent && x->off.lane_varying;
  if (!gather && (!lanes_strided(k, &x->lanes, x->width, &got, &ideal) ||
                  unit_stride_parameter(k, &x->lanes, x->width) >= 0))
    return;
  wl_finding *t = new_finding(k, "T_4", x, a);
  if (!t) return;
  add_metric(k, t, "pattern.global.strided");
  add_metric(k, t, "pattern.global_nc.strided");
  set_message(t, gather ? wl_format("read-only '%s' is gathered through an index loaded from memory, on the "
                                    "plain global path", a->name)
                        : wl_format("read-only '%s' is read non-consecutively through the plain global path",
                                    a->name),
              compare_text(k, t, "global strided", "read-only path strided"));
  restrict_fix(t, a);
  t->fixed = t->warp;                     /* the same addresses, on the read-only path */
}

/* Local-memory checks (rule family L_): private arrays that cannot stay in
 * registers: too large (L_1), indexed by a value not known after unrolling
 * (L_2), or sorted in place (L_3). */
#include "analysis.h"

#include <string.h>

/* Whether an index is a constant once the compiler has fully unrolled the
 * loops: literals, template parameters, induction variables of loops with
 * compile-time bounds, and any arithmetic (even % and /) on them. */
static bool unroll_known(kernel_ctx *k, CXCursor c, int depth) {
  long long v;
  if (depth > 24) return false;
  if (const_value(c, &v)) return true;
  c = strip(c);
  switch (clang_getCursorKind(c)) {
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) return true;
    int i = find_var(k, d);
    if (i < 0 || k->vars[i].writes != 0) return false;
    if (k->vars[i].loop_atom >= 0) return k->atoms[k->vars[i].loop_atom].const_trip;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    return !clang_Cursor_isNull(init) && unroll_known(k, init, depth + 1);
  }
  case CXCursor_BinaryOperator:
  case CXCursor_UnaryOperator:
  case CXCursor_ConditionalOperator: {
    child_list l = children(c);
    if (l.n == 0) return false;
    for (int i = 0; i < l.n; i++)
      if (!unroll_known(k, l.c[i], depth + 1)) return false;
    return true;
  }
  default:
    return false;
  }
}

static bool access_unroll_known(kernel_ctx *k, const access_info *x) {
  for (int d = 0; d < x->nidx; d++)
    if (!unroll_known(k, x->index[d], 0)) return false;
  return true;
}

/* L_3: elements of a private array compared with each other and moved
 * within it (a sort or swap); reported once, at the first comparison. */
void check_l3_local_sort(kernel_ctx *k, access_info *x, const lane_model *m) {
  (void)m;
  array_info *a = &k->arrays[x->array];
  char key[96];
  if (!a->swapped || !a->compared || x->line != a->compare_line || x->column != a->compare_column) return;
  wl_finding *f = new_finding(k, "L_3", x, a);
  if (!f) return;
  snprintf(key, sizeof key, "local_array.max_registers.sort.%s", k->opt->arch);
  add_metric(k, f, key);
  add_metric(k, f, "local_array.slowdown");
  set_message(f, wl_format("elements of private array '%s' are moved within it (a sort or swap): the array "
                           "goes to local memory", a->name),
              compare_text(k, f, "largest register-resident sorted array", "local/register time"));
  add_note(f, a->line, a->column, wl_strdup("use a simpler equivalent operation that needs no sort, as the "
                                            "paper replaces the median filter with a mean filter (L_3)"));
}

/* L_2: a private array indexed by a value not known after full unrolling.
 * An array that is sorted in place is L_3's, not L_2's. */
void check_l2_local_dynamic_index(kernel_ctx *k, access_info *x, const lane_model *m) {
  (void)m;
  array_info *a = &k->arrays[x->array];
  char arch_key[96];
  if ((a->swapped && a->compared) || access_unroll_known(k, x)) return;
  wl_finding *f = new_finding(k, "L_2", x, a);
  if (!f) return;
  snprintf(arch_key, sizeof arch_key, "local_array.max_registers.matmul.%s", k->opt->arch);
  add_metric(k, f, arch_key);
  add_metric(k, f, "local_array.slowdown");
  set_message(f, wl_format("private array '%s' is indexed by a value not known after full unrolling%s: "
                           "it cannot stay in registers", a->name,
                           x->off.data_dependent ? " (data-dependent)" : ""),
              compare_text(k, f, "largest register-resident array", "local/register time"));
}

/* L_1: a private array with more elements than the profile measured staying
 * in registers (silent when the profile lacks the key). */
void check_l1_local_size(kernel_ctx *k, array_info *a) {
  char key[96];
  snprintf(key, sizeof key, "local_array.max_registers.vecadd.%s", k->opt->arch);
  wl_metric limit;
  wl_metric_lookup(k->opt, key, &limit);
  long long elements = a->elements;
  if (!limit.present || elements <= (long long)limit.value) return;
  access_info at = {.line = a->line, .column = a->column};
  wl_finding *f = new_finding(k, "L_1", &at, a);
  if (!f) return;
  add_metric(k, f, key);
  add_metric(k, f, "local_array.slowdown");
  set_message(f, wl_format("private array '%s' has %lld elements, more than stay in registers", a->name, elements),
              compare_text(k, f, "register-resident limit", "local/register time"));
}


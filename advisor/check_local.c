/* Local-memory checks (rule family L_): private arrays that cannot stay in
 * registers: too large (L_1), indexed by a value not known after unrolling
 * (L_2), or sorted in place (L_3). */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* L_3: elements of a private array compared with each other and moved
 * within it (a sort or swap); reported once, at the first comparison. */
void check_l3_local_sort(kernel_ctx *k, access_info *x) {
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
void check_l2_local_dynamic_index(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  char arch_key[96];
  if ((a->swapped && a->compared) || x->unroll_known) return;
  wl_finding *f = new_finding(k, "L_2", x, a);
  if (!f) return;
  snprintf(arch_key, sizeof arch_key, "local_array.max_registers.matmul.%s", k->opt->arch);
  add_metric(k, f, arch_key);
  add_metric(k, f, "local_array.slowdown");
  set_message(f, wl_format("private array '%s' is indexed by a value not known after full unrolling%s: "
                           "it cannot stay in registers", a->name,
                           x->data_dependent ? " (data-dependent)" : ""),
              compare_text(k, f, "largest register-resident array", "local/register time"));
}

/* L_1: a private array that needs more 32-bit registers than the profile
 * measured staying in registers. The limit is in elements of the
 * benchmark's float arrays (benchmarks/local_array), one register each; a
 * double or a float2 takes two, a float4 four, while a char or short still
 * takes a whole one (the compiler keeps each element in its own register).
 * Silent when the profile lacks the key. */
void check_l1_local_size(kernel_ctx *k, array_info *a) {
  char key[96];
  snprintf(key, sizeof key, "local_array.max_registers.vecadd.%s", k->opt->arch);
  wl_metric limit;
  wl_metric_lookup(k->opt, key, &limit);
  long long elements = a->elements, words = a->elem_size > 4 ? (a->elem_size + 3) / 4 : 1;
  if (!limit.present || elements * words <= (long long)limit.value) return;
  access_info at = {.line = a->line, .column = a->column};
  wl_finding *f = new_finding(k, "L_1", &at, a);
  if (!f) return;
  add_metric(k, f, key);
  add_metric(k, f, "local_array.slowdown");
  char *size = words > 1 ? wl_format(" of %lld bytes (%lld registers)", a->elem_size, elements * words)
                         : wl_strdup("");
  set_message(f, wl_format("private array '%s' has %lld elements%s, more than stay in registers", a->name,
                           elements, size),
              compare_text(k, f, "register-resident limit", "local/register time"));
  free(size);
}

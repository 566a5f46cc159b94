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

/* The 32-bit registers an element of a private array takes: a double or
 * a float2 two, a float4 four, a char or short still a whole one (the
 * compiler keeps each element in its own register). */
static long long register_words(const array_info *a) {
  return a->elem_size > 4 ? (a->elem_size + 3) / 4 : 1;
}

/* Whether the array needs more registers than the profile measured
 * staying in registers (with the limit in *limit when given). */
static bool beyond_register_limit(kernel_ctx *k, const array_info *a, char *key, size_t key_size, wl_metric *limit) {
  snprintf(key, key_size, "local_array.max_registers.vecadd.%s", k->opt->arch);
  wl_metric_lookup(k->opt, key, limit);
  return limit->present && a->elements * register_words(a) > (long long)limit->value;
}

/* An offset made of constants and counters of loops with constant trip
 * counts: known once those loops are unrolled, however long they are. */
static bool only_constant_trip_counters(const kernel_ctx *k, const poly *off) {
  if (off->unknown) return false;
  for (int atom = ATOM_FIRST_SYMBOL; atom < k->atom_count; atom++)
    if (poly_uses_atom(off, atom) && (k->atoms[atom].kind != ATOMK_LOOP || !k->atoms[atom].const_trip)) return false;
  return true;
}

/* L_2: a private array indexed by a value not known after full unrolling.
 * An array that is sorted in place is L_3's, not L_2's. One too large for
 * registers (L_1's) is in local memory whatever its index: a loop of a
 * constant 137 turns over it is L_1's, which no index can fix; a run-time
 * index into it is still L_2's. */
void check_l2_local_dynamic_index(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  char arch_key[96];
  if ((a->swapped && a->compared) || x->unroll_known) return;
  char l1_key[96];
  wl_metric limit;
  if (beyond_register_limit(k, a, l1_key, sizeof l1_key, &limit) && only_constant_trip_counters(k, &x->off)) return;
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
 * benchmark's float arrays (benchmarks/local_array), one register each
 * (register_words). Silent when the profile lacks the key. */
void check_l1_local_size(kernel_ctx *k, array_info *a) {
  char key[96];
  wl_metric limit;
  if (!beyond_register_limit(k, a, key, sizeof key, &limit)) return;
  access_info at = {.line = a->line, .column = a->column};
  wl_finding *f = new_finding(k, "L_1", &at, a);
  if (!f) return;
  add_metric(k, f, key);
  add_metric(k, f, "local_array.slowdown");
  long long elements = a->elements, words = register_words(a);
  char *size = words > 1 ? wl_format(" of %lld bytes (%lld registers)", a->elem_size, elements * words)
                         : wl_strdup("");
  set_message(f, wl_format("private array '%s' has %lld elements%s, more than stay in registers", a->name,
                           elements, size),
              compare_text(k, f, "register-resident limit", "local/register time"));
  free(size);
}

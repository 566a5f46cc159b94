/* Constant-memory checks (rule family C_): a warp reading several
 * __constant__ addresses at once (C_3), a loop walking constant data with a
 * stride (C_1), and small read-only global data every lane reads alike, which
 * belongs in constant memory (C_2). */
#include "analysis.h"

#include <string.h>

/* Whether the uniform reads of x's array that step as x does in a loop as
 * deep as x's loop number `depth` (the compiler's copies of a loop count
 * alike: its unrolled remainder), all together, read every element of each
 * stride of `step` elements (BLAKE2b's sigma[round][0] .. sigma[round][15]
 * on sixteen lines, a 3 x 3 filter's three taps of a row): the loop then
 * walks the table in order, whatever each read does. The reads are told
 * apart by the constants of their offsets (the rest, a row chosen the same
 * way, is taken as theirs alike). */
static bool stride_covered(const kernel_ctx *k, const access_info *x, int depth, long long step) {
  const array_info *a = &k->arrays[x->array];
  long long n = step < 0 ? -step : step;
  bool seen[64] = {0};
  if (n > 64) return false;
  for (int i = 0; i < k->access_count; i++) {
    const access_info *y = &k->accesses[i];
    if (y->array != x->array || y->lanes.kind != LANE_UNIFORM || y->off.unknown || y->loop_count != x->loop_count ||
        y->loops[depth] < 0)
      continue;
    poly c;
    long long y_step, at;
    poly_coefficient(&y->off, y->loops[depth], &c);
    poly_split_constant(&y->off, &at);
    if (!poly_is_const(&c, &y_step) || y_step != step * a->elem_size || at % a->elem_size != 0) continue;
    for (long long e = 0; e < y->width / a->elem_size && e < n; e++) seen[((at / a->elem_size + e) % n + n) % n] = true;
  }
  for (long long r = 0; r < n; r++)
    if (!seen[r]) return false;
  return true;
}

/* C_1: a warp-uniform __constant__ read whose index moves by more than one
 * element per iteration of an enclosing loop, where the loop's other reads
 * do not fill the elements between. */
void check_c1_constant_stride(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  if (x->lanes.kind != LANE_UNIFORM) return;
  append_pattern(a, "broadcast (C_2)");
  for (int i = x->loop_count - 1; i >= 0; i--) {
    if (x->loops[i] < 0) continue;
    poly c;
    long long step;
    poly_coefficient(&x->off, x->loops[i], &c);
    /* in whole elements of the array: a loop over an array of structs
     * (k[m].x, k[m].y...) walks consecutive elements, whichever field */
    if (!poly_is_const(&c, &step) || a->elem_size <= 0 || step % a->elem_size != 0) return;
    step /= a->elem_size;
    if ((step >= -1 && step <= 1) || stride_covered(k, x, i, step)) return;
    wl_finding *f = new_finding(k, "C_1", x, a);
    if (!f) return;
    add_metric(k, f, "warp.constant.distinct_1");
    add_metric(k, f, "latency.constant");
    set_message(f, wl_format("the loop over '%s' walks constant memory with a stride of %lld elements; "
                             "reorganise the data so consecutive iterations read consecutive elements",
                             k->atoms[x->loops[i]].name, step),
                compare_text(k, f, "broadcast", "latency"));
    return;
  }
}

/* Where the first warp's lanes agree on the index, the most distinct
 * addresses another warp of the block reads, and that warp: a block 9 x 9
 * x 9 whose warps straddle two z slices (threadIdx.z changes inside lanes
 * 64-95, the third warp). */
static int straddling_distinct(const kernel_ctx *k, const access_info *x, int *warp) {
  if (x->off.unknown || !k->block_known) return 0;
  poly lanes, rest;
  lane_split(k, &x->off, &lanes, &rest);
  if (lanes.count == 0) return 0;
  long long threads = k->block[0] * k->block[1] * k->block[2];
  int most = 0;
  for (int w = 0; w < k->warps && w < MAX_WARPS; w++) {
    lane_vals v;
    if (!poly_lanes(k, &lanes, w, &v) || v.shifted) continue;
    unsigned in_block = 32LL * (w + 1) <= threads ? 0xffffffffu : (1u << (threads - 32LL * w)) - 1;
    int distinct = count_distinct_active(v.v, in_block);
    if (distinct > most) most = distinct, *warp = w;
  }
  return most;
}

/* A C_3 finding priced for `distinct` addresses per warp request, with
 * its pattern noted and its message (taken). */
static wl_finding *c3_report(kernel_ctx *k, access_info *x, array_info *a, int distinct, const char *pattern,
                             char *message) {
  append_pattern(a, pattern);
  wl_finding *f = new_finding(k, "C_3", x, a);
  if (!f) { free(message); return NULL; }
  char key[64], label[48];
  snprintf(key, sizeof key, "warp.constant.distinct_%d", pow2_at_least(distinct));
  add_metric(k, f, key);
  add_metric(k, f, "warp.constant.distinct_1");
  snprintf(label, sizeof label, "%d distinct", pow2_at_least(distinct));
  set_message(f, message, compare_text(k, f, label, "broadcast"));
  return f;
}

/* C_3: __constant__ indexed by a lane-varying expression: by threadIdx
 * (the distinct addresses counted), or by a value each lane loads for
 * itself (up to one address per active lane). */
void check_c3_constant_divergent(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  const lane_model *m = &x->lanes;
  char label[48];
  bool loaded = m->kind == LANE_UNKNOWN && x->data_dependent && x->off.lane_varying;
  int warp = 0, straddling = m->kind == LANE_UNIFORM ? straddling_distinct(k, x, &warp) : 0;
  if (straddling >= 2) {
    snprintf(label, sizeof label, "%d distinct addresses in some warps", straddling);
    c3_report(k, x, a, straddling, label,
              wl_format("__constant__ '%s' indexed by a thread index that changes inside warps of the %lld x %lld x "
                        "%lld block (warp %d reads %d distinct addresses, served one after another)",
                        a->name, k->block[0], k->block[1], k->block[2], warp, straddling));
    return;
  }
  if (m->kind != LANE_CONCRETE && m->kind != LANE_SYMBOLIC && !loaded) return;
  int distinct = m->kind == LANE_CONCRETE ? count_distinct_active(m->offset, m->active) : active_lanes(m->active);
  if (distinct < 2) return;
  snprintf(label, sizeof label, "%s%d distinct addresses", loaded ? "up to " : "", distinct);
  wl_finding *f = c3_report(k, x, a, distinct, label, loaded
                  ? wl_format("__constant__ '%s' indexed by a value each lane loads for itself: up to %d distinct "
                              "addresses per warp are served one after another", a->name, distinct)
                  : wl_format("__constant__ '%s' indexed by a lane-varying expression: %d distinct addresses per "
                              "warp are served one after another", a->name, distinct));
  if (!f) return;
  if (loaded) return;                     /* the drawing needs concrete lanes */
  lane_model broadcast = *m;              /* the fix: every lane on one address */
  broadcast.kind = LANE_UNIFORM;
  for (int l = 0; l < 32; l++) broadcast.offset[l] = 0;
  warp_picture(&f->fixed, &broadcast, x->width);
}

/* Whether p holds an index loaded anew on each turn of a loop (x[list[k]]):
 * it may pick any element of the array, not a small table's. */
static bool uses_index_loaded_each_turn(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].loaded && k->atoms[a].loop_carried && poly_uses_atom(p, a)) return true;
  return false;
}

/* The bytes __constant__ memory holds, all of a program's together (64 KB
 * on every architecture since sm_20: the CUDA C++ Programming Guide's
 * table of technical specifications). */
#define CONSTANT_MEMORY_BYTES 65536

/* Whether the data is known to be more than constant memory holds: an
 * array of fixed size, or the struct a pointer parameter points to (a
 * cabling map of 57,600-entry tables: its fields are what is read). */
static bool larger_than_constant_memory(const array_info *a) {
  if (a->elements > 0 && a->elements * a->elem_size > CONSTANT_MEMORY_BYTES) return true;
  CXType t = clang_getCanonicalType(clang_getCursorType(a->decl));
  if (t.kind != CXType_Pointer) return false;
  CXType pointee = clang_getCanonicalType(clang_getPointeeType(t));
  return pointee.kind == CXType_Record && clang_Type_getSizeOf(pointee) > CONSTANT_MEMORY_BYTES;
}

/* C_2: read-only global data that every lane of the grid reads at the same
 * index in a loop (only loop variables, parameters and constants in it).
 * A constant index counts where the read stays inside a loop: a fully
 * unrolled inner loop's key[48], read again on every turn of the
 * grid-stride loop around it; and where the source reads it on every turn
 * of a loop and the compiler, proving it invariant, hoisted it out (a
 * field of a parameter struct read in a physics kernel's level loop): the
 * source still asks every lane of the grid for one element. An index read
 * from a list each turn (the positions of the atoms a list names) walks
 * data of any size: S_5's. Data known to be larger than constant memory
 * cannot move there. */
void check_c2_uniform_loop_read(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  if (!x->read || x->write || !is_read_only(a) || x->off.unknown ||
      !(uses_loop_atom(k, &x->off) || x->loop_count > 0 || x->hoisted) || uses_index_atoms(k, &x->off) ||
      x->width > 16 ||
      uses_index_loaded_each_turn(k, &x->off) || larger_than_constant_memory(a))
    return;
  /* one active lane (a <<<1, 1>>> debug kernel, an if (tid == 0) loop): no
   * warp to broadcast to, and such loops walk whole data sets */
  if (active_lanes(x->lanes.active) < 2) return;
  append_pattern(a, "same element for the whole grid");
  a->reusable = true;
  wl_finding *f = new_finding(k, "C_2", x, a);
  if (!f) return;
  add_metric(k, f, "warp.global.distinct_1");
  add_metric(k, f, "warp.constant.distinct_1");
  set_message(f, wl_format("every lane reads the same element of read-only '%s' in the loop: "
                           "small read-only data belongs in __constant__ memory", a->name),
              compare_text(k, f, "global broadcast", "constant broadcast"));
}

/* The warp model: the byte offset each of a warp's 32 lanes touches, from
 * the access's polynomial or, where / and % by constants stand in the way,
 * by evaluating the access lane by lane; which lanes a condition leaves
 * active; and what the hardware makes of the active lanes' offsets
 * (32-byte sectors, bank-conflict degree, distinct addresses).
 *
 * Lane-by-lane evaluation follows C integer semantics for the threads of
 * one warp. A value the warp shares but warplint cannot know (blockIdx, a
 * parameter, a loop's progress) is carried as `shifted`: the true value is
 * v[lane] + U with one unknown U for the whole warp. U may be added, or
 * scaled by a constant, since that moves every lane alike; once it meets a
 * lane-varying value in /, %, >>, & or a product, the lanes' pattern itself
 * depends on U and the evaluation gives up. */
#include "analysis.h"

#include <string.h>

/* Far below int64's range, so that sums of a warp's terms cannot
 * overflow; products are checked against it before they are kept (a 4-d
 * tensor's permuted index multiplies four run-time sizes). */
#define LANE_VALUE_LIMIT (1LL << 52)

/* a * b, false when it leaves the lanes' range. */
static bool mul_in_range(long long a, long long b, long long *out) {
  return !__builtin_mul_overflow(a, b, out) && *out <= LANE_VALUE_LIMIT && *out >= -LANE_VALUE_LIMIT;
}

bool is_thread_atom(int a) { return a == ATOM_TX || a == ATOM_TY || a == ATOM_TZ; }

static const thread_quotient *quotient_of(const kernel_ctx *k, int a) {
  if (a < ATOM_FIRST_SYMBOL || a >= k->atom_count || k->atoms[a].kind != ATOMK_QUOTIENT) return NULL;
  return &k->quotients[k->atoms[a].quotient_entry];
}

bool thread_atom(const kernel_ctx *k, int a) { return is_thread_atom(a) || quotient_of(k, a); }

/* threadIdx.y is the same across a warp when blockDim.x is a multiple of
 * 32 (threadIdx.z likewise with blockDim.x * blockDim.y): a 32 x 8 block's
 * warp is one row. */
bool lane_atom(const kernel_ctx *k, int a) {
  if (a == ATOM_TY) return k->block[0] % 32 != 0;
  if (a == ATOM_TZ) return (k->block[0] * k->block[1]) % 32 != 0;
  const thread_quotient *q = quotient_of(k, a);
  return a == ATOM_TX || (q && !q->warp_uniform);
}

static bool is_lane_atom(const void *k, int a) { return lane_atom(k, a); }

void lane_split(const kernel_ctx *k, const poly *p, poly *lane, poly *rest) {
  poly_partition(p, is_lane_atom, k, lane, rest);
}

static bool is_thread_atom_of(const void *k, int a) { return thread_atom(k, a); }

void thread_split(const kernel_ctx *k, const poly *p, poly *thread, poly *rest) {
  poly_partition(p, is_thread_atom_of, k, thread, rest);
}

/* A polynomial of thread atoms in one thread; false if it has another atom. */
static bool thread_value(const kernel_ctx *k, const poly *p, int thread, long long *v) {
  *v = 0;
  for (int i = 0; i < p->count; i++) {
    long long term = p->terms[i].coef, x;
    for (int a = 0; a < p->terms[i].degree; a++) {
      if (!thread_atom_value(k, p->terms[i].atoms[a], thread, &x)) return false;
      term *= x;
    }
    *v += term;
  }
  return true;
}

bool thread_atom_value(const kernel_ctx *k, int a, int thread, long long *v) {
  if (is_thread_atom(a)) {
    long long c[3];
    lane_coords(k, thread, c);
    *v = c[a - ATOM_TX];
    return true;
  }
  const thread_quotient *q = quotient_of(k, a);
  if (!q || !thread_value(k, &q->of, thread, v)) return false;
  *v /= q->divisor;
  return true;
}

int quotient_atom(kernel_ctx *k, const poly *of, long long divisor) {
  if (of->unknown || divisor < 2) return -1;
  for (int i = 0; i < k->quotient_count; i++)
    if (k->quotients[i].divisor == divisor && poly_equal(&k->quotients[i].of, of)) return k->quotients[i].atom;
  /* the thread's value must be known and never negative, so that any
   * division the code wrote (signed, unsigned, a shift) gives this one */
  bool warp_uniform = true;
  for (int w = 0; w < k->warps; w++) {
    long long first = -1;
    for (int l = 0; l < 32; l++) {
      long long v;
      if (!(k->active[w] >> l & 1)) continue;
      if (!thread_value(k, of, 32 * w + l, &v) || v < 0 || v > LANE_VALUE_LIMIT) return -1;
      if (first < 0) first = v / divisor;
      warp_uniform = warp_uniform && v / divisor == first;
    }
  }
  GROW(k->quotients, k->quotient_count, k->quotient_cap);
  thread_quotient *q = &k->quotients[k->quotient_count];
  q->of = *of;
  q->divisor = divisor;
  q->warp_uniform = warp_uniform;
  q->atom = k->atom_count;
  char text[48];
  poly_text(k, of, text, sizeof text);
  GROW(k->atoms, k->atom_count, k->atom_cap);
  atom_info *a = &k->atoms[k->atom_count];
  memset(a, 0, sizeof *a);
  a->kind = ATOMK_QUOTIENT;
  a->decl = clang_getNullCursor();
  a->quotient_entry = k->quotient_count++;
  a->per_block = true;                    /* one value per warp at most, never per grid */
  snprintf(a->name, sizeof a->name, "(%.36s) / %lld", text, divisor);
  return k->atom_count++;
}

/* threadIdx of one thread of the modelled block (the launch's shape, or the
 * documented default: blockDim.x a multiple of 32). */
void lane_coords(const kernel_ctx *k, int thread, long long *t) {
  long long bx = k->block[0] > 0 ? k->block[0] : 1, by = k->block[1] > 0 ? k->block[1] : 1;
  t[0] = thread % bx;
  t[1] = (thread / bx) % by;
  t[2] = thread / (bx * by);
}

void lanes_fill(lane_vals *o, long long value, bool shifted) {
  for (int l = 0; l < 32; l++) o->v[l] = value;
  o->shifted = shifted;
}

bool lanes_invariant(const lane_vals *a) {
  for (int l = 1; l < 32; l++)
    if (a->v[l] != a->v[0]) return false;
  return true;
}

bool lanes_in_range(const lane_vals *a, long long low) {
  for (int l = 0; l < 32; l++)
    if (a->v[l] < low || a->v[l] > LANE_VALUE_LIMIT || a->v[l] < -LANE_VALUE_LIMIT) return false;
  return true;
}

/* A polynomial for the threads of warp w: thread indices take each lane's
 * coordinates, blockDim the launch's shape when known; any other atom is
 * uniform and unknown (shifted), except the probed loop atom. */
bool poly_lanes(const kernel_ctx *k, const poly *p, int warp, lane_vals *out) {
  if (p->unknown) return false;
  lanes_fill(out, 0, false);
  for (int i = 0; i < p->count; i++) {
    const poly_term *t = &p->terms[i];
    bool thread = false, unknown = false;
    long long uniform = t->coef;
    for (int a = 0; a < t->degree; a++) {
      int atom = t->atoms[a];
      long long by = 1;
      if (thread_atom(k, atom)) thread = thread || lane_atom(k, atom);
      else if (unknown) continue;
      else if (atom >= ATOM_BDX && atom <= ATOM_BDZ && k->block_known) by = k->block[atom - ATOM_BDX];
      else if (atom == k->probe_loop) by = k->probe_step;
      else if (k->probe_uniform && atom >= ATOM_BX && atom <= ATOM_BZ) by = k->probe_block;
      else if (k->probe_uniform && atom >= ATOM_BDX && atom <= ATOM_BDZ) by = k->block[atom - ATOM_BDX];
      else if (k->probe_uniform && k->atoms[atom].flag) continue;          /* a flag: 1 */
      else if (k->probe_uniform && k->probe_spread && k->atoms[atom].selector) by = k->atoms[atom].selector - 1;
      /* a loop's counter on its second turn: a grid-stride loop's counter
       * times the probe's sizes would leave no room for an index split
       * into several sizes ((index / W / H) % batch * H * W) */
      else if (k->probe_uniform && k->atoms[atom].kind == ATOMK_LOOP) continue;
      else if (k->probe_uniform && !is_thread_atom(atom))
        by = k->probe_uniform + (k->probe_spread ? k->probe_spread * apart_steps(atom) : 8 * atom);
      else unknown = true;
      /* a product of many sizes beyond the lanes' range: for the warp one
       * value, carried as a shift when no thread index is in the term */
      if (!unknown && !mul_in_range(uniform, by, &uniform)) unknown = true;
    }
    if (unknown) {
      if (thread) return false;              /* the lanes' pattern depends on the unknown */
      out->shifted = true;                   /* a warp's number times an unknown: one shift */
      continue;
    }
    for (int l = 0; l < 32; l++) {
      long long v = uniform, x;
      for (int a = 0; a < t->degree; a++)
        if (thread_atom_value(k, t->atoms[a], 32 * warp + l, &x) && !mul_in_range(v, x, &v)) return false;
      out->v[l] += v;
    }
  }
  return lanes_in_range(out, -LANE_VALUE_LIMIT);
}

/* Max minus min of p's lane-varying part over the active lanes of the first
 * warp with active lanes; false when that part is not concrete. */
bool lane_spread(const kernel_ctx *k, const poly *p, long long *spread) {
  int warp = 0;
  while (warp < k->warps && !k->active[warp]) warp++;
  if (warp == k->warps) return false;
  poly lane, rest;
  lane_split(k, p, &lane, &rest);
  lane_vals v;
  if (!poly_lanes(k, &lane, warp, &v) || v.shifted) return false;
  long long lo = 0, hi = 0;
  bool any = false;
  for (int l = 0; l < 32; l++) {
    if (!(k->active[warp] >> l & 1)) continue;
    if (!any || v.v[l] < lo) lo = v.v[l];
    if (!any || v.v[l] > hi) hi = v.v[l];
    any = true;
  }
  *spread = hi - lo;
  return any;
}

static void lane_builtin(const kernel_ctx *k, int atom, int warp, lane_vals *out) {
  poly p;
  poly_atom(&p, atom);
  if (!poly_lanes(k, &p, warp, out)) lanes_fill(out, 0, true);
}

/* Integer /, %, >> and &: exact only on concrete, non-negative values
 * (unsigned and signed agree there). A uniform operand pair stays uniform. */
bool lanes_exact_op(enum CXBinaryOperatorKind op, const lane_vals *a, const lane_vals *b,
                           lane_vals *out) {
  if (a->shifted || b->shifted) {
    if (!lanes_invariant(a) || !lanes_invariant(b)) return false;
    lanes_fill(out, 0, true);
    return true;
  }
  /* x & -32 rounds a non-negative x down (two's complement, as the
   * device's): the mask may be negative */
  bool mask = op == CXBinaryOperator_And && lanes_in_range(b, -LANE_VALUE_LIMIT);
  if (!lanes_in_range(a, 0) || !(mask || lanes_in_range(b, 0))) return false;
  for (int l = 0; l < 32; l++) {
    long long x = a->v[l], y = b->v[l];
    switch (op) {
    case CXBinaryOperator_Div: if (y == 0) return false; out->v[l] = x / y; break;
    case CXBinaryOperator_Rem: if (y == 0) return false; out->v[l] = x % y; break;
    case CXBinaryOperator_Shr: if (y > 62) return false; out->v[l] = x >> y; break;
    case CXBinaryOperator_Or: out->v[l] = x | y; break;
    case CXBinaryOperator_Xor: out->v[l] = x ^ y; break;
    default: out->v[l] = x & y; break;
    }
  }
  out->shifted = false;
  return true;
}

/* a * b where at most a uniform shift is carried along: (v + U) * c keeps U
 * additive only when c is the same constant for every lane. */
bool lanes_mul(const lane_vals *a, const lane_vals *b, lane_vals *out) {
  if (a->shifted && b->shifted) {
    if (!lanes_invariant(a) || !lanes_invariant(b)) return false;
    lanes_fill(out, 0, true);
    return true;
  }
  if ((a->shifted && !lanes_invariant(b)) || (b->shifted && !lanes_invariant(a))) return false;
  for (int l = 0; l < 32; l++)
    if (!mul_in_range(a->v[l], b->v[l], &out->v[l])) return false;
  out->shifted = a->shifted || b->shifted;
  return true;
}

/* A comparison lane by lane; a uniform unknown on either side leaves it
 * undecided unless both sides are uniform (then the result is too). */
/* Whether the 32 lanes hold 32 different values (idx = blockIdx.x *
 * blockDim.x + threadIdx.x, whatever its uniform part). */
bool lanes_distinct(const lane_vals *v) {
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < i; j++)
      if (v->v[i] == v->v[j]) return false;
  return true;
}

bool lanes_compare(enum CXBinaryOperatorKind op, const lane_vals *a, const lane_vals *b, lane_vals *out) {
  if (a->shifted || b->shifted) {
    /* idx == c for a run-time c, distinct values per lane: at most one lane
     * of the warp is equal (lane 0 stands for it), as in if (idx != 0)
     * return; */
    bool equality = op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE;
    if (equality && ((lanes_distinct(a) && lanes_invariant(b)) || (lanes_distinct(b) && lanes_invariant(a)))) {
      for (int l = 0; l < 32; l++) out->v[l] = (l == 0) == (op == CXBinaryOperator_EQ);
      out->shifted = false;
      return true;
    }
    if (!lanes_invariant(a) || !lanes_invariant(b)) return false;
    lanes_fill(out, 0, true);
    return true;
  }
  for (int l = 0; l < 32; l++) {
    long long x = a->v[l], y = b->v[l];
    switch (op) {
    case CXBinaryOperator_LT: out->v[l] = x < y; break;
    case CXBinaryOperator_GT: out->v[l] = x > y; break;
    case CXBinaryOperator_LE: out->v[l] = x <= y; break;
    case CXBinaryOperator_GE: out->v[l] = x >= y; break;
    case CXBinaryOperator_EQ: out->v[l] = x == y; break;
    default: out->v[l] = x != y; break;
    }
  }
  out->shifted = false;
  return true;
}

static bool lane_binary(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  child_list l = children(c);
  if (l.n != 2) return false;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  if (op == CXBinaryOperator_Comma) return lane_expr(k, l.c[1], warp, out, depth + 1);
  lane_vals a, b;
  if (!lane_expr(k, l.c[0], warp, &a, depth + 1) || !lane_expr(k, l.c[1], warp, &b, depth + 1)) return false;
  switch (op) {
  case CXBinaryOperator_Add:
  case CXBinaryOperator_Sub:
    for (int i = 0; i < 32; i++) out->v[i] = op == CXBinaryOperator_Add ? a.v[i] + b.v[i] : a.v[i] - b.v[i];
    out->shifted = a.shifted || b.shifted;
    return lanes_in_range(out, -LANE_VALUE_LIMIT);
  case CXBinaryOperator_Mul:
    return lanes_mul(&a, &b, out);
  case CXBinaryOperator_Shl: {
    /* a << n is a * 2^n for a constant n */
    if (b.shifted || !lanes_invariant(&b) || b.v[0] < 0 || b.v[0] > 30) return false;
    lane_vals scale;
    lanes_fill(&scale, 1LL << b.v[0], false);
    return lanes_mul(&a, &scale, out);
  }
  case CXBinaryOperator_Div:
  case CXBinaryOperator_Rem:
  case CXBinaryOperator_Shr:
  case CXBinaryOperator_And:
  case CXBinaryOperator_Or:
  case CXBinaryOperator_Xor:
    return lanes_exact_op(op, &a, &b, out);
  case CXBinaryOperator_LT: case CXBinaryOperator_GT: case CXBinaryOperator_LE:
  case CXBinaryOperator_GE: case CXBinaryOperator_EQ: case CXBinaryOperator_NE:
    return lanes_compare(op, &a, &b, out);
  default:
    return false;
  }
}

/* A value loaded from memory: uniform (unknown) when every lane reads the
 * same address of a shared or global array (a private array holds each
 * lane's own values). */
static bool lane_load(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  address a;
  if (eval_ref(k, c, &a, depth + 1) && a.array >= 0 && k->arrays[a.array].space == SP_LOCAL) return false;
  lane_vals at;
  if (!lane_ref(k, c, warp, &at, depth + 1) || !lanes_invariant(&at)) return false;
  lanes_fill(out, 0, true);
  return true;
}

static bool lane_decl_ref(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  long long value;
  if (const_value(c, &value)) { lanes_fill(out, value, false); return true; }
  CXCursor d = clang_getCursorReferenced(c);
  int v = find_var(k, d);
  if (v >= 0) {
    const var_state *s = &k->env[v];
    if (poly_lanes(k, &s->value, warp, out)) return true;
    return !clang_Cursor_isNull(s->expr) && lane_expr(k, s->expr, warp, out, depth + 1);
  }
  switch (clang_getCursorKind(d)) {
  case CXCursor_NonTypeTemplateParameter:
    if (template_value(k, d, &value)) { lanes_fill(out, value, false); return true; }
    lanes_fill(out, 0, true);
    return true;
  case CXCursor_ParmDecl:
    lanes_fill(out, 0, true);    /* kernel parameters: uniform */
    return true;
  default:
    return false;
  }
}

bool lane_expr(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  c = strip(c);
  long long value;
  if (depth > 32) return false;
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
  case CXCursor_CXXBoolLiteralExpr:
    if (!eval_int(c, &value)) return false;
    lanes_fill(out, value, false);
    return true;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom >= 0) { lane_builtin(k, atom, warp, out); return true; }
    poly field;
    eval_poly(k, c, &field, depth + 1);       /* a parameter's field, a uniform load */
    if (poly_lanes(k, &field, warp, out)) return true;
    return lane_load(k, c, warp, out, depth);
  }
  case CXCursor_ArraySubscriptExpr:
    return lane_load(k, c, warp, out, depth);
  case CXCursor_DeclRefExpr:
    return lane_decl_ref(k, c, warp, out, depth);
  case CXCursor_BinaryOperator:
    return lane_binary(k, c, warp, out, depth);
  case CXCursor_UnaryOperator: {
    child_list l = children(c);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (l.n != 1) return false;
    if (op == CXUnaryOperator_Deref) return lane_load(k, c, warp, out, depth);
    if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus && op != CXUnaryOperator_LNot) return false;
    if (!lane_expr(k, l.c[0], warp, out, depth + 1)) return false;
    for (int i = 0; i < 32; i++)
      out->v[i] = op == CXUnaryOperator_Minus ? -out->v[i] : op == CXUnaryOperator_LNot ? !out->v[i] : out->v[i];
    return !(op == CXUnaryOperator_LNot && out->shifted && !lanes_invariant(out));
  }
  case CXCursor_ConditionalOperator: {
    child_list l = children(c);
    lane_vals cond, a, b;
    if (l.n != 3 || !lane_expr(k, l.c[0], warp, &cond, depth + 1) || cond.shifted ||
        !lane_expr(k, l.c[1], warp, &a, depth + 1) || !lane_expr(k, l.c[2], warp, &b, depth + 1))
      return false;
    for (int i = 0; i < 32; i++) out->v[i] = cond.v[i] ? a.v[i] : b.v[i];
    out->shifted = a.shifted || b.shifted;
    return !out->shifted || (lanes_invariant(&a) && lanes_invariant(&b));
  }
  default:
    return false;
  }
}

/* ---- addresses lane by lane (where the polynomial gave up) ---- */

static bool lane_pointer(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth);

static bool lane_scaled_add(kernel_ctx *k, lane_vals *acc, CXCursor index, long long scale, int warp, int depth) {
  lane_vals i, s;
  if (!lane_expr(k, index, warp, &i, depth + 1)) return false;
  lanes_fill(&s, scale, false);
  if (!lanes_mul(&i, &s, &i)) return false;
  for (int l = 0; l < 32; l++) acc->v[l] += i.v[l];
  acc->shifted = acc->shifted || i.shifted;
  return lanes_in_range(acc, -LANE_VALUE_LIMIT);
}

static bool lane_pointer(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  if (depth > 32) return false;
  CXCursor s = strip(c);
  switch (clang_getCursorKind(s)) {
  case CXCursor_DeclRefExpr: {
    int v = find_var(k, clang_getCursorReferenced(s));
    if (v < 0) { lanes_fill(out, 0, false); return true; }    /* an array or a pointer parameter */
    if (poly_lanes(k, &k->env[v].offset, warp, out)) return true;
    return !clang_Cursor_isNull(k->env[v].expr) && lane_pointer(k, k->env[v].expr, warp, out, depth + 1);
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
    child_list l = children(s);
    if (l.n != 2 || op != CXBinaryOperator_Add) return false;
    bool left = is_pointer_type(clang_getCursorType(l.c[0])) ||
                clang_getCanonicalType(clang_getCursorType(l.c[0])).kind == CXType_ConstantArray;
    address base;
    if (!eval_pointer(k, left ? l.c[0] : l.c[1], &base, depth + 1)) return false;
    return lane_pointer(k, left ? l.c[0] : l.c[1], warp, out, depth + 1) &&
           lane_scaled_add(k, out, left ? l.c[1] : l.c[0], base.width, warp, depth);
  }
  case CXCursor_UnaryOperator: {
    child_list l = children(s);
    if (l.n != 1 || clang_getCursorUnaryOperatorKind(s) != CXUnaryOperator_AddrOf) return false;
    return lane_ref(k, l.c[0], warp, out, depth + 1);
  }
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_MemberRefExpr:
    return lane_ref(k, s, warp, out, depth + 1);
  default:
    return false;
  }
}

bool lane_ref(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  if (depth > 32) return false;
  CXCursor s = strip(c);
  child_list l = children(s);
  switch (clang_getCursorKind(s)) {
  case CXCursor_ArraySubscriptExpr: {
    address base;
    if (l.n != 2 || !eval_pointer(k, l.c[0], &base, depth + 1)) return false;
    return lane_pointer(k, l.c[0], warp, out, depth + 1) &&
           lane_scaled_add(k, out, l.c[1], subscript_step(k, base.array, s), warp, depth);
  }
  case CXCursor_UnaryOperator:
    return l.n == 1 && clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_Deref &&
           lane_pointer(k, l.c[0], warp, out, depth + 1);
  case CXCursor_MemberRefExpr: {
    long long offset;
    if (l.n != 1 || member_builtin(s) >= 0 || !member_offset(s, &offset)) return false;
    bool arrow = is_pointer_type(clang_getCursorType(l.c[0]));
    if (!(arrow ? lane_pointer(k, l.c[0], warp, out, depth + 1) : lane_ref(k, l.c[0], warp, out, depth + 1)))
      return false;
    for (int i = 0; i < 32; i++) out->v[i] += offset;
    return true;
  }
  default:
    return false;
  }
}

/* ---- conditions: which lanes take a branch ---- */

/* *uniform: the condition is the same for every lane of the warp (known,
 * or unknown but warp-uniform, such as k + 1 < BK in a loop). */
static void condition_lanes(kernel_ctx *k, CXCursor c, int warp, unsigned *t, unsigned *f, bool *uniform,
                            int depth) {
  c = strip(c);
  *t = *f = 0xffffffffu;         /* undecided: both */
  *uniform = false;
  if (depth > 16) return;
  enum CXCursorKind kind = clang_getCursorKind(c);
  child_list l = children(c);
  if (kind == CXCursor_BinaryOperator && l.n == 2) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
      unsigned t1, f1, t2, f2;
      bool u1, u2;
      condition_lanes(k, l.c[0], warp, &t1, &f1, &u1, depth + 1);
      condition_lanes(k, l.c[1], warp, &t2, &f2, &u2, depth + 1);
      *t = op == CXBinaryOperator_LAnd ? t1 & t2 : t1 | t2;
      *f = op == CXBinaryOperator_LAnd ? f1 | f2 : f1 & f2;
      *uniform = u1 && u2;
      return;
    }
  }
  if (kind == CXCursor_UnaryOperator && l.n == 1 && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_LNot) {
    condition_lanes(k, l.c[0], warp, f, t, uniform, depth + 1);
    return;
  }
  lane_vals v;
  if (!lane_expr(k, c, warp, &v, 0)) return;
  *uniform = lanes_invariant(&v);
  if (v.shifted) return;
  *t = *f = 0;
  for (int i = 0; i < 32; i++) {
    if (v.v[i]) *t |= 1u << i;
    else *f |= 1u << i;
  }
}

bool lane_condition(kernel_ctx *k, CXCursor c, unsigned *when_true, unsigned *when_false) {
  bool all_uniform = true;
  for (int w = 0; w < k->warps; w++) {
    bool uniform;
    condition_lanes(k, c, w, &when_true[w], &when_false[w], &uniform, 0);
    all_uniform = all_uniform && uniform;
  }
  return all_uniform;
}

/* ---- the model of one access ---- */

int active_lanes(unsigned mask) { return __builtin_popcount(mask); }

static void stride_of_offsets(lane_model *m, unsigned act);

/* The lanes of warp w from the access's byte-offset polynomial. */
void model_from_poly(const kernel_ctx *k, const poly *off, int warp, lane_model *m) {
  m->warp = warp;
  if (off->unknown) { m->kind = LANE_UNKNOWN; return; }
  /* the lanes run along the first dimension the block is wider than one in
   * (a dim3(1, 256) block's warp runs along threadIdx.y) */
  int lane_dim = ATOM_TX;
  while (lane_dim < ATOM_TZ && k->block_known && k->block[lane_dim - ATOM_TX] == 1) lane_dim++;
  poly_coefficient(off, lane_dim, &m->stride);
  m->stride_const = poly_is_const(&m->stride, &m->stride_value);
  poly lane_part, rest;
  lane_split(k, off, &lane_part, &rest);
  if (lane_part.count == 0) { m->kind = LANE_UNIFORM; return; }
  lane_vals v;
  /* a half-warp's number in the lanes' part: threadIdx's coefficient is no
   * stride; the offsets tell it, or nothing does */
  bool quotient = false;
  for (int i = 0; i < lane_part.count; i++)
    for (int a = 0; a < lane_part.terms[i].degree; a++)
      quotient = quotient || quotient_of(k, lane_part.terms[i].atoms[a]);
  if (!poly_lanes(k, &lane_part, warp, &v) || v.shifted) { m->kind = quotient ? LANE_UNKNOWN : LANE_SYMBOLIC; return; }
  memcpy(m->offset, v.v, sizeof m->offset);
  m->kind = LANE_CONCRETE;
  if (quotient && k->active[warp]) stride_of_offsets(m, k->active[warp]);
}

/* Whether an unrolled loop (constant trip, unit step) around the access
 * walks consecutive elements: the compiler may then merge its iterations into
 * one 8- or 16-byte access (06_regtile_2d's As[trow * TM + i][k] becomes
 * LDS.128), whose bank pattern is not the one-element access modelled here. */
static bool vectorisable(kernel_ctx *k, CXCursor ref, const access_info *x, int warp, const lane_vals *base) {
  for (int i = 0; i < x->loop_count && i < MAX_LOOPS; i++) {
    int loop = x->loops[i];
    if (loop < 0 || !k->atoms[loop].const_trip || !k->atoms[loop].unit_step) continue;
    lane_vals moved;
    k->probe_loop = loop;
    k->probe_step = 1;
    bool ok = lane_ref(k, ref, warp, &moved, 0);
    k->probe_loop = -1;
    if (!ok) return true;        /* unsure: treat as vectorisable, stay silent */
    long long step = moved.v[0] - base->v[0];
    bool uniform_step = step == x->width || step == -x->width;
    for (int l = 1; l < 32 && uniform_step; l++) uniform_step = moved.v[l] - base->v[l] == step;
    if (uniform_step) return true;
  }
  return false;
}

/* The lanes of an access whose offset is no polynomial, evaluated lane by
 * lane (eval) for the modelled warp and a few others spread over the block.
 * Kept only when they show the same pattern up to a shift, so that the
 * modelled warp speaks for the block; not for sub-word elements with a
 * dropped uniform part (it could move lanes across word boundaries). */
void model_evaluated(kernel_ctx *k, lane_eval_fn eval, void *ctx, long long width, int warp, lane_model *m) {
  lane_vals first, other;
  if (!eval(ctx, warp, &first)) return;
  unsigned act = k->active[warp];
  int lead = __builtin_ctz(act);
  /* under an unknown shift, narrow elements' sectors depend on where the
   * warp starts; consecutive ones (up or down) are so wherever it starts */
  bool ascending = true, descending = true;
  for (int l = lead; l < 32; l++) {
    ascending = ascending && (!(act >> l & 1) || first.v[l] - first.v[lead] == (l - lead) * width);
    descending = descending && (!(act >> l & 1) || first.v[l] - first.v[lead] == (lead - l) * width);
  }
  if (first.shifted && width < 4 && !ascending && !descending) return;
  /* A few other warps, spread over the block (/ and % patterns repeat). */
  int others[4] = {warp + 1, warp + 2, k->warps / 2, k->warps - 1};
  for (int i = 0; i < 4; i++) {
    int w = others[i];
    if (w <= warp || w >= k->warps || (i > 0 && w <= others[i - 1]) || k->active[w] != act) continue;
    if (!eval(ctx, w, &other)) return;
    for (int l = 0; l < 32; l++)
      if ((act >> l & 1) && other.v[l] - other.v[lead] != first.v[l] - first.v[lead]) return;
  }
  memcpy(m->offset, first.v, sizeof m->offset);
  m->kind = count_distinct_active(first.v, act) == 1 ? LANE_UNIFORM : LANE_CONCRETE;
  stride_of_offsets(m, act);
}

/* The lane stride of evaluated offsets: only when the active ones are an
 * arithmetic sequence. */
static void stride_of_offsets(lane_model *m, unsigned act) {
  const long long *v = m->offset;
  int lead = __builtin_ctz(act);
  m->evaluated = true;
  m->stride_const = true;
  m->stride_value = 0;
  int prev = -1;
  for (int l = 0; l < 32 && m->stride_const; l++) {
    if (!(act >> l & 1)) continue;
    if (prev >= 0) {
      long long step = (v[l] - v[prev]) / (l - prev);
      if (v[l] - v[prev] != step * (l - prev) || (prev != lead && step != m->stride_value))
        m->stride_const = false;
      m->stride_value = step;
    }
    prev = l;
  }
  if (m->stride_const) poly_const(&m->stride, m->stride_value);
  else poly_unknown(&m->stride, false);
}

typedef struct ref_eval { kernel_ctx *k; CXCursor ref; } ref_eval;

static bool eval_ref_lanes(void *ctx, int warp, lane_vals *out) {
  ref_eval *r = ctx;
  return lane_ref(r->k, r->ref, warp, out, 0);
}

int first_active_warp(const kernel_ctx *k) {
  for (int w = 0; w < k->warps; w++)
    if (k->active[w]) return w;
  return -1;
}

void model_access(kernel_ctx *k, CXCursor ref, const access_info *x, lane_model *m) {
  memset(m, 0, sizeof *m);
  m->kind = LANE_UNKNOWN;
  int warp = first_active_warp(k);
  if (warp < 0) return;                          /* no thread gets here */
  m->active = k->active[warp];
  model_from_poly(k, &x->off, warp, m);
  if (m->kind == LANE_UNKNOWN && !x->data_dependent) {
    lane_vals first;
    ref_eval r = {k, ref};
    if (lane_ref(k, ref, warp, &first, 0) && !vectorisable(k, ref, x, warp, &first))
      model_evaluated(k, eval_ref_lanes, &r, x->width, warp, m);
  }
  if (m->kind == LANE_CONCRETE && count_distinct_active(m->offset, m->active) == 1) m->kind = LANE_UNIFORM;
}

static _Thread_local size_t key_size;   /* the bytes of a key compare_keys compares */

static int compare_keys(const void *a, const void *b) { return memcmp(a, b, key_size); }

/* The active threads of the block that touch the same element as another:
 * the largest group whose thread-dependent part of the offset agrees: its
 * terms with constant coefficients summed, each thread monomial of the others
 * alone (whatever their uniform coefficients are). 0 when unknown. */
long long block_reuse(const kernel_ctx *k, const poly *off, bool *restricted) {
  *restricted = false;
  if (off->unknown) return 0;
  /* the thread part with constant coefficients, and the distinct thread
   * monomials (their thread atoms) of the terms with a uniform factor */
  poly summed, mono[POLY_MAX_TERMS];
  int count = 0;
  poly_const(&summed, 0);
  for (int i = 0; i < off->count; i++) {
    poly_term t = off->terms[i], thread = {.coef = 1};
    for (int a = 0; a < t.degree; a++) {
      if (t.atoms[a] >= ATOM_FIRST_SYMBOL && k->atoms[t.atoms[a]].from_threads) return 0;   /* which threads share it is not known */
      if (thread_atom(k, t.atoms[a])) thread.atoms[thread.degree++] = t.atoms[a];
    }
    if (thread.degree == 0) continue;
    poly term = {.count = 1, .terms = {t}};
    if (thread.degree == t.degree) { poly_add(&summed, &summed, &term, 1); continue; }
    poly m = {.count = 1, .terms = {thread}};
    bool seen = false;
    for (int j = 0; j < count && !seen; j++) seen = poly_equal(&mono[j], &m);
    if (!seen) mono[count++] = m;
  }
  if (summed.unknown) return 0;
  /* each thread's key: the summed part, each monomial, then its warp */
  static _Thread_local long long keys[MAX_WARPS * 32][POLY_MAX_TERMS + 2];
  int n = 0, total = 0, width = count + 1;
  for (int w = 0; w < k->warps; w++) {
    for (int l = 0; l < 32; l++) {
      total++;
      if (!(k->active[w] >> l & 1)) continue;
      if (!thread_value(k, &summed, 32 * w + l, &keys[n][0])) return 0;
      for (int j = 0; j < count; j++)
        if (!thread_value(k, &mono[j], 32 * w + l, &keys[n][j + 1])) return 0;
      keys[n][width] = w;
      n++;
    }
  }
  *restricted = n < total;
  key_size = (size_t)(width + 1) * sizeof keys[0][0];
  qsort(keys, (size_t)n, sizeof keys[0], compare_keys);
  /* the threads of an element count only when they span two warps or more:
   * the lanes of one warp that read one element make one broadcast request,
   * which no staging makes cheaper (where the block is not known, its
   * modelled 32 x 2 stands for blocks of several warps) */
  size_t element = (size_t)width * sizeof keys[0][0];
  long long best = n ? 1 : 0, run = 1, warps = 1;
  for (int i = 1; i <= n; i++) {
    if (i < n && memcmp(keys[i], keys[i - 1], element) == 0) {
      run++;
      warps += keys[i][width] != keys[i - 1][width];
      continue;
    }
    if ((warps >= 2 || !k->block_known) && run > best) best = run;
    run = warps = 1;
  }
  return best;
}

/* ---- what the hardware makes of the lanes ---- */

int count_distinct_active(const long long *v, unsigned active) {
  int distinct = 0;
  for (int i = 0; i < 32; i++) {
    if (!(active >> i & 1)) continue;
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = (active >> j & 1) && v[j] == v[i];
    if (!seen) distinct++;
  }
  return distinct;
}

/* 32-byte sectors one warp request touches, the lowest address taken as
 * sector-aligned (G_3: alignment is not what matters). */
int sectors(const lane_model *m, long long width) {
  long long low = 0, s[32 * 8];
  bool any = false;
  for (int l = 0; l < 32; l++)
    if ((m->active >> l & 1) && (!any || m->offset[l] < low)) { low = m->offset[l]; any = true; }
  int n = 0;
  for (int l = 0; l < 32; l++) {
    if (!(m->active >> l & 1)) continue;
    for (long long b = (m->offset[l] - low) >> 5; b <= (m->offset[l] - low + width - 1) >> 5 && n < 32 * 8; b++)
      s[n++] = b;
  }
  int distinct = 0;
  for (int i = 0; i < n; i++) {
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = s[j] == s[i];
    if (!seen) distinct++;
  }
  return distinct;
}

/* The sectors the active lanes would touch reading consecutive elements. */
int ideal_sectors(const lane_model *m, long long width) {
  return (int)((active_lanes(m->active) * width + 31) / 32);
}

/* The distinct 4-byte words that lanes [first, first + count) of the
 * warp touch, each lane `words` of them from its offset; their number. */
static int lane_words(const lane_model *m, int words, int first, int count, long long *addr) {
  int n = 0;
  for (int l = first; l < first + count; l++) {
    if (!(m->active >> l & 1)) continue;
    for (int w = 0; w < words; w++) {
      long long word = m->offset[l] / 4 + w;
      bool seen = false;
      for (int j = 0; j < n && !seen; j++) seen = addr[j] == word;
      if (!seen) addr[n++] = word;
    }
  }
  return n;
}

/* The most distinct words any one of the 32 banks holds: the wavefronts
 * those words take when one wavefront may serve any of them. */
static int busiest_bank(const long long *addr, int n) {
  int worst = n > 0 ? 1 : 0;
  for (int bank = 0; bank < 32; bank++) {
    int d = 0;
    for (int i = 0; i < n; i++) d += ((addr[i] % 32) + 32) % 32 == bank;
    if (d > worst) worst = d;
  }
  return worst;
}

/* 16-byte requests, as the H100 serves them (bank_conflict16: Nsight
 * Compute's wavefront counts, and for loads the busy-block cycles, agree
 * on all ten layouts). Loads: each half-warp apart, in one wavefront when
 * its words sit in distinct banks, and otherwise quarter-warp by
 * quarter-warp, each quarter taking as many wavefronts as its busiest
 * bank, even where the two quarters together would fit fewer
 * (quarter_pairs: 8 wavefronts for 32 words in 4 rows); a broadcast still
 * takes one per half-warp. Stores: always quarter by quarter, one
 * wavefront at least for each (a broadcast store takes 4). *floor: the
 * same counts had the words no bank in common (loads: per half-warp its
 * distinct words 8 to a wavefront). */
static int shared_wavefronts16(const lane_model *m, bool store, int *floor) {
  long long addr[16 * 4];
  int taken = 0, least = 0;
  for (int half = 0; half < 32; half += 16) {
    int n = lane_words(m, 4, half, 16, addr);
    if (n == 0) continue;
    if (!store) {
      least += (n / 4 + 7) / 8;
      if (busiest_bank(addr, n) == 1) { taken++; continue; }
    }
    for (int quarter = half; quarter < half + 16; quarter += 8) {
      int words = busiest_bank(addr, lane_words(m, 4, quarter, 8, addr));
      taken += words;
      if (store) least += words > 0;
    }
  }
  *floor = least;
  return taken;
}

/* The shared-memory wavefronts a warp request takes: 32 banks of 4
 * bytes, each serving one word per wavefront, lanes reading the same word
 * sharing it (broadcast): for 4- and 8-byte elements the most distinct
 * words any bank holds, over the whole warp. The H100's measurements
 * follow it: 64-bit requests whose 32 lanes touch two 128-byte rows take
 * two wavefronts however the rows are spread over the half-warps
 * (bank_conflict8.way_2 64 cycles, as way_1), four rows four. 16-byte
 * requests go by half- and quarter-warps (shared_wavefronts16). *floor:
 * the least any layout of those words could take (128 bytes each). */
static int shared_wavefronts(const lane_model *m, long long width, bool store, int *floor) {
  if (width == 16) return shared_wavefronts16(m, store, floor);
  int words = width >= 4 ? (int)(width / 4) : 1;
  long long addr[32 * 4];
  int n = lane_words(m, words > 4 ? 4 : words, 0, 32, addr);
  *floor = n > 0 ? (n + 31) / 32 : 0;
  return busiest_bank(addr, n);
}

/* Bank-conflict degree: the wavefronts a request takes over the fewest its
 * words could take (1 when conflict-free); both counts in *wavefronts and
 * *floor where they are not NULL. */
int conflict_degree(const lane_model *m, long long width, bool store, int *wavefronts, int *floor) {
  int least, taken = shared_wavefronts(m, width, store, &least);
  if (wavefronts) *wavefronts = taken;
  if (floor) *floor = least;
  return least > 0 ? (taken + least - 1) / least : 1;
}

int pow2_at_least(int n) {
  int p = 1;
  while (p < n && p < 32) p *= 2;
  return p;
}

/* Lanes evaluated one by one with no single stride (t / 2 * n). */
bool lanes_irregular(const lane_model *m) {
  return m->kind == LANE_CONCRETE && m->evaluated && !m->stride_const;
}

bool lanes_consecutive(const lane_model *m, long long width) {
  return (m->kind == LANE_CONCRETE || m->kind == LANE_SYMBOLIC) && m->stride_const && m->stride_value == width;
}

/* Consecutive elements, in either direction (str[n - i - 1] walks down). */
bool lanes_contiguous(const lane_model *m, long long width) {
  return (m->kind == LANE_CONCRETE || m->kind == LANE_SYMBOLIC) && m->stride_const &&
         (m->stride_value == width || m->stride_value == -width);
}

/* Lanes evaluated one by one that walk consecutive elements in runs (x =
 * 8 * bx + tid % 8 over rows: four runs of 8): most active lanes have the
 * next lane on the next element. */
bool lanes_in_runs(const lane_model *m, long long width) {
  if (m->kind != LANE_CONCRETE) return false;
  int active = 0, paired = 0;
  for (int l = 0; l < 32; l++) {
    if (!(m->active >> l & 1)) continue;
    active++;
    if (l < 31 && (m->active >> (l + 1) & 1) && m->offset[l + 1] - m->offset[l] == width) paired++;
  }
  return active >= 2 && 2 * paired >= active;
}

/* A stride that a quotient (blockDim.x / 64) scales may be 0 or 1. */
static bool quotient_stride(const kernel_ctx *k, const poly *stride) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].quotient && poly_uses_atom(stride, a)) return true;
  return false;
}

/* G_3's condition: the lanes do not walk consecutive elements, and (where
 * the offsets are known) touch more 32-byte sectors than consecutive lanes
 * would. Symbolic strides (row * n) count as strided. */
/* A warp over several rows of a block whose width is no multiple of 32
 * (blockDim.x = 10: lanes 0-9 on one row, 10-19 on the next), rows a
 * symbolic distance apart (y * cols + x), realistically further than a
 * sector, lanes of a row a constant stride apart: the sectors each row's
 * lanes touch, the row taken to start on a sector as a pitched image's
 * rows do, against consecutive lanes'. False when the block's shape is
 * not known to be that. */
static bool row_sectors(const kernel_ctx *k, const lane_model *m, long long width, int *got, int *ideal) {
  long long bx = k->block[0];
  if (!k->block_known || bx < 2 || bx % 32 == 0) return false;
  lane_model rows = *m;
  rows.kind = LANE_CONCRETE;
  if (!rows.active) rows.active = 0xffffffffu;
  const long long apart = 1LL << 24;      /* a multiple of the sector, far beyond a row */
  for (int l = 0; l < 32; l++) {
    long long thread = 32LL * m->warp + l;
    rows.offset[l] = thread / bx * apart + thread % bx * llabs(m->stride_value);
  }
  *got = sectors(&rows, width);
  *ideal = ideal_sectors(&rows, width);
  return true;
}

/* The sectors of an irregular pattern's runs of consecutive lanes (each
 * reading on where the one before stopped), each run taken as starting on
 * a sector: rows of a run-time pitch (A + (tx / 4) * IC + (tx % 4) * 8)
 * take no more than consecutive lanes when the pitch keeps them aligned,
 * which the pitch's value, not the code, decides. */
static int aligned_run_sectors(const lane_model *m, long long width) {
  long long starts[32];
  int runs = 0, total = 0;
  for (int l = 0; l < 32; l++) {
    if (!(m->active >> l & 1)) continue;
    long long start = m->offset[l], end = start + width;
    while (l + 1 < 32 && (m->active >> (l + 1) & 1) && m->offset[l + 1] == end) end += width, l++;
    bool seen = false;
    for (int r = 0; r < runs && !seen; r++) seen = starts[r] == start;
    if (seen) continue;
    starts[runs++] = start;
    total += (int)((end - start + 31) / 32);
  }
  return total;
}

bool lanes_strided(const kernel_ctx *k, const lane_model *m, long long width, int *got, int *ideal) {
  *got = *ideal = 0;
  if (m->kind == LANE_SYMBOLIC && m->stride_const) {
    if (m->stride_value == 0) return false;
    return row_sectors(k, m, width, got, ideal) && *got > *ideal;
  }
  if (m->kind == LANE_SYMBOLIC) return !m->stride_const && !m->stride.unknown && !quotient_stride(k, &m->stride);
  if (m->kind != LANE_CONCRETE || active_lanes(m->active) < 2) return false;
  if (m->stride_const && (m->stride_value == 0 || m->stride_value == width) && !lanes_irregular(m)) return false;
  *got = sectors(m, width);
  *ideal = ideal_sectors(m, width);
  if (lanes_irregular(m) && aligned_run_sectors(m, width) <= *ideal) return false;
  return *got > *ideal;
}

int unit_stride_parameter(const kernel_ctx *k, const lane_model *m, long long width) {
  if (m->kind != LANE_SYMBOLIC || m->stride.unknown || m->stride.count != 1) return -1;
  const poly_term *t = &m->stride.terms[0];
  if (t->degree != 1 || t->coef != width || t->atoms[0] < ATOM_FIRST_SYMBOL) return -1;
  return k->atoms[t->atoms[0]].maybe_unit ? t->atoms[0] : -1;
}

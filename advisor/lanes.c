/* The warp model: the element offset each of a warp's 32 lanes touches,
 * from the index polynomial or, where / and % by constants stand in the
 * way, by evaluating the index lane by lane; and what the hardware makes of
 * those offsets (32-byte sectors, bank-conflict degree, distinct addresses). */
#include "analysis.h"

#include <string.h>

bool is_thread_atom(int a) { return a == ATOM_TX || a == ATOM_TY || a == ATOM_TZ; }

static void lane_coords(const kernel_ctx *k, int lane, long long *t) {
  if (k->block_known) {
    long long bx = k->block[0] > 0 ? k->block[0] : 1, by = k->block[1] > 0 ? k->block[1] : 1;
    t[0] = lane % bx;
    t[1] = (lane / bx) % by;
    t[2] = lane / (bx * by);
  } else {
    /* Documented default: blockDim.x is a multiple of 32, so a warp is 32
     * consecutive threadIdx.x with threadIdx.y and .z fixed. */
    t[0] = lane;
    t[1] = 0;
    t[2] = 0;
  }
}

static void model_lanes(const kernel_ctx *k, const poly *off, lane_model *m) {
  memset(m, 0, sizeof *m);
  if (off->unknown) { m->kind = LANE_UNKNOWN; return; }
  poly_coefficient(off, ATOM_TX, &m->stride);
  m->stride_const = poly_is_const(&m->stride, &m->stride_value);
  poly lane_part;
  poly_const(&lane_part, 0);
  bool symbolic = false;
  for (int i = 0; i < off->count; i++) {
    const poly_term *t = &off->terms[i];
    bool lane_term = false, other = false;
    for (int a = 0; a < t->degree; a++) {
      if (is_thread_atom(t->atoms[a])) lane_term = true;
      else other = true;
    }
    if (!lane_term) continue;
    if (other) symbolic = true;
    poly one = {.count = 1};
    one.terms[0] = *t;
    poly_add(&lane_part, &lane_part, &one, 1);
  }
  if (symbolic) { m->kind = LANE_SYMBOLIC; return; }
  if (lane_part.count == 0) { m->kind = LANE_UNIFORM; return; }
  long long values[ATOM_FIRST_SYMBOL];
  for (int a = 0; a < ATOM_FIRST_SYMBOL; a++) values[a] = -1;
  for (int lane = 0; lane < 32; lane++) {
    lane_coords(k, lane, values);
    if (!poly_eval(&lane_part, values, ATOM_FIRST_SYMBOL, &m->offset[lane])) {
      m->kind = LANE_UNKNOWN;
      return;
    }
  }
  m->kind = LANE_CONCRETE;
}

int count_distinct(const long long *v, int n) {
  int distinct = 0;
  for (int i = 0; i < n; i++) {
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = v[j] == v[i];
    if (!seen) distinct++;
  }
  return distinct;
}

/* 32-byte sectors one warp request touches, the lowest address taken as
 * sector-aligned (G_3: alignment is not what matters). */
int sectors(const lane_model *m, long long elem_size) {
  long long s[32], low = m->offset[0];
  for (int l = 1; l < 32; l++) if (m->offset[l] < low) low = m->offset[l];
  for (int l = 0; l < 32; l++) s[l] = ((m->offset[l] - low) * elem_size) >> 5;
  return count_distinct(s, 32);
}

/* Bank-conflict degree: 32 banks of 4 bytes; elements wider than 4 bytes are
 * served in phases of 128 bytes (16 lanes for 8-byte, 8 lanes for 16-byte). */
int conflict_degree(const long long *offset, long long elem_size) {
  int words = elem_size >= 4 ? (int)(elem_size / 4) : 1;
  int lanes_per_phase = 32 / words;
  if (lanes_per_phase < 1) lanes_per_phase = 1;
  int worst = 1;
  for (int phase = 0; phase < 32; phase += lanes_per_phase) {
    long long addr[32 * 4];
    int n = 0;
    for (int l = phase; l < phase + lanes_per_phase && l < 32; l++)
      for (int w = 0; w < words && n < 128; w++) addr[n++] = (offset[l] * elem_size) / 4 + w;
    for (int bank = 0; bank < 32; bank++) {
      long long in_bank[128];
      int m = 0;
      for (int i = 0; i < n; i++)
        if (((addr[i] % 32) + 32) % 32 == bank) in_bank[m++] = addr[i];
      int d = count_distinct(in_bank, m);
      if (d > worst) worst = d;
    }
  }
  return worst;
}

int pow2_at_least(int n) {
  int p = 1;
  while (p < n && p < 32) p *= 2;
  return p;
}


/* ---- per-lane evaluation, where the polynomial gives up ----
 * t / 2, (t % 4) * 8 and the like are not polynomials, but for one warp they
 * are 32 numbers. lane_expr evaluates an index expression for the 32 threads
 * of one warp with C integer semantics. A value the warp shares but warplint
 * cannot know (blockIdx, a parameter, a loop's progress) is carried as
 * `shifted`: the true value is v[lane] + U with one unknown U for the whole
 * warp. U may be added, or scaled by a constant, since that moves every lane
 * alike; once it meets a lane-varying value in /, %, >>, & or a product, the
 * lanes' pattern itself depends on U and the evaluation gives up. */
typedef struct lane_vals { long long v[32]; bool shifted; } lane_vals;

/* Keeps products of small indices far from overflow. */
#define LANE_VALUE_LIMIT (1LL << 40)

static void lanes_fill(lane_vals *o, long long value, bool shifted) {
  for (int l = 0; l < 32; l++) o->v[l] = value;
  o->shifted = shifted;
}

static bool lanes_invariant(const lane_vals *a) {
  for (int l = 1; l < 32; l++)
    if (a->v[l] != a->v[0]) return false;
  return true;
}

static bool lanes_in_range(const lane_vals *a, long long low) {
  for (int l = 0; l < 32; l++)
    if (a->v[l] < low || a->v[l] > LANE_VALUE_LIMIT || a->v[l] < -LANE_VALUE_LIMIT) return false;
  return true;
}

/* threadIdx, blockDim and the other built-ins for the threads of warp w. */
static void lane_builtin(const kernel_ctx *k, int atom, int warp, lane_vals *out) {
  if (atom >= ATOM_BDX && atom <= ATOM_BDZ && k->block_known) {
    lanes_fill(out, k->block[atom - ATOM_BDX], false);
    return;
  }
  if (!is_thread_atom(atom) || (!k->block_known && atom != ATOM_TX)) {
    lanes_fill(out, 0, true);    /* one value for the warp, unknown here */
    return;
  }
  out->shifted = false;
  for (int l = 0; l < 32; l++) {
    long long t[3];
    lane_coords(k, 32 * warp + l, t);
    out->v[l] = t[atom - ATOM_TX];
  }
}

/* Integer /, %, >> and &: exact only on concrete, non-negative values
 * (unsigned and signed agree there). A uniform operand pair stays uniform. */
static bool lanes_exact_op(enum CXBinaryOperatorKind op, const lane_vals *a, const lane_vals *b,
                           lane_vals *out) {
  if (a->shifted || b->shifted) {
    if (!lanes_invariant(a) || !lanes_invariant(b)) return false;
    lanes_fill(out, 0, true);
    return true;
  }
  if (!lanes_in_range(a, 0) || !lanes_in_range(b, 0)) return false;
  for (int l = 0; l < 32; l++) {
    long long x = a->v[l], y = b->v[l];
    switch (op) {
    case CXBinaryOperator_Div: if (y == 0) return false; out->v[l] = x / y; break;
    case CXBinaryOperator_Rem: if (y == 0) return false; out->v[l] = x % y; break;
    case CXBinaryOperator_Shr: if (y > 62) return false; out->v[l] = x >> y; break;
    default: out->v[l] = x & y; break;
    }
  }
  out->shifted = false;
  return true;
}

/* a * b where at most a uniform shift is carried along: (v + U) * c keeps U
 * additive only when c is the same constant for every lane. */
static bool lanes_mul(const lane_vals *a, const lane_vals *b, lane_vals *out) {
  if (a->shifted && b->shifted) {
    if (!lanes_invariant(a) || !lanes_invariant(b)) return false;
    lanes_fill(out, 0, true);
    return true;
  }
  if ((a->shifted && !lanes_invariant(b)) || (b->shifted && !lanes_invariant(a))) return false;
  for (int l = 0; l < 32; l++) out->v[l] = a->v[l] * b->v[l];
  out->shifted = a->shifted || b->shifted;
  return lanes_in_range(out, -LANE_VALUE_LIMIT);
}

static bool lane_expr(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth);

static bool lane_binary(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  child_list l = children(c);
  if (l.n != 2) return false;
  lane_vals a, b;
  if (!lane_expr(k, l.c[0], warp, &a, depth + 1) || !lane_expr(k, l.c[1], warp, &b, depth + 1)) return false;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
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
    return lanes_exact_op(op, &a, &b, out);
  default:
    return false;
  }
}

/* A local variable through its single initialiser, as eval_var does; a loop
 * variable is its start plus the loop's progress, uniform across the warp. */
static bool lane_var(kernel_ctx *k, CXCursor decl, int warp, lane_vals *out, int depth) {
  int v = find_var(k, decl);
  if (v < 0) return false;
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  if (k->vars[v].writes != 0 || clang_Cursor_isNull(init) || k->vars[v].evaluating) return false;
  k->vars[v].evaluating = true;
  bool ok = lane_expr(k, init, warp, out, depth + 1);
  k->vars[v].evaluating = false;
  if (!ok || k->vars[v].loop_atom < 0) return ok;
  out->shifted = true;
  if (k->vars[v].loop_atom == k->probe_loop)
    for (int l = 0; l < 32; l++) out->v[l] += k->probe_step;
  return true;
}

static bool lane_decl_ref(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  long long value;
  if (const_value(c, &value)) { lanes_fill(out, value, false); return true; }
  CXCursor d = clang_getCursorReferenced(c);
  if (active_binding(k, d)) return false;
  switch (clang_getCursorKind(d)) {
  case CXCursor_ParmDecl:
  case CXCursor_NonTypeTemplateParameter:
    lanes_fill(out, 0, true);    /* kernel parameters and template parameters: uniform */
    return true;
  case CXCursor_VarDecl:
    return lane_var(k, d, warp, out, depth);
  default:
    return false;
  }
}

static bool lane_expr(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth) {
  c = strip(c);
  long long value;
  if (depth > 24) return false;
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
    if (!eval_int(c, &value)) return false;
    lanes_fill(out, value, false);
    return true;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom < 0) return false;
    lane_builtin(k, atom, warp, out);
    return true;
  }
  case CXCursor_DeclRefExpr:
    return lane_decl_ref(k, c, warp, out, depth);
  case CXCursor_BinaryOperator:
    return lane_binary(k, c, warp, out, depth);
  case CXCursor_UnaryOperator: {
    child_list l = children(c);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (l.n != 1 || (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus)) return false;
    if (!lane_expr(k, l.c[0], warp, out, depth + 1)) return false;
    if (op == CXUnaryOperator_Minus)
      for (int i = 0; i < 32; i++) out->v[i] = -out->v[i];
    return true;
  }
  default:
    return false;
  }
}

/* The flattened element offset of each lane of warp w, as flatten() builds it. */
static bool flatten_lanes(kernel_ctx *k, const access_info *x, long long pad, int warp, lane_vals *out) {
  const array_info *a = &k->arrays[x->array];
  lanes_fill(out, 0, false);
  for (int d = 0; d < x->nidx; d++) {
    if (d + 1 < a->ndim && a->ext[d + 1] <= 0) return false;
    lane_vals idx, scale;
    if (!lane_expr(k, x->index[d], warp, &idx, 0)) return false;
    lanes_fill(&scale, flatten_extent_product(a, d + 1, pad), false);
    if (!lanes_mul(&idx, &scale, &idx)) return false;
    for (int l = 0; l < 32; l++) out->v[l] += idx.v[l];
    out->shifted = out->shifted || idx.shifted;
  }
  return true;
}

/* Whether an unrolled loop (constant trip, unit step) around the access
 * walks consecutive elements: the compiler may then merge its iterations into
 * one 8- or 16-byte access (06_regtile_2d's As[trow * TM + i][k] becomes
 * LDS.128), whose bank pattern is not the one-word access modelled here. */
static bool vectorisable(kernel_ctx *k, const access_info *x, long long pad, const lane_vals *base) {
  for (int i = 0; i < x->loop_count && i < MAX_LOOPS; i++) {
    int loop = x->loops[i];
    if (loop < 0 || !k->atoms[loop].const_trip || !k->atoms[loop].unit_step) continue;
    lane_vals moved;
    k->probe_loop = loop;
    k->probe_step = 1;
    bool ok = flatten_lanes(k, x, pad, 0, &moved);
    k->probe_loop = -1;
    if (!ok) return true;        /* unsure: treat as vectorisable, stay silent */
    long long step = moved.v[0] - base->v[0];
    bool uniform_step = step == 1 || step == -1;
    for (int l = 1; l < 32 && uniform_step; l++) uniform_step = moved.v[l] - base->v[l] == step;
    if (uniform_step) return true;
  }
  return false;
}

/* The lanes of an access whose index is no polynomial, evaluated warp by
 * warp over the block (over blockDim.x up to 1024 when no launch gives the
 * shape). Kept only when every warp shows the same pattern up to a shift,
 * so that warp 0 speaks for all of them. Not for helpers' accesses (their
 * parameters are no longer bound here), accesses through '&' (the cast
 * decides the width), sub-word elements with a dropped uniform part (the
 * dropped shift could move lanes across word boundaries), or accesses an
 * unrolled loop may widen (vectorisable). */
static void model_lanes_evaluated(kernel_ctx *k, const access_info *x, long long pad, lane_model *m) {
  if (x->flattened || x->addr_taken) return;
  int warps = 32;
  if (k->block_known) {
    long long threads = k->block[0] * k->block[1] * k->block[2];
    if (threads <= 0 || threads > 1024 || threads % 32 != 0) return;
    warps = (int)(threads / 32);
  }
  lane_vals first, other;
  if (!flatten_lanes(k, x, pad, 0, &first)) return;
  if (first.shifted && k->arrays[x->array].elem_size < 4) return;
  if (vectorisable(k, x, pad, &first)) return;
  for (int w = 1; w < warps; w++) {
    if (!flatten_lanes(k, x, pad, w, &other)) return;
    for (int l = 1; l < 32; l++)
      if (other.v[l] - other.v[0] != first.v[l] - first.v[0]) return;
  }
  memcpy(m->offset, first.v, sizeof m->offset);
  m->kind = lanes_invariant(&first) ? LANE_UNIFORM : LANE_CONCRETE;
  m->evaluated = true;
  /* a lane stride only when the offsets are an arithmetic sequence */
  m->stride_value = first.v[1] - first.v[0];
  m->stride_const = true;
  for (int l = 2; l < 32 && m->stride_const; l++)
    m->stride_const = first.v[l] - first.v[l - 1] == m->stride_value;
  if (m->stride_const) poly_const(&m->stride, m->stride_value);
  else poly_unknown(&m->stride, false);
}

/* The lane model of an access: its polynomial, or failing that (and not
 * because of a value loaded from memory) its lanes evaluated one by one. */
void model_access(kernel_ctx *k, const access_info *x, long long pad, const poly *off, lane_model *m) {
  model_lanes(k, off, m);
  if (m->kind == LANE_UNKNOWN && off->unknown && !off->data_dependent) model_lanes_evaluated(k, x, pad, m);
}

/* Source text of the last extent of an array declaration, for padding. */

/* G_3's condition: the lanes do not walk consecutive elements, and (where
 * the offsets are known) touch more 32-byte sectors than a unit-stride
 * request would. Symbolic strides (row * n) count as strided. */
bool lanes_strided(const lane_model *m, long long elem_size, int *got, int *ideal) {
  bool irregular = lanes_irregular(m);
  bool strided = (m->kind == LANE_CONCRETE && m->stride_const && m->stride_value != 0 &&
                  m->stride_value != 1) || irregular ||
                 (m->kind == LANE_SYMBOLIC && !m->stride_const && !m->stride.unknown);
  *ideal = (int)((32 * elem_size + 31) / 32);
  *got = 0;
  if (strided && m->kind == LANE_CONCRETE) {
    *got = sectors(m, elem_size);
    if (*got <= *ideal) strided = false;
  }
  return strided;
}

/* Lanes evaluated one by one with no single stride (t / 2 * n). */
bool lanes_irregular(const lane_model *m) {
  return m->kind == LANE_CONCRETE && m->evaluated && !m->stride_const;
}

bool lanes_consecutive(const lane_model *m) {
  return (m->kind == LANE_CONCRETE || m->kind == LANE_SYMBOLIC) && m->stride_const && m->stride_value == 1;
}

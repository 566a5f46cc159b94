/* Index polynomials and addresses. An integer expression becomes a sum of
 * integer-coefficient terms over threadIdx/blockIdx/blockDim/gridDim, kernel
 * parameters, loop progress, template parameters and other warp-uniform
 * values (affine.h), reading local variables from the walk's environment.
 * A pointer or an element access becomes an address: the array it points
 * into and a byte offset, through subscripts, pointer arithmetic, casts,
 * '&', '*', struct members ('.' and '->', offsets from the AST) and local
 * pointer variables. Anything else is unknown. */
#include "analysis.h"

#include <string.h>

static int builtin_atom(const char *base, const char *member) {
  static const char *const bases[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  if (strlen(member) != 1 || member[0] < 'x' || member[0] > 'z') return -1;
  for (int b = 0; b < 4; b++)
    if (strcmp(base, bases[b]) == 0) return b * 3 + (member[0] - 'x');
  return -1;
}

/* threadIdx.x etc.: a MemberRefExpr over a DeclRefExpr of the built-in. */
int member_builtin(CXCursor c) {
  child_list l = children(c);
  if (l.n != 1) return -1;
  CXCursor base = strip(l.c[0]);
  if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return -1;
  char *b = cx_take(clang_getCursorSpelling(base));
  char *m = cx_take(clang_getCursorSpelling(c));
  int atom = builtin_atom(b, m);
  free(b);
  free(m);
  return atom;
}

/* The instantiation's value of a template parameter (a type's size, a
 * non-type parameter's value), when the analysed instantiation fixes it. */
bool template_value(const kernel_ctx *k, CXCursor param, long long *v) {
  for (int i = 0; k->targs && i < k->targs->count; i++) {
    if (k->targs->known[i] && clang_equalCursors(k->targs->param[i], param)) {
      *v = k->targs->value[i];
      return true;
    }
  }
  return false;
}

/* A uniform value warplint cannot know, one atom per expression: the field
 * of a struct parameter (p.n), a load from a warp-uniform address. */
static void uniform_atom(kernel_ctx *k, CXCursor decl, const char *name, poly *out) {
  poly_atom(out, add_atom(k, ATOMK_UNIFORM, decl, name));
}

/* Whether p is a known value, the same for the lanes of a warp; notes in
 * *per_block when it may differ between blocks. */
static bool uniform_known(const kernel_ctx *k, const poly *p, bool *per_block) {
  if (p->unknown || poly_lane_dependent(p)) return false;
  *per_block = *per_block || uses_index_atoms(k, p);
  return true;
}

/* c's value as a warp-uniform atom of its own (per block or for the grid). */
static void uniform_value(kernel_ctx *k, CXCursor c, bool per_block, poly *out) {
  char *text = source_text(c);
  char name[64];
  snprintf(name, sizeof name, "(%s)", text);
  free(text);
  uniform_atom(k, c, name, out);
  if (per_block) k->atoms[out->terms[0].atoms[0]].per_block = true;
}

/* Whether a condition comes out alike for the lanes of a warp: every value
 * it compares is known and lane-independent. */
bool uniform_condition(kernel_ctx *k, CXCursor c, bool *per_block, int depth) {
  CXCursor s = strip(c);
  child_list l = children(s);
  if (clang_getCursorKind(s) == CXCursor_UnaryOperator && l.n == 1) return uniform_condition(k, l.c[0], per_block, depth + 1);
  if (clang_getCursorKind(s) == CXCursor_BinaryOperator && l.n == 2) {
    switch (clang_getCursorBinaryOperatorKind(s)) {
    case CXBinaryOperator_LAnd: case CXBinaryOperator_LOr:
    case CXBinaryOperator_LT: case CXBinaryOperator_GT: case CXBinaryOperator_LE:
    case CXBinaryOperator_GE: case CXBinaryOperator_EQ: case CXBinaryOperator_NE:
      return uniform_condition(k, l.c[0], per_block, depth + 1) && uniform_condition(k, l.c[1], per_block, depth + 1);
    default:
      break;
    }
  }
  poly p;
  eval_poly(k, s, &p, depth + 1);
  return uniform_known(k, &p, per_block);
}

/* p.x where p is a parameter passed by value (a struct or vector type). */
static bool parameter_field(kernel_ctx *k, CXCursor c, poly *out) {
  child_list l = children(c);
  if (l.n != 1) return false;
  CXCursor base = strip(l.c[0]);
  if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return false;
  CXCursor d = clang_getCursorReferenced(base);
  if (clang_getCursorKind(d) != CXCursor_ParmDecl || is_pointer_type(clang_getCursorType(d))) return false;
  char *p = cx_take(clang_getCursorSpelling(d)), *f = cx_take(clang_getCursorSpelling(c));
  char name[64];
  snprintf(name, sizeof name, "%s.%s", p, f);
  uniform_atom(k, d, name, out);
  free(p);
  free(f);
  return true;
}

/* A value read from memory: uniform across the warp when every lane reads
 * the same address (a[blockIdx.x], p->n with a uniform p). */
static void loaded_value(kernel_ctx *k, CXCursor c, poly *out, int depth) {
  address a;
  memset(&a, 0, sizeof a);
  bool found = eval_ref(k, c, &a, depth + 1), known = found && !a.off.unknown;
  if (known && a.array >= 0 && k->arrays[a.array].space == SP_LOCAL) {
    poly_unknown(out, true);       /* a private array: each thread holds its own values */
    return;
  }
  if (known && !poly_lane_dependent(&a.off)) {
    char *text = cx_take(clang_getCursorSpelling(c));
    uniform_atom(k, c, *text ? text : "loaded value", out);
    free(text);
    if (out->count == 1 && (uses_index_atoms(k, &a.off) || (a.array >= 0 && k->arrays[a.array].space == SP_SHARED)))
      k->atoms[out->terms[0].atoms[0]].per_block = true;
    return;
  }
  poly_unknown(out, true);
  /* each lane loads from its own address: the values are taken to differ */
  out->lane_varying = known || (found && a.off.lane_varying);
}

static void eval_decl_ref(kernel_ctx *k, CXCursor c, poly *out) {
  long long value;
  if (const_value(c, &value)) { poly_const(out, value); return; }
  CXCursor d = clang_getCursorReferenced(c);
  int v = find_var(k, d);
  if (v >= 0) {
    *out = k->env[v].value;
    return;
  }
  char *name = cx_take(clang_getCursorSpelling(d));
  switch (clang_getCursorKind(d)) {
  case CXCursor_ParmDecl:
    poly_atom(out, add_atom(k, ATOMK_PARAM, d, name));
    break;
  case CXCursor_NonTypeTemplateParameter:
    if (template_value(k, d, &value)) poly_const(out, value);
    else poly_atom(out, add_atom(k, ATOMK_TEMPLATE, d, name));
    break;
  case CXCursor_VarDecl:
    /* a __constant__ scalar: the host sets it, every thread of the grid
     * reads the one value, as a parameter's (pitch_c in z * pitch_c + x) */
    if (has_attr(d, CXCursor_CUDAConstantAttr) && clang_getCanonicalType(clang_getCursorType(d)).kind != CXType_ConstantArray)
      poly_atom(out, add_atom(k, ATOMK_PARAM, d, name));
    else
      poly_unknown(out, false);
    break;
  default:
    poly_unknown(out, false);
    break;
  }
  free(name);
}

/* A / B, A % B and the like by values warplint cannot know. On two
 * warp-uniform operands the result is uniform too. With a run-time
 * divisor (a parameter, blockDim) and a dividend whose lane-varying part
 * spans less than a warp (idx = blockIdx.x * blockDim.x + threadIdx.x), the
 * divisor is taken to be at least a warp's width, as real sizes are: then
 * A / B is uniform across the warp, and A % B keeps A's lane-varying part
 * (t = idx % T, c = idx % C in llm.c's kernels). */
static bool runtime_divisor(kernel_ctx *k, CXCursor c, enum CXBinaryOperatorKind op, const poly *a, const poly *b,
                            poly *out) {
  if (a->unknown || b->unknown || poly_lane_dependent(b)) return false;
  bool division = op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem;
  bool bits = op == CXBinaryOperator_Shr || op == CXBinaryOperator_And || op == CXBinaryOperator_Or ||
              op == CXBinaryOperator_Xor;
  if (!division && !bits) return false;
  char *text = source_text(c);
  char name[64];
  snprintf(name, sizeof name, "(%s)", text);
  free(text);
  if (!poly_lane_dependent(a)) {                              /* uniform op uniform */
    uniform_atom(k, c, name, out);
    k->atoms[out->terms[0].atoms[0]].quotient = true;
    return true;
  }
  long long spread;
  if (!division || poly_is_const(b, &spread) || !lane_spread(k, a, &spread) || spread >= 32) return false;
  if (op == CXBinaryOperator_Div) {
    uniform_atom(k, c, name, out);
    atom_info *q = &k->atoms[out->terms[0].atoms[0]];
    q->quotient = q->per_block = q->from_threads = true;
    return true;
  }
  poly lane, rest, u;
  poly_split(a, ATOM_BX, &lane, &rest);
  uniform_atom(k, c, name, &u);
  atom_info *q = &k->atoms[u.terms[0].atoms[0]];
  q->per_block = q->from_threads = true;
  poly_add(out, &lane, &u, 1);
  return true;
}

static void eval_binary(kernel_ctx *k, CXCursor c, poly *out, int depth) {
  child_list l = children(c);
  if (l.n != 2) { poly_unknown(out, false); return; }
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  if (op == CXBinaryOperator_Comma) { eval_poly(k, l.c[1], out, depth + 1); return; }
  poly a, b;
  eval_poly(k, l.c[0], &a, depth + 1);
  eval_poly(k, l.c[1], &b, depth + 1);
  long long x, y;
  bool ca = poly_is_const(&a, &x), cb = poly_is_const(&b, &y);
  switch (op) {
  case CXBinaryOperator_Add: poly_add(out, &a, &b, 1); return;
  case CXBinaryOperator_Sub: poly_add(out, &a, &b, -1); return;
  case CXBinaryOperator_Mul: poly_mul(out, &a, &b); return;
  case CXBinaryOperator_Shl:
    if (cb && y >= 0 && y < 31) { poly s; poly_const(&s, 1LL << y); poly_mul(out, &a, &s); return; }
    break;
  case CXBinaryOperator_Div:
    if (ca && cb && y != 0) { poly_const(out, x / y); return; }
    break;
  case CXBinaryOperator_Rem:
    if (ca && cb && y != 0) { poly_const(out, x % y); return; }
    break;
  case CXBinaryOperator_Shr:
    if (ca && cb && y >= 0 && y < 63) { poly_const(out, x >> y); return; }
    break;
  case CXBinaryOperator_And:
    if (ca && cb) { poly_const(out, x & y); return; }
    break;
  default:
    break;
  }
  if (runtime_divisor(k, c, op, &a, &b, out)) return;
  poly_unknown(out, a.data_dependent || b.data_dependent);
  out->lane_varying = poly_varies(&a) || poly_varies(&b);
}

static void eval_call(kernel_ctx *k, CXCursor c, poly *out, int depth);

void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth) {
  c = strip(c);
  long long value;
  if (depth > 32) { poly_unknown(out, false); return; }
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
  case CXCursor_CXXBoolLiteralExpr:
    if (eval_int(c, &value)) poly_const(out, value);
    else poly_unknown(out, false);
    return;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom >= ATOM_BDX && atom <= ATOM_BDZ && k->block_known) poly_const(out, k->block[atom - ATOM_BDX]);
    else if (atom >= 0) poly_atom(out, atom);
    else if (!parameter_field(k, c, out)) loaded_value(k, c, out, depth);
    return;
  }
  case CXCursor_ArraySubscriptExpr:
    loaded_value(k, c, out, depth);
    return;
  case CXCursor_DeclRefExpr:
    eval_decl_ref(k, c, out);
    return;
  case CXCursor_BinaryOperator:
    eval_binary(k, c, out, depth);
    return;
  case CXCursor_UnaryOperator: {
    child_list l = children(c);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (l.n == 1 && (op == CXUnaryOperator_Minus || op == CXUnaryOperator_Plus)) {
      poly a, m;
      eval_poly(k, l.c[0], &a, depth + 1);
      poly_const(&m, op == CXUnaryOperator_Minus ? -1 : 1);
      poly_mul(out, &a, &m);
      return;
    }
    if (l.n == 1 && op == CXUnaryOperator_Deref) { loaded_value(k, c, out, depth); return; }
    poly_unknown(out, false);
    return;
  }
  case CXCursor_ConditionalOperator: {
    /* c ? a : a' with the same value either way; a choice every lane makes
     * alike (xl < 0 ? 0 : xl on a block's corner) is one warp-uniform value */
    child_list l = children(c);
    poly a, b;
    if (l.n != 3) { poly_unknown(out, false); return; }
    eval_poly(k, l.c[1], &a, depth + 1);
    eval_poly(k, l.c[2], &b, depth + 1);
    bool per_block = false;
    if (poly_equal(&a, &b)) *out = a;
    else if (uniform_known(k, &a, &per_block) && uniform_known(k, &b, &per_block) &&
             uniform_condition(k, l.c[0], &per_block, depth + 1))
      uniform_value(k, c, per_block, out);
    else poly_unknown(out, a.data_dependent || b.data_dependent);
    return;
  }
  case CXCursor_CallExpr:
    eval_call(k, c, out, depth);
    return;
  default:
    poly_unknown(out, false);
    return;
  }
}

/* A call's value is unknown. It is data-dependent (an index "loaded from
 * memory") when the call may read memory: a pointer argument, __ldg and
 * the other cache-hinted loads, or an argument that is itself loaded.
 * min(max(x - 1, 0), w - 1) is not: it clamps a thread index. It differs
 * per lane when an argument does. */
static void eval_call(kernel_ctx *k, CXCursor c, poly *out, int depth) {
  char *callee = cx_take(clang_getCursorSpelling(c));
  bool loads = strncmp(callee, "__ld", 4) == 0, varying = false;
  free(callee);
  int n = clang_Cursor_getNumArguments(c);
  loads = loads || n < 0;
  /* a library function (ceil, min, sqrtf) of warp-uniform values is one */
  CXCursor decl = clang_getCursorReferenced(c);
  bool library = n > 0 && !clang_Cursor_isNull(decl) &&
                 clang_Location_isInSystemHeader(clang_getCursorLocation(decl));
  bool uniform = library, per_block = false;
  for (int i = 0; i < n && !loads; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    if (is_pointer_type(clang_getCursorType(arg))) { loads = true; break; }
    poly a;
    eval_poly(k, arg, &a, depth + 1);
    loads = a.unknown && a.data_dependent;
    varying = varying || poly_varies(&a);
    uniform = uniform && uniform_known(k, &a, &per_block);
  }
  if (uniform && !loads) { uniform_value(k, c, per_block, out); return; }
  poly_unknown(out, loads);
  out->lane_varying = varying;
}

/* ---- addresses ---- */

/* The bytes one step of a subscript or of pointer arithmetic moves: the
 * size of t. */
static long long step_size(const kernel_ctx *k, CXType t, bool *assumed) {
  long long size = type_size(t);
  if (size <= 0) {
    /* A template's T: its instantiation's size, or 4 assumed. */
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
    long long v;
    if (clang_getCursorKind(decl) == CXCursor_TemplateTypeParameter && template_value(k, decl, &v)) return v;
    decl = clang_getTypeDeclaration(t);
    if (clang_getCursorKind(decl) == CXCursor_TemplateTypeParameter && template_value(k, decl, &v)) return v;
    *assumed = true;
    return 4;
  }
  return size;
}

/* With the last dimension of k->pad_array padded by one element (the S_1
 * fix-it being tried), a row of that array (an array type) grows by one
 * element per innermost row. */
static long long padded_step(const kernel_ctx *k, int array, CXType t, long long size) {
  if (array < 0 || array != k->pad_array) return size;
  CXType canon = clang_getCanonicalType(t);
  if (canon.kind != CXType_ConstantArray) return size;
  const array_info *a = &k->arrays[array];
  long long last = a->ext[a->ndim - 1];
  return last > 0 ? size / last * (last + 1) : size;
}

static void offset_add(address *a, const poly *index, long long scale) {
  poly s, term;
  poly_const(&s, scale);
  poly_mul(&term, index, &s);
  poly_add(&a->off, &a->off, &term, 1);
}

/* The array and byte offset a pointer-valued (or array-valued, decaying)
 * expression designates. */
/* The extern __shared__ array a function returns, as cuda-samples'
 * SharedMemory<T> does (its conversion to T * gives every reduction sample
 * its shared memory): fn's body ends in `return (T *)array;`. */
static bool returns_shared_array(kernel_ctx *k, CXCursor fn, address *out) {
  CXCursor def = clang_getCursorDefinition(fn), body, ret;
  if (clang_Cursor_isNull(def) || !child_of_kind(def, CXCursor_CompoundStmt, &body) ||
      !child_of_kind(body, CXCursor_ReturnStmt, &ret))
    return false;
  child_list l = children(ret);
  if (l.n != 1) return false;
  CXCursor value = strip(l.c[0]);
  if (clang_getCursorKind(value) != CXCursor_DeclRefExpr) return false;
  CXCursor decl = clang_getCursorReferenced(value);
  if (!has_attr(decl, CXCursor_CUDASharedAttr)) return false;
  out->array = array_for_decl(k, decl);
  poly_const(&out->off, 0);
  return out->array >= 0;
}

/* A pointer from a call (SharedMemory<float>()'s conversion, resolved) or,
 * in a template's own text where the conversion is not resolved yet, from
 * an object of a class whose conversion operator returns the array. */
static bool shared_memory_helper(kernel_ctx *k, CXCursor c, address *out) {
  if (clang_getCursorKind(c) == CXCursor_CallExpr && returns_shared_array(k, clang_getCursorReferenced(c), out))
    return true;
  CXCursor cls = clang_getTypeDeclaration(clang_getCursorType(c));
  if (clang_getCursorKind(cls) == CXCursor_NoDeclFound) {
    CXCursor ref;
    if (!child_of_kind(c, CXCursor_TemplateRef, &ref)) return false;
    cls = clang_getCursorReferenced(ref);
  }
  CXCursor conversion;
  return child_of_kind(cls, CXCursor_ConversionFunction, &conversion) && returns_shared_array(k, conversion, out);
}

bool eval_pointer(kernel_ctx *k, CXCursor c, address *out, int depth) {
  if (depth > 32) return false;
  CXCursor s = strip(c);
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  out->size_assumed = false;
  out->width = is_pointer_type(t) ? step_size(k, clang_getPointeeType(t), &out->size_assumed)
                                  : t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray
                                  ? step_size(k, clang_getArrayElementType(t), &out->size_assumed) : 0;
  switch (clang_getCursorKind(s)) {
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(s);
    int v = find_var(k, d);
    if (v >= 0 && k->env[v].array >= 0) {
      out->array = k->env[v].array;
      out->off = k->env[v].offset;
      return true;
    }
    out->array = array_for_decl(k, d);     /* a file-scope array is registered at its first use */
    poly_const(&out->off, 0);
    return out->array >= 0;
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
    child_list l = children(s);
    if (l.n != 2 || (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)) return false;
    bool left = is_pointer_type(clang_getCursorType(l.c[0])) ||
                clang_getCanonicalType(clang_getCursorType(l.c[0])).kind == CXType_ConstantArray;
    CXCursor base = left ? l.c[0] : l.c[1], index = left ? l.c[1] : l.c[0];
    address b;
    if (!eval_pointer(k, base, &b, depth + 1)) return false;
    poly i;
    eval_poly(k, index, &i, depth + 1);
    if (op == CXBinaryOperator_Sub) {
      poly minus;
      poly_const(&minus, -1);
      poly_mul(&i, &i, &minus);
    }
    out->array = b.array;
    out->off = b.off;
    out->size_assumed |= b.size_assumed;
    offset_add(out, &i, b.width);
    return true;
  }
  case CXCursor_UnaryOperator: {
    child_list l = children(s);
    if (l.n != 1 || clang_getCursorUnaryOperatorKind(s) != CXUnaryOperator_AddrOf) return false;
    address r;
    if (!eval_ref(k, l.c[0], &r, depth + 1)) return false;
    out->array = r.array;
    out->off = r.off;
    out->size_assumed |= r.size_assumed;
    return true;
  }
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_MemberRefExpr: {
    /* a row of a 2-D array, or an array member, decaying to a pointer */
    address r;
    if (!eval_ref(k, s, &r, depth + 1)) return false;
    out->array = r.array;
    out->off = r.off;
    out->size_assumed |= r.size_assumed;
    return true;
  }
  default:
    return shared_memory_helper(k, s, out);
  }
}

/* The byte offset of the member that s.f or p->f names, from the AST. */
bool member_offset(CXCursor member, long long *bytes) {
  child_list l = children(member);
  CXType record;
  if (l.n == 1) {
    record = clang_getCanonicalType(clang_getCursorType(l.c[0]));
    if (is_pointer_type(record)) record = clang_getPointeeType(record);
  } else if (l.n == 0) {                 /* m_angle inside a method: *this's class */
    record = clang_getCursorType(clang_getCursorSemanticParent(clang_getCursorReferenced(member)));
  } else {
    return false;
  }
  char *field = cx_take(clang_getCursorSpelling(member));
  long long bits = clang_Type_getOffsetOf(record, field);
  free(field);
  if (bits < 0 || bits % 8) return false;
  *bytes = bits / 8;
  return true;
}

static bool member_ref(kernel_ctx *k, CXCursor c, address *out, int depth) {
  long long offset;
  child_list l = children(c);
  if (l.n != 1 || member_builtin(c) >= 0 || !member_offset(c, &offset)) return false;
  CXCursor base = l.c[0];
  bool arrow = is_pointer_type(clang_getCursorType(base));       /* p->f, else s.f */
  if (!(arrow ? eval_pointer(k, base, out, depth + 1) : eval_ref(k, base, out, depth + 1))) return false;
  poly o;
  poly_const(&o, offset);
  poly_add(&out->off, &out->off, &o, 1);
  out->width = step_size(k, clang_getCursorType(c), &out->size_assumed);
  return true;
}

long long subscript_step(const kernel_ctx *k, int array, CXCursor subscript) {
  bool assumed = false;
  CXType t = clang_getCursorType(subscript);
  return padded_step(k, array, t, step_size(k, t, &assumed));
}

/* The element an lvalue expression names: a[i], a[i][j], *p, p[i].f, p->f. */
bool eval_ref(kernel_ctx *k, CXCursor c, address *out, int depth) {
  if (depth > 32) return false;
  CXCursor s = strip(c);
  switch (clang_getCursorKind(s)) {
  case CXCursor_ArraySubscriptExpr: {
    child_list l = children(s);
    if (l.n != 2 || !eval_pointer(k, l.c[0], out, depth + 1)) return false;
    poly i;
    eval_poly(k, l.c[1], &i, depth + 1);
    out->width = step_size(k, clang_getCursorType(s), &out->size_assumed);
    offset_add(out, &i, subscript_step(k, out->array, s));
    return true;
  }
  case CXCursor_UnaryOperator: {
    child_list l = children(s);
    if (l.n != 1 || clang_getCursorUnaryOperatorKind(s) != CXUnaryOperator_Deref) return false;
    if (!eval_pointer(k, l.c[0], out, depth + 1)) return false;
    out->width = step_size(k, clang_getCursorType(s), &out->size_assumed);
    return true;
  }
  case CXCursor_MemberRefExpr:
    return member_ref(k, s, out, depth);
  default:
    return false;
  }
}

/* ---- after full unrolling ---- */

/* Whether an index is a constant once the compiler has fully unrolled the
 * loops: literals, template parameters, variables whose value is (counters
 * of constant-trip loops, and what is computed from them), and any
 * arithmetic (even % and /) on them. */
bool unroll_known(kernel_ctx *k, CXCursor c, int depth) {
  if (depth > 24) return false;
  if (compile_time(c)) return true;
  c = strip(c);
  switch (clang_getCursorKind(c)) {
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) return true;
    int i = find_var(k, d);
    return i >= 0 && k->env[i].unroll_known;
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

bool uses_loop_atom(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].kind == ATOMK_LOOP && poly_uses_atom(p, a)) return true;
  return false;
}

bool moves_with_loop(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if ((k->atoms[a].kind == ATOMK_LOOP || k->atoms[a].loop_carried) && poly_uses_atom(p, a)) return true;
  return false;
}

/* Whether p depends on a thread or block index, or on a value that may
 * differ between blocks (per_block): then p is not the same for the grid. */
bool uses_index_atoms(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_TX; a <= ATOM_BZ; a++)
    if (poly_uses_atom(p, a)) return true;
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].per_block && poly_uses_atom(p, a)) return true;
  return false;
}

void poly_text(const kernel_ctx *k, const poly *p, char *out, size_t size) {
  static const char *const builtin[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
    "blockIdx.y", "blockIdx.z", "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x", "gridDim.y", "gridDim.z"};
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < p->count && len < size; i++) {
    const poly_term *t = &p->terms[i];
    /* "n - 1", "-n + 1": a negative coefficient as a minus sign */
    long long magnitude = t->coef < 0 ? -t->coef : t->coef;
    len += (size_t)snprintf(out + len, size - len, "%s", i ? (t->coef < 0 ? " - " : " + ") : (t->coef < 0 ? "-" : ""));
    if (magnitude != 1 || t->degree == 0)
      len += (size_t)snprintf(out + len, size - len, "%lld%s", magnitude, t->degree ? "*" : "");
    for (int a = 0; a < t->degree && len < size; a++) {
      int id = t->atoms[a];
      len += (size_t)snprintf(out + len, size - len, "%s%s", a ? "*" : "",
                              id < ATOM_FIRST_SYMBOL ? builtin[id] : k->atoms[id].name);
    }
  }
}

/* Index polynomials: a subscript as a sum of integer-coefficient terms over
 * threadIdx/blockIdx/blockDim/gridDim, kernel parameters, loop progress and
 * template parameters (affine.h), following local variables through their
 * single definition. Anything else makes the index unknown. */
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

static bool is_array_read(CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  return kind == CXCursor_ArraySubscriptExpr || kind == CXCursor_CallExpr;
}

static void eval_var(kernel_ctx *k, CXCursor decl, poly *out, int depth) {
  int v = find_var(k, decl);
  if (v < 0) { poly_unknown(out, false); return; }
  var_info *var = &k->vars[v];
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  bool has_init = !clang_Cursor_isNull(init);
  if (var->loop_atom >= 0) {
    /* i = init + (lane-uniform progress of the loop) */
    poly start, step;
    if (var->writes != 0 || !has_init) { poly_unknown(out, false); return; }
    eval_poly(k, init, &start, depth + 1);
    poly_atom(&step, var->loop_atom);
    poly_add(out, &start, &step, 1);
    return;
  }
  if (var->writes != 0 || !has_init || var->evaluating) {
    poly_unknown(out, false);
    return;
  }
  var->evaluating = true;
  eval_poly(k, init, out, depth + 1);
  k->vars[v].evaluating = false;
}

void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth) {
  c = strip(c);
  long long value;
  if (depth > 24) { poly_unknown(out, false); return; }
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
    if (eval_int(c, &value)) poly_const(out, value);
    else poly_unknown(out, false);
    return;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom >= 0) {
      if (atom >= ATOM_BDX && atom <= ATOM_BDZ && k->block_known)
        poly_const(out, k->block[atom - ATOM_BDX]);
      else
        poly_atom(out, atom);
    } else {
      poly_unknown(out, false);
    }
    return;
  }
  case CXCursor_DeclRefExpr: {
    if (const_value(c, &value)) { poly_const(out, value); return; }
    CXCursor d = clang_getCursorReferenced(c);
    const binding *b = active_binding(k, d);
    if (b) {
      int v = find_var(k, d);
      if (b->array >= 0 || (v >= 0 && k->vars[v].writes != 0)) poly_unknown(out, false);
      else eval_poly(k, b->arg, out, depth + 1);
      return;
    }
    if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
      char *name = cx_take(clang_getCursorSpelling(d));
      poly_atom(out, add_atom(k, ATOMK_PARAM, d, name));
      free(name);
      return;
    }
    if (clang_getCursorKind(d) == CXCursor_VarDecl) { eval_var(k, d, out, depth); return; }
    if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) {
      char *name = cx_take(clang_getCursorSpelling(d));
      poly_atom(out, add_atom(k, ATOMK_TEMPLATE, d, name));
      free(name);
      return;
    }
    poly_unknown(out, false);
    return;
  }
  case CXCursor_BinaryOperator: {
    child_list l = children(c);
    if (l.n != 2) { poly_unknown(out, false); return; }
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
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
    default:
      break;
    }
    poly_unknown(out, a.data_dependent || b.data_dependent);
    return;
  }
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
    poly_unknown(out, false);
    return;
  }
  default:
    poly_unknown(out, is_array_read(c));
    return;
  }
}


long long flatten_extent_product(const array_info *a, int from, long long last_pad) {
  long long p = 1;
  for (int d = from; d < a->ndim; d++) p *= a->ext[d] + (d == a->ndim - 1 ? last_pad : 0);
  return p;
}

void flatten(kernel_ctx *k, access_info *x, long long pad, poly *out) {
  const array_info *a = &k->arrays[x->array];
  poly_const(out, 0);
  for (int d = 0; d < x->nidx; d++) {
    poly idx, scale, term;
    eval_poly(k, x->index[d], &idx, 0);
    long long stride = flatten_extent_product(a, d + 1, pad);
    if (d + 1 < a->ndim && a->ext[d + 1] <= 0) { poly_unknown(out, false); return; }
    poly_const(&scale, stride);
    poly_mul(&term, &idx, &scale);
    poly_add(out, out, &term, 1);
  }
}


void poly_text(const kernel_ctx *k, const poly *p, char *out, size_t size) {
  static const char *const builtin[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
    "blockIdx.y", "blockIdx.z", "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x", "gridDim.y", "gridDim.z"};
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < p->count && len < size; i++) {
    const poly_term *t = &p->terms[i];
    len += (size_t)snprintf(out + len, size - len, "%s", i ? " + " : "");
    if (t->coef != 1 || t->degree == 0)
      len += (size_t)snprintf(out + len, size - len, "%lld%s", t->coef, t->degree ? "*" : "");
    for (int a = 0; a < t->degree && len < size; a++) {
      int id = t->atoms[a];
      len += (size_t)snprintf(out + len, size - len, "%s%s", a ? "*" : "",
                              id < ATOM_FIRST_SYMBOL ? builtin[id] : k->atoms[id].name);
    }
  }
}


bool uses_loop_atom(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].kind == ATOMK_LOOP && poly_uses_atom(p, a)) return true;
  return false;
}

bool uses_index_atoms(const poly *p) {
  for (int a = ATOM_TX; a <= ATOM_BZ; a++)
    if (poly_uses_atom(p, a)) return true;
  return false;
}


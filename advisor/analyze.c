/* The analysis of one CUDA file: parse it with libclang, find the kernels,
 * inventory the arrays each touches, express every subscript as an index
 * polynomial (affine.h), model the 32 lanes of a warp, and apply the checked
 * rules. Where the model is unsure it records nothing (precision over
 * recall). */
#include "warplint.h"
#include "affine.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum space { SP_GLOBAL, SP_SHARED, SP_CONSTANT, SP_LOCAL, SP_TEXTURE };
static const char *const space_names[] = {"global", "shared", "constant", "local", "texture"};

/* ATOMK_TEMPLATE: a non-type template parameter, constant in each instantiation. */
enum { ATOMK_BUILTIN, ATOMK_PARAM, ATOMK_LOOP, ATOMK_TEMPLATE };

/* M_ADDR: the subscript sits under a plain '&' (&tile[i][j]), so the access
 * width is whatever the pointer is cast to, not the element's. */
enum { M_WRITE = 1, M_READ = 2, M_LDG = 4, M_ATOMIC = 8, M_LOOP_INC = 16, M_ADDR = 32 };

#define MAX_DIMS 4
#define MAX_LOOPS 16

typedef struct atom_info {
  int kind;
  CXCursor decl;
  char name[64];
  bool const_trip;               /* loop with constant bounds: unrollable */
  bool unit_step;                /* i++, i--, i += 1, i -= 1 */
  long long trips;               /* iterations when constant, else 0 */
} atom_info;

typedef struct var_info {
  CXCursor decl;
  int writes;                    /* stores outside the for-increment */
  int loop_atom;                 /* >= 0: a for-loop induction variable */
  bool evaluating;               /* guards against cycles */
} var_info;

typedef struct array_info {
  CXCursor decl;
  char *name, *elem_type;
  int space;
  long long elem_size, ext[MAX_DIMS], elements;
  int ndim;                      /* may exceed MAX_DIMS: then accesses are not modelled */
  bool is_param, param_const, param_restrict;
  bool written, read, escaped, atomic, swapped, compared, reusable;
  unsigned compare_line, compare_column;  /* first w[i] > w[j] */
  unsigned line, column;
  char patterns[160];
  char recommended[48];
} array_info;

typedef struct access_info {
  int array;
  CXCursor index[MAX_DIMS];
  int nidx;
  bool write, read, ldg;
  bool addr_taken;               /* under a plain '&': the element width may not be the access width */
  int loops[MAX_LOOPS];          /* atoms of the enclosing loops (-1: no induction variable) */
  int loop_count;
  unsigned line, column;
  poly off;                      /* flattened element index */
  bool flattened;                /* done already (inside an inlined helper) */
} access_info;

#define MAX_INLINE 3

/* A parameter of an inlined __device__ helper, bound to the caller's array
 * or argument expression while the helper's body is walked and its
 * accesses flattened. */
typedef struct binding {
  CXCursor param;
  int array;                     /* >= 0: the caller's array */
  CXCursor arg;                  /* array < 0: the argument expression */
  bool active;
} binding;

typedef struct kernel_ctx {
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  char *name;
  atom_info *atoms; int atom_count, atom_cap;
  var_info *vars; int var_count, var_cap;
  array_info *arrays; int array_count, array_cap;
  access_info *accesses; int access_count, access_cap;
  int loop_stack[MAX_LOOPS]; int loop_depth;
  int inc_var;                   /* var whose for-increment is being walked */
  CXFile file;                   /* the file being analysed: helpers are inlined only from it */
  binding *binds; int bind_count, bind_cap;
  CXCursor call_stack[MAX_INLINE]; int call_depth;
  long long block[3]; bool block_known;
  bool uses_dim[3];              /* threadIdx.y / .z appear in the kernel */
  int probe_loop;                /* lane_expr: this loop atom's variable moved by probe_step (-1: none) */
  long long probe_step;
} kernel_ctx;

/* Launch sites found in the file: kernel -> block shape. */
typedef struct launch_info {
  char *usr;
  long long block[3];
  bool known;
} launch_info;

typedef struct file_ctx {
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  CXFile file;
  launch_info *launches; int launch_count, launch_cap;
} file_ctx;

#define GROW(ptr, count, cap)                                              \
  do {                                                                     \
    if ((count) == (cap)) {                                                \
      (cap) = (cap) ? 2 * (cap) : 16;                                      \
      void *grown_ = realloc((ptr), (size_t)(cap) * sizeof *(ptr));        \
      if (!grown_) { fprintf(stderr, "warplint: out of memory\n"); exit(2); } \
      (ptr) = grown_;                                                      \
    }                                                                      \
  } while (0)

/* ---- small libclang helpers ---- */

static char *cx_take(CXString s) {
  char *r = wl_strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

typedef struct child_list { CXCursor c[8]; int n; } child_list;

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  child_list *l = d;
  if (l->n < 8) l->c[l->n] = c;
  l->n++;
  return CXChildVisit_Continue;
}

static child_list children(CXCursor c) {
  child_list l = {.n = 0};
  clang_visitChildren(c, collect_child, &l);
  if (l.n > 8) l.n = 8;
  return l;
}

/* Looks through implicit casts, parentheses and explicit casts. */
static CXCursor strip(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
        k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXFunctionalCastExpr)
      return c;
    child_list l = children(c);
    if (l.n == 0) return c;
    CXCursor last = l.c[l.n - 1];
    if (k == CXCursor_UnexposedExpr && l.n != 1) return c;
    c = last;
  }
}

static void location_of(CXCursor c, unsigned *line, unsigned *column) {
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, line, column, NULL);
}

static bool in_file(CXCursor c, CXFile file) {
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, file);
}

typedef struct kind_search { enum CXCursorKind kind; CXCursor found; bool hit; } kind_search;

static enum CXChildVisitResult match_kind(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  kind_search *s = d;
  if (clang_getCursorKind(c) != s->kind) return CXChildVisit_Continue;
  s->found = c;
  s->hit = true;
  return CXChildVisit_Break;
}

/* The first direct child of the given kind (any number of children). */
static bool child_of_kind(CXCursor c, enum CXCursorKind kind, CXCursor *out) {
  kind_search s = {.kind = kind, .hit = false};
  clang_visitChildren(c, match_kind, &s);
  if (s.hit && out) *out = s.found;
  return s.hit;
}

static bool has_attr(CXCursor c, enum CXCursorKind attr) {
  return child_of_kind(c, attr, NULL);
}

/* ---- constant and polynomial evaluation ---- */

static bool eval_int(CXCursor c, long long *v) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* A compile-time integer: literals, enumerators, const variables, and
 * arithmetic on them. */
static bool const_value(CXCursor c, long long *v) {
  c = strip(c);
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
  case CXCursor_BinaryOperator:
  case CXCursor_UnaryOperator:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_UnexposedExpr:   /* e.g. a default argument */
    return eval_int(c, v);
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
      *v = clang_getEnumConstantDeclValue(d);
      return true;
    }
    if (clang_getCursorKind(d) == CXCursor_VarDecl &&
        clang_isConstQualifiedType(clang_getCursorType(d)))
      return eval_int(d, v);
    return false;
  }
  default:
    return false;
  }
}

/* Known when the compiler unrolls: constants and template parameters. */
static bool compile_time(CXCursor c) {
  long long v;
  if (const_value(c, &v)) return true;
  c = strip(c);
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_DeclRefExpr)
    return clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_NonTypeTemplateParameter;
  if (kind == CXCursor_BinaryOperator) {
    child_list l = children(c);
    return l.n == 2 && compile_time(l.c[0]) && compile_time(l.c[1]);
  }
  return false;
}

static const binding *active_binding(const kernel_ctx *k, CXCursor decl) {
  for (int i = k->bind_count - 1; i >= 0; i--)
    if (k->binds[i].active && clang_equalCursors(k->binds[i].param, decl)) return &k->binds[i];
  return NULL;
}

static int find_var(kernel_ctx *k, CXCursor decl) {
  for (int i = 0; i < k->var_count; i++)
    if (clang_equalCursors(k->vars[i].decl, decl)) return i;
  return -1;
}

static int add_var(kernel_ctx *k, CXCursor decl) {
  int i = find_var(k, decl);
  if (i >= 0) return i;
  GROW(k->vars, k->var_count, k->var_cap);
  k->vars[k->var_count] = (var_info){.decl = decl, .writes = 0, .loop_atom = -1};
  return k->var_count++;
}

static int add_atom(kernel_ctx *k, int kind, CXCursor decl, const char *name) {
  for (int i = ATOM_FIRST_SYMBOL; i < k->atom_count; i++)
    if (k->atoms[i].kind == kind && clang_equalCursors(k->atoms[i].decl, decl)) return i;
  GROW(k->atoms, k->atom_count, k->atom_cap);
  atom_info *a = &k->atoms[k->atom_count];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->decl = decl;
  snprintf(a->name, sizeof a->name, "%s", name);
  return k->atom_count++;
}

static int builtin_atom(const char *base, const char *member) {
  static const char *const bases[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  if (strlen(member) != 1 || member[0] < 'x' || member[0] > 'z') return -1;
  for (int b = 0; b < 4; b++)
    if (strcmp(base, bases[b]) == 0) return b * 3 + (member[0] - 'x');
  return -1;
}

/* threadIdx.x etc.: a MemberRefExpr over a DeclRefExpr of the built-in. */
static int member_builtin(CXCursor c) {
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

static void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth);

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

static void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth) {
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

/* ---- arrays ---- */

static int find_array(kernel_ctx *k, CXCursor decl) {
  const binding *b = active_binding(k, decl);
  if (b) return b->array;
  for (int i = 0; i < k->array_count; i++)
    if (clang_equalCursors(k->arrays[i].decl, decl)) return i;
  return -1;
}

/* The element type under all array levels; extents of the first MAX_DIMS
 * levels in ext, the element count of all of them in *elements (-1 if unknown). */
static CXType element_type(CXType t, long long *ext, int *ndim, long long *elements) {
  *ndim = 0;
  *elements = 1;
  for (;;) {
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
        t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray) {
      long long size = clang_getArraySize(t);
      *elements = size > 0 && *elements > 0 ? *elements * size : -1;
      if (*ndim < MAX_DIMS) ext[*ndim] = size;
      (*ndim)++;
      t = clang_getArrayElementType(t);
      continue;
    }
    if (t.kind == CXType_Elaborated || t.kind == CXType_Typedef) {
      CXType canon = clang_getCanonicalType(t);
      if (canon.kind == CXType_ConstantArray || canon.kind == CXType_IncompleteArray) { t = canon; continue; }
    }
    return t;
  }
}

/* Registers the array that decl names, if it is one warplint tracks. */
static int array_for_decl(kernel_ctx *k, CXCursor decl) {
  if (active_binding(k, decl)) return find_array(k, decl);
  int found = find_array(k, decl);
  if (found >= 0) return found;
  enum CXCursorKind kind = clang_getCursorKind(decl);
  if (kind != CXCursor_ParmDecl && kind != CXCursor_VarDecl) return -1;
  CXType t = clang_getCursorType(decl);
  array_info a;
  memset(&a, 0, sizeof a);
  CXType elem;
  char *type_name = cx_take(clang_getTypeSpelling(t));
  bool texture = strstr(type_name, "cudaTextureObject_t") != NULL;
  free(type_name);
  if (kind == CXCursor_ParmDecl && texture) {
    /* Read through tex1Dfetch() and friends, never subscripted. */
    a.space = SP_TEXTURE;
    a.decl = decl;
    a.name = cx_take(clang_getCursorSpelling(decl));
    a.elem_type = wl_strdup("texture object");
    location_of(decl, &a.line, &a.column);
    GROW(k->arrays, k->array_count, k->array_cap);
    k->arrays[k->array_count] = a;
    return k->array_count++;
  }
  if (kind == CXCursor_ParmDecl) {
    CXType canon = clang_getCanonicalType(t);
    if (canon.kind != CXType_Pointer) return -1;
    elem = clang_getPointeeType(canon);
    a.space = SP_GLOBAL;
    a.is_param = true;
    a.param_const = clang_isConstQualifiedType(elem);
    a.param_restrict = clang_isRestrictQualifiedType(canon);
    a.ndim = 1;
    a.ext[0] = -1;
  } else {
    elem = element_type(t, a.ext, &a.ndim, &a.elements);
    if (a.ndim == 0) return -1;
    if (has_attr(decl, CXCursor_CUDASharedAttr)) a.space = SP_SHARED;
    else if (has_attr(decl, CXCursor_CUDAConstantAttr)) a.space = SP_CONSTANT;
    else if (clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_TranslationUnit ||
             clang_Cursor_getStorageClass(decl) == CX_SC_Static)
      a.space = SP_GLOBAL;  /* __device__ arrays at file scope */
    else a.space = SP_LOCAL;
  }
  a.elem_size = clang_Type_getSizeOf(elem);
  if (a.elem_size <= 0) return -1;  /* incomplete or dependent: stay silent */
  a.decl = decl;
  a.name = cx_take(clang_getCursorSpelling(decl));
  a.elem_type = cx_take(clang_getTypeSpelling(clang_getUnqualifiedType(elem)));
  location_of(decl, &a.line, &a.column);
  GROW(k->arrays, k->array_count, k->array_cap);
  k->arrays[k->array_count] = a;
  return k->array_count++;
}

/* ---- the walk over a kernel body ---- */

static void walk(kernel_ctx *k, CXCursor c, int mode);

typedef struct walk_arg { kernel_ctx *k; int mode; } walk_arg;

static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  walk_arg *w = d;
  walk(w->k, c, w->mode);
  return CXChildVisit_Continue;
}

static void walk_children(kernel_ctx *k, CXCursor c, int mode) {
  walk_arg w = {k, mode};
  clang_visitChildren(c, walk_child, &w);
}

static void record_access(kernel_ctx *k, CXCursor c, int mode) {
  CXCursor idx[MAX_DIMS];
  int n = 0;
  CXCursor cur = strip(c);
  bool deep = false;
  while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
    child_list l = children(cur);
    if (l.n != 2) return;
    walk(k, l.c[1], M_READ);
    if (n < MAX_DIMS) idx[n++] = l.c[1];
    else deep = true;
    cur = strip(l.c[0]);
  }
  if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr) {
    walk(k, cur, M_READ);
    return;
  }
  int ai = array_for_decl(k, clang_getCursorReferenced(cur));
  if (ai < 0 || deep) return;
  array_info *a = &k->arrays[ai];
  if (n != a->ndim) { a->escaped = true; return; }  /* pointer arithmetic we do not model */
  GROW(k->accesses, k->access_count, k->access_cap);
  access_info *x = &k->accesses[k->access_count++];
  memset(x, 0, sizeof *x);
  x->array = ai;
  x->nidx = n;
  for (int i = 0; i < n; i++) x->index[i] = idx[n - 1 - i];
  x->write = (mode & M_WRITE) != 0;
  x->read = (mode & M_READ) != 0 || !(mode & M_WRITE);
  x->ldg = (mode & M_LDG) != 0;
  x->addr_taken = (mode & M_ADDR) != 0;
  x->loop_count = k->loop_depth;
  memcpy(x->loops, k->loop_stack, sizeof k->loop_stack);
  location_of(cur, &x->line, &x->column);
  if (x->write) a->written = true;
  if (x->read) a->read = true;
  if (mode & M_ATOMIC) a->atomic = true;
}

static bool is_assignment(enum CXBinaryOperatorKind op) {
  return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
}

static int local_array_of(kernel_ctx *k, CXCursor subscript) {
  CXCursor s = strip(subscript);
  if (clang_getCursorKind(s) != CXCursor_ArraySubscriptExpr) return -1;
  child_list l = children(s);
  if (l.n != 2) return -1;
  CXCursor base = strip(l.c[0]);
  if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return -1;
  int ai = find_array(k, clang_getCursorReferenced(base));
  return ai >= 0 && k->arrays[ai].space == SP_LOCAL ? ai : -1;
}

/* The array an operand reads: w[i] itself, or a scalar initialised from it
 * (key = w[a]; ... w[b] > key). */
static int element_source(kernel_ctx *k, CXCursor operand) {
  int a = local_array_of(k, operand);
  if (a >= 0) return a;
  CXCursor s = strip(operand);
  if (clang_getCursorKind(s) != CXCursor_DeclRefExpr) return -1;
  CXCursor d = clang_getCursorReferenced(s);
  if (clang_getCursorKind(d) != CXCursor_VarDecl) return -1;
  CXCursor init = clang_Cursor_getVarDeclInitializer(d);
  return clang_Cursor_isNull(init) ? -1 : local_array_of(k, init);
}

/* w[i] > w[j]: elements of one private array compared with each other, the
 * test that drives a sort. L_3 is reported there. */
static void note_compare(kernel_ctx *k, CXCursor lhs, CXCursor rhs) {
  int a = element_source(k, lhs), b = element_source(k, rhs);
  if (a < 0 || a != b || k->arrays[a].compared) return;
  k->arrays[a].compared = true;
  CXCursor at = local_array_of(k, lhs) >= 0 ? lhs : rhs;
  child_list l = children(strip(at));
  location_of(strip(l.c[0]), &k->arrays[a].compare_line, &k->arrays[a].compare_column);
}

/* w[i] = w[j] with both sides subscripting the same local array: the
 * element moves inside the array, as a sort or a swap does. */
static void note_swap(kernel_ctx *k, CXCursor lhs, CXCursor rhs) {
  CXCursor l = strip(lhs), r = strip(rhs);
  if (clang_getCursorKind(l) != CXCursor_ArraySubscriptExpr ||
      clang_getCursorKind(r) != CXCursor_ArraySubscriptExpr) return;
  child_list la = children(l), ra = children(r);
  if (la.n != 2 || ra.n != 2) return;
  CXCursor lb = strip(la.c[0]), rb = strip(ra.c[0]);
  if (clang_getCursorKind(lb) != CXCursor_DeclRefExpr || clang_getCursorKind(rb) != CXCursor_DeclRefExpr) return;
  CXCursor ld = clang_getCursorReferenced(lb), rd = clang_getCursorReferenced(rb);
  if (!clang_equalCursors(ld, rd)) return;
  int ai = find_array(k, ld);
  if (ai >= 0 && k->arrays[ai].space == SP_LOCAL) k->arrays[ai].swapped = true;
}

/* The for-increment moves the variable by one. */
static bool unit_step(CXCursor inc) {
  inc = strip(inc);
  if (clang_getCursorKind(inc) == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostDec ||
           op == CXUnaryOperator_PreDec;
  }
  if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator) {
    child_list l = children(inc);
    long long v;
    return l.n == 2 && const_value(l.c[1], &v) && v == 1;
  }
  return false;
}

static void walk_for(kernel_ctx *k, CXCursor c) {
  child_list l = children(c);
  int atom = -1, var = -1;
  if (l.n == 4 && clang_getCursorKind(l.c[0]) == CXCursor_DeclStmt) {
    child_list decls = children(l.c[0]);
    if (decls.n == 1 && clang_getCursorKind(decls.c[0]) == CXCursor_VarDecl) {
      CXCursor vd = decls.c[0];
      char *name = cx_take(clang_getCursorSpelling(vd));
      atom = add_atom(k, ATOMK_LOOP, vd, name);
      free(name);
      var = add_var(k, vd);
      k->vars[var].loop_atom = atom;
      /* constant trip count: constant start and a constant bound */
      CXCursor init = clang_Cursor_getVarDeclInitializer(vd);
      child_list cond = children(strip(l.c[1]));
      k->atoms[atom].const_trip = !clang_Cursor_isNull(init) && compile_time(init) &&
                                  cond.n == 2 && compile_time(cond.c[1]);
      k->atoms[atom].unit_step = unit_step(l.c[2]);
      long long start, bound;
      enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(strip(l.c[1]));
      if (k->atoms[atom].const_trip && k->atoms[atom].unit_step && const_value(init, &start) &&
          const_value(cond.c[1], &bound) && (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE))
        k->atoms[atom].trips = bound - start + (op == CXBinaryOperator_LE);
    }
  }
  bool pushed = k->loop_depth < MAX_LOOPS;  /* deeper nests share the innermost slot */
  if (atom < 0) {
    if (pushed) k->loop_stack[k->loop_depth++] = -1;
    walk_children(k, c, 0);
    if (pushed) k->loop_depth--;
    return;
  }
  walk(k, l.c[0], 0);
  if (pushed) k->loop_stack[k->loop_depth++] = atom;
  walk(k, l.c[1], 0);
  int saved = k->inc_var;
  k->inc_var = var;
  walk(k, l.c[2], 0);
  k->inc_var = saved;
  walk(k, l.c[3], 0);
  if (pushed) k->loop_depth--;
}

static void flatten(kernel_ctx *k, access_info *x, long long pad, poly *out);

/* The definition of a __device__ helper that can be inlined here: defined in
 * the analysed file, not already on the inlining stack, not too deep. */
static bool inlinable(kernel_ctx *k, CXCursor call, CXCursor *def, CXCursor *body) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ref) || k->call_depth >= MAX_INLINE) return false;
  *def = clang_getCursorDefinition(ref);
  if (clang_Cursor_isNull(*def) || clang_getCursorKind(*def) != CXCursor_FunctionDecl) return false;
  if (!has_attr(*def, CXCursor_CUDADeviceAttr) || !in_file(*def, k->file)) return false;
  for (int i = 0; i < k->call_depth; i++)
    if (clang_equalCursors(k->call_stack[i], *def)) return false;
  return child_of_kind(*def, CXCursor_CompoundStmt, body) &&
         clang_Cursor_getNumArguments(*def) == clang_Cursor_getNumArguments(call);
}

/* Walks a helper's body as if it were written at the call: array arguments
 * name the caller's arrays, scalar parameters evaluate to the arguments. */
static void inline_call(kernel_ctx *k, CXCursor call, CXCursor def, CXCursor body) {
  int n = clang_Cursor_getNumArguments(call);
  int first_bind = k->bind_count, first_access = k->access_count;
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    CXCursor param = clang_Cursor_getArgument(def, (unsigned)i);
    CXCursor bare = strip(arg);
    int ai = clang_getCursorKind(bare) == CXCursor_DeclRefExpr ? find_array(k, clang_getCursorReferenced(bare)) : -1;
    if (ai < 0) walk(k, arg, 0);
    GROW(k->binds, k->bind_count, k->bind_cap);
    k->binds[k->bind_count++] = (binding){.param = param, .array = ai, .arg = arg, .active = true};
    add_var(k, param);           /* counts stores to the parameter inside the helper */
  }
  k->call_stack[k->call_depth++] = def;
  walk(k, body, 0);
  k->call_depth--;
  for (int i = first_access; i < k->access_count; i++) {
    flatten(k, &k->accesses[i], 0, &k->accesses[i].off);
    k->accesses[i].flattened = true;
  }
  for (int i = first_bind; i < k->bind_count; i++) k->binds[i].active = false;
}

static void walk_call(kernel_ctx *k, CXCursor c) {
  CXCursor def, body;
  if (inlinable(k, c, &def, &body)) {
    inline_call(k, c, def, body);
    return;
  }
  char *callee = cx_take(clang_getCursorSpelling(c));
  int mode = 0;
  if (strncmp(callee, "atomic", 6) == 0) mode = M_WRITE | M_READ | M_ATOMIC;
  else if (strcmp(callee, "__ldg") == 0) mode = M_READ | M_LDG;
  free(callee);
  int n = clang_Cursor_getNumArguments(c);
  if (n < 0) { walk_children(k, c, 0); return; }
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    walk(k, arg, i == 0 ? mode : 0);
  }
}

static void walk(kernel_ctx *k, CXCursor c, int mode) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  switch (kind) {
  case CXCursor_ForStmt:
    walk_for(k, c);
    return;
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt: {
    bool pushed = k->loop_depth < MAX_LOOPS;
    if (pushed) k->loop_stack[k->loop_depth++] = -1;
    walk_children(k, c, 0);
    if (pushed) k->loop_depth--;
    return;
  }
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    child_list l = children(c);
    if (is_assignment(op) && l.n == 2) {
      walk(k, l.c[0], M_WRITE | (op == CXBinaryOperator_Assign ? 0 : M_READ));
      walk(k, l.c[1], M_READ);
      if (op == CXBinaryOperator_Assign) note_swap(k, l.c[0], l.c[1]);
      return;
    }
    if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE && l.n == 2) note_compare(k, l.c[0], l.c[1]);
    walk_children(k, c, M_READ);
    return;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
        op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec) {
      walk_children(k, c, M_WRITE | M_READ);
      return;
    }
    if (op == CXUnaryOperator_AddrOf) { walk_children(k, c, mode ? mode : M_WRITE | M_READ | M_ADDR); return; }
    walk_children(k, c, M_READ);
    return;
  }
  case CXCursor_ArraySubscriptExpr:
    record_access(k, c, mode);
    return;
  case CXCursor_CallExpr:
    walk_call(k, c);
    return;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom == ATOM_TY) k->uses_dim[1] = true;
    if (atom == ATOM_TZ) k->uses_dim[2] = true;
    walk_children(k, c, M_READ);
    return;
  }
  case CXCursor_VarDecl: {
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) array_for_decl(k, c);
    else add_var(k, c);
    walk_children(k, c, M_READ);
    return;
  }
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    int v = find_var(k, d);
    if (v >= 0 && (mode & M_WRITE) && v != k->inc_var) k->vars[v].writes++;
    int ai = find_array(k, d);
    if (ai < 0 && clang_getCursorKind(d) == CXCursor_ParmDecl) ai = array_for_decl(k, d);
    if (ai >= 0 && !(mode & M_LDG)) k->arrays[ai].escaped = true;
    return;
  }
  case CXCursor_LambdaExpr:
    return;
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
    walk_children(k, c, mode);
    return;
  default:
    walk_children(k, c, 0);
    return;
  }
}

/* ---- the warp model ---- */

typedef enum lane_kind { LANE_UNIFORM, LANE_CONCRETE, LANE_SYMBOLIC, LANE_UNKNOWN } lane_kind;

typedef struct lane_model {
  lane_kind kind;
  long long offset[32];          /* LANE_CONCRETE: element offset of each lane */
  poly stride;                   /* coefficient of threadIdx.x, in elements */
  bool stride_const;
  long long stride_value;
  bool evaluated;                /* offsets evaluated lane by lane, not from the polynomial */
} lane_model;

static bool is_thread_atom(int a) { return a == ATOM_TX || a == ATOM_TY || a == ATOM_TZ; }

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

static int count_distinct(const long long *v, int n) {
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
static int sectors(const lane_model *m, long long elem_size) {
  long long s[32], low = m->offset[0];
  for (int l = 1; l < 32; l++) if (m->offset[l] < low) low = m->offset[l];
  for (int l = 0; l < 32; l++) s[l] = ((m->offset[l] - low) * elem_size) >> 5;
  return count_distinct(s, 32);
}

/* Bank-conflict degree: 32 banks of 4 bytes; elements wider than 4 bytes are
 * served in phases of 128 bytes (16 lanes for 8-byte, 8 lanes for 16-byte). */
static int conflict_degree(const long long *offset, long long elem_size) {
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

static int pow2_at_least(int n) {
  int p = 1;
  while (p < n && p < 32) p *= 2;
  return p;
}

/* ---- findings ---- */

static wl_finding *new_finding(kernel_ctx *k, const char *rule, const access_info *x,
                               const array_info *a) {
  wl_file_result *r = k->res;
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    if (strcmp(f->rule, rule) == 0 && f->line == x->line && f->array && strcmp(f->array, a->name) == 0)
      return NULL;  /* one finding per rule, array and line */
  }
  GROW(r->findings, r->finding_count, r->finding_cap);
  wl_finding *f = &r->findings[r->finding_count++];
  memset(f, 0, sizeof *f);
  snprintf(f->rule, sizeof f->rule, "%s", rule);
  f->severity = "warning";
  f->line = x->line;
  f->column = x->column;
  f->kernel = wl_strdup(k->name);
  f->array = wl_strdup(a->name);
  f->space = space_names[a->space];
  return f;
}

static void add_metric(kernel_ctx *k, wl_finding *f, const char *key) {
  if (f->metric_count >= 2) return;
  wl_metric_lookup(k->opt, key, &f->metrics[f->metric_count++]);
}

static void add_note(wl_finding *f, unsigned line, unsigned column, char *text) {
  if (f->note_count >= 4) { free(text); return; }
  f->note_line[f->note_count] = line;
  f->note_column[f->note_count] = column;
  f->notes[f->note_count++] = text;
}

/* "measured on H100: 8-way 250 cycles vs 1-way 31 cycles" */
static char *compare_text(kernel_ctx *k, wl_finding *f, const char *label_a, const char *label_b) {
  char a[160], b[160];
  wl_metric_text(k->opt, &f->metrics[0], label_a, a, sizeof a);
  wl_metric_text(k->opt, &f->metrics[1], label_b, b, sizeof b);
  const wl_options *o = k->opt;
  return wl_format("measured on %s: %s vs %s", o->profile_short ? o->profile_short : "no profile", a, b);
}

static void set_message(wl_finding *f, char *head, char *evidence) {
  f->message = wl_format("%s; %s", head, evidence);
  free(head);
  free(evidence);
}

static void poly_text(const kernel_ctx *k, const poly *p, char *out, size_t size) {
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

static void append_pattern(array_info *a, const char *text) {
  if (strstr(a->patterns, text)) return;
  size_t len = strlen(a->patterns);
  snprintf(a->patterns + len, sizeof a->patterns - len, "%s%s", len ? "; " : "", text);
}

static bool uses_loop_atom(const kernel_ctx *k, const poly *p) {
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    if (k->atoms[a].kind == ATOMK_LOOP && poly_uses_atom(p, a)) return true;
  return false;
}

static bool uses_index_atoms(const poly *p) {
  for (int a = ATOM_TX; a <= ATOM_BZ; a++)
    if (poly_uses_atom(p, a)) return true;
  return false;
}

static bool is_read_only(const array_info *a) {
  return !a->written && !a->escaped && !a->atomic;
}

/* const float *__restrict__ name, for the T_4 fix-it on the parameter. */
static void restrict_fix(wl_finding *f, const array_info *a) {
  if (f->fix_count >= 2) return;
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

/* A neighbourhood read, as in the paper's 3x3 filter: the index moves with
 * a unit-step loop variable exactly as with a thread index
 * (in[(y + dy) * w + x + dx]), so neighbouring threads read the same element
 * in different iterations. */
static bool check_stencil_reuse(kernel_ctx *k, const access_info *x, array_info *a) {
  for (int t = ATOM_TX; t <= ATOM_TZ; t++) {
    if (!poly_uses_atom(&x->off, t)) continue;
    poly ct;
    poly_coefficient(&x->off, t, &ct);
    for (int i = 0; i < x->loop_count; i++) {
      int loop = x->loops[i];
      if (loop < 0 || !k->atoms[loop].unit_step || !k->atoms[loop].const_trip) continue;
      poly cl;
      poly_coefficient(&x->off, loop, &cl);
      if (!poly_equal(&ct, &cl)) continue;
      a->reusable = true;
      append_pattern(a, "neighbourhood reused by adjacent threads");
      wl_finding *f = new_finding(k, "S_5", x, a);
      if (!f) return true;
      add_metric(k, f, "latency.global");
      add_metric(k, f, "latency.shared");
      char trips[48] = "several";
      if (k->atoms[loop].trips > 1) snprintf(trips, sizeof trips, "%lld", k->atoms[loop].trips);
      set_message(f, wl_format("reusable global data '%s': the loop over '%s' moves the index as threadIdx.%c "
                               "does, so each element is read by up to %s neighbouring threads; stage the "
                               "block's tile and halo in shared memory", a->name, k->atoms[loop].name,
                               'x' + (t - ATOM_TX), trips),
                  compare_text(k, f, "global", "shared"));
      return true;
    }
  }
  return false;
}

static void check_global(kernel_ctx *k, const access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  char buf[200];
  /* irregular: lanes evaluated one by one with no single stride (t / 2 * n) */
  bool irregular = m->kind == LANE_CONCRETE && m->evaluated && !m->stride_const;
  bool strided = (m->kind == LANE_CONCRETE && m->stride_const && m->stride_value != 0 &&
                  m->stride_value != 1) || irregular ||
                 (m->kind == LANE_SYMBOLIC && !m->stride_const && !m->stride.unknown);
  if ((m->kind == LANE_CONCRETE || m->kind == LANE_SYMBOLIC) && m->stride_const && m->stride_value == 1)
    append_pattern(a, "consecutive");
  if (m->kind == LANE_UNIFORM) append_pattern(a, "broadcast");
  if (strided) {
    int got = 0, ideal = (int)((32 * a->elem_size + 31) / 32);
    if (m->kind == LANE_CONCRETE) {
      got = sectors(m, a->elem_size);
      if (got <= ideal) strided = false;
    }
    if (strided) {
      if (irregular) {
        snprintf(buf, sizeof buf, "irregular lane offsets");
      } else if (m->kind == LANE_CONCRETE) {
        snprintf(buf, sizeof buf, "stride %lld", m->stride_value);
      } else {
        char s[120];
        poly_text(k, &m->stride, s, sizeof s);
        snprintf(buf, sizeof buf, "stride %s", s);
      }
      append_pattern(a, buf);
      wl_finding *f = new_finding(k, "G_3", x, a);
      if (f) {
        add_metric(k, f, "pattern.global.strided");
        add_metric(k, f, "pattern.global.aligned");
        char *head = irregular
            ? wl_format("non-consecutive global access to '%s': the lanes' offsets follow no single stride, "
                        "%d sectors per warp request instead of %d", a->name, got, ideal)
            : m->kind == LANE_CONCRETE
            ? wl_format("non-consecutive global access to '%s': consecutive lanes are %lld elements apart, "
                        "%d sectors per warp request instead of %d", a->name, m->stride_value, got, ideal)
            : wl_format("non-consecutive global access to '%s': consecutive lanes are %s elements apart, "
                        "up to 32 sectors per warp request instead of %d", a->name, buf + 7, ideal);
        set_message(f, head, compare_text(k, f, "strided", "aligned"));
        add_note(f, x->line, x->column, wl_strdup("map threadIdx.x to the fastest-varying index (G_3); "
                                                  "G_4: tune the block's shape if the pattern must stay"));
      }
      if (x->read && !x->ldg && is_read_only(a) && a->is_param && !(a->param_const && a->param_restrict)) {
        wl_finding *t = new_finding(k, "T_4", x, a);
        if (t) {
          add_metric(k, t, "pattern.texture.strided");
          add_metric(k, t, "pattern.global.strided");
          set_message(t, wl_format("read-only '%s' is read non-consecutively through the plain global path",
                                   a->name),
                      compare_text(k, t, "texture strided", "global strided"));
          restrict_fix(t, a);
        }
      }
    }
  }
  if (m->kind == LANE_UNKNOWN && x->off.data_dependent) {
    append_pattern(a, "gather (index loaded from memory)");
    if (x->read && !x->ldg && is_read_only(a) && a->is_param && !(a->param_const && a->param_restrict)) {
      wl_finding *t = new_finding(k, "T_4", x, a);
      if (t) {
        add_metric(k, t, "pattern.texture.strided");
        add_metric(k, t, "pattern.global.strided");
        set_message(t, wl_format("read-only '%s' is gathered through an index loaded from memory, on the plain "
                                 "global path", a->name),
                    compare_text(k, t, "texture strided", "global strided"));
        restrict_fix(t, a);
      }
    }
  }
  if ((a->elem_size == 1 || a->elem_size == 2) && m->kind == LANE_CONCRETE && m->stride_const &&
      m->stride_value == 1) {
    wl_finding *f = new_finding(k, "G_2", x, a);
    if (f) {
      bool byte = a->elem_size == 1;
      add_metric(k, f, byte ? "bandwidth.type.char" : "bandwidth.type.short");
      add_metric(k, f, byte ? "bandwidth.type.char4" : "bandwidth.type.int");
      set_message(f, wl_format("%lld-byte elements of '%s' accessed by consecutive lanes: pack %s into %s",
                               a->elem_size, a->name, byte ? "four" : "two", byte ? "char4" : "a 4-byte type"),
                  compare_text(k, f, byte ? "char" : "short", byte ? "char4" : "int"));
    }
  }
  /* S_5 / C_2: reads in a loop whose index moves with the loop. */
  if (!x->read || x->write || !is_read_only(a) || x->off.unknown || !uses_loop_atom(k, &x->off)) return;
  if (!uses_index_atoms(&x->off)) {
    if (a->elem_size > 16) return;
    append_pattern(a, "same element for the whole grid");
    a->reusable = true;
    wl_finding *f = new_finding(k, "C_2", x, a);
    if (!f) return;
    add_metric(k, f, "warp.global.distinct_1");
    add_metric(k, f, "warp.constant.distinct_1");
    set_message(f, wl_format("every lane reads the same element of read-only '%s' in the loop: "
                             "small read-only data belongs in __constant__ memory", a->name),
                compare_text(k, f, "global broadcast", "constant broadcast"));
    return;
  }
  if (check_stencil_reuse(k, x, a)) return;
  long long reuse = 1;
  char dims[64] = "", free_of[64] = "";
  for (int d = 0; d < 3; d++) {
    if (poly_uses_atom(&x->off, ATOM_TX + d)) continue;
    long long extent = k->block_known ? k->block[d] : (d == 0 ? 32 : (k->uses_dim[d] ? 2 : 1));
    if (extent < 2) continue;
    reuse *= extent;
    size_t len = strlen(dims);
    snprintf(dims + len, sizeof dims - len, "%sblockDim.%c", len ? "*" : "", 'x' + d);
    len = strlen(free_of);
    snprintf(free_of + len, sizeof free_of - len, "%sthreadIdx.%c", len ? ", " : "", 'x' + d);
  }
  if (reuse < 2) return;
  a->reusable = true;
  append_pattern(a, "reused by several threads");
  wl_finding *f = new_finding(k, "S_5", x, a);
  if (!f) return;
  add_metric(k, f, "latency.global");
  add_metric(k, f, "latency.shared");
  if (k->block_known)
    snprintf(buf, sizeof buf, "each element is read by %lld threads of a block", reuse);
  else
    snprintf(buf, sizeof buf, "each element is read by %s threads of a block", dims);
  set_message(f, wl_format("reusable global data '%s': %s (index independent of %s); stage it in shared memory",
                           a->name, buf, free_of),
              compare_text(k, f, "global", "shared"));
}

static long long flatten_extent_product(const array_info *a, int from, long long last_pad) {
  long long p = 1;
  for (int d = from; d < a->ndim; d++) p *= a->ext[d] + (d == a->ndim - 1 ? last_pad : 0);
  return p;
}

static void flatten(kernel_ctx *k, access_info *x, long long pad, poly *out) {
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
static void model_access(kernel_ctx *k, const access_info *x, long long pad, const poly *off, lane_model *m) {
  model_lanes(k, off, m);
  if (m->kind == LANE_UNKNOWN && off->unknown && !off->data_dependent) model_lanes_evaluated(k, x, pad, m);
}

/* Source text of the last extent of an array declaration, for padding. */
static bool last_extent_range(const array_info *a, unsigned *line, unsigned *column, unsigned *length,
                              char **text) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a->decl);
  CXToken *tokens;
  unsigned n;
  /* From the name on: the declaration may begin inside a macro (__shared__). */
  CXSourceRange from_name = clang_getRange(clang_getCursorLocation(a->decl),
                                           clang_getRangeEnd(clang_getCursorExtent(a->decl)));
  clang_tokenize(tu, from_name, &tokens, &n);
  bool ok = false;
  int brackets = 0;
  for (unsigned i = 0; i + 2 < n; i++) {
    char *s = cx_take(clang_getTokenSpelling(tu, tokens[i]));
    bool open = strcmp(s, "[") == 0;
    free(s);
    if (!open) continue;
    if (++brackets != a->ndim) continue;
    char *close = cx_take(clang_getTokenSpelling(tu, tokens[i + 2]));
    if (strcmp(close, "]") == 0) {
      unsigned begin, end;
      CXSourceRange r = clang_getTokenExtent(tu, tokens[i + 1]);
      clang_getExpansionLocation(clang_getRangeStart(r), NULL, line, column, &begin);
      clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
      *length = end - begin;
      *text = cx_take(clang_getTokenSpelling(tu, tokens[i + 1]));
      ok = true;
    }
    free(close);
    break;
  }
  clang_disposeTokens(tu, tokens, n);
  return ok;
}

/* A lane stride such as threadIdx.x * n: every lane lands in one bank
 * whenever n * element size is a multiple of 128 bytes. Reported only when
 * threadIdx.x is the one lane-varying index and its coefficient is a single
 * product of uniform symbols. */
static void check_shared_symbolic(kernel_ctx *k, const access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  if (m->stride.unknown || m->stride.count != 1 || m->stride.terms[0].degree == 0) return;
  if (poly_uses_atom(&x->off, ATOM_TY) || poly_uses_atom(&x->off, ATOM_TZ) || a->elem_size > 4) return;
  for (int d = 0; d < m->stride.terms[0].degree; d++)
    if (is_thread_atom(m->stride.terms[0].atoms[d])) return;
  char stride[120];
  poly_text(k, &m->stride, stride, sizeof stride);
  wl_finding *f = new_finding(k, "S_1", x, a);
  if (!f) return;
  append_pattern(a, "stride symbolic: 32-way when a multiple of 32");
  add_metric(k, f, "bank_conflict.way_32");
  add_metric(k, f, "bank_conflict.way_1");
  set_message(f, wl_format("lanes of a warp access shared '%s' %s elements apart: a 32-way bank conflict "
                           "when %s is a multiple of 32", a->name, stride, stride),
              compare_text(k, f, "32-way", "1-way"));
  add_note(f, a->line, a->column, wl_strdup("pad the row (an odd stride) or swap the index order (S_1)"));
}

static void check_shared(kernel_ctx *k, access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  if (m->kind == LANE_UNIFORM) { append_pattern(a, "broadcast"); return; }
  if (m->kind == LANE_SYMBOLIC) { check_shared_symbolic(k, x, m); return; }
  if (m->kind != LANE_CONCRETE) return;
  int degree = conflict_degree(m->offset, a->elem_size);
  if (degree < 2) {
    if (m->stride_const && m->stride_value == 0) append_pattern(a, "broadcast within rows (S_2)");
    else if (m->stride_const && m->stride_value == 1) append_pattern(a, "consecutive");
    else if (!m->stride_const) append_pattern(a, "irregular, conflict-free");
    else append_pattern(a, "strided, conflict-free (S_3)");
    return;
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%d-way bank conflict", degree);
  append_pattern(a, buf);
  wl_finding *f = new_finding(k, "S_1", x, a);
  if (!f) return;
  int key_degree = pow2_at_least(degree);
  char key[64], label[32];
  const char *family = a->elem_size == 8 ? "bank_conflict8" : "bank_conflict";
  snprintf(key, sizeof key, "%s.way_%d", family, key_degree);
  add_metric(k, f, key);
  snprintf(key, sizeof key, "%s.way_1", family);
  add_metric(k, f, key);
  snprintf(label, sizeof label, "%d-way", key_degree);
  set_message(f, wl_format("%d-way bank conflict on shared '%s': %d shared-memory wavefronts per request",
                           degree, a->name, degree),
              compare_text(k, f, label, "1-way"));
  /* Padding the last dimension by one element: recompute with it. */
  if (a->ndim < 2 || a->ext[a->ndim - 1] <= 0) return;
  poly padded;
  flatten(k, x, 1, &padded);
  lane_model pm;
  model_access(k, x, 1, &padded, &pm);
  if (pm.kind != LANE_CONCRETE || conflict_degree(pm.offset, a->elem_size) != 1) return;
  unsigned line, column, length;
  char *text;
  if (!last_extent_range(a, &line, &column, &length, &text)) return;
  long long value;
  char *repl = (sscanf(text, "%lld", &value) == 1 && value == a->ext[a->ndim - 1])
                   ? wl_format("%lld", value + 1) : wl_format("%s + 1", text);
  wl_fix *fix = &f->fixes[f->fix_count++];
  fix->line = line;
  fix->column = column;
  fix->length = length;
  fix->replacement = repl;
  add_note(f, a->line, a->column, wl_format("pad the last dimension of '%s': [%s] -> [%s] removes the conflict",
                                            a->name, text, repl));
  free(text);
}

static void check_constant(kernel_ctx *k, const access_info *x, const lane_model *m) {
  array_info *a = &k->arrays[x->array];
  char key[64], label[32];
  if (m->kind == LANE_UNIFORM) {
    append_pattern(a, "broadcast (C_2)");
    for (int i = x->loop_count - 1; i >= 0; i--) {
      if (x->loops[i] < 0) continue;
      poly c;
      long long step;
      poly_coefficient(&x->off, x->loops[i], &c);
      if (!poly_is_const(&c, &step) || (step >= -1 && step <= 1)) return;
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
    return;
  }
  if (m->kind != LANE_CONCRETE && m->kind != LANE_SYMBOLIC) return;
  int distinct = m->kind == LANE_CONCRETE ? count_distinct(m->offset, 32) : 32;
  if (distinct < 2) return;
  snprintf(label, sizeof label, "%d distinct addresses", distinct);
  append_pattern(a, label);
  wl_finding *f = new_finding(k, "C_3", x, a);
  if (!f) return;
  snprintf(key, sizeof key, "warp.constant.distinct_%d", pow2_at_least(distinct));
  add_metric(k, f, key);
  add_metric(k, f, "warp.constant.distinct_1");
  snprintf(label, sizeof label, "%d distinct", pow2_at_least(distinct));
  set_message(f, wl_format("__constant__ '%s' indexed by a lane-varying expression: %d distinct addresses per "
                           "warp are served one after another", a->name, distinct),
              compare_text(k, f, label, "broadcast"));
}

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

static void check_local_access(kernel_ctx *k, access_info *x) {
  array_info *a = &k->arrays[x->array];
  char key[96], arch_key[96];
  if (a->swapped && a->compared) {
    if (x->line != a->compare_line || x->column != a->compare_column) return;
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
    return;
  }
  if (access_unroll_known(k, x)) return;
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

static void check_local_size(kernel_ctx *k, array_info *a) {
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

/* S_6: every access of a shared array uses one lane-varying index, so each
 * thread reads back only what it wrote itself. */
static void check_shared_reuse(kernel_ctx *k, int ai) {
  array_info *a = &k->arrays[ai];
  const access_info *first = NULL, *first_read = NULL;
  for (int i = 0; i < k->access_count; i++) {
    const access_info *x = &k->accesses[i];
    if (x->array != ai) continue;
    if (x->off.unknown) return;
    if (!first) first = x;
    else if (!poly_equal(&first->off, &x->off)) {
      a->reusable = a->written && a->read;  /* threads read what others wrote */
      return;
    }
    if (x->read && !x->write && !first_read) first_read = x;
  }
  if (!first || !first_read || !a->written || !poly_uses_atom(&first->off, ATOM_TX)) return;
  for (int d = 1; d < 3; d++)
    if (k->uses_dim[d] && !poly_uses_atom(&first->off, ATOM_TX + d)) return;
  append_pattern(a, "each element read only by its writer");
  wl_finding *f = new_finding(k, "S_6", first_read, a);
  if (!f) return;
  add_metric(k, f, "latency.shared");
  add_metric(k, f, "latency.register");
  set_message(f, wl_format("each element of shared '%s' is read only by the thread that wrote it: the "
                           "staging is pure overhead; keep the value in a register", a->name),
              compare_text(k, f, "shared", "register"));
}

static void classify(kernel_ctx *k, array_info *a, wl_file_result *r) {
  int classes = 0;
  if (a->space == SP_LOCAL) classes |= WL_CLASS_TEMPORAL;
  if (a->written || a->atomic) classes |= WL_CLASS_WRITTEN;
  else if ((!a->escaped || a->space == SP_TEXTURE) && a->space != SP_LOCAL) classes |= WL_CLASS_READONLY;
  if (a->reusable) classes |= WL_CLASS_REUSABLE;
  const char *rec = space_names[a->space];
  for (size_t i = 0; i < r->finding_count; i++) {
    const wl_finding *f = &r->findings[i];
    if (!f->array || strcmp(f->array, a->name) != 0 || strcmp(f->kernel, k->name) != 0) continue;
    if (strcmp(f->rule, "S_5") == 0) rec = "shared (S_5)";
    else if (strcmp(f->rule, "C_2") == 0) rec = "constant (C_2)";
    else if (strcmp(f->rule, "T_4") == 0) rec = "read-only path (T_4)";
    else if (f->rule[0] == 'L') rec = "registers (L_)";
    else if (strcmp(f->rule, "S_6") == 0) rec = "registers (S_6)";
    else if (strcmp(f->rule, "S_1") == 0) rec = "shared, padded (S_1)";
    else if (strcmp(f->rule, "C_3") == 0) rec = "global/read-only (C_3)";
  }
  GROW(r->arrays, r->array_count, r->array_cap);
  wl_array_info *o = &r->arrays[r->array_count++];
  o->kernel = wl_strdup(k->name);
  o->array = wl_strdup(a->name);
  o->element_type = wl_strdup(a->elem_type);
  o->patterns = wl_strdup(a->patterns[0] ? a->patterns : "-");
  o->recommended = wl_strdup(rec);
  o->space = space_names[a->space];
  o->classes = classes;
  o->line = a->line;
  o->column = a->column;
}

/* An integer literal token, or a macro that the file defines as one
 * (#define THREADS 256, the last definition before offset `before`). */
static bool token_integer(CXTranslationUnit tu, CXFile file, CXToken tok, unsigned before, long long *v) {
  char *text = cx_take(clang_getTokenSpelling(tu, tok));
  char *end;
  bool ok = false;
  if (clang_getTokenKind(tok) == CXToken_Literal) {
    *v = strtoll(text, &end, 0);
    ok = end != text && strspn(end, "uUlL") == strlen(end);
  } else if (clang_getTokenKind(tok) == CXToken_Identifier) {
    CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                         clang_getLocationForOffset(tu, file, before));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, whole, &toks, &n);
    for (unsigned i = 0; i + 3 < n; i++) {
      if (clang_getTokenKind(toks[i]) != CXToken_Punctuation) continue;
      char *t[4];
      for (int j = 0; j < 4; j++) t[j] = cx_take(clang_getTokenSpelling(tu, toks[i + j]));
      unsigned name_line, value_line;
      clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i + 2]), NULL, &name_line, NULL, NULL);
      clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i + 3]), NULL, &value_line, NULL, NULL);
      if (strcmp(t[0], "#") == 0 && strcmp(t[1], "define") == 0 && strcmp(t[2], text) == 0 &&
          name_line == value_line && clang_getTokenKind(toks[i + 3]) == CXToken_Literal) {
        long long value = strtoll(t[3], &end, 0);
        if (end != t[3] && strspn(end, "uUlL") == strlen(end)) { *v = value; ok = true; }
      }
      for (int j = 0; j < 4; j++) free(t[j]);
    }
    clang_disposeTokens(tu, toks, n);
  }
  free(text);
  return ok;
}

static enum CXChildVisitResult find_thread_yz(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_MemberRefExpr) {
    int atom = member_builtin(c);
    if (atom == ATOM_TY || atom == ATOM_TZ) {
      *(bool *)d = true;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* The N of __launch_bounds__(N[, M]) written on the kernel, when N is an
 * integer literal or a macro defined as one in the file. */
static bool launch_bounds_threads(CXFile file, CXCursor fn, CXCursor body, long long *threads) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(fn);
  /* From the declaration's first token to the body, as written in the file
   * (the extent starts inside the __global__ macro). */
  unsigned from, to;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fn)), NULL, NULL, NULL, &from);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(body)), NULL, NULL, NULL, &to);
  CXSourceRange head = clang_getRange(clang_getLocationForOffset(tu, file, from),
                                      clang_getLocationForOffset(tu, file, to));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, head, &toks, &n);
  bool found = false;
  for (unsigned i = 0; i + 3 < n && !found; i++) {
    char *name = cx_take(clang_getTokenSpelling(tu, toks[i]));
    char *open = cx_take(clang_getTokenSpelling(tu, toks[i + 1]));
    char *after = cx_take(clang_getTokenSpelling(tu, toks[i + 3]));
    if (strcmp(name, "__launch_bounds__") == 0 && strcmp(open, "(") == 0 &&
        (strcmp(after, ",") == 0 || strcmp(after, ")") == 0)) {
      unsigned offset;
      clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &offset);
      found = token_integer(tu, file, toks[i + 2], offset, threads);
    }
    free(name); free(open); free(after);
  }
  clang_disposeTokens(tu, toks, n);
  return found;
}

static void analyze_kernel(file_ctx *fc, CXCursor fn, CXCursor body) {
  kernel_ctx k;
  memset(&k, 0, sizeof k);
  k.path = fc->path;
  k.opt = fc->opt;
  k.res = fc->res;
  k.inc_var = -1;
  k.probe_loop = -1;
  k.file = fc->file;
  k.name = cx_take(clang_getCursorSpelling(fn));
  for (int i = 0; i < ATOM_FIRST_SYMBOL; i++) {
    GROW(k.atoms, k.atom_count, k.atom_cap);
    memset(&k.atoms[k.atom_count], 0, sizeof k.atoms[0]);
    k.atoms[k.atom_count++].kind = ATOMK_BUILTIN;
  }
  char *usr = cx_take(clang_getCursorUSR(fn));
  for (int i = 0; i < fc->launch_count; i++) {
    if (strcmp(fc->launches[i].usr, usr) == 0 && fc->launches[i].known) {
      memcpy(k.block, fc->launches[i].block, sizeof k.block);
      k.block_known = true;
      break;
    }
  }
  free(usr);
  /* No launch in the file: the kernel's own __launch_bounds__(N) says N
   * threads, taken as a 1-D block (documented in README.md). A kernel that
   * reads threadIdx.y or .z has a shape that N alone does not give: the
   * default stays. */
  long long bound = 0;
  bool uses_yz = false;
  if (!k.block_known) clang_visitChildren(body, find_thread_yz, &uses_yz);
  if (!k.block_known && !uses_yz && launch_bounds_threads(fc->file, fn, body, &bound) && bound >= 1 &&
      bound <= 1024) {
    k.block[0] = bound;
    k.block[1] = k.block[2] = 1;
    k.block_known = true;
  }
  int nparams = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < nparams; i++) array_for_decl(&k, clang_Cursor_getArgument(fn, (unsigned)i));
  walk(&k, body, 0);
  if (k.block_known) { k.uses_dim[1] = k.block[1] > 1; k.uses_dim[2] = k.block[2] > 1; }
  for (int i = 0; i < k.access_count; i++)
    if (!k.accesses[i].flattened) flatten(&k, &k.accesses[i], 0, &k.accesses[i].off);
  for (int i = 0; i < k.access_count; i++) {
    access_info *x = &k.accesses[i];
    lane_model m;
    model_access(&k, x, 0, &x->off, &m);
    switch (k.arrays[x->array].space) {
    case SP_GLOBAL: check_global(&k, x, &m); break;
    case SP_SHARED: check_shared(&k, x, &m); break;
    case SP_CONSTANT: check_constant(&k, x, &m); break;
    case SP_LOCAL: check_local_access(&k, x); break;
    default: break;
    }
  }
  for (int i = 0; i < k.array_count; i++) {
    if (k.arrays[i].space == SP_SHARED) check_shared_reuse(&k, i);
    if (k.arrays[i].space == SP_LOCAL) check_local_size(&k, &k.arrays[i]);
  }
  for (int i = 0; i < k.array_count; i++) {
    classify(&k, &k.arrays[i], fc->res);
    free(k.arrays[i].name);
    free(k.arrays[i].elem_type);
  }
  free(k.arrays);
  free(k.binds);
  free(k.accesses);
  free(k.vars);
  free(k.atoms);
  free(k.name);
}

/* ---- launches, kernels, files ---- */

/* The block argument of <<<grid, block>>>: dim3(a, b, c), a dim3 variable
 * initialised that way, or an integer. */
static bool block_shape(CXCursor arg, long long *b) {
  b[0] = b[1] = b[2] = 1;
  CXCursor c = strip(arg);
  if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1) {
    CXCursor inner = strip(clang_Cursor_getArgument(c, 0));
    if (clang_getCursorKind(inner) == CXCursor_DeclRefExpr) c = inner;  /* copy of a variable */
  }
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_VarDecl) return false;
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    if (t.kind != CXType_Record) return const_value(c, &b[0]);
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init)) return false;
    c = strip(init);
  }
  if (const_value(c, &b[0])) return true;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    int n = clang_Cursor_getNumArguments(c);
    if (n < 1 || n > 3) return false;
    for (int i = 0; i < n; i++)
      if (!const_value(clang_Cursor_getArgument(c, (unsigned)i), &b[i])) return false;
    return true;
  }
  return false;
}

static void check_launch(file_ctx *fc, CXCursor callee, const long long *b) {
  long long threads = b[0] * b[1] * b[2];
  if (threads <= 0 || threads > 1024) return;  /* not a valid launch: not ours to judge */
  if (threads >= 128 && threads % 32 == 0) return;
  wl_file_result *r = fc->res;
  unsigned line, column;
  location_of(callee, &line, &column);
  /* One macro line may launch several instantiations (a dispatch over
   * element types): one finding is enough. */
  for (size_t i = 0; i < r->finding_count; i++)
    if (strcmp(r->findings[i].rule, "S_4") == 0 && r->findings[i].line == line && r->findings[i].column == column)
      return;
  GROW(r->findings, r->finding_count, r->finding_cap);
  wl_finding *f = &r->findings[r->finding_count++];
  memset(f, 0, sizeof *f);
  snprintf(f->rule, sizeof f->rule, "S_4");
  f->severity = "warning";
  f->line = line;
  f->column = column;
  f->kernel = cx_take(clang_getCursorSpelling(clang_getCursorReferenced(callee)));
  f->space = "launch";
  wl_metric_lookup(fc->opt, "warp.shared.distinct_32", &f->metrics[f->metric_count++]);
  char evidence[200];
  char metric[160];
  wl_metric_text(fc->opt, &f->metrics[0], "one warp's 32-lane shared request", metric, sizeof metric);
  snprintf(evidence, sizeof evidence, "measured on %s: %s",
           fc->opt->profile_short ? fc->opt->profile_short : "no profile", metric);
  f->message = threads % 32
      ? wl_format("block of %lld threads is not a multiple of the 32-thread warp: the last warp runs partly "
                  "empty; %s", threads, evidence)
      : wl_format("block of %lld threads is smaller than 128: too few warps per block to hide latency; %s",
                  threads, evidence);
}

static enum CXChildVisitResult find_launches(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  file_ctx *fc = d;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    child_list l = children(c);
    if (l.n >= 2 && clang_getCursorKind(l.c[1]) == CXCursor_CallExpr) {
      char *config = cx_take(clang_getCursorSpelling(l.c[1]));
      bool is_launch = strcmp(config, "__cudaPushCallConfiguration") == 0 || strcmp(config, "cudaConfigureCall") == 0;
      free(config);
      CXCursor callee = strip(l.c[0]);
      CXCursor kernel = clang_getCursorReferenced(callee);
      if (is_launch && !clang_Cursor_isNull(kernel) && clang_Cursor_getNumArguments(l.c[1]) >= 2) {
        launch_info li = {.usr = cx_take(clang_getCursorUSR(kernel))};
        li.known = block_shape(clang_Cursor_getArgument(l.c[1], 1), li.block);
        if (li.known && in_file(c, fc->file)) check_launch(fc, callee, li.block);
        GROW(fc->launches, fc->launch_count, fc->launch_cap);
        fc->launches[fc->launch_count++] = li;
      }
    }
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_kernels(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  file_ctx *fc = d;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
  if ((kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) || !in_file(c, fc->file))
    return CXChildVisit_Continue;
  if (!clang_isCursorDefinition(c)) return CXChildVisit_Continue;
  if (!has_attr(c, CXCursor_CUDAGlobalAttr)) return CXChildVisit_Continue;
  CXCursor body;
  if (child_of_kind(c, CXCursor_CompoundStmt, &body)) analyze_kernel(fc, c, body);
  return CXChildVisit_Continue;
}

/* ---- suppressions ---- */

static bool line_suppresses(const char *line, size_t len, const char *marker, const char *rule) {
  const char *end = line + len;
  size_t mlen = strlen(marker);
  for (const char *p = line; p + mlen <= end; p++) {
    if (memcmp(p, marker, mlen) != 0) continue;
    const char *q = p + mlen;
    if (strcmp(marker, "NOLINT") == 0 && q + 8 <= end && memcmp(q, "NEXTLINE", 8) == 0) continue;
    if (q >= end || *q != '(') return true;  /* bare marker: everything */
    const char *close = memchr(q, ')', (size_t)(end - q));
    if (!close) return true;
    char want[32];
    snprintf(want, sizeof want, "warplint-%s", rule);
    size_t wl = strlen(want);
    for (const char *s = q + 1; s + wl <= close; s++)
      if (memcmp(s, want, wl) == 0) return true;
    if (close - q == 2 && q[1] == '*') return true;
    return false;
  }
  return false;
}

static void apply_suppressions(wl_file_result *r, const char *text, size_t len) {
  /* line starts */
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  size_t *start = malloc((lines + 1) * sizeof *start);
  if (!start) return;
  size_t n = 0;
  start[n++] = 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n') start[n++] = i + 1;
  start[n] = len + 1;
  size_t kept = 0;
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    bool drop = false;
    if (f->line >= 1 && f->line <= n) {
      size_t s = start[f->line - 1], e = start[f->line] - 1;
      drop = line_suppresses(text + s, e - s, "NOLINT", f->rule);
      if (!drop && f->line >= 2) {
        size_t ps = start[f->line - 2], pe = start[f->line - 1] - 1;
        drop = line_suppresses(text + ps, pe - ps, "NOLINTNEXTLINE", f->rule);
      }
    }
    if (drop) {
      free(f->kernel); free(f->array); free(f->message);
      for (int j = 0; j < f->note_count; j++) free(f->notes[j]);
      for (int j = 0; j < f->fix_count; j++) free(f->fixes[j].replacement);
    } else {
      r->findings[kept++] = *f;
    }
  }
  r->finding_count = kept;
  free(start);
}

/* ---- one file ---- */

void wl_result_error(wl_file_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  GROW(r->errors, r->error_count, r->error_cap);
  r->errors[r->error_count++] = wl_strdup(buf);
}

static bool report_diagnostics(CXTranslationUnit tu, wl_file_result *r) {
  bool failed = false;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      failed = true;
      char *text = cx_take(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                     CXDiagnostic_DisplayColumn));
      wl_result_error(r, "%s", text);
      free(text);
    }
    clang_disposeDiagnostic(d);
  }
  return failed;
}

/* Empty, unreadable and binary files are refused before libclang sees them. */
static char *read_source(const char *path, size_t *len, wl_file_result *r) {
  char *text = read_text_file(path, len);
  if (!text) {
    wl_result_error(r, "%s: error: cannot read file: %s", path, strerror(errno));
    return NULL;
  }
  if (*len == 0) {
    wl_result_error(r, "%s: error: file is empty", path);
    free(text);
    return NULL;
  }
  if (memchr(text, '\0', *len)) {
    wl_result_error(r, "%s: error: binary file (contains NUL bytes), not CUDA source", path);
    free(text);
    return NULL;
  }
  return text;
}

#define WARPLINT_VIRTUAL_INCLUDE "/__warplint__/include"
static const char *const stand_in_headers[] = {
  "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "vector_types.h",
  "vector_functions.h", "driver_types.h", "builtin_types.h", "device_functions.h", "math_functions.h",
  "cuda_texture_types.h", "texture_fetch_functions.h", "surface_types.h", "texture_types.h",
  "channel_descriptor.h", "device_types.h", "host_defines.h", "crt/host_defines.h",
};
static const char stand_in_text[] = "/* warplint: provided by cuda_shim.h */\n";

/* Parses path as CUDA with the shim (or the real headers) and extra_args. */
static CXTranslationUnit parse_cuda(void *cx_index, const char *path, const char *const *extra_args,
                                    int extra_count, const wl_options *opt, enum CXErrorCode *rc) {
  char arch_arg[64];
  snprintf(arch_arg, sizeof arch_arg, "--cuda-gpu-arch=%s", opt->arch);
  char cuda_path_arg[1024];
  const char *args[128];
  int n = 0;
  args[n++] = "-x";
  args[n++] = "cuda";
  args[n++] = "-std=c++17";
  args[n++] = "--cuda-host-only";
  args[n++] = arch_arg;
  args[n++] = "-Wno-unknown-cuda-version";
  args[n++] = "-nocudalib";
  if (opt->cuda_path) {
    snprintf(cuda_path_arg, sizeof cuda_path_arg, "--cuda-path=%s", opt->cuda_path);
    args[n++] = cuda_path_arg;
  } else {
    args[n++] = "-nocudainc";
    args[n++] = "-include";
    args[n++] = opt->shim_path;
    args[n++] = "-I" WARPLINT_VIRTUAL_INCLUDE;  /* before the user's -I: the stand-in CUDA headers */
  }
  for (int i = 0; i < extra_count && n < 127; i++) args[n++] = extra_args[i];
  CXTranslationUnit tu = NULL;
  /* The shim, empty stand-ins for the runtime headers it replaces (so that
   * #include <cuda_runtime.h> finds nothing to redefine), and the library
   * stand-ins (cublas_v2.h...). All sit in the virtual folder searched before
   * the user's -I and -isystem: a real toolkit header is never entered, so
   * its quoted includes never reach the real cuda_fp16.hpp and the like. */
  enum { runtime_count = sizeof stand_in_headers / sizeof stand_in_headers[0], max_files = 64 };
  struct CXUnsavedFile files[max_files];
  char names[max_files][96];
  unsigned nfiles = 0;
  if (!opt->cuda_path) {
    files[nfiles++] = (struct CXUnsavedFile){opt->shim_path, opt->shim_text, (unsigned long)opt->shim_len};
    for (size_t i = 0; i < runtime_count + wl_shim_headers_count && nfiles < max_files; i++) {
      bool runtime = i < runtime_count;
      const char *name = runtime ? stand_in_headers[i] : wl_shim_headers[i - runtime_count].name;
      snprintf(names[nfiles], sizeof names[nfiles], "%s/%s", WARPLINT_VIRTUAL_INCLUDE, name);
      files[nfiles] = runtime ? (struct CXUnsavedFile){names[nfiles], stand_in_text, sizeof stand_in_text - 1}
                              : (struct CXUnsavedFile){names[nfiles], wl_shim_headers[i - runtime_count].text,
                                                       (unsigned long)wl_shim_headers[i - runtime_count].size};
      nfiles++;
    }
  }
  *rc = clang_parseTranslationUnit2((CXIndex)cx_index, path, args, n, files, nfiles,
                                    CXTranslationUnit_KeepGoing, &tu);
  return tu;
}

bool wl_parse_only(void *cx_index, const char *path, const wl_options *opt) {
  enum CXErrorCode rc;
  CXTranslationUnit tu = parse_cuda(cx_index, path, NULL, 0, opt, &rc);
  if (!tu) return false;
  clang_disposeTranslationUnit(tu);
  return rc == CXError_Success;
}

void wl_analyze_file(void *cx_index, const char *path, const char *const *extra_args, int extra_count,
                     const wl_options *opt, wl_file_result *r) {
  memset(r, 0, sizeof *r);
  r->path = wl_strdup(path);
  size_t len;
  char *text = read_source(path, &len, r);
  if (!text) { r->failed = true; return; }
  enum CXErrorCode rc;
  CXTranslationUnit tu = parse_cuda(cx_index, path, extra_args, extra_count, opt, &rc);
  if (rc != CXError_Success || !tu) {
    wl_result_error(r, "%s: error: libclang could not parse the file (error %d)", path, (int)rc);
    r->failed = true;
    free(text);
    return;
  }
  if (report_diagnostics(tu, r)) {
    wl_result_error(r, "%s: error: file skipped: it does not parse", path);
    r->failed = true;
    clang_disposeTranslationUnit(tu);
    free(text);
    return;
  }
  file_ctx fc = {.path = path, .opt = opt, .res = r, .file = clang_getFile(tu, path)};
  CXCursor root = clang_getTranslationUnitCursor(tu);
  clang_visitChildren(root, find_launches, &fc);
  clang_visitChildren(root, find_kernels, &fc);
  apply_suppressions(r, text, len);
  for (int i = 0; i < fc.launch_count; i++) free(fc.launches[i].usr);
  free(fc.launches);
  clang_disposeTranslationUnit(tu);
  free(text);
}

void wl_result_free(wl_file_result *r) {
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    free(f->kernel); free(f->array); free(f->message);
    for (int j = 0; j < f->note_count; j++) free(f->notes[j]);
    for (int j = 0; j < f->fix_count; j++) free(f->fixes[j].replacement);
  }
  for (size_t i = 0; i < r->array_count; i++) {
    wl_array_info *a = &r->arrays[i];
    free(a->kernel); free(a->array); free(a->element_type); free(a->patterns); free(a->recommended);
  }
  for (size_t i = 0; i < r->error_count; i++) free(r->errors[i]);
  for (size_t i = 0; i < r->usage_count; i++) free(r->usage[i].kernel);
  free(r->findings); free(r->arrays); free(r->errors); free(r->usage); free(r->path);
  memset(r, 0, sizeof *r);
}

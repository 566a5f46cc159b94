/* The walk over a kernel body, statement by statement, in program order.
 * It keeps the value of every local variable at the current point (the
 * environment: integers as polynomials, pointers as an array and a byte
 * offset), the lanes of each warp that are active there (guards such as
 * `if (threadIdx.x == 0)` leave some out), and the loops around it; it
 * registers the arrays the kernel touches and records every element access
 * with its warp model. Variables assigned in loops are followed when every
 * assignment moves them by a warp-uniform amount; after a branch, a
 * variable keeps what both sides agree on. __device__ helpers defined in the
 * same file are walked in place with their parameters bound. */
#include "analysis.h"

#include <string.h>

static void walk(kernel_ctx *k, CXCursor c, int mode);
static void walk_children(kernel_ctx *k, CXCursor c, int mode);
static bool record_access(kernel_ctx *k, CXCursor c, int mode);

/* ---- variables, atoms, arrays ---- */

int find_var(const kernel_ctx *k, CXCursor decl) {
  for (int i = k->var_count - 1; i >= 0; i--)
    if (clang_equalCursors(k->vars[i].decl, decl)) return i;
  return -1;
}

static void state_unknown(var_state *s) {
  memset(s, 0, sizeof *s);
  poly_unknown(&s->value, false);
  poly_unknown(&s->offset, false);
  s->expr = clang_getNullCursor();
  s->array = -1;
}

static int add_var(kernel_ctx *k, CXCursor decl) {
  int i = find_var(k, decl);
  if (i >= 0) return i;
  GROW(k->vars, k->var_count, k->var_cap);
  if (k->env_cap < k->var_cap) {
    k->env = realloc(k->env, (size_t)k->var_cap * sizeof *k->env);
    if (!k->env) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
    k->env_cap = k->var_cap;
  }
  k->vars[k->var_count] = (var_info){.decl = decl, .pointer = is_pointer_type(clang_getCursorType(decl))};
  state_unknown(&k->env[k->var_count]);
  return k->var_count++;
}

int add_atom(kernel_ctx *k, int kind, CXCursor decl, const char *name) {
  for (int i = ATOM_FIRST_SYMBOL; i < k->atom_count; i++)
    if (k->atoms[i].kind == kind && clang_equalCursors(k->atoms[i].decl, decl) && strcmp(k->atoms[i].name, name) == 0)
      return i;
  GROW(k->atoms, k->atom_count, k->atom_cap);
  atom_info *a = &k->atoms[k->atom_count];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->decl = decl;
  snprintf(a->name, sizeof a->name, "%s", name);
  return k->atom_count++;
}

/* A fresh atom every time (a loop's progress, a branch's merged value). */
static int fresh_atom(kernel_ctx *k, int kind, const char *name) {
  GROW(k->atoms, k->atom_count, k->atom_cap);
  atom_info *a = &k->atoms[k->atom_count];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->decl = clang_getNullCursor();
  snprintf(a->name, sizeof a->name, "%s", name);
  return k->atom_count++;
}

int find_array(const kernel_ctx *k, CXCursor decl) {
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
    CXType canon = clang_getCanonicalType(t);
    if (canon.kind == CXType_ConstantArray || canon.kind == CXType_IncompleteArray ||
        canon.kind == CXType_VariableArray || canon.kind == CXType_DependentSizedArray) {
      long long size = clang_getArraySize(canon);
      *elements = size > 0 && *elements > 0 ? *elements * size : -1;
      if (*ndim < MAX_DIMS) ext[*ndim] = size;
      (*ndim)++;
      t = clang_getArrayElementType(canon);
      continue;
    }
    return t;
  }
}

static int register_array(kernel_ctx *k, array_info *a, CXCursor decl, CXType elem) {
  a->decl = decl;
  a->name = cx_take(clang_getCursorSpelling(decl));
  /* spelt as declared (T, not the canonical type-parameter-0-0), and as
   * the launched instantiation's argument where T is one (float) */
  CXType declared = clang_getCursorType(decl), spelt = declared;
  if (declared.kind == CXType_Pointer) spelt = clang_getPointeeType(declared);
  else
    while (clang_getArrayElementType(spelt).kind != CXType_Invalid) spelt = clang_getArrayElementType(spelt);
  a->elem_type = cx_take(clang_getTypeSpelling(clang_getUnqualifiedType(spelt)));
  long long argument_size = 0;   /* T's size where T is the instantiation's argument */
  for (int i = 0; k->targs && i < k->targs->count; i++) {
    if (!k->targs->is_type[i] || !k->targs->type_name[i][0]) continue;
    char *param = cx_take(clang_getCursorSpelling(k->targs->param[i]));
    if (strcmp(param, a->elem_type) == 0) {
      free(a->elem_type);
      a->elem_type = wl_strdup(k->targs->type_name[i]);
      if (k->targs->known[i]) argument_size = k->targs->value[i];
    }
    free(param);
  }
  a->elem_size = type_size(elem);
  /* the template's own declaration (a device instance with no launch that
   * names it): T has no declaration to compare, its name is T */
  if (a->elem_size <= 0) a->elem_size = argument_size;
  /* a struct whose fields' types were not found (a missing header): its
   * size and layout are clang's guesses */
  CXCursor elem_decl = clang_getTypeDeclaration(clang_getCanonicalType(elem));
  if (!clang_Cursor_isNull(elem_decl) && clang_isInvalidDeclaration(elem_decl)) a->size_assumed = true;
  if (a->elem_size <= 0) {
    CXCursor param = clang_getTypeDeclaration(clang_getCanonicalType(elem));
    long long v;
    if (!(clang_getCursorKind(param) == CXCursor_TemplateTypeParameter && template_value(k, param, &v))) {
      param = clang_getTypeDeclaration(elem);
      if (!(clang_getCursorKind(param) == CXCursor_TemplateTypeParameter && template_value(k, param, &v))) {
        v = 4;                   /* a template's T with no instantiation: 4 bytes assumed */
        a->size_assumed = true;
      }
    }
    a->elem_size = v;
  }
  location_of(decl, &a->line, &a->column);
  GROW(k->arrays, k->array_count, k->array_cap);
  k->arrays[k->array_count] = *a;
  return k->array_count++;
}

/* Registers the array that decl names, if it is one warplint tracks: a
 * pointer parameter (global memory, also T * in a template), a texture
 * object, or an array variable (__shared__, __constant__, file-scope
 * __device__, or private). */
int array_for_decl(kernel_ctx *k, CXCursor decl) {
  int found = find_array(k, decl);
  if (found >= 0) return found;
  enum CXCursorKind kind = clang_getCursorKind(decl);
  if (kind != CXCursor_ParmDecl && kind != CXCursor_VarDecl) return -1;
  CXType t = clang_getCursorType(decl);
  array_info a;
  memset(&a, 0, sizeof a);
  char *type_name = cx_take(clang_getTypeSpelling(t));
  bool texture = strstr(type_name, "cudaTextureObject_t") != NULL;
  free(type_name);
  /* an inlined helper's pointer whose argument is no known array (&local) */
  if (kind == CXCursor_ParmDecl && k->params_registered && !texture) return -1;
  if (kind == CXCursor_ParmDecl && texture) {
    /* Read through tex1Dfetch() and friends, never subscripted. */
    a.space = SP_TEXTURE;
    a.decl = decl;
    a.name = cx_take(clang_getCursorSpelling(decl));
    a.elem_type = wl_strdup("texture object");
    a.elem_size = 4;
    location_of(decl, &a.line, &a.column);
    GROW(k->arrays, k->array_count, k->array_cap);
    k->arrays[k->array_count] = a;
    return k->array_count++;
  }
  CXType elem;
  if (kind == CXCursor_ParmDecl) {
    CXType canon = clang_getCanonicalType(t);
    /* rows of a multi-dimensional array: a pointer to rows (double (*p)[N]),
     * or a parameter declared as an array (double phi[][N][N]), whose
     * written type libclang gives; either way the first extent is unknown */
    if (canon.kind == CXType_Pointer) {
      long long row_ext[MAX_DIMS], row_elements;
      int row_ndim;
      elem = element_type(clang_getPointeeType(canon), row_ext, &row_ndim, &row_elements);
      a.ndim = row_ndim + 1;
      for (int d = 0; d < row_ndim && d + 1 < MAX_DIMS; d++) a.ext[d + 1] = row_ext[d];
    } else if (canon.kind == CXType_IncompleteArray || canon.kind == CXType_ConstantArray) {
      elem = element_type(t, a.ext, &a.ndim, &a.elements);
    } else {
      return -1;
    }
    if (clang_getCanonicalType(elem).kind == CXType_Pointer) return -1;   /* pointer to pointers */
    a.space = SP_GLOBAL;
    a.is_param = true;
    a.param_const = clang_isConstQualifiedType(elem);
    a.param_restrict = clang_isRestrictQualifiedType(canon);
    a.ext[0] = -1;
    a.elements = -1;
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
  return register_array(k, &a, decl, elem);
}

/* ---- the environment ---- */

static var_state *snapshot(const kernel_ctx *k) {
  var_state *s = malloc((size_t)(k->var_count ? k->var_count : 1) * sizeof *s);
  if (!s) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  memcpy(s, k->env, (size_t)k->var_count * sizeof *s);
  return s;
}

/* Vars registered after the snapshot keep their current state. */
static void restore(kernel_ctx *k, const var_state *s, int count) {
  memcpy(k->env, s, (size_t)count * sizeof *s);
}

static bool lane_part_equal(const poly *a, const poly *b) {
  poly la, ra, lb, rb;
  poly_split(a, ATOM_BX, &la, &ra);
  poly_split(b, ATOM_BX, &lb, &rb);
  return poly_equal(&la, &lb) || (la.count == 0 && lb.count == 0 && !a->unknown && !b->unknown);
}

/* The lane-varying part of p plus a new uniform unknown. */
/* per_block: the uniform part may differ between blocks (the branch's
 * condition or an arm depends on a block index), so it is not the same for
 * the grid (C_2 asks). */
static void lane_part_plus_unknown(kernel_ctx *k, const poly *p, const char *name, bool per_block, poly *out) {
  poly lane, rest, u;
  poly_split(p, ATOM_BX, &lane, &rest);
  int atom = fresh_atom(k, ATOMK_UNIFORM, name);
  k->atoms[atom].per_block = per_block || uses_index_atoms(k, &rest);
  poly_atom(&u, atom);
  poly_add(out, &lane, &u, 1);
}

static void escape_pointer(kernel_ctx *k, const var_state *s) {
  if (s->array >= 0) k->arrays[s->array].escaped = true;
}

/* What a variable holds after two paths meet. On a warp-uniform branch two
 * values with the same lane-varying part differ by a uniform amount; on a
 * divergent one, or otherwise, the value is no longer known. */
static void join_state(kernel_ctx *k, int v, var_state *a, const var_state *b, bool divergent, bool per_block) {
  char name[64];
  char *var = cx_take(clang_getCursorSpelling(k->vars[v].decl));
  snprintf(name, sizeof name, "%s'", var);
  free(var);
  if (k->vars[v].pointer) {
    if (a->array == b->array && poly_equal(&a->offset, &b->offset)) return;
    if (!divergent && a->array == b->array && a->array >= 0 && lane_part_equal(&a->offset, &b->offset)) {
      per_block = per_block || uses_index_atoms(k, &b->offset);
      lane_part_plus_unknown(k, &a->offset, name, per_block, &a->offset);
      a->expr = clang_getNullCursor();
      return;
    }
    escape_pointer(k, a);
    escape_pointer(k, b);
    state_unknown(a);
    return;
  }
  bool same_unknown = a->value.unknown && b->value.unknown && clang_equalCursors(a->expr, b->expr) &&
                      !clang_Cursor_isNull(a->expr);
  if (poly_equal(&a->value, &b->value) || same_unknown) {
    a->unroll_known = a->unroll_known && b->unroll_known;
    if (!clang_equalCursors(a->expr, b->expr)) a->expr = clang_getNullCursor();
    return;
  }
  if (!divergent && lane_part_equal(&a->value, &b->value)) {
    per_block = per_block || uses_index_atoms(k, &b->value);
    lane_part_plus_unknown(k, &a->value, name, per_block, &a->value);
    a->expr = clang_getNullCursor();
    a->unroll_known = false;
    return;
  }
  bool varying = poly_varies(&a->value) || poly_varies(&b->value);
  bool loaded = (a->value.unknown && a->value.data_dependent) || (b->value.unknown && b->value.data_dependent);
  state_unknown(a);
  a->value.lane_varying = varying;
  a->value.data_dependent = loaded;
}

static void join(kernel_ctx *k, const var_state *other, int count, bool divergent, bool per_block) {
  for (int v = 0; v < count; v++) join_state(k, v, &k->env[v], &other[v], divergent, per_block);
}

/* Whether a branch condition may come out differently in different blocks
 * (or lanes): not known to be uniform, or uniform per block only. */
static bool condition_per_block(kernel_ctx *k, CXCursor c) {
  bool per_block = false;
  return !uniform_condition(k, c, &per_block, 0) || per_block;
}

/* ---- assignments ---- */

static void set_integer(kernel_ctx *k, int v, CXCursor rhs) {
  var_state *s = &k->env[v];
  eval_poly(k, rhs, &s->value, 0);
  s->expr = rhs;
  s->unroll_known = unroll_known(k, rhs, 0);
}

static bool address_unroll_known(kernel_ctx *k, CXCursor c);

static void set_pointer(kernel_ctx *k, int v, CXCursor rhs) {
  var_state *s = &k->env[v];
  address a;
  if (eval_pointer(k, rhs, &a, 0) && a.array >= 0) {
    s->array = a.array;
    s->offset = a.off;
    s->expr = rhs;
    /* &ge[i] with i a constant-trip counter: known once the loop unrolls */
    s->unroll_known = address_unroll_known(k, rhs);
  } else {
    escape_pointer(k, s);
    state_unknown(s);
  }
}

/* The size of what a pointer variable points to (a template's T: its
 * instantiation's, or 4 assumed). */
static long long pointee_size(const kernel_ctx *k, CXCursor decl) {
  CXType t = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(decl)));
  long long size = type_size(t), v;
  if (size > 0) return size;
  CXCursor param = clang_getTypeDeclaration(t);
  return clang_getCursorKind(param) == CXCursor_TemplateTypeParameter && template_value(k, param, &v) ? v : 4;
}

/* v op= rhs (or ++/--, with rhs null and step +1 or -1). */
static void update_var(kernel_ctx *k, int v, enum CXBinaryOperatorKind op, CXCursor rhs, long long step) {
  var_state *s = &k->env[v];
  poly r;
  if (clang_Cursor_isNull(rhs)) poly_const(&r, step);
  else eval_poly(k, rhs, &r, 0);
  poly *target = k->vars[v].pointer ? &s->offset : &s->value;
  if (k->vars[v].pointer) {               /* p += n moves by n elements */
    poly w;
    poly_const(&w, pointee_size(k, k->vars[v].decl));
    poly_mul(&r, &r, &w);
  }
  long long c;
  switch (op) {
  case CXBinaryOperator_AddAssign: poly_add(target, target, &r, 1); break;
  case CXBinaryOperator_SubAssign: poly_add(target, target, &r, -1); break;
  case CXBinaryOperator_MulAssign: poly_mul(target, target, &r); break;
  case CXBinaryOperator_ShlAssign:
    if (poly_is_const(&r, &c) && c >= 0 && c < 31) {
      poly m;
      poly_const(&m, 1LL << c);
      poly_mul(target, target, &m);
    } else {
      poly_unknown(target, false);
    }
    break;
  default: {
    poly_unknown(target, false);
    break;
  }
  }
  s->expr = clang_getNullCursor();
  s->unroll_known = s->unroll_known && (clang_Cursor_isNull(rhs) || unroll_known(k, rhs, 0));
  if (k->vars[v].pointer && target->unknown) {
    escape_pointer(k, s);
    state_unknown(s);
  }
}

static int assigned_var(const kernel_ctx *k, CXCursor lhs) {
  CXCursor s = strip(lhs);
  if (clang_getCursorKind(s) != CXCursor_DeclRefExpr) return -1;
  return find_var(k, clang_getCursorReferenced(s));
}

/* ---- accesses ---- */

/* The index and pointer-offset expressions inside an address (read as
 * values), but not the arrays and pointers the address is based on (those
 * are not escaping: the access names them). */
static void walk_address_parts(kernel_ctx *k, CXCursor c) {
  CXCursor s = strip(c);
  child_list l = children(s);
  switch (clang_getCursorKind(s)) {
  case CXCursor_ArraySubscriptExpr:
    if (l.n == 2) { walk_address_parts(k, l.c[0]); walk(k, l.c[1], M_READ); }
    return;
  case CXCursor_UnaryOperator:
    if (l.n == 1) walk_address_parts(k, l.c[0]);
    return;
  case CXCursor_MemberRefExpr:
    if (l.n == 1) walk_address_parts(k, l.c[0]);
    return;
  case CXCursor_BinaryOperator: {
    if (l.n != 2) return;
    bool left = is_pointer_type(clang_getCursorType(l.c[0])) ||
                clang_getCanonicalType(clang_getCursorType(l.c[0])).kind == CXType_ConstantArray;
    walk_address_parts(k, left ? l.c[0] : l.c[1]);
    walk(k, left ? l.c[1] : l.c[0], M_READ);
    return;
  }
  case CXCursor_DeclRefExpr:
    return;
  default:
    walk(k, s, M_READ);
    return;
  }
}

/* Whether every index inside an address is known after full unrolling. */
static bool address_unroll_known(kernel_ctx *k, CXCursor c) {
  CXCursor s = strip(c);
  child_list l = children(s);
  switch (clang_getCursorKind(s)) {
  case CXCursor_ArraySubscriptExpr:
    return l.n == 2 && address_unroll_known(k, l.c[0]) && unroll_known(k, l.c[1], 0);
  case CXCursor_UnaryOperator:
  case CXCursor_MemberRefExpr:
    return l.n == 1 && address_unroll_known(k, l.c[0]);
  case CXCursor_BinaryOperator: {         /* p + i, i + p, p - i */
    if (l.n != 2) return false;
    bool left = is_pointer_type(clang_getCursorType(l.c[0]));
    return address_unroll_known(k, left ? l.c[0] : l.c[1]) && unroll_known(k, left ? l.c[1] : l.c[0], 0);
  }
  case CXCursor_DeclRefExpr: {
    int v = find_var(k, clang_getCursorReferenced(s));
    return v < 0 || !k->vars[v].pointer || k->env[v].unroll_known || k->env[v].offset.count == 0;
  }
  default:
    return false;
  }
}

static void reset_active(kernel_ctx *k, unsigned *saved) { memcpy(saved, k->active, sizeof k->active); }

/* The access an lvalue names; false when it is no element of a tracked
 * array (then its parts are walked as plain expressions). */
static bool record_address(kernel_ctx *k, CXCursor c, address a, int mode);

static bool record_access(kernel_ctx *k, CXCursor c, int mode) {
  address a;
  if (!eval_ref(k, c, &a, 0) || a.array < 0) return false;
  return record_address(k, c, a, mode);
}

static enum CXVisitorResult field_width(CXCursor field, CXClientData d) {
  long long *widths = d;                 /* [0]: the first field's size, [1]: fields, [2]: all equal */
  long long w = type_size(clang_getCursorType(field));
  if (widths[1]++ == 0) widths[0] = w;
  if (w != widths[0] || w <= 0) widths[2] = 0;
  return CXVisit_Continue;
}

/* Sets x's vec_* when c is a field of an aligned record of 8 or 16 bytes
 * made of equal fields (float2, float4, int4, an __align__(16) struct of four
 * floats): the shapes nvcc can move in one access. */
static void note_vector_field(CXCursor c, access_info *x) {
  CXCursor s = strip(c);
  child_list l = children(s);
  long long field;
  if (clang_getCursorKind(s) != CXCursor_MemberRefExpr || l.n != 1 || !member_offset(s, &field)) return;
  CXType record = clang_getCanonicalType(clang_getCursorType(l.c[0]));
  if (is_pointer_type(record)) record = clang_getCanonicalType(clang_getPointeeType(record));
  long long size = clang_Type_getSizeOf(record), align = clang_Type_getAlignOf(record);
  if (record.kind != CXType_Record || (size != 8 && size != 16) || align != size) return;
  long long widths[3] = {0, 0, 1};
  clang_Type_visitFields(record, field_width, widths);
  if (!widths[2] || widths[0] != x->width || widths[0] * widths[1] != size) return;
  poly f;
  poly_const(&f, field);
  poly_add(&x->vec_base, &x->off, &f, -1);
  x->vec_size = size;
  x->vec_field = field;
}

/* The access c makes at address a (c's own, or a getter's field of it). */
static bool record_address(kernel_ctx *k, CXCursor c, address a, int mode) {
  walk_address_parts(k, c);
  if (mode & M_ADDR) return true;          /* &a[i]: an address, not an access */
  array_info *arr = &k->arrays[a.array];
  bool write = (mode & M_WRITE) != 0, read = (mode & M_READ) != 0 || !write;
  if (write) arr->written = true;
  if (read) arr->read = true;
  if (mode & M_ATOMIC) arr->atomic = true;
  GROW(k->accesses, k->access_count, k->access_cap);
  access_info *x = &k->accesses[k->access_count++];
  memset(x, 0, sizeof *x);
  x->array = a.array;
  x->write = write;
  x->read = read;
  x->ldg = (mode & M_LDG) != 0;
  x->width = a.width;
  x->size_assumed = a.size_assumed;
  x->off = a.off;
  x->data_dependent = a.off.unknown && a.off.data_dependent;
  x->unroll_known = address_unroll_known(k, c);
  x->loop_count = k->loop_depth;
  memcpy(x->loops, k->loop_stack, sizeof k->loop_stack);
  x->region = k->region;
  CXCursor at = strip(c);
  while (clang_getCursorKind(at) == CXCursor_ArraySubscriptExpr || clang_getCursorKind(at) == CXCursor_MemberRefExpr) {
    child_list l = children(at);
    if (l.n < 1) break;
    at = strip(l.c[0]);
  }
  location_of(clang_getCursorKind(at) == CXCursor_DeclRefExpr ? at : c, &x->line, &x->column);
  note_vector_field(c, x);
  model_access(k, c, x, &x->lanes);
  if (arr->space == SP_GLOBAL && read && k->loop_depth > 0)   /* what S_5 asks about */
    x->reuse = block_reuse(k, &x->off, &x->reuse_restricted);
  if (arr->space == SP_SHARED && arr->ndim >= 2 && arr->ndim <= MAX_DIMS && arr->ext[arr->ndim - 1] > 0) {
    k->pad_array = a.array;                /* the S_1 fix-it: the last dimension padded by one */
    address padded;
    access_info px = *x;
    if (eval_ref(k, c, &padded, 0)) {
      px.off = padded.off;
      model_access(k, c, &px, &x->padded);
    }
    k->pad_array = -1;
  }
  return true;
}

/* ---- L_3: sorts and swaps in private arrays ---- */

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
  int a = local_array_of(k, lhs);
  if (a >= 0 && a == local_array_of(k, rhs)) k->arrays[a].swapped = true;
}

/* ---- branches ---- */

static enum CXChildVisitResult take_last(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Continue;
}

/* A statement after which control never falls through. */
static bool exits(CXCursor s) {
  switch (clang_getCursorKind(s)) {
  case CXCursor_ReturnStmt:
  case CXCursor_BreakStmt:
  case CXCursor_ContinueStmt:
  case CXCursor_GotoStmt:
    return true;
  case CXCursor_CompoundStmt: {
    CXCursor last = clang_getNullCursor();
    clang_visitChildren(s, take_last, &last);
    return !clang_Cursor_isNull(last) && exits(last);
  }
  default:
    return false;
  }
}

static bool divergent_condition(const kernel_ctx *k, const unsigned *t, const unsigned *f) {
  for (int w = 0; w < k->warps; w++)
    if ((k->active[w] & t[w]) && (k->active[w] & f[w])) return true;
  return false;
}

/* Whether the keyword 'else' stands between two statements. */
static bool else_between(CXCursor a, CXCursor b) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a);
  CXSourceRange r = clang_getRange(clang_getRangeEnd(clang_getCursorExtent(a)),
                                   clang_getRangeStart(clang_getCursorExtent(b)));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, r, &toks, &n);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    char *t = cx_take(clang_getTokenSpelling(tu, toks[i]));
    found = strcmp(t, "else") == 0;
    free(t);
  }
  clang_disposeTokens(tu, toks, n);
  return found;
}

/* if (c) A else B: A with the lanes for which c holds, B with the others;
 * the variables then keep what both paths agree on. When A always leaves
 * (return, break, continue), the rest of the enclosing block runs with
 * B's lanes only: `if (threadIdx.x >= 16) return;`. */
static void walk_if(kernel_ctx *k, CXCursor c) {
  child_list l = children(c);
  if (l.n < 2 || l.n > 7) { walk_children(k, c, 0); return; }
  bool has_else = l.n >= 3 && else_between(l.c[l.n - 2], l.c[l.n - 1]);
  int cond = l.n - (has_else ? 3 : 2);
  for (int i = 0; i <= cond; i++) walk(k, l.c[i], M_READ | M_NOESCAPE);   /* an init or a declaration too */
  CXCursor then_s = l.c[cond + 1];
  unsigned t[MAX_WARPS], f[MAX_WARPS], entry[MAX_WARPS];
  bool divergent = !lane_condition(k, l.c[cond], t, f) && divergent_condition(k, t, f);
  reset_active(k, entry);
  int count = k->var_count;
  var_state *before = snapshot(k);
  for (int w = 0; w < k->warps; w++) k->active[w] = entry[w] & t[w];
  k->region++;
  walk(k, then_s, 0);
  var_state *after_then = snapshot(k);
  restore(k, before, count);
  for (int w = 0; w < k->warps; w++) k->active[w] = entry[w] & f[w];
  k->region++;
  if (has_else) walk(k, l.c[cond + 2], 0);
  bool then_exits = exits(then_s), else_exits = has_else && exits(l.c[cond + 2]);
  if (then_exits && !else_exits) {
    /* only the lanes that did not leave go on: k->active stays B's */
  } else if (else_exits && !then_exits) {
    restore(k, after_then, count);
    for (int w = 0; w < k->warps; w++) k->active[w] = entry[w] & t[w];
  } else {
    join(k, after_then, count, divergent, condition_per_block(k, l.c[cond]));
    memcpy(k->active, entry, sizeof entry);
  }
  free(before);
  free(after_then);
}

/* ---- loops ---- */

typedef struct modification {
  int var;
  enum CXBinaryOperatorKind op;  /* Assign, AddAssign...; for ++/-- AddAssign with rhs null */
  CXCursor rhs;
  long long step;
} modification;

typedef struct mod_list { kernel_ctx *k; modification m[64]; int n; bool overflow; } mod_list;

static void add_mod(mod_list *ml, int var, enum CXBinaryOperatorKind op, CXCursor rhs, long long step) {
  if (var < 0) return;
  if (ml->n == 64) { ml->overflow = true; return; }
  ml->m[ml->n++] = (modification){var, op, rhs, step};
}

/* Every assignment in a loop to a variable declared before it. */
static enum CXChildVisitResult collect_mods(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  mod_list *ml = d;
  enum CXCursorKind kind = clang_getCursorKind(c);
  child_list l = children(c);
  if ((kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) && l.n == 2) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
      add_mod(ml, assigned_var(ml->k, l.c[0]), op, l.c[1], 0);
  } else if (kind == CXCursor_UnaryOperator && l.n == 1) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec)
      add_mod(ml, assigned_var(ml->k, l.c[0]), CXBinaryOperator_AddAssign, clang_getNullCursor(),
              op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1);
    else if (op == CXUnaryOperator_AddrOf)
      add_mod(ml, assigned_var(ml->k, l.c[0]), CXBinaryOperator_Invalid, clang_getNullCursor(), 0);
  } else if (kind == CXCursor_LambdaExpr) {
    return CXChildVisit_Continue;
  }
  return CXChildVisit_Recurse;
}

/* What a loop-carried variable holds at the top of each iteration: its
 * entry value plus what the loop has added, when every assignment in the
 * loop adds a warp-uniform amount (or keeps the lane-varying part); a fresh
 * uniform value when it is uniform and scaled; unknown otherwise. */
static void loop_head(kernel_ctx *k, int v, const mod_list *ml, int atom, bool unrollable) {
  var_state *s = &k->env[v];
  bool pointer = k->vars[v].pointer;
  poly entry = pointer ? s->offset : s->value;
  poly lane, rest;
  poly_split(&entry, ATOM_BX, &lane, &rest);
  bool additive = !entry.unknown, scaled_uniform = !entry.unknown && lane.count == 0, steps_known = true;
  /* what an unknown head keeps: it differs per lane (or is loaded) when
   * its entry value or any value assigned in the loop does */
  bool varying = poly_varies(&entry), loaded = entry.unknown && entry.data_dependent;
  for (int i = 0; i < ml->n; i++) {
    const modification *m = &ml->m[i];
    if (m->var != v) continue;
    poly r;
    if (clang_Cursor_isNull(m->rhs)) poly_const(&r, m->step);
    else if (pointer && m->op == CXBinaryOperator_Assign) {
      address a;
      bool ok = eval_pointer(k, m->rhs, &a, 0) && a.array == s->array;
      r = ok ? a.off : entry;
      if (!ok) poly_unknown(&r, false);
    } else eval_poly(k, m->rhs, &r, 0);
    steps_known = steps_known && (clang_Cursor_isNull(m->rhs) || unroll_known(k, m->rhs, 0));
    poly rl, rr;
    poly_split(&r, ATOM_BX, &rl, &rr);
    varying = varying || poly_varies(&r);
    loaded = loaded || (r.unknown && r.data_dependent);
    switch (m->op) {
    case CXBinaryOperator_AddAssign:
    case CXBinaryOperator_SubAssign:
      if (r.unknown || rl.count != 0) additive = scaled_uniform = false;
      break;
    case CXBinaryOperator_Assign:
      if (r.unknown || !lane_part_equal(&r, &entry)) additive = scaled_uniform = false;
      if (rl.count != 0) scaled_uniform = false;
      break;
    case CXBinaryOperator_MulAssign:
    case CXBinaryOperator_ShlAssign:
    case CXBinaryOperator_DivAssign:
    case CXBinaryOperator_ShrAssign:
      additive = false;
      if (r.unknown || rl.count != 0) scaled_uniform = false;
      break;
    default:
      additive = scaled_uniform = false;
      break;
    }
  }
  poly head, l_atom;
  poly_atom(&l_atom, atom);
  if (additive) poly_add(&head, &entry, &l_atom, 1);
  else if (scaled_uniform) head = l_atom;
  else {
    poly_unknown(&head, loaded);
    head.lane_varying = varying;
  }
  if (pointer) {
    if (head.unknown) { escape_pointer(k, s); state_unknown(s); }
    else s->offset = head;
  } else {
    s->value = head;
  }
  s->unroll_known = s->unroll_known && unrollable && steps_known && !head.unknown;
  s->expr = clang_getNullCursor();
}

/* The for-increment moves the variable by one. */
static bool unit_step(CXCursor inc) {
  inc = strip(inc);
  if (clang_getCursorKind(inc) == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
    return op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec;
  }
  if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator) {
    child_list l = children(inc);
    long long v;
    return l.n == 2 && const_value(l.c[1], &v) && v == 1;
  }
  return false;
}

/* The counter of a for loop: the variable its increment moves. */
static int loop_counter(const kernel_ctx *k, CXCursor inc) {
  mod_list ml = {.k = (kernel_ctx *)k};
  collect_mods(inc, inc, &ml);
  clang_visitChildren(inc, collect_mods, &ml);
  return ml.n > 0 ? ml.m[0].var : -1;
}

/* cond bounds counter v by a compile-time value: `i < N`, or one side of
 * a conjunction (`idx < n && i < N` under #pragma unroll N: at most N
 * trips, each with its exit test, so still fully unrolled). */
static bool bounded_by_constant(const kernel_ctx *k, CXCursor cond, int v, int depth) {
  cond = strip(cond);
  child_list c = children(cond);
  if (c.n != 2 || clang_getCursorKind(cond) != CXCursor_BinaryOperator || depth > 8) return false;
  if (clang_getCursorBinaryOperatorKind(cond) == CXBinaryOperator_LAnd)
    return bounded_by_constant(k, c.c[0], v, depth + 1) || bounded_by_constant(k, c.c[1], v, depth + 1);
  CXCursor left = strip(c.c[0]);
  return clang_getCursorKind(left) == CXCursor_DeclRefExpr && find_var(k, clang_getCursorReferenced(left)) == v &&
         compile_time(c.c[1]);
}

/* Constant start and bound (i < N, i <= N, i > N, i >= N): the compiler can
 * unroll it; with a unit step, its trip count. */
static void describe_counter(kernel_ctx *k, atom_info *a, int v, CXCursor cond, CXCursor inc) {
  var_state *s = &k->env[v];
  child_list c = children(strip(cond));
  long long start, bound;
  bool start_known = !s->value.unknown && poly_is_const(&s->value, &start);
  a->const_trip = (start_known || s->unroll_known) &&
                  ((c.n == 2 && compile_time(c.c[1])) || bounded_by_constant(k, cond, v, 0));
  a->unit_step = unit_step(inc);
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(strip(cond));
  if (a->const_trip && a->unit_step && start_known && const_value(c.c[1], &bound) &&
      (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE))
    a->trips = bound - start + (op == CXBinaryOperator_LE);
}

/* for (init; cond; inc) body, while (cond) body, do body while (cond). */
static void walk_loop(kernel_ctx *k, CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  child_list l = children(c);
  CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor(), body;
  if (kind == CXCursor_ForStmt) {
    /* libclang lists only the parts present: tell them apart by shape */
    if (l.n < 1) return;
    body = l.c[l.n - 1];
    for (int i = 0; i + 1 < l.n; i++) {
      CXCursor part = l.c[i];
      enum CXCursorKind pk = clang_getCursorKind(part);
      bool assignment = pk == CXCursor_BinaryOperator &&
                        (clang_getCursorBinaryOperatorKind(part) == CXBinaryOperator_Assign ||
                         clang_getCursorBinaryOperatorKind(part) == CXBinaryOperator_Comma);
      bool step = pk == CXCursor_CompoundAssignOperator ||
                  (pk == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(part) >= CXUnaryOperator_PostInc &&
                   clang_getCursorUnaryOperatorKind(part) <= CXUnaryOperator_PreDec);
      if (i == 0 && (pk == CXCursor_DeclStmt || assignment)) init = part;
      else if (clang_Cursor_isNull(cond) && !step && !(assignment && i > 0)) cond = part;
      else inc = part;
    }
  } else if (kind == CXCursor_WhileStmt) {
    if (l.n < 2) return;
    cond = l.c[0];
    body = l.c[l.n - 1];
  } else {
    if (l.n < 2) return;
    body = l.c[0];
    cond = l.c[1];
  }
  if (!clang_Cursor_isNull(init)) walk(k, init, 0);
  mod_list ml = {.k = k};
  clang_visitChildren(c, collect_mods, &ml);
  int counter = clang_Cursor_isNull(inc) ? -1 : loop_counter(k, inc);
  char name[64] = "loop";
  int counter_atom = -1;
  unsigned entry[MAX_WARPS];
  reset_active(k, entry);
  /* the loop's atoms, then every carried variable's state at the top */
  int atoms_for[64];
  for (int i = 0; i < ml.n; i++) atoms_for[i] = -1;
  for (int i = 0; i < ml.n && !ml.overflow; i++) {
    int v = ml.m[i].var;
    bool first = true;
    for (int j = 0; j < i; j++) first &= ml.m[j].var != v;
    if (!first) continue;
    char *var = cx_take(clang_getCursorSpelling(k->vars[v].decl));
    snprintf(name, sizeof name, "%s", var);
    free(var);
    int atom = fresh_atom(k, ATOMK_LOOP, name);
    if (v == counter && !clang_Cursor_isNull(cond)) {
      describe_counter(k, &k->atoms[atom], v, cond, inc);
      counter_atom = atom;
    }
    atoms_for[i] = atom;
  }
  bool unrollable = counter_atom >= 0 && k->atoms[counter_atom].const_trip;
  if (ml.overflow) {
    for (int i = 0; i < ml.n; i++) { escape_pointer(k, &k->env[ml.m[i].var]); state_unknown(&k->env[ml.m[i].var]); }
  } else {
    for (int i = 0; i < ml.n; i++)
      if (atoms_for[i] >= 0) loop_head(k, ml.m[i].var, &ml, atoms_for[i], unrollable);
  }
  /* a condition the lanes decide differently (while (idx >= count[j]) j++;)
   * leaves each lane with its own trip count */
  unsigned when_true[MAX_WARPS], when_false[MAX_WARPS];
  bool divergent = !clang_Cursor_isNull(cond) && !lane_condition(k, cond, when_true, when_false);
  bool pushed = k->loop_depth < MAX_LOOPS;   /* deeper nests share the innermost slot */
  if (pushed) k->loop_stack[k->loop_depth++] = counter_atom;
  if (kind != CXCursor_DoStmt && !clang_Cursor_isNull(cond)) walk(k, cond, M_READ | M_NOESCAPE);
  k->region++;
  walk(k, body, 0);
  if (!clang_Cursor_isNull(inc)) walk(k, inc, 0);
  if (kind == CXCursor_DoStmt) walk(k, cond, M_READ | M_NOESCAPE);
  if (pushed) k->loop_depth--;
  /* after the loop the carried variables hold their top-of-loop form (the
   * loop's progress unknown); assignments in the body do not leak out */
  if (!ml.overflow)
    for (int i = 0; i < ml.n; i++)
      if (atoms_for[i] >= 0) loop_head(k, ml.m[i].var, &ml, atoms_for[i], unrollable);
  /* ...and after a divergent loop, the carried values differ per lane */
  for (int i = 0; divergent && i < ml.n; i++) {
    var_state *s = &k->env[ml.m[i].var];
    if (k->vars[ml.m[i].var].pointer) {
      escape_pointer(k, s);
      state_unknown(s);
    } else if (!s->value.unknown || !s->value.lane_varying) {
      bool loaded = s->value.unknown && s->value.data_dependent;
      poly_unknown(&s->value, loaded);
      s->value.lane_varying = true;
      s->expr = clang_getNullCursor();
      s->unroll_known = false;
    }
  }
  memcpy(k->active, entry, sizeof entry);
}

/* ---- calls ---- */

typedef struct param_search { CXCursor found; int want, seen; } param_search;

static enum CXChildVisitResult nth_param(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  param_search *s = d;
  if (clang_getCursorKind(c) != CXCursor_ParmDecl) return CXChildVisit_Continue;
  if (s->seen++ == s->want) { s->found = c; return CXChildVisit_Break; }
  return CXChildVisit_Continue;
}

/* Parameter i of a function or function template (-1: their count). */
static CXCursor parameter_decl(CXCursor def, int i, int *count) {
  param_search s = {.found = clang_getNullCursor(), .want = i};
  clang_visitChildren(def, nth_param, &s);
  if (count) *count = s.seen;
  return s.found;
}

/* The definition of a __device__ helper that can be walked here: defined
 * in the analysed file, parsed, not already on the stack, not too deep. */
static bool inlinable(kernel_ctx *k, CXCursor call, CXCursor *def, CXCursor *body) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ref) || k->call_depth >= MAX_INLINE) return false;
  *def = clang_getCursorDefinition(ref);
  if (clang_Cursor_isNull(*def) || clang_getCursorKind(*def) != CXCursor_FunctionDecl) {
    CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);   /* a function template's instance */
    if (clang_Cursor_isNull(tmpl)) return false;
    *def = clang_getCursorDefinition(tmpl);
    if (clang_Cursor_isNull(*def) || clang_getCursorKind(*def) != CXCursor_FunctionTemplate) return false;
  }
  if (!has_attr(*def, CXCursor_CUDADeviceAttr) || !in_file(*def, k->file) || error_within(k->fc, *def))
    return false;
  for (int i = 0; i < k->call_depth; i++)
    if (clang_equalCursors(k->call_stack[i], *def)) return false;
  int params;
  parameter_decl(*def, -1, &params);
  return child_of_kind(*def, CXCursor_CompoundStmt, body) && params == clang_Cursor_getNumArguments(call);
}

/* Walks a helper's body as if it were written at the call: pointer
 * parameters point where the arguments do, integer parameters hold the
 * arguments' values. */
static void inline_call(kernel_ctx *k, CXCursor call, CXCursor def, CXCursor body) {
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    CXCursor param = parameter_decl(def, i, NULL);
    if (clang_Cursor_isNull(param)) { walk(k, arg, 0); continue; }
    int v = add_var(k, param);
    CXType pt = clang_getCanonicalType(clang_getCursorType(param));
    if (pt.kind == CXType_LValueReference || pt.kind == CXType_RValueReference) {
      walk(k, arg, clang_isConstQualifiedType(clang_getPointeeType(pt)) ? M_READ : M_READ | M_WRITE);
      continue;
    }
    if (k->vars[v].pointer) {
      set_pointer(k, v, arg);
      if (k->env[v].array >= 0) walk_address_parts(k, arg);
      else walk(k, arg, 0);
    } else {
      walk(k, arg, M_READ);
      set_integer(k, v, arg);
    }
  }
  k->call_stack[k->call_depth++] = def;
  walk(k, body, 0);
  k->call_depth--;
}

static bool pointer_to_const(CXType t) {
  CXType canon = clang_getCanonicalType(t);
  return canon.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(canon));
}

/* A pointer argument to a call warplint does not walk: read when the
 * parameter points to const (wmma::load_matrix_sync, __ldg, memcpy's
 * source), written otherwise (atomics: an atomic access; anything else: the
 * array may be written there). */
static void pointer_argument(kernel_ctx *k, CXCursor arg, int mode) {
  address a;
  if (!eval_pointer(k, arg, &a, 0) || a.array < 0) { walk(k, arg, 0); return; }
  /* atomicAdd(a + i, v): the element as an access (its parts walked there) */
  if ((mode & M_ATOMIC) && clang_getCursorKind(strip(arg)) == CXCursor_BinaryOperator && a.width > 0) {
    record_address(k, arg, a, M_WRITE | M_READ | M_ATOMIC);
    return;
  }
  walk_address_parts(k, arg);
  array_info *arr = &k->arrays[a.array];
  if (mode & M_ATOMIC) {
    CXCursor s = strip(arg);
    child_list l = children(s);
    /* atomicAdd(&a[i], v): the element as an access */
    if (clang_getCursorKind(s) == CXCursor_UnaryOperator && l.n == 1 &&
        clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_AddrOf && record_access(k, l.c[0], M_WRITE | M_READ | M_ATOMIC))
      return;
    arr->atomic = arr->written = true;
  } else if (mode & M_WRITE) {
    arr->escaped = true;
  } else if (mode & M_LDG) {
    /* __ldg(&a[i]): the element as a read on the read-only path */
    CXCursor s = strip(arg);
    child_list l = children(s);
    if (!(clang_getCursorKind(s) == CXCursor_UnaryOperator && l.n == 1 &&
          clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_AddrOf && record_access(k, l.c[0], M_READ | M_LDG)))
      arr->read = true;
  } else {
    arr->read = true;
  }
}

/* A getter (`float angle() const { return m_angle; }`, any constness): its
 * body is one return of a field of *this. Calling it on an element reads
 * that field only, at its offset in the struct: obj[i].angle() is the
 * array-of-structs read obj[i].m_angle. */
static bool getter_field(CXCursor method, long long *offset, long long *width) {
  CXCursor def = clang_getCursorDefinition(method), body;
  if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_CXXMethod ||
      !child_of_kind(def, CXCursor_CompoundStmt, &body))
    return false;
  child_list statements = children(body);
  if (statements.n != 1 || clang_getCursorKind(statements.c[0]) != CXCursor_ReturnStmt) return false;
  child_list value = children(statements.c[0]);
  if (value.n != 1) return false;
  CXCursor member = strip(value.c[0]);
  if (clang_getCursorKind(member) != CXCursor_MemberRefExpr) return false;
  child_list base = children(member);
  if (base.n > 1 || (base.n == 1 && clang_getCursorKind(base.c[0]) != CXCursor_CXXThisExpr)) return false;
  CXCursor field = clang_getCursorReferenced(member);
  if (clang_getCursorKind(field) != CXCursor_FieldDecl || !member_offset(member, offset)) return false;
  *width = type_size(clang_getCursorType(field));
  return *width > 0;
}

static void walk_call(kernel_ctx *k, CXCursor c) {
  CXCursor def, body;
  if (inlinable(k, c, &def, &body)) { inline_call(k, c, def, body); return; }
  char *callee = cx_take(clang_getCursorSpelling(c));
  CXCursor ref = clang_getCursorReferenced(c);
  bool atomic = strncmp(callee, "atomic", 6) == 0, ldg = strncmp(callee, "__ld", 4) == 0;
  bool op = strncmp(callee, "operator", 8) == 0;
  /* a = b through an operator (__half's operator=, +=): the first argument
   * is written; any other operator only reads */
  bool op_assign = op && callee[8] && strchr("=+-*/%&|^<>", callee[8]) && callee[strlen(callee) - 1] == '=' &&
                   strcmp(callee, "operator==") && strcmp(callee, "operator!=") && strcmp(callee, "operator<=") &&
                   strcmp(callee, "operator>=");
  free(callee);
  int n = clang_Cursor_getNumArguments(c);
  if (n < 0) { walk_children(k, c, M_READ); return; }
  int params = clang_Cursor_isNull(ref) ? -1 : clang_Cursor_getNumArguments(ref);
  int first_param = params >= 0 && n == params + 1 ? 1 : 0;   /* a member operator: the object comes first */
  /* a method called on an element (p[i].f(), a conversion such as
   * (float)h[i] on a __half): written unless const */
  child_list l = children(c);
  if (l.n > 0 && clang_getCursorKind(strip(l.c[0])) == CXCursor_MemberRefExpr) {
    child_list m = children(strip(l.c[0]));
    enum CXCursorKind rk = clang_getCursorKind(ref);
    bool is_const = (rk == CXCursor_CXXMethod || rk == CXCursor_ConversionFunction) && clang_CXXMethod_isConst(ref);
    long long field, field_width;
    address a;
    if (m.n == 1 && getter_field(ref, &field, &field_width) && eval_ref(k, m.c[0], &a, 0) && a.array >= 0) {
      poly o;
      poly_const(&o, field);
      poly_add(&a.off, &a.off, &o, 1);
      a.width = field_width;
      record_address(k, m.c[0], a, M_READ);
    } else if (m.n == 1) {
      walk(k, m.c[0], is_const ? M_READ : M_READ | M_WRITE);
    }
  }
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    if (op) { walk(k, arg, i == 0 && op_assign ? M_READ | M_WRITE : M_READ); continue; }
    CXType at = clang_getCursorType(arg);
    int p = i - first_param;
    CXCursor param = params >= 0 && p >= 0 && p < params ? clang_Cursor_getArgument(ref, (unsigned)p) : clang_getNullCursor();
    CXType pt = clang_Cursor_isNull(param) ? at : clang_getCursorType(param);
    if (is_pointer_type(at) || clang_getCanonicalType(at).kind == CXType_ConstantArray) {
      int mode = atomic && i == 0 ? M_ATOMIC : ldg && i == 0 ? M_LDG
               : pointer_to_const(pt) || clang_Cursor_isNull(param) ? M_READ : M_WRITE;
      pointer_argument(k, arg, mode);
    } else {
      CXType ptc = clang_getCanonicalType(pt);
      bool by_ref = ptc.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(ptc));
      walk(k, arg, by_ref ? M_READ | M_WRITE : M_READ);
    }
  }
}

/* ---- the walk ---- */

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

/* The access flags of a mode (M_READ when none: a plain use reads). */
static int access_mode(int mode) {
  int m = mode & (M_WRITE | M_READ | M_LDG | M_ATOMIC | M_ADDR);
  return m ? m : M_READ;
}

static bool is_assignment(enum CXBinaryOperatorKind op) {
  return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
}

static void walk_assignment(kernel_ctx *k, CXCursor c, enum CXBinaryOperatorKind op, CXCursor lhs, CXCursor rhs) {
  int v = assigned_var(k, lhs);
  if (v >= 0 && k->vars[v].pointer && op == CXBinaryOperator_Assign) {
    set_pointer(k, v, rhs);
    if (k->env[v].array >= 0) walk_address_parts(k, rhs);
    else walk(k, rhs, 0);                   /* an untracked pointer: its arrays escape */
    return;
  }
  if (v >= 0) {
    walk(k, rhs, M_READ);
    if (op == CXBinaryOperator_Assign) set_integer(k, v, rhs);
    else update_var(k, v, op, rhs, 0);
    return;
  }
  walk(k, lhs, M_WRITE | (op == CXBinaryOperator_Assign ? 0 : M_READ));
  walk(k, rhs, M_READ);
  if (op == CXBinaryOperator_Assign) note_swap(k, lhs, rhs);
  (void)c;
}

static void walk_decl(kernel_ctx *k, CXCursor c) {
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
    array_for_decl(k, c);
    walk_children(k, c, M_READ);
    return;
  }
  int v = add_var(k, c);
  CXCursor init = clang_Cursor_getVarDeclInitializer(c);
  if (clang_Cursor_isNull(init)) { state_unknown(&k->env[v]); return; }
  if (k->vars[v].pointer) {
    set_pointer(k, v, init);
    if (k->env[v].array >= 0) walk_address_parts(k, init);
    else walk(k, init, 0);
  } else {
    walk(k, init, M_READ);
    set_integer(k, v, init);
  }
}

static void walk_compound(kernel_ctx *k, CXCursor c) {
  unsigned entry[MAX_WARPS];
  reset_active(k, entry);
  walk_children(k, c, 0);
  memcpy(k->active, entry, sizeof entry);
}

static void walk_switch(kernel_ctx *k, CXCursor c) {
  int count = k->var_count;
  var_state *before = snapshot(k);
  walk_children(k, c, 0);
  join(k, before, count, true, true);
  free(before);
}

static void walk(kernel_ctx *k, CXCursor c, int mode) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  switch (kind) {
  case CXCursor_CompoundStmt:
    walk_compound(k, c);
    return;
  /* each branch starts a region and so does what follows it */
  case CXCursor_IfStmt:
    walk_if(k, c);
    k->region++;
    return;
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
    k->region++;
    walk_loop(k, c);
    k->region++;
    return;
  case CXCursor_SwitchStmt:
    k->region++;
    walk_switch(k, c);
    k->region++;
    return;
  case CXCursor_VarDecl:
    walk_decl(k, c);
    return;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    child_list l = children(c);
    if (is_assignment(op) && l.n == 2) { walk_assignment(k, c, op, l.c[0], l.c[1]); return; }
    if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE && l.n == 2) note_compare(k, l.c[0], l.c[1]);
    bool test = (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) || op == CXBinaryOperator_LAnd ||
                op == CXBinaryOperator_LOr;
    walk_children(k, c, test || (mode & M_NOESCAPE) ? M_READ | M_NOESCAPE : M_READ);
    return;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    child_list l = children(c);
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec && l.n == 1) {
      int v = assigned_var(k, l.c[0]);
      if (v >= 0) {
        update_var(k, v, CXBinaryOperator_AddAssign, clang_getNullCursor(),
                   op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1);
        return;
      }
      walk(k, l.c[0], M_WRITE | M_READ);
      return;
    }
    if (op == CXUnaryOperator_AddrOf && l.n == 1) {
      int v = assigned_var(k, l.c[0]);
      if (v >= 0) {                           /* &v: anything may change v now */
        escape_pointer(k, &k->env[v]);
        state_unknown(&k->env[v]);
        return;
      }
      address a;
      if (eval_pointer(k, c, &a, 0) && a.array >= 0) {
        walk_address_parts(k, c);
        if (!(mode & M_NOESCAPE)) k->arrays[a.array].escaped = true;   /* the address goes somewhere */
      } else {
        walk(k, l.c[0], M_READ | M_WRITE);
      }
      return;
    }
    if (op == CXUnaryOperator_LNot) { walk_children(k, c, M_READ | M_NOESCAPE); return; }
    if (op == CXUnaryOperator_Deref && l.n == 1) {
      if (!record_access(k, c, access_mode(mode))) walk_children(k, c, M_READ);
      return;
    }
    walk_children(k, c, M_READ);
    return;
  }
  case CXCursor_ArraySubscriptExpr:
    if (!record_access(k, c, access_mode(mode))) walk_children(k, c, 0);
    return;
  case CXCursor_MemberRefExpr: {
    int atom = member_builtin(c);
    if (atom >= 0) return;
    if (!record_access(k, c, access_mode(mode))) walk_children(k, c, mode & M_WRITE ? mode : M_READ);
    return;
  }
  case CXCursor_CallExpr:
    walk_call(k, c);
    return;
  case CXCursor_DeclRefExpr: {
    /* an array or pointer used as a value: it escapes (passed on, stored) */
    if (mode & (M_ADDR | M_LDG | M_NOESCAPE)) return;
    CXCursor d = clang_getCursorReferenced(c);
    int ai = find_array(k, d);
    int v = find_var(k, d);
    if (v >= 0 && k->vars[v].pointer) ai = k->env[v].array;
    if (ai >= 0 && !(k->arrays[ai].space == SP_TEXTURE && (mode & M_READ))) k->arrays[ai].escaped = true;
    return;
  }
  case CXCursor_LambdaExpr:
    return;
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
    walk_children(k, c, mode);
    return;
  default:
    walk_children(k, c, 0);
    return;
  }
}

/* The kernel's parameters as variables (a pointer parameter points at its
 * own array; an integer one is its own atom, until the body assigns it),
 * then the body. */
void walk_kernel(kernel_ctx *k, CXCursor fn, CXCursor body) {
  int nparams;
  parameter_decl(fn, -1, &nparams);      /* a template's too (no arguments in the C API) */
  for (int i = 0; i < nparams; i++) {
    CXCursor p = parameter_decl(fn, i, NULL);
    int ai = array_for_decl(k, p);
    int v = add_var(k, p);
    var_state *s = &k->env[v];
    if (ai >= 0 && k->vars[v].pointer) {
      s->array = ai;
      poly_const(&s->offset, 0);
    } else {
      char *name = cx_take(clang_getCursorSpelling(p));
      poly_atom(&s->value, add_atom(k, ATOMK_PARAM, p, name));
      free(name);
    }
  }
  k->params_registered = true;
  walk(k, body, 0);
}

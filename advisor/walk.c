/* The walk over a kernel body: it registers the arrays the kernel touches
 * (pointer parameters, __shared__, __constant__, file-scope __device__ and
 * private arrays), records every subscript as an access with its enclosing
 * loops, counts the stores to local variables, and inlines __device__
 * helpers defined in the same file. */
#include "analysis.h"

#include <string.h>

const binding *active_binding(const kernel_ctx *k, CXCursor decl) {
  for (int i = k->bind_count - 1; i >= 0; i--)
    if (k->binds[i].active && clang_equalCursors(k->binds[i].param, decl)) return &k->binds[i];
  return NULL;
}

int find_var(kernel_ctx *k, CXCursor decl) {
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

int add_atom(kernel_ctx *k, int kind, CXCursor decl, const char *name) {
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


/* ---- arrays ---- */

int find_array(kernel_ctx *k, CXCursor decl) {
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
int array_for_decl(kernel_ctx *k, CXCursor decl) {
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

/* The definition of a __device__ helper that can be inlined here: defined in
 * the analysed file, not already on the inlining stack, not too deep. */
static bool inlinable(kernel_ctx *k, CXCursor call, CXCursor *def, CXCursor *body) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ref) || k->call_depth >= MAX_INLINE) return false;
  *def = clang_getCursorDefinition(ref);
  if (clang_Cursor_isNull(*def) || clang_getCursorKind(*def) != CXCursor_FunctionDecl) return false;
  if (!has_attr(*def, CXCursor_CUDADeviceAttr) || !in_file(*def, k->file) || error_within(k->fc, *def))
    return false;
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

void walk(kernel_ctx *k, CXCursor c, int mode) {
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


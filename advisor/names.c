/* The AST's names for what the device code touches: ir.c finds an access
 * in the device code with its file:line:column; this file finds there, in
 * libclang's syntax tree, the array the user wrote (its declaration, its
 * name as written: `in`, `tile`, `p.data`), the kernel's parameters, and
 * the variables a loop counts with. The user's expressions are indexed once
 * per file by the place clang's debug locations give them (the expression's
 * own location: an array's name, an assignment's `=`, a call's name). */
#include "analysis.h"

#include <string.h>

typedef struct place {
  unsigned long long file;       /* file_key() */
  unsigned line, column;
  CXCursor cursor;
} place;

typedef struct user_file {
  char *path;
  CXFile file;                   /* NULL: not the user's */
} user_file;

typedef struct named_var {
  char *name;
  CXCursor cursor;
} named_var;

typedef struct guarded_file {
  unsigned long long file;       /* file_key() */
  bool guarded;                  /* its text names __CUDA_ARCH__ */
} guarded_file;

struct ast_index {
  place *places;
  int count, cap;
  guarded_file *guarded;         /* host index: files asked about so far */
  int guarded_count, guarded_cap;
  named_var *vars;               /* the user's variables, by name */
  int var_count, var_cap;
  user_file *files;
  int file_count, file_cap;
};

/* A file by device and inode: the same for every path that names it. */
static unsigned long long file_key(CXFile f) {
  CXFileUniqueID id;
  if (!f || clang_getFileUniqueID(f, &id) != 0) return 0;
  return id.data[0] * 1000003ULL ^ id.data[1] * 998244353ULL ^ id.data[2];
}

bool same_file(CXFile a, CXFile b) { return a && b && file_key(a) == file_key(b); }

unsigned long long file_id(CXFile f) { return file_key(f); }

static bool indexed_kind(enum CXCursorKind k) {
  return k == CXCursor_CallExpr || k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
         k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
         k == CXCursor_DeclRefExpr || k == CXCursor_VarDecl || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt || k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction ||
         k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate;
}

static void add_place(ast_index *x, CXCursor c, CXSourceLocation at) {
  place p = {.cursor = c};
  CXFile file;
  clang_getExpansionLocation(at, &file, &p.line, &p.column, NULL);
  p.file = file_key(file);
  if (!p.file) return;
  GROW(x->places, x->count, x->cap);
  x->places[x->count++] = p;
}

/* The operator token of a binary or postfix expression: the first token
 * after its first operand (for a prefix operator, its first token). */
static CXSourceLocation operator_location(CXCursor c) {
  child_list l = children(c);
  CXSourceRange whole = clang_getCursorExtent(c);
  if (l.n < 1) return clang_getRangeStart(whole);
  CXSourceLocation after = clang_getRangeEnd(clang_getCursorExtent(l.c[0]));
  unsigned first_offset, operand_end;
  clang_getExpansionLocation(clang_getRangeStart(whole), NULL, NULL, NULL, &first_offset);
  clang_getExpansionLocation(after, NULL, NULL, NULL, &operand_end);
  if (operand_end <= first_offset) return clang_getRangeStart(whole);   /* prefix: ++i */
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getRange(after, clang_getRangeEnd(whole)), &toks, &n);
  CXSourceLocation at = n ? clang_getTokenLocation(tu, toks[0]) : clang_getRangeStart(whole);
  clang_disposeTokens(tu, toks, n);
  return at;
}

typedef struct operator_call {
  ast_index *index;
  CXCursor call;
} operator_call;

static enum CXChildVisitResult index_operator_call(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  operator_call *o = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnexposedExpr) return CXChildVisit_Recurse;     /* the callee's decay to a pointer */
  if (k != CXCursor_DeclRefExpr) return CXChildVisit_Continue;
  char *name = cx_take(clang_getCursorSpelling(c));
  bool is_operator = strncmp(name, "operator", 8) == 0;
  free(name);
  if (is_operator) add_place(o->index, o->call, clang_getCursorLocation(c));
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult index_cursor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ast_index *x = d;
  CXSourceLocation at = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(at)) return CXChildVisit_Continue;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_VarDecl) {
    GROW(x->vars, x->var_count, x->var_cap);
    x->vars[x->var_count++] = (named_var){cx_take(clang_getCursorSpelling(c)), c};
  }
  if (indexed_kind(kind)) {
    add_place(x, c, at);
    /* debug locations put an operator's expression at its operator (a
     * store at its `=`, i++ at its ++), libclang at its first token */
    if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator || kind == CXCursor_UnaryOperator)
      add_place(x, c, operator_location(c));
    /* and an overloaded operator's call (a proxy's `a[i][j] = v`) at its
     * operator, where the reference to the operator function is */
    if (kind == CXCursor_CallExpr)
      clang_visitChildren(c, index_operator_call, &(operator_call){x, c});
  }
  return CXChildVisit_Recurse;
}

static int compare_places(const void *a, const void *b) {
  const place *p = a, *q = b;
  if (p->file != q->file) return p->file < q->file ? -1 : 1;
  if (p->line != q->line) return p->line < q->line ? -1 : 1;
  return p->column < q->column ? -1 : p->column > q->column;
}

static int compare_vars(const void *a, const void *b) {
  return strcmp(((const named_var *)a)->name, ((const named_var *)b)->name);
}

static ast_index *build_index(CXTranslationUnit tu) {
  ast_index *x = calloc(1, sizeof *x);
  if (!x) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  visit_unit(tu, index_cursor, x);
  qsort(x->places, (size_t)x->count, sizeof *x->places, compare_places);
  qsort(x->vars, (size_t)x->var_count, sizeof *x->vars, compare_vars);
  return x;
}

static ast_index *index_of(file_ctx *fc) {
  if (!fc->index) fc->index = build_index(fc->tu);
  return fc->index;
}

/* The device side's index, parsed on first need; NULL where it does not parse. */
static ast_index *device_index_of(file_ctx *fc) {
  if (!fc->device_index_tried) {
    fc->device_index_tried = true;
    fc->device_tu = wl_parse_device_side(fc);
    if (fc->device_tu) fc->device_index = build_index(fc->device_tu);
    if (getenv("WARPLINT_TRACE"))
      fprintf(stderr, "trace: device-side parse for names: %s\n", fc->device_tu ? "parsed" : "failed");
  }
  return fc->device_index;
}

static int first_place_at(const ast_index *x, unsigned long long file, unsigned line);

/* The file's text names __CUDA_ARCH__: only there can the two sides'
 * preprocessors keep different code (asked once a file). */
static bool arch_guarded(file_ctx *fc, ast_index *host, CXFile file) {
  unsigned long long key = file_key(file);
  for (int i = 0; i < host->guarded_count; i++)
    if (host->guarded[i].file == key) return host->guarded[i].guarded;
  size_t size = 0;
  const char *text = clang_getFileContents(fc->tu, file, &size);
  bool guarded = false;
  for (size_t at = 0; text && !guarded && at + 13 <= size; at++)
    guarded = memcmp(text + at, "__CUDA_ARCH__", 13) == 0;
  GROW(host->guarded, host->guarded_count, host->guarded_cap);
  host->guarded[host->guarded_count++] = (guarded_file){key, guarded};
  return guarded;
}

/* The index that holds the expressions of file:line: the host side's, or,
 * where the host side has none there and the device side has (a kernel's
 * body under #if __CUDA_ARCH__, which the host side's preprocessor skips),
 * the device side's. The device code's lines are the device side's. */
static ast_index *index_for(file_ctx *fc, CXFile file, unsigned line) {
  ast_index *host = index_of(fc);
  unsigned long long key = file_key(file);
  if (first_place_at(host, key, line) >= 0 || !arch_guarded(fc, host, file)) return host;
  ast_index *device = device_index_of(fc);
  return device && first_place_at(device, key, line) >= 0 ? device : host;
}

void ast_index_free(ast_index *x) {
  if (!x) return;
  for (int i = 0; i < x->file_count; i++) free(x->files[i].path);
  free(x->files);
  for (int i = 0; i < x->var_count; i++) free(x->vars[i].name);
  free(x->vars);
  free(x->places);
  free(x->guarded);
  free(x);
}

/* The index of the first place not before key. */
static int lower_bound(const ast_index *x, const place *key) {
  int lo = 0, hi = x->count;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (compare_places(&x->places[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The first place on file:line at any column, or -1. */
static int first_place_at(const ast_index *x, unsigned long long file, unsigned line) {
  place key = {.file = file, .line = line, .column = 0};
  int lo = lower_bound(x, &key);
  return lo < x->count && x->places[lo].file == file && x->places[lo].line == line ? lo : -1;
}

/* The first indexed cursor at exactly file:line:column, its range in *n. */
static const place *places_at(ast_index *x, CXFile file, unsigned line, unsigned column, int *n) {
  place key = {.file = file_key(file), .line = line, .column = column};
  int lo = lower_bound(x, &key);
  *n = 0;
  while (lo + *n < x->count && compare_places(&x->places[lo + *n], &key) == 0) ++*n;
  return &x->places[lo];
}

CXFile ir_user_file(const ir_scope *s, const char *path) {
  ast_index *x = index_of(s->fc);
  for (int i = 0; i < x->file_count; i++)
    if (strcmp(x->files[i].path, path) == 0) return x->files[i].file;
  /* warplint's own headers (the stand-ins), under their virtual folder or
   * the copy of it the device compile reads, are no more the user's than
   * the toolkit's are */
  CXFile f = strstr(path, "/__warplint__/") ? NULL : clang_getFile(s->fc->tu, path);
  if (f && clang_Location_isInSystemHeader(clang_getLocation(s->fc->tu, f, 1, 1))) f = NULL;
  GROW(x->files, x->file_count, x->file_cap);
  x->files[x->file_count++] = (user_file){wl_strdup(path), f};
  return f;
}

/* ---- parameters and variables ---- */

static enum CXChildVisitResult collect_param(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ir_scope *s = d;
  if (clang_getCursorKind(c) == CXCursor_ParmDecl && s->param_count < 32) s->params[s->param_count++] = c;
  return CXChildVisit_Continue;
}

void ir_scope_init(ir_scope *s, file_ctx *fc, CXCursor kernel) {
  memset(s, 0, sizeof *s);
  s->fc = fc;
  s->kernel = kernel;
  clang_visitChildren(kernel, collect_param, s);
}

CXCursor ir_param_cursor(const ir_scope *s, int position) {
  return position >= 0 && position < s->param_count ? s->params[position] : clang_getNullCursor();
}

void ir_param_name(const ir_scope *s, int position, char *out, size_t size) {
  CXCursor p = ir_param_cursor(s, position);
  char *name = clang_Cursor_isNull(p) ? wl_strdup("") : cx_take(clang_getCursorSpelling(p));
  if (*name) snprintf(out, size, "%s", name);
  else snprintf(out, size, "(parameter %d)", position + 1);
  free(name);
}

static bool inside(CXCursor inner, CXCursor outer) {
  unsigned a, b, c;
  clang_getExpansionLocation(clang_getCursorLocation(inner), NULL, NULL, NULL, &a);
  CXSourceRange r = clang_getCursorExtent(outer);
  clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &c);
  CXFile fi, fo;
  clang_getExpansionLocation(clang_getCursorLocation(inner), &fi, NULL, NULL, NULL);
  clang_getExpansionLocation(clang_getRangeStart(r), &fo, NULL, NULL, NULL);
  return file_key(fi) == file_key(fo) && a >= b && a <= c;
}

static CXCursor variable_in(const ast_index *x, const ir_scope *s, const char *name, int space) {
  named_var key = {(char *)name, clang_getNullCursor()};
  int lo = 0, hi = x->var_count;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (compare_vars(&x->vars[mid], &key) < 0) lo = mid + 1;
    else hi = mid;
  }
  CXCursor best = clang_getNullCursor();
  for (int i = lo; i < x->var_count && strcmp(x->vars[i].name, name) == 0; i++) {
    CXCursor c = x->vars[i].cursor;
    bool shared = has_attr(c, CXCursor_CUDASharedAttr), constant = has_attr(c, CXCursor_CUDAConstantAttr);
    if ((space == SP_SHARED) != shared || (space == SP_CONSTANT) != constant) continue;
    if (inside(c, s->kernel)) return c;
    if (clang_Cursor_isNull(best)) best = c;
  }
  return best;
}

CXCursor ir_variable_named(const ir_scope *s, const char *name, int space) {
  CXCursor found = variable_in(index_of(s->fc), s, name, space);
  /* declared in code only the device side has (the index is there once a
   * line of that code was looked up) */
  if (clang_Cursor_isNull(found) && s->fc->device_index) found = variable_in(s->fc->device_index, s, name, space);
  return found;
}

/* ---- the array an access names ---- */

static bool pointer_like(CXCursor c) {
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  return t.kind == CXType_Pointer || t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
         t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray;
}

/* "p . data" as tokens come: "p.data" */
static void tidy_text(const char *text, char *out, size_t size) {
  size_t n = 0;
  for (const char *p = text; *p && n + 1 < size; p++) {
    if (*p == ' ' && (p[1] == '.' || p[1] == '-' || (n && (out[n - 1] == '.' || out[n - 1] == '>')))) continue;
    out[n++] = *p;
  }
  out[n] = 0;
}

static CXCursor base_of(CXCursor c, bool local, char *name, size_t size, CXCursor *written, bool *field,
                        bool *bound);

/* d is a variable of the function's own, neither a pointer nor shared,
 * constant or static: it lives in registers or the local stack. */
static bool local_variable(CXCursor d) {
  if (clang_getCursorKind(d) != CXCursor_VarDecl ||
      clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_Pointer)
    return false;
  if (has_attr(d, CXCursor_CUDASharedAttr) || has_attr(d, CXCursor_CUDAConstantAttr)) return false;
  return clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit &&
         clang_Cursor_getStorageClass(d) != CX_SC_Static;
}

/* An assignment's side that names the access: its left, unless the access
 * is to memory and the left is one of the function's own variables (`v[i]
 * = in[j]` placed at its `=` is the read of in). */
static CXCursor assigned_side(CXCursor left, CXCursor right, bool local) {
  if (local) return left;
  char name[128];
  CXCursor written;
  bool field = false;
  bool bound;
  CXCursor d = base_of(left, true, name, sizeof name, &written, &field, &bound);
  return !clang_Cursor_isNull(d) && local_variable(d) ? right : left;
}

/* An overloaded assignment, plain or compound (operator=, operator+=), not
 * a comparison (operator==, operator<=). */
static bool assignment_operator(const char *name) {
  static const char *const comparisons[] = {"operator==", "operator!=", "operator<=", "operator>="};
  size_t n = strlen(name);
  if (strncmp(name, "operator", 8) != 0 || name[n - 1] != '=') return false;
  for (size_t i = 0; i < sizeof comparisons / sizeof comparisons[0]; i++)
    if (strcmp(name, comparisons[i]) == 0) return false;
  return true;
}

/* From an access expression to the array it is in: down through
 * subscripts, dereferences, pointer arithmetic, assignments, the first
 * argument of a call (atomicAdd(&a[i], v), __ldg(p + i)) and references
 * bound to an element (const T &e = a[i]; e.x), *bound saying so. */
static CXCursor base_of(CXCursor c, bool local, char *name, size_t size, CXCursor *written, bool *field,
                        bool *bound) {
  *bound = false;
  for (int depth = 0; depth < 24; depth++) {
    c = strip(c);
    child_list l = children(c);
    *written = c;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr: {
      CXCursor d = clang_getCursorReferenced(c);
      enum CXCursorKind k = clang_getCursorKind(d);
      if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return clang_getNullCursor();
      CXCursor init = k == CXCursor_VarDecl && clang_getCursorType(d).kind == CXType_LValueReference
                          ? clang_Cursor_getVarDeclInitializer(d)
                          : clang_getNullCursor();
      if (!clang_Cursor_isNull(init)) {
        *bound = true;
        c = init;
        continue;
      }
      char *text = cx_take(clang_getCursorSpelling(d));
      snprintf(name, size, "%s", text);
      free(text);
      return d;
    }
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
      if (l.n < 1) return clang_getNullCursor();
      c = l.c[0];
      continue;
    case CXCursor_CompoundAssignOperator:
      if (l.n != 2) return clang_getNullCursor();
      c = assigned_side(l.c[0], l.c[1], local);
      continue;
    case CXCursor_BinaryOperator: {
      enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
      if (l.n != 2) return clang_getNullCursor();
      if (op == CXBinaryOperator_Assign) c = assigned_side(l.c[0], l.c[1], local);
      else if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) c = pointer_like(l.c[0]) ? l.c[0] : l.c[1];
      else return clang_getNullCursor();
      continue;
    }
    case CXCursor_CallExpr:
      /* a member call with no arguments (a conversion, `t[i].get()`): the
       * object it is called on */
      if (clang_Cursor_getNumArguments(c) < 1) {
        if (l.n < 1 || clang_getCursorKind(l.c[0]) != CXCursor_MemberRefExpr) return clang_getNullCursor();
        child_list callee = children(l.c[0]);
        if (callee.n != 1) return clang_getNullCursor();
        c = callee.c[0];
        continue;
      }
      if (clang_Cursor_getNumArguments(c) == 2) {   /* a class's a = b, a += b: as the built-in's */
        char *callee = cx_take(clang_getCursorSpelling(c));
        bool assignment = assignment_operator(callee);
        free(callee);
        if (assignment) {
          c = assigned_side(clang_Cursor_getArgument(c, 0), clang_Cursor_getArgument(c, 1), local);
          continue;
        }
      }
      c = clang_Cursor_getArgument(c, 0);
      continue;
    case CXCursor_VarDecl:                  /* T v = a[i]: its initialiser */
      if (l.n < 1) return clang_getNullCursor();
      c = l.c[l.n - 1];
      continue;
    case CXCursor_MemberRefExpr:
      if (l.n == 1 && !pointer_like(c)) {                   /* a[i].x: the element's array */
        *field = true;
        c = l.c[0];
        continue;
      }
      {
        char *text = source_text(c);
        tidy_text(text, name, size);
        free(text);
      }
      return clang_getNullCursor();
    default:
      return clang_getNullCursor();
    }
  }
  return clang_getNullCursor();
}

/* How far below the place the compiler gives an access its array's name
 * may be written. */
#define NAME_LINES_ON 4

/* a = b, built in or a class's operator= */
static bool is_assignment(CXCursor c) {
  if (clang_getCursorKind(c) == CXCursor_BinaryOperator)
    return clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign;
  if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 2) return false;
  char *callee = cx_take(clang_getCursorSpelling(c));
  bool assignment = strcmp(callee, "operator=") == 0;
  free(callee);
  return assignment;
}

static int kind_rank(enum CXCursorKind k) {
  switch (k) {
  case CXCursor_CallExpr: return 0;
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator: return 1;
  case CXCursor_UnaryOperator: return 2;
  case CXCursor_ArraySubscriptExpr: return 3;
  case CXCursor_MemberRefExpr: return 4;
  case CXCursor_DeclRefExpr: return 5;
  case CXCursor_VarDecl: return 6;
  default: return 9;
  }
}

CXCursor ir_array_at(const ir_scope *s, CXFile file, unsigned *line, unsigned *column, bool local, char *name,
                     size_t size, bool *field) {
  *name = 0;
  *field = false;
  int n;
  const place *p = places_at(index_for(s->fc, file, *line), file, *line, *column, &n);
  /* the most telling expression there first */
  for (int rank = 0; rank < 7; rank++)
    for (int i = 0; i < n; i++) {
      if (kind_rank(clang_getCursorKind(p[i].cursor)) != rank) continue;
      CXCursor written;
      bool bound;
      CXCursor d = base_of(p[i].cursor, local, name, size, &written, field, &bound);
      if (clang_Cursor_isNull(d) && !*name) { *field = false; continue; }
      CXFile at;
      unsigned at_line, at_column;
      clang_getExpansionLocation(clang_getCursorLocation(written), &at, &at_line, &at_column, NULL);
      /* the name may sit a few lines on, in an assignment spread over
       * lines (a copy's `=` at the end of one line, the array read on the
       * next), or where a reference was bound to the element */
      bool moves = at_line == *line || bound ||
                   (at_line > *line && at_line <= *line + NAME_LINES_ON && is_assignment(p[i].cursor));
      if (same_file(at, file) && moves) {
        *line = at_line;
        *column = at_column;
      }
      return d;
    }
  return clang_getNullCursor();
}

/* A load the compiler hoisted out of a loop keeps no line; its use's is
 * the operator before the read, which may end the line above it. */
bool ir_read_of_after(const ir_scope *s, CXFile file, unsigned *line, unsigned *column, CXCursor decl) {
  if (clang_Cursor_isNull(decl)) return false;
  ast_index *x = index_for(s->fc, file, *line);
  place from = {.file = file_key(file), .line = *line, .column = *column};
  for (int i = lower_bound(x, &from);
       i < x->count && x->places[i].file == from.file && x->places[i].line <= *line + NAME_LINES_ON; i++) {
    if (clang_getCursorKind(x->places[i].cursor) != CXCursor_ArraySubscriptExpr) continue;
    char name[128];
    CXCursor written;
    bool field, bound;
    CXCursor d = base_of(x->places[i].cursor, false, name, sizeof name, &written, &field, &bound);
    if (clang_Cursor_isNull(d) || !clang_equalCursors(d, decl)) continue;
    clang_getExpansionLocation(clang_getCursorLocation(written), NULL, line, column, NULL);
    return true;
  }
  return false;
}

/* An integer expression's text, tidied, when it is short and one line. */
static bool integer_text(CXCursor c, char *out, size_t size) {
  enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(c)).kind;
  if (t < CXType_Char_U || t > CXType_Int128 || t == CXType_WChar) return false;
  char *text = source_text(c);
  char tidy[128];
  tidy_text(text ? text : "", tidy, sizeof tidy);
  free(text);
  if (!*tidy || strlen(tidy) + 1 > size || strpbrk(tidy, "\n\r(")) return false;
  snprintf(out, size, "%s", tidy);
  return true;
}

bool ir_value_text_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *out, size_t size) {
  static const enum CXCursorKind kinds[] = {CXCursor_MemberRefExpr, CXCursor_ArraySubscriptExpr, CXCursor_DeclRefExpr};
  ast_index *x = index_for(s->fc, file, line);
  int n;
  const place *p = places_at(x, file, line, column, &n);
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    for (int i = 0; i < n; i++)
      if (clang_getCursorKind(p[i].cursor) == kinds[k] && integer_text(p[i].cursor, out, size)) return true;
  /* a field's place is its name (numAttr); the load's is where the
   * expression starts (p): a field read beginning there */
  unsigned long long key = file_key(file);
  int first = first_place_at(x, key, line);
  for (int i = first; i >= 0 && i < x->count && x->places[i].line == line && x->places[i].file == key; i++) {
    CXCursor c = x->places[i].cursor;
    if (clang_getCursorKind(c) != CXCursor_MemberRefExpr && clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
      continue;
    unsigned start_line, start_column;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, &start_line, &start_column, NULL);
    if (start_line == line && start_column == column && integer_text(c, out, size)) return true;
  }
  return false;
}

static enum CXChildVisitResult first_decl_ref(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

bool ir_name_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *name, size_t size) {
  int n;
  const place *p = places_at(index_for(s->fc, file, line), file, line, column, &n);
  for (int i = 0; i < n; i++) {
    CXCursor c = p[i].cursor, ref = clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) ref = c;
    else if (k == CXCursor_UnaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator)
      clang_visitChildren(c, first_decl_ref, &ref);
    if (clang_Cursor_isNull(ref)) continue;
    char *text = cx_take(clang_getCursorSpelling(ref));
    snprintf(name, size, "%s", text);
    free(text);
    return *name != 0;
  }
  return false;
}

static bool contains(CXCursor outer, unsigned long long file, unsigned line, unsigned column) {
  CXSourceRange r = clang_getCursorExtent(outer);
  CXFile f;
  unsigned l0, c0, l1, c1;
  clang_getExpansionLocation(clang_getRangeStart(r), &f, &l0, &c0, NULL);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, &l1, &c1, NULL);
  if (file_key(f) != file) return false;
  return (line > l0 || (line == l0 && column >= c0)) && (line < l1 || (line == l1 && column <= c1));
}

static enum CXChildVisitResult find_var_decl(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl || k == CXCursor_DeclRefExpr) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* The body of a for, while or do statement: what runs on every turn. */
static CXCursor loop_body(CXCursor loop) {
  child_list l = children(loop);
  if (l.n == 0) return clang_getNullCursor();
  return clang_getCursorKind(loop) == CXCursor_DoStmt ? l.c[0] : l.c[l.n - 1];
}

/* The innermost for, while or do statement holding the place (in its body,
 * when in_body: not in a for's first part, which runs once) that begins at
 * most `reach` lines above it; a null cursor when none does. */
static CXCursor loop_holding(const ir_scope *s, CXFile file, unsigned line, unsigned column, unsigned reach,
                             bool in_body) {
  ast_index *x = index_for(s->fc, file, line);
  unsigned long long key = file_key(file);
  int n;
  const place *at = places_at(x, file, line, column, &n);
  /* the loops that begin before the place, nearest first: the first that
   * holds it is the innermost */
  for (const place *p = at - 1; p >= x->places && p->file == key && p->line + reach > line; p--) {
    enum CXCursorKind k = clang_getCursorKind(p->cursor);
    if ((k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt) ||
        !contains(p->cursor, key, line, column))
      continue;
    if (in_body) {
      CXCursor body = loop_body(p->cursor);
      if (clang_Cursor_isNull(body) || !contains(body, key, line, column)) continue;
    }
    return p->cursor;
  }
  return clang_getNullCursor();
}

bool ir_loop_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *name, size_t size) {
  /* a loop whose turns the compiler copied starts at most a few hundred lines up */
  CXCursor best = loop_holding(s, file, line, column, 400, false);
  if (clang_Cursor_isNull(best)) return false;
  /* the counter: the variable its first part declares or sets */
  child_list l = children(best);
  CXCursor found = clang_getNullCursor();
  if (l.n > 0) clang_visitChildren(best, find_var_decl, &found);
  if (clang_Cursor_isNull(found)) return false;
  char *text = cx_take(clang_getCursorSpelling(found));
  snprintf(name, size, "%s", text);
  free(text);
  return *name != 0;
}

bool ir_in_source_loop(const ir_scope *s, CXFile file, unsigned line, unsigned column) {
  /* a physics kernel's level loop runs for thousands of lines; its first
   * part (jk = p->first) runs once */
  return !clang_Cursor_isNull(loop_holding(s, file, line, column, 20000, true));
}

static enum CXChildVisitResult find_subscript(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr) return CXChildVisit_Recurse;
  *(bool *)d = true;
  return CXChildVisit_Break;
}

/* A free function's body that only loads and returns: one return, or
 * declarations and calls before a last return. */
static bool load_wrapper(const child_list *body) {
  if (body->n < 1 || clang_getCursorKind(body->c[body->n - 1]) != CXCursor_ReturnStmt) return false;
  for (int i = 0; i < body->n - 1; i++) {
    enum CXCursorKind k = clang_getCursorKind(body->c[i]);
    if (k != CXCursor_DeclStmt && k != CXCursor_CallExpr) return false;
  }
  return true;
}

/* An accessor declared on this line, which indexes nothing itself: a
 * method or conversion of an object whose body is at most two statements
 * (`*data_ = v; return *this;`, `return *data_;`), or a free function
 * whose body is one return (a load wrapper: FasterTransformer's `T ldg(const
 * T *val) { return __ldg(val); }`) or declarations and calls before one (a
 * type-punning load: `T v; memcpy(&v, p, 8); return v;`). An access in it is the caller's: the
 * caller's expression chose the element. One that subscripts (a codec's
 * `p[d] = v`, WarpPackedBits's `in[laneId]`) chose it itself. access_line
 * is the access's line in it. */
bool ir_accessor_at(const ir_scope *s, CXFile file, unsigned line, unsigned access_line) {
  /* the syntax tree that holds the access: a body under #if __CUDA_ARCH__
   * is the device side's, whatever the host side's #else holds */
  ast_index *x = index_for(s->fc, file, access_line);
  int n;
  const place *p = places_at(x, file, line, 0, &n);      /* the line's first place */
  unsigned long long key = file_key(file);
  for (; p < x->places + x->count && p->file == key && p->line == line; p++) {
    enum CXCursorKind k = clang_getCursorKind(p->cursor);
    bool method = k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction;
    if ((!method && k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
        (method && clang_CXXMethod_isStatic(p->cursor)))
      continue;
    child_list l = children(p->cursor);
    if (l.n < 1 || clang_getCursorKind(l.c[l.n - 1]) != CXCursor_CompoundStmt) continue;
    child_list body = children(l.c[l.n - 1]);
    /* a free function: a load wrapper's one return, or a type-punning
     * load (`T v; memcpy(&v, p, sizeof v); return v;`) whose last
     * statement returns what it read (a store helper such as `*c = alpha
     * * acc` stays where it writes: one report, not one per call) */
    if (body.n > 3 || (method && body.n > 2) || (!method && !load_wrapper(&body))) continue;
    bool subscript = false;
    clang_visitChildren(l.c[l.n - 1], find_subscript, &subscript);
    if (!subscript) return true;
  }
  return false;
}

/* Whether the expression at line:column (its start or its field's name)
 * is a field of a parameter passed by reference or pointer (`a.aa` in an `add(const T
 * &a)`, `p->x`): the helper reads the element its caller chose (`sum.add(
 * in[i])`), so the access is the caller's. One that subscripts the
 * parameter (p[k].x) chose an element itself. */
bool ir_parameter_field_at(const ir_scope *s, CXFile file, unsigned line, unsigned column) {
  ast_index *x = index_for(s->fc, file, line);
  unsigned long long key = file_key(file);
  int first = first_place_at(x, key, line);
  for (int i = first; i >= 0 && i < x->count && x->places[i].line == line && x->places[i].file == key; i++) {
    CXCursor c = x->places[i].cursor;
    if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) continue;
    /* the load's column: where the expression starts, or the field's name */
    unsigned start_column, name_line, name_column;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, &start_column, NULL);
    location_of(c, &name_line, &name_column);
    if (start_column != column && name_column != column) continue;
    /* through the fields of fields (a.v.x) to what holds them */
    CXCursor base = c;
    while (clang_getCursorKind(base) == CXCursor_MemberRefExpr) {
      child_list l = children(base);
      if (l.n != 1) break;
      base = strip(l.c[0]);
    }
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) continue;
    CXCursor decl = clang_getCursorReferenced(base);
    enum CXTypeKind kind = clang_getCursorType(decl).kind;
    if (clang_getCursorKind(decl) == CXCursor_ParmDecl &&
        (kind == CXType_LValueReference || kind == CXType_RValueReference || kind == CXType_Pointer))
      return true;
  }
  return false;
}

/* ---- an access the device code kept no line for ---- */

typedef struct sole_access {
  CXCursor decl;
  bool write;                    /* the direction asked about */
  int count;
  CXCursor found;
} sole_access;

/* Whether subscript c, whose parent is parent, is written (the left of =,
 * or updated in place) and whether it is read (anything but a plain =). */
static void directions(CXCursor c, CXCursor parent, bool *written, bool *read) {
  enum CXCursorKind pk = clang_getCursorKind(parent);
  /* the left operand starts where its operator expression does */
  unsigned at, parent_at;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &at);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(parent)), NULL, NULL, NULL, &parent_at);
  bool left = at == parent_at;
  *written = false;
  *read = true;
  if (pk == CXCursor_BinaryOperator && left && clang_getCursorBinaryOperatorKind(parent) == CXBinaryOperator_Assign) {
    *written = true;
    *read = false;
  } else if (pk == CXCursor_CompoundAssignOperator && left) {
    *written = true;
  } else if (pk == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(parent);
    /* ++ and --, or &a[i]: an address handed on (atomicAdd's), which may write it */
    *written = (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) || op == CXUnaryOperator_AddrOf;
  }
}

static enum CXChildVisitResult count_access(CXCursor c, CXCursor parent, CXClientData d) {
  sole_access *s = d;
  if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr) return CXChildVisit_Recurse;
  char name[128];
  CXCursor written_at;
  bool field = false;
  bool bound;
  CXCursor base = base_of(c, false, name, sizeof name, &written_at, &field, &bound);
  if (clang_Cursor_isNull(base) || !clang_equalCursors(base, s->decl)) return CXChildVisit_Recurse;
  bool written, read;
  directions(c, parent, &written, &read);
  if (s->write ? written : read) {
    s->count++;
    s->found = c;
  }
  return CXChildVisit_Continue;
}

bool ir_sole_access(const ir_scope *s, CXCursor decl, bool write, CXFile *file, unsigned *line, unsigned *column) {
  if (clang_Cursor_isNull(decl)) return false;
  sole_access a = {.decl = decl, .write = write};
  clang_visitChildren(s->kernel, count_access, &a);
  if (a.count != 1) return false;
  clang_getExpansionLocation(clang_getCursorLocation(a.found), file, line, column, NULL);
  return *file && *line > 0;
}

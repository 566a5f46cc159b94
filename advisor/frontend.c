/* The front end: reads a CUDA file, parses it with libclang (with the
 * compiled-in stand-in headers, or a CUDA toolkit's real ones), reports its
 * diagnostics, finds the launches (block shapes) and the kernels, and hands
 * each kernel to kernel.c. */
#include "analysis.h"
#include "device.h"
#include "respell.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <string.h>

/* What a local variable of the launching function holds at the launch: its
 * initialiser, then each assignment before the launch (v = ..., and for a
 * dim3 v.x = ...), all compile-time constants. */
typedef struct shape_search {
  CXCursor var;
  unsigned before;               /* the launch's offset */
  long long value[3];
  bool ok;
  int depth;                     /* integer variables followed inside this search */
  int branches;                  /* inside an if or switch that does not hold the launch */
  unsigned branch_line;          /* the first assignment there (the value found is the default) */
  bool unset;                    /* an integer declared without a value, not yet assigned one */
} shape_search;

static bool var_at_launch(CXCursor var, unsigned before, int depth, long long *value, unsigned *branch_line);

/* The values a function template's non-type parameter takes where the
 * file instantiates it (argMaxGroup<32>(...), template void run<64>()). */
#define MAX_TEMPLATE_VALUES 8
typedef struct template_uses {
  CXCursor owner;                /* the function template */
  int index;                     /* the parameter's position */
  long long value[MAX_TEMPLATE_VALUES];   /* distinct, ascending */
  int values;
  bool more;                     /* more distinct values than kept */
} template_uses;

static void add_template_value(template_uses *u, long long v) {
  int at = 0;
  while (at < u->values && u->value[at] < v) at++;
  if (at < u->values && u->value[at] == v) return;
  if (u->values == MAX_TEMPLATE_VALUES) { u->more = true; return; }
  memmove(&u->value[at + 1], &u->value[at], (size_t)(u->values - at) * sizeof u->value[0]);
  u->value[at] = v;
  u->values++;
}

static enum CXChildVisitResult find_instances(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  template_uses *u = d;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor f = k == CXCursor_FunctionDecl ? c
               : k == CXCursor_DeclRefExpr || k == CXCursor_CallExpr ? clang_getCursorReferenced(c)
                                                                      : clang_getNullCursor();
  if (!clang_Cursor_isNull(f) && clang_equalCursors(clang_getSpecializedCursorTemplate(f), u->owner) &&
      clang_Cursor_getNumTemplateArguments(f) > u->index &&
      clang_Cursor_getTemplateArgumentKind(f, (unsigned)u->index) == CXTemplateArgumentKind_Integral)
    add_template_value(u, clang_Cursor_getTemplateArgumentValue(f, (unsigned)u->index));
  return u->more ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The position of a template parameter among its template's. */
typedef struct parameter_position {
  CXCursor parameter;
  int index;
} parameter_position;

static enum CXChildVisitResult count_parameters(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  parameter_position *p = d;
  if (clang_equalCursors(c, p->parameter)) return CXChildVisit_Break;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
      k == CXCursor_TemplateTemplateParameter)
    p->index++;
  return CXChildVisit_Continue;
}

/* The explicit instantiations of the template in the analysed file
 * (`template void normalize<64>(...);`, a template-instance file's whole
 * content), which libclang gives no cursor: u's parameter's value where the
 * argument at its position is an integer literal. */
static void explicit_instances(CXTranslationUnit tu, template_uses *u) {
  char *name = cx_take(clang_getCursorSpelling(u->owner)), *path = cx_take(clang_getTranslationUnitSpelling(tu));
  CXFile file = clang_getFile(tu, path);
  free(path);
  size_t size = 0;
  if (file) clang_getFileContents(tu, file, &size);
  CXToken *toks = NULL;
  unsigned n = 0;
  if (file && size)
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                      clang_getLocationForOffset(tu, file, (unsigned)size)), &toks, &n);
  bool instantiation = false;   /* after `template` with no `<`, up to its `;` */
  char *next = n ? cx_take(clang_getTokenSpelling(tu, toks[0])) : NULL;
  for (unsigned i = 0; i + 1 < n && !u->more; i++) {
    char *t = next;
    next = cx_take(clang_getTokenSpelling(tu, toks[i + 1]));
    if (strcmp(t, "template") == 0) instantiation = strcmp(next, "<") != 0;
    else if (strcmp(t, ";") == 0 || strcmp(t, "{") == 0) instantiation = false;
    else if (instantiation && strcmp(t, name) == 0 && strcmp(next, "<") == 0) {
      /* the arguments: the one at u->index, when it is one literal */
      int depth = 0, arg = 0, at = -1, width = 0;
      for (unsigned j = i + 1; j < n; j++) {
        char *a = cx_take(clang_getTokenSpelling(tu, toks[j]));
        bool open = strcmp(a, "<") == 0 || strcmp(a, "(") == 0, close = strcmp(a, ">") == 0 || strcmp(a, ")") == 0;
        bool comma = depth == 1 && strcmp(a, ",") == 0;
        free(a);
        if (close && --depth == 0) break;
        if (comma) arg++;
        else if (depth >= 1 && arg == u->index) { at = at < 0 ? (int)j : at; width++; }
        if (open) depth++;
      }
      long long v;
      if (width == 1 && clang_getTokenKind(toks[at]) == CXToken_Literal) {
        char *literal = cx_take(clang_getTokenSpelling(tu, toks[at]));
        if (integer_literal(literal, &v)) add_template_value(u, v);
        free(literal);
      }
    }
    free(t);
  }
  free(next);
  clang_disposeTokens(tu, toks, n);
  free(name);
}

/* The values (ascending, at most MAX_TEMPLATE_VALUES) a non-type parameter
 * of a host function template takes in the instances the file makes; 0
 * when it is no such parameter or none is made. */
static int template_parameter_values(CXCursor parameter, long long *values) {
  template_uses u = {.owner = clang_getCursorSemanticParent(parameter)};
  if (clang_getCursorKind(u.owner) != CXCursor_FunctionTemplate) return 0;
  parameter_position p = {.parameter = parameter};
  clang_visitChildren(u.owner, count_parameters, &p);
  u.index = p.index;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(parameter);
  visit_unit(tu, find_instances, &u);
  explicit_instances(tu, &u);
  memcpy(values, u.value, sizeof u.value);
  return u.values;
}

/* A launch's size that is a non-type parameter of the host function
 * template launching it (template <int Threads> ... dim3 threads =
 * {Threads, 1, 1}): its value where every instance the file makes agrees. */
static bool template_parameter_value(CXCursor parameter, long long *v) {
  long long values[MAX_TEMPLATE_VALUES];
  if (template_parameter_values(parameter, values) != 1) return false;
  *v = values[0];
  return true;
}

/* The case of a switch on var whose statement holds the place `at`: a
 * dispatch on the block's size (switch (threads) { case 512:
 * reduce<512><<<grid, threads>>>(...); ...}), where var is that case. */
typedef struct case_search {
  CXCursor var;
  unsigned at;
  bool inside;                   /* the innermost switch around is on var */
  long long value;
  bool found;
} case_search;

static bool extent_holds(CXCursor c, unsigned at) {
  unsigned start, end;
  CXSourceRange extent = clang_getCursorExtent(c);
  clang_getExpansionLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &start);
  clang_getExpansionLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
  return start <= at && at < end;
}

static enum CXChildVisitResult find_case(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  case_search *s = d;
  if (!extent_holds(c, s->at)) return CXChildVisit_Continue;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_SwitchStmt) {
    child_list l = children(c);
    CXCursor on = l.n ? strip(l.c[0]) : clang_getNullCursor();
    bool outer = s->inside;
    s->inside =
        clang_getCursorKind(on) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(on), s->var);
    clang_visitChildren(c, find_case, s);
    s->inside = outer;
    return CXChildVisit_Break;
  }
  /* case C: followed by the statement that holds the place (not a case
   * falling through to another: either value could reach it) */
  if (kind == CXCursor_CaseStmt && s->inside) {
    child_list l = children(c);
    long long v;
    if (l.n == 2 && clang_getCursorKind(l.c[1]) != CXCursor_CaseStmt && const_value(l.c[0], &v) &&
        extent_holds(l.c[1], s->at)) {
      s->value = v;
      s->found = true;
    }
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static bool case_value(CXCursor var, unsigned at, long long *v) {
  case_search s = {.var = var, .at = at};
  clang_visitChildren(clang_getCursorSemanticParent(var), find_case, &s);
  if (s.found) *v = s.value;
  return s.found;
}

/* A compile-time constant, or a local integer variable whose value at the
 * launch is one (int n = 1 << 5; ... dim3 block(n)), or the case of a
 * switch on it that holds the launch. */
static bool launch_value(CXCursor c, unsigned before, int depth, long long *v, unsigned *branch_line) {
  if (const_value(c, v)) return true;
  c = strip(c);
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || depth > 2 || before == 0) return false;
  CXCursor d = clang_getCursorReferenced(c);
  if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) return template_parameter_value(d, v);
  if (clang_getCursorKind(d) != CXCursor_VarDecl && clang_getCursorKind(d) != CXCursor_ParmDecl) return false;
  enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(d)).kind;
  if (t < CXType_Char_U || t > CXType_LongLong) return false;
  if (case_value(d, before, v)) return true;
  if (clang_getCursorKind(d) != CXCursor_VarDecl) return false;
  long long shape[3];
  if (!var_at_launch(d, before, depth + 1, shape, branch_line)) return false;
  *v = shape[0];
  return true;
}

/* A default argument shows as an expression with no place in the file. */
static bool default_argument(CXCursor arg) {
  unsigned line;
  clang_getExpansionLocation(clang_getCursorLocation(arg), NULL, &line, NULL, NULL);
  return line == 0;
}

static bool dim3_args_at(CXCursor c, unsigned before, int depth, long long *b, unsigned *branch_line) {
  c = strip(c);
  if (launch_value(c, before, depth, &b[0], branch_line)) { b[1] = b[2] = 1; return true; }
  /* dim3(a, b, c): a constructor; a function that returns a dim3
   * (mesh.threadBlock()) is no shape of the launch's own */
  if (clang_getCursorKind(c) != CXCursor_CallExpr ||
      clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_Constructor)
    return false;
  int n = clang_Cursor_getNumArguments(c);
  if (n < 0 || n > 3) return false;
  b[0] = b[1] = b[2] = 1;
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    if (!launch_value(arg, before, depth, &b[i], branch_line) && !default_argument(arg)) return false;
  }
  return true;
}


/* The variable (or its member: 0-2 for .x-.z, else -1) that an assignment
 * target names, if it is s->var. */
static bool names_var(const shape_search *s, CXCursor target, int *member) {
  target = strip(target);
  *member = -1;
  if (clang_getCursorKind(target) == CXCursor_MemberRefExpr) {
    char *name = cx_take(clang_getCursorSpelling(target));
    if (strlen(name) == 1 && name[0] >= 'x' && name[0] <= 'z') *member = name[0] - 'x';
    free(name);
    child_list m = children(target);
    if (m.n != 1) return false;
    target = strip(m.c[0]);
  }
  return clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
         clang_equalCursors(clang_getCursorReferenced(target), s->var);
}

static enum CXChildVisitResult find_assignments(CXCursor c, CXCursor parent, CXClientData d);

/* Whether every path through stmt assigns the searched variable: an if
 * with an else whose arms both do, or a statement with an assignment. */
static bool assigned_on_every_path(const shape_search *s, CXCursor stmt) {
  if (clang_getCursorKind(stmt) == CXCursor_IfStmt) {
    child_list l = children(stmt);
    return l.n >= 3 && assigned_on_every_path(s, l.c[l.n - 2]) && assigned_on_every_path(s, l.c[l.n - 1]);
  }
  shape_search arm = *s;
  arm.branches = 1;                         /* only note where it is assigned */
  arm.branch_line = 0;
  clang_visitChildren(stmt, find_assignments, &arm);
  return arm.branch_line != 0;
}

static enum CXChildVisitResult find_assignments(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  shape_search *s = d;
  enum CXCursorKind kind = clang_getCursorKind(c);
  bool call = kind == CXCursor_CallExpr;
  if (kind == CXCursor_IfStmt || kind == CXCursor_SwitchStmt) {
    /* a branch the launch is not in may change the value (int block = 32;
     * if (argc > 1) block = atoi(argv[1]);): the value without it is the
     * default, and the finding says so */
    unsigned start, end;
    CXSourceRange extent = clang_getCursorExtent(c);
    clang_getExpansionLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &start);
    clang_getExpansionLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
    if (start >= s->before) return CXChildVisit_Recurse;
    if (s->before < end) {
      /* the launch is in one arm of this if: the other arms never run
       * before it (threadsMax3 = dim3(32, 16) in mode 6's arm does not reach
       * mode 7's launch); the condition comes first */
      if (kind == CXCursor_SwitchStmt) return CXChildVisit_Recurse;
      child_list parts = children(c);
      for (int i = 0; i < parts.n; i++)
        if ((i == 0 || extent_holds(parts.c[i], s->before)) &&
            find_assignments(parts.c[i], c, s) == CXChildVisit_Recurse)
          clang_visitChildren(parts.c[i], find_assignments, s);
      return CXChildVisit_Continue;
    }
    /* both arms set it (if (n <= 1024) b.x = n; else b.x = 1024;): no
     * default reaches the launch, the value is the run time's */
    if (kind == CXCursor_IfStmt && assigned_on_every_path(s, c)) {
      s->ok = false;
      return CXChildVisit_Continue;
    }
    s->branches++;
    clang_visitChildren(c, find_assignments, s);
    s->branches--;
    return CXChildVisit_Continue;
  }
  if (kind != CXCursor_BinaryOperator && kind != CXCursor_CompoundAssignOperator && kind != CXCursor_UnaryOperator &&
      !call)
    return CXChildVisit_Recurse;
  unsigned at;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &at);
  if (at >= s->before) return CXChildVisit_Continue;
  CXCursor target, value = clang_getNullCursor();
  bool plain = false;
  if (call) {                              /* a dim3's operator=, dim3 b; b = dim3(16, 16); */
    char *name = cx_take(clang_getCursorSpelling(c));
    bool assign = strcmp(name, "operator=") == 0 && clang_Cursor_getNumArguments(c) == 2;
    free(name);
    if (!assign) {
      /* get_size(..., block): a function given the variable by non-const
       * reference may set it (zoom's dim3 &block) */
      CXCursor fn = clang_getCursorReferenced(c);
      int n = clang_Cursor_getNumArguments(c);
      for (int i = 0; i < n && !clang_Cursor_isNull(fn); i++) {
        int member;
        if (!names_var(s, clang_Cursor_getArgument(c, (unsigned)i), &member)) continue;
        CXType pt = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i)));
        if (pt.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(pt))) s->ok = false;
      }
      return CXChildVisit_Recurse;
    }
    target = clang_Cursor_getArgument(c, 0);
    value = clang_Cursor_getArgument(c, 1);
    plain = true;
  } else {
    child_list l = children(c);
    if (l.n < 1) return CXChildVisit_Recurse;
    target = l.c[0];
    if (kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) != CXUnaryOperator_AddrOf &&
        (clang_getCursorUnaryOperatorKind(c) < CXUnaryOperator_PostInc ||
         clang_getCursorUnaryOperatorKind(c) > CXUnaryOperator_PreDec))
      return CXChildVisit_Recurse;
    plain = kind == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign &&
            l.n == 2;
    if (kind == CXCursor_BinaryOperator && !plain && clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Assign)
      return CXChildVisit_Recurse;
    if (plain) value = l.c[1];
  }
  int member;
  if (!names_var(s, target, &member)) return CXChildVisit_Recurse;
  if (s->branches) {
    if (!s->branch_line) clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &s->branch_line, NULL, NULL);
    return CXChildVisit_Continue;
  }
  /* b.x = b.y = b.z = 1: each target takes the last value; the inner
   * assignments are visited in their turn */
  bool chained = false;
  for (CXCursor v = strip(value); plain && clang_getCursorKind(v) == CXCursor_BinaryOperator &&
                                  clang_getCursorBinaryOperatorKind(v) == CXBinaryOperator_Assign;
       v = strip(value)) {
    child_list inner = children(v);
    if (inner.n != 2) break;
    value = inner.c[1];
    chained = true;
  }
  if (plain) s->unset = false;
  if (!plain) s->ok = false;                /* ++, +=, &b: not followed */
  else if (member >= 0) s->ok = s->ok && launch_value(value, at, s->depth, &s->value[member], &s->branch_line);
  else s->ok = s->ok && dim3_args_at(value, at, s->depth, s->value, &s->branch_line);
  return chained ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

/* What a variable (dim3 or integer) of the launching function holds at the
 * offset `before`: its initialiser, then each assignment before it. */
static bool var_at_launch(CXCursor d, unsigned before, int depth, long long *value, unsigned *branch_line) {
  shape_search s = {.var = d, .before = before, .value = {1, 1, 1}, .ok = true, .depth = depth};
  CXCursor init = clang_Cursor_getVarDeclInitializer(d);
  if (!clang_Cursor_isNull(init)) s.ok = dim3_args_at(init, before, depth, s.value, &s.branch_line);
  else s.unset = clang_getCanonicalType(clang_getCursorType(d)).kind != CXType_Record;   /* int divU; divU = 9; */
  CXCursor fn = clang_getCursorSemanticParent(d);
  if (!s.ok || clang_Cursor_isNull(fn)) return false;
  clang_visitChildren(fn, find_assignments, &s);
  if (s.unset) return false;
  memcpy(value, s.value, sizeof s.value);
  if (s.ok && s.branch_line && (!*branch_line || s.branch_line < *branch_line)) *branch_line = s.branch_line;
  return s.ok;
}

/* The block argument of <<<grid, block>>>: dim3(a, b, c), an integer, or a
 * variable (dim3 or integer) whose value at the launch is constant, however
 * it was set (dim3 b; b.x = 16; b.y = 16;). */
static bool block_shape(CXCursor arg, CXCursor launch, long long *b, unsigned *branch_line) {
  *branch_line = 0;
  b[0] = b[1] = b[2] = 1;
  CXCursor c = strip(arg);
  if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1) {
    CXCursor inner = strip(clang_Cursor_getArgument(c, 0));
    if (clang_getCursorKind(inner) == CXCursor_DeclRefExpr) c = inner;  /* copy of a variable */
  }
  unsigned before;
  clang_getExpansionLocation(clang_getCursorLocation(launch), NULL, NULL, NULL, &before);
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return dim3_args_at(c, before, 0, b, branch_line);
  if (const_value(c, &b[0])) return true;
  CXCursor d = clang_getCursorReferenced(c);
  return clang_getCursorKind(d) == CXCursor_VarDecl && var_at_launch(d, before, 0, b, branch_line);
}

/* A block that is a non-type parameter of the host function template
 * launching it, alone or as dim3(Size) (template <int Size> void
 * normalize(...) { k<<<grid, Size>>>(...); }, instantiated for 64 to 1024
 * threads by a dispatch on the image's size): the values its instances
 * give, ascending; 0 when it is no such parameter. */
static int template_block_sizes(CXCursor arg, long long *sizes) {
  CXCursor c = strip(arg);
  if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 1) {
    for (int i = 1; i < clang_Cursor_getNumArguments(c); i++)
      if (!default_argument(clang_Cursor_getArgument(c, (unsigned)i))) return 0;
    c = strip(clang_Cursor_getArgument(c, 0));
  }
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return 0;
  CXCursor parameter = clang_getCursorReferenced(c);
  if (clang_getCursorKind(parameter) != CXCursor_NonTypeTemplateParameter) return 0;
  return template_parameter_values(parameter, sizes);
}

/* A block that is a parameter of the host function launching it (void
 * report(dim3 grid, dim3 block) { k<<<grid, block>>>(..); }): its shape at
 * each call of that function in the file, evaluated where the call is. */
typedef struct parameter_calls {
  CXCursor function;
  unsigned index;                /* the parameter's position */
  long long shapes[8][3];
  int count;
  bool unknown;                  /* a call whose argument has no constant shape */
} parameter_calls;

static enum CXChildVisitResult find_parameter_calls(CXCursor c, CXCursor parent, CXClientData d) {
  parameter_calls *p = d;
  if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
      !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return CXChildVisit_Recurse;
  CXCursor callee = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(callee) ||
      !clang_equalCursors(clang_getCanonicalCursor(callee), clang_getCanonicalCursor(p->function)) ||
      clang_Cursor_getNumArguments(c) <= (int)p->index)
    return CXChildVisit_Recurse;
  long long b[3];
  unsigned branch_line;
  if (p->count < 8 && block_shape(clang_Cursor_getArgument(c, p->index), c, b, &branch_line))
    memcpy(p->shapes[p->count++], b, sizeof b);
  else
    p->unknown = true;
  return CXChildVisit_Recurse;
}

/* The shapes a block argument that names a parameter of the launching
 * function takes at the calls of that function; false when it names none
 * (or the function is a template's: its instances are not calls). */
static bool parameter_shapes(CXCursor arg, parameter_calls *p) {
  memset(p, 0, sizeof *p);
  CXCursor c = strip(arg);
  /* a copy of the parameter, or a dim3 made of it with default y and z */
  if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 1) {
    for (int i = 1; i < clang_Cursor_getNumArguments(c); i++)
      if (!default_argument(clang_Cursor_getArgument(c, (unsigned)i))) return false;
    c = strip(clang_Cursor_getArgument(c, 0));
  }
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return false;
  CXCursor parameter = clang_getCursorReferenced(c);
  if (clang_getCursorKind(parameter) != CXCursor_ParmDecl) return false;
  p->function = clang_getCursorSemanticParent(parameter);
  if (clang_getCursorKind(p->function) != CXCursor_FunctionDecl) return false;
  int n = clang_Cursor_getNumArguments(p->function);
  for (int i = 0; i < n; i++)
    if (clang_equalCursors(clang_Cursor_getArgument(p->function, (unsigned)i), parameter)) {
      p->index = (unsigned)i;
      visit_unit(clang_Cursor_getTranslationUnit(arg), find_parameter_calls, p);
      return p->count > 0;
    }
  return false;
}

/* The template arguments of a launched instantiation, matched to the
 * template's parameters. */
static void template_arguments(CXCursor instance, CXCursor tmpl, template_args *t) {
  memset(t, 0, sizeof *t);
  int n = clang_Cursor_getNumTemplateArguments(instance);
  child_list params = children(tmpl);
  int p = 0;
  for (int i = 0; i < params.n && t->count < 8; i++) {
    enum CXCursorKind kind = clang_getCursorKind(params.c[i]);
    if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter) continue;
    int a = p++;
    t->param[t->count] = params.c[i];
    t->is_type[t->count] = kind == CXCursor_TemplateTypeParameter;
    if (a < n) {
      enum CXTemplateArgumentKind ak = clang_Cursor_getTemplateArgumentKind(instance, (unsigned)a);
      if (ak == CXTemplateArgumentKind_Type) {
        CXType type = clang_Cursor_getTemplateArgumentType(instance, (unsigned)a);
        long long size = clang_Type_getSizeOf(type);
        t->known[t->count] = size > 0;
        t->value[t->count] = size;
        char *name = cx_take(clang_getTypeSpelling(type));
        snprintf(t->type_name[t->count], sizeof t->type_name[t->count], "%s", name);
        free(name);
      } else if (ak == CXTemplateArgumentKind_Integral) {
        t->known[t->count] = true;
        t->value[t->count] = clang_Cursor_getTemplateArgumentValue(instance, (unsigned)a);
      }
    }
    t->count++;
  }
}

/* The explicit template arguments written at a launch inside a template
 * (`reduce4<T, 16><<<...>>>`: libclang gives the template, not an
 * instantiation): the values that are constants, in the template's
 * parameters' order; a dependent one (`T`) stays unknown. They tell which
 * of the template's instances the launch makes. */
static void written_template_args(CXCursor callee, CXCursor tmpl, template_args *t) {
  memset(t, 0, sizeof *t);
  child_list params = children(tmpl), written = children(callee);
  int w = 0;
  while (w < written.n && clang_getCursorKind(written.c[w]) != CXCursor_OverloadedDeclRef &&
         clang_getCursorKind(written.c[w]) != CXCursor_TemplateRef)
    w++;
  w++;                                   /* the arguments follow the template's name */
  for (int i = 0; i < params.n && t->count < 8; i++) {
    enum CXCursorKind kind = clang_getCursorKind(params.c[i]);
    if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter) continue;
    t->param[t->count] = params.c[i];
    t->is_type[t->count] = kind == CXCursor_TemplateTypeParameter;
    if (w < written.n && !t->is_type[t->count])
      t->known[t->count] = const_value(written.c[w], &t->value[t->count]);
    w++;
    t->count++;
  }
}

/* The launched function's name in device code: its host-side mangling
 * names the stub (_Z24__device_stub__kernelPf), the device function is
 * _Z6kernelPf. */
static char *device_name(CXCursor kernel) {
  char *host = cx_take(clang_Cursor_getMangling(kernel));
  const char *stub = "__device_stub__";
  char *at = strstr(host, stub);
  if (!at) return host;
  char *rest = at + strlen(stub);
  char *digits = at;
  while (digits > host && digits[-1] >= '0' && digits[-1] <= '9') digits--;
  char *name;
  if (digits < at) {                     /* _Z<length>__device_stub__<name>...: the length shrinks */
    long length = strtol(digits, NULL, 10) - (long)strlen(stub);
    name = wl_format("%.*s%ld%s", (int)(digits - host), host, length, rest);
  } else {
    name = wl_format("%.*s%s", (int)(at - host), host, rest);   /* extern "C": the plain name */
  }
  free(host);
  return name;
}

/* The argument of a launch's configuration call that holds the block:
 * (grid, block, ...) from host code, (0, 0, grid, block, ...) for
 * cudaLaunchDevice, a launch from device code (dynamic parallelism); -1
 * for a call that is no launch's configuration. */
static int block_argument(CXCursor config) {
  char *name = cx_take(clang_getCursorSpelling(config));
  int at = strcmp(name, "__cudaPushCallConfiguration") == 0 || strcmp(name, "cudaConfigureCall") == 0 ? 1
           : strcmp(name, "cudaLaunchDevice") == 0                                                      ? 3
                                                                                                      : -1;
  free(name);
  return at;
}

/* A launch is a call whose second child is the configuration call that
 * clang makes of <<<...>>>. */
bool launch_syntax(CXCursor c, child_list *l) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  *l = children(c);
  return l->n >= 2 && clang_getCursorKind(l->c[1]) == CXCursor_CallExpr && block_argument(l->c[1]) >= 0;
}

/* A header of the user's project: not a system header (the toolkit's, the
 * compiler's) and not one of warplint's stand-ins. */
static bool in_project_header(CXCursor c) {
  CXSourceLocation at = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(at)) return false;
  CXFile f;
  clang_getExpansionLocation(at, &f, NULL, NULL, NULL);
  char *name = f ? cx_take(clang_getFileName(f)) : wl_strdup("/__warplint__");
  bool ours = strncmp(name, "/__warplint__", 13) == 0;
  free(name);
  return !ours;
}

static void add_launch(file_ctx *fc, CXCursor launch, CXCursor config, CXCursor kernel, bool check, CXCursor callee) {
  launch_info li;
  memset(&li, 0, sizeof li);
  CXCursor tmpl = clang_getSpecializedCursorTemplate(kernel);
  if (!clang_Cursor_isNull(tmpl)) template_arguments(kernel, tmpl, &li.targs);
  else if (clang_getCursorKind(kernel) == CXCursor_FunctionTemplate) written_template_args(callee, kernel, &li.targs);
  li.usr = cx_take(clang_getCursorUSR(clang_Cursor_isNull(tmpl) ? kernel : tmpl));
  li.kernel = kernel;
  li.device_name = device_name(kernel);
  unsigned branch_line;
  CXCursor block = clang_Cursor_getArgument(config, (unsigned)block_argument(config));
  li.known = block_shape(block, launch, li.block, &branch_line);
  /* a launch in a project header is the header's finding (once, however
   * many files include it: wl_flatten_results) */
  check = check && (in_file(launch, fc->file) || in_project_header(launch));
  if (check && li.known) check_s4_launch(fc, callee, config, li.block, branch_line, false);
  parameter_calls calls;
  if (!li.known && parameter_shapes(block, &calls)) {
    bool agree = !calls.unknown;
    for (int i = 0; i < calls.count; i++) {
      if (check) check_s4_launch(fc, callee, config, calls.shapes[i], 0, false);
      agree = agree && !memcmp(calls.shapes[i], calls.shapes[0], sizeof calls.shapes[0]);
    }
    /* the lane model takes the block every call gives */
    if (agree) {
      li.known = true;
      memcpy(li.block, calls.shapes[0], sizeof li.block);
    }
  }
  long long sizes[MAX_TEMPLATE_VALUES];
  int instances = li.known || !check ? 0 : template_block_sizes(block, sizes);
  for (int i = 0; i < instances; i++) {    /* the smallest first: S_4 is reported once per launch */
    long long b[3] = {sizes[i], 1, 1};
    check_s4_launch(fc, callee, config, b, 0, false);
  }
  li.callee = callee;
  li.config = config;
  li.check_bounds = check && !li.known;
  GROW(fc->launches, fc->launch_count, fc->launch_cap);
  fc->launches[fc->launch_count++] = li;
}

/* The kernels a function pointer launched with <<<...>>> is given in its
 * function (kernel = &transposeNaive; ... kernel<<<grid, threads>>>): each
 * launched with that shape. Those given before an earlier launch of the
 * pointer were that launch's. */
typedef struct pointer_targets {
  CXCursor var;
  unsigned launch;               /* the launch's offset */
  unsigned previous;             /* the last launch of var before it, 0 */
  CXCursor kernels[16];
  unsigned at[16];               /* where each was given */
  int count;
} pointer_targets;

static unsigned offset_of(CXCursor c) {
  unsigned offset;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &offset);
  return offset;
}

static void add_target(pointer_targets *t, CXCursor value, unsigned at) {
  value = strip(value);
  if (clang_getCursorKind(value) == CXCursor_UnaryOperator) {
    child_list l = children(value);
    if (l.n != 1) return;
    value = strip(l.c[0]);
  }
  if (clang_getCursorKind(value) != CXCursor_DeclRefExpr || at >= t->launch) return;
  CXCursor f = clang_getCursorReferenced(value);
  if (clang_getCursorKind(f) == CXCursor_FunctionDecl && has_attr(f, CXCursor_CUDAGlobalAttr) && t->count < 16) {
    t->at[t->count] = at;
    t->kernels[t->count++] = f;
  }
}

static bool refers_to(CXCursor c, CXCursor var) {
  c = strip(c);
  return clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), var);
}

static enum CXChildVisitResult find_targets(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  pointer_targets *t = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  child_list l;
  if (launch_syntax(c, &l) && refers_to(l.c[0], t->var) && offset_of(c) < t->launch && offset_of(c) > t->previous)
    t->previous = offset_of(c);
  l = children(c);
  if (k == CXCursor_VarDecl && clang_equalCursors(c, t->var) && l.n >= 1) add_target(t, l.c[l.n - 1], offset_of(c));
  if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign && l.n == 2 &&
      refers_to(l.c[0], t->var))
    add_target(t, l.c[1], offset_of(c));
  return CXChildVisit_Recurse;
}

/* The one kernel among the declarations an unresolved name can mean, or
 * a null cursor. */
static CXCursor only_kernel(CXCursor names) {
  CXCursor found = clang_getNullCursor();
  for (unsigned i = 0; i < clang_getNumOverloadedDecls(names); i++) {
    CXCursor d = clang_getOverloadedDecl(names, i);
    if (!has_attr(d, CXCursor_CUDAGlobalAttr)) continue;
    if (!clang_Cursor_isNull(found)) return clang_getNullCursor();
    found = d;
  }
  return found;
}

static enum CXChildVisitResult find_launches(CXCursor c, CXCursor parent, CXClientData d) {
  file_ctx *fc = d;
  /* what a precompiled header holds has no launch (host_pch.c made sure) */
  if (fc->own_files && clang_getCursorKind(parent) == CXCursor_TranslationUnit && !host_pch_own(fc->own_files, c))
    return CXChildVisit_Continue;
  child_list l;
  if (!launch_syntax(c, &l)) return CXChildVisit_Recurse;
  CXCursor callee = strip(l.c[0]);
  CXCursor kernel = clang_getCursorReferenced(callee);
  /* a template's launch inside a template (kernel<G><<<...>>> in a class's
   * member): the name is resolved at instantiation; where it can mean one
   * kernel only (host functions may share its name), that one */
  if (clang_getCursorKind(kernel) == CXCursor_OverloadedDeclRef) kernel = only_kernel(kernel);
  if (clang_Cursor_isNull(kernel) || clang_Cursor_getNumArguments(l.c[1]) < 2) return CXChildVisit_Recurse;
  if (clang_getCursorKind(kernel) != CXCursor_VarDecl) {
    add_launch(fc, c, l.c[1], kernel, true, callee);
    return CXChildVisit_Recurse;
  }
  pointer_targets t = {.var = kernel, .launch = offset_of(c)};
  clang_visitChildren(clang_getCursorSemanticParent(kernel), find_targets, &t);
  bool first = true;
  for (int i = 0; i < t.count; i++)
    if (t.at[i] > t.previous) {
      add_launch(fc, c, l.c[1], t.kernels[i], first, callee);
      first = false;
    }
  return CXChildVisit_Recurse;
}

static bool error_in_extent(const parse_error *e, CXCursor c) {
  if (e->benign) return false;
  unsigned from, to;
  CXSourceRange extent = clang_getCursorExtent(c);
  clang_getExpansionLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &from);
  clang_getExpansionLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &to);
  return e->in_file && e->offset >= from && e->offset <= to;
}

const parse_error *error_within(const file_ctx *fc, CXCursor c) {
  for (int i = 0; i < fc->error_count; i++)
    if (error_in_extent(&fc->errors[i], c)) return &fc->errors[i];
  return NULL;
}

/* Errors inside a skipped kernel are reported with it, not as notes. */
static void claim_errors_within(file_ctx *fc, CXCursor c) {
  for (int i = 0; i < fc->error_count; i++)
    if (error_in_extent(&fc->errors[i], c)) fc->error_inside[i] = true;
}

/* Every kernel defined in the file whose own text parsed; a kernel with an
 * error inside it is skipped with one line, the others are analysed. */
static enum CXChildVisitResult find_kernels(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  file_ctx *fc = d;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
  if ((kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) ||
      (!in_file(c, fc->file) && !in_project_header(c)))
    return CXChildVisit_Continue;
  if (!clang_isCursorDefinition(c)) return CXChildVisit_Continue;
  if (!has_attr(c, CXCursor_CUDAGlobalAttr)) return CXChildVisit_Continue;
  CXCursor body;
  if (!child_of_kind(c, CXCursor_CompoundStmt, &body)) return CXChildVisit_Continue;
  const parse_error *e = error_within(fc, c);
  if (e || clang_isInvalidDeclaration(c)) {
    char *name = cx_take(clang_getCursorSpelling(c));
    unsigned line, column;
    location_of(c, &line, &column);
    wl_result_note(fc->res, "%s:%u:%u: note: kernel '%s' skipped: its own code does not parse%s%s%s", fc->path,
                   line, column, name, e ? " (line " : "", e ? e->text : "", e ? ")" : "");
    fc->res->kernels_skipped++;
    claim_errors_within(fc, c);
    free(name);
    return CXChildVisit_Continue;
  }
  analyze_kernel(fc, c, body);
  CXFile file;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
  result_for_file(fc, file)->kernels_analysed++;
  return CXChildVisit_Continue;
}

static void add_line(char ***lines, size_t *count, size_t *cap, const char *fmt, va_list ap) {
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  GROW(*lines, *count, *cap);
  (*lines)[(*count)++] = wl_strdup(buf);
}

void wl_result_error(wl_file_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(&r->errors, &r->error_count, &r->error_cap, fmt, ap);
  va_end(ap);
}

void wl_result_note(wl_file_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(&r->notes, &r->note_count, &r->note_cap, fmt, ap);
  va_end(ap);
}

/* The parse's error diagnostics, with their place in the analysed file. */
/* Errors clang gives where nvcc accepts the code and the syntax tree stays
 * whole (__shared__ cuda::barrier, the documented way to declare one): they
 * never skip a kernel, and are not reported, as there is nothing to fix. */
static const char *const nvcc_accepts[] = {
  "initialization is not supported for __shared__ variables",   /* nvcc: a warning */
};

static bool accepted_by_nvcc(const char *message) {
  for (size_t i = 0; i < sizeof nvcc_accepts / sizeof nvcc_accepts[0]; i++)
    if (strstr(message, nvcc_accepts[i])) return true;
  return false;
}

static void collect_errors(CXTranslationUnit tu, file_ctx *fc) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      GROW(fc->errors, fc->error_count, fc->error_cap);
      parse_error *e = &fc->errors[fc->error_count++];
      CXFile file;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &e->line, &e->column, &e->offset);
      e->in_file = file && clang_File_isEqual(file, fc->file);
      char *where = cx_take(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                      CXDiagnostic_DisplayColumn));
      char *msg = cx_take(clang_getDiagnosticSpelling(d));
      e->benign = accepted_by_nvcc(msg);
      e->text = e->in_file ? wl_format("%u: %s", e->line, msg) : where;
      if (e->in_file) free(where);
      free(msg);
    }
    clang_disposeDiagnostic(d);
  }
  fc->error_inside = calloc((size_t)fc->error_count + 1, sizeof *fc->error_inside);
}

/* The errors that stopped no kernel, as notes (the first few), and the file
 * skipped when errors left nothing to analyse: it names __global__ but no
 * kernel was analysed (a file with no kernel of its own, host code only,
 * has lost nothing). */
static void report_errors(file_ctx *fc, const char *text) {
  wl_file_result *r = fc->res;
  int outside = 0, shown = 0;
  for (int i = 0; i < fc->error_count; i++) {
    if (fc->error_inside[i] || fc->errors[i].benign) continue;
    outside++;
    if (shown == 3) continue;
    const parse_error *e = &fc->errors[i];
    if (e->in_file)
      wl_result_note(r, "%s:%u:%u: note: parse error outside the analysed kernels: %s", fc->path, e->line,
                     e->column, strchr(e->text, ' ') + 1);
    else
      wl_result_note(r, "%s: note: parse error outside the analysed kernels: %s", fc->path, e->text);
    shown++;
  }
  if (outside > shown)
    wl_result_note(r, "%s: note: %d more parse error%s outside the analysed kernels", fc->path, outside - shown,
                   outside - shown == 1 ? "" : "s");
  if (fc->error_count > 0 && r->kernels_analysed == 0 && strstr(text, "__global__")) {
    const parse_error *e = &fc->errors[0];
    if (e->in_file)
      wl_result_error(r, "%s:%u:%u: error: file skipped: it does not parse and no kernel could be analysed (%s)",
                      fc->path, e->line, e->column, strchr(e->text, ' ') + 1);
    else
      wl_result_error(r, "%s: error: file skipped: it does not parse and no kernel could be analysed (%s)",
                      fc->path, e->text);
    r->failed = true;
  }
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
  "cuda_runtime.h", "device_launch_parameters.h", "builtin_types.h", "cuda_texture_types.h",
  "cuda_surface_types.h", "surface_types.h", "texture_types.h", "surface_functions.h", "channel_descriptor.h",
  "device_types.h", "host_defines.h", "crt/host_defines.h", "host_config.h", "crt/host_config.h",
  "common_functions.h", "crt/common_functions.h", "crt/math_functions.h", "crt/device_functions.h",
  "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_35_atomic_functions.h",
  "sm_60_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
  "sm_35_intrinsics.h", "sm_61_intrinsics.h", "cuda_device_runtime_api.h",
};
static const char stand_in_text[] = "/* warplint: provided by cuda_shim.h */\n";

/* With a toolkit: clang's own __clang_cuda_builtin_vars.h makes threadIdx.x
 * a property read (a pseudo-object with no name in libclang's C API). This
 * stand-in, included first under the same include guard, gives the same
 * types plain x, y, z fields, so that the analysis sees threadIdx.x as it
 * does with the stand-in headers; the runtime wrapper's conversions to
 * dim3 and uint3 still compile against it. It also gives device code the
 * placement new that nvcc's headers give it (cub uses it). */
#define WARPLINT_BUILTIN_VARS "/__warplint__/builtin_vars.h"
static const char builtin_vars_text[] =
  "#ifndef __CUDA_BUILTIN_VARS_H\n"
  "#define __CUDA_BUILTIN_VARS_H\n"
  "struct uint3;\n"
  "struct dim3;\n"
  "#define __WL_BUILTIN(T) struct T { unsigned int x, y, z; __attribute__((device)) operator dim3() const; "
  "__attribute__((device)) operator uint3() const; };\n"
  "__WL_BUILTIN(__cuda_builtin_threadIdx_t)\n"
  "__WL_BUILTIN(__cuda_builtin_blockIdx_t)\n"
  "__WL_BUILTIN(__cuda_builtin_blockDim_t)\n"
  "__WL_BUILTIN(__cuda_builtin_gridDim_t)\n"
  "#undef __WL_BUILTIN\n"
  "extern const __attribute__((device)) __attribute__((weak)) __cuda_builtin_threadIdx_t threadIdx;\n"
  "extern const __attribute__((device)) __attribute__((weak)) __cuda_builtin_blockIdx_t blockIdx;\n"
  "extern const __attribute__((device)) __attribute__((weak)) __cuda_builtin_blockDim_t blockDim;\n"
  "extern const __attribute__((device)) __attribute__((weak)) __cuda_builtin_gridDim_t gridDim;\n"
  "__attribute__((device)) const int warpSize = 32;\n"
  "/* nvcc's headers give device code placement new; clang's host side does\n"
  " * not (its device side gets it from cuda_wrappers/new, where <new> is included) */\n"
  "#ifndef __CUDA_ARCH__\n"
  "__attribute__((device)) inline void *operator new(__SIZE_TYPE__, void *p) noexcept { return p; }\n"
  "__attribute__((device)) inline void *operator new[](__SIZE_TYPE__, void *p) noexcept { return p; }\n"
  "#endif\n"
  "#endif\n";

/* With a toolkit, what nvcc gives that clang does not, from the stand-ins:
 * the __nv_atomic_* built-ins, the cache-hinted stores and host min/max (included after the
 * toolkit's headers), and headers nvcc's host compiler has but clang may
 * lack (GCC's omp.h), in a folder searched after every other, so a real
 * one always wins (warplint_minmax.h is there for warplint_toolkit_host.h). */
#define WARPLINT_TOOLKIT_EXTRAS "/__warplint__/toolkit"
#define WARPLINT_FALLBACK_INCLUDE "/__warplint__/fallback"
static const char *const toolkit_includes[] = {"warplint_nv_atomic.h", "warplint_cache_stores.h",
                                                "warplint_toolkit_host.h"};
static const char *const toolkit_fallbacks[] = {"omp.h", "warplint_minmax.h"};

static const wl_shim_header *shim_header(const char *name) {
  for (size_t i = 0; i < wl_shim_headers_count; i++)
    if (strcmp(wl_shim_headers[i].name, name) == 0) return &wl_shim_headers[i];
  return NULL;
}

/* The stand-in name as an unsaved file under folder. */
static void add_stand_in(struct CXUnsavedFile *files, char (*names)[96], unsigned *nfiles, const char *folder,
                         const char *name) {
  const wl_shim_header *h = shim_header(name);
  if (!h) return;
  snprintf(names[*nfiles], sizeof names[*nfiles], "%s/%s", folder, name);
  files[*nfiles] = (struct CXUnsavedFile){names[*nfiles], h->text, (unsigned long)h->size};
  ++*nfiles;
}

/* GCC's own header folder (gcc -print-file-name=include), searched last:
 * nvcc's host compiler finds there the headers that GCC installs and
 * clang's resource folder lacks (libbacktrace's <backtrace.h>, which
 * Boost's stacktrace includes: Patatrack's clusterizer); "" without a gcc. */
static char gcc_include[512];
static pthread_once_t gcc_include_once = PTHREAD_ONCE_INIT;

static void find_gcc_include(void) {
  FILE *p = popen("gcc -print-file-name=include 2>/dev/null", "r");
  if (!p) return;
  char line[sizeof gcc_include] = "";
  if (!fgets(line, sizeof line, p)) line[0] = 0;
  pclose(p);
  line[strcspn(line, "\n")] = 0;
  struct stat st;
  /* without the folder gcc prints the bare name back */
  if (line[0] == '/' && stat(line, &st) == 0 && S_ISDIR(st.st_mode)) memcpy(gcc_include, line, sizeof line);
}

/* The compiler arguments and in-memory headers of a parse, the same for
 * libclang's host-side parse and clang's device-side compile (device.c):
 * what parses in one compiles in the other. */
void cuda_setup_init(cuda_setup *s, const wl_options *opt, bool device) {
  memset(s, 0, sizeof *s);
  const char **args = s->args;
  int n = 0;
  snprintf(s->arch_arg, sizeof s->arch_arg, "--cuda-gpu-arch=%s", opt->arch);
  args[n++] = "-x";
  args[n++] = "cuda";
  /* a libclang moved from where it was installed may not find its own
   * builtin headers (__clang_cuda_runtime_wrapper.h): say where they are */
  const char *resource = getenv("WARPLINT_RESOURCE_DIR");
  if (resource && *resource && !device) {
    args[n++] = "-resource-dir";
    args[n++] = resource;
  }
  args[n++] = "-std=c++17";
  /* GCC's <stdbool.h>, which nvcc's host compiler reads, makes _Bool a
   * name for bool in C++ (C headers a .cu includes use it: BART's misc.h);
   * clang's does so only outside strict ISO mode */
  args[n++] = "-D_Bool=bool";
  args[n++] = device ? "--cuda-device-only" : "--cuda-host-only";
  args[n++] = s->arch_arg;
  args[n++] = "-Wno-unknown-cuda-version";
  args[n++] = "-Wno-register";           /* nvcc accepts `register` in C++17 */
  args[n++] = "-Wno-c++11-narrowing";    /* and narrowing in braces (uchar4 v = {ushort, ..}) */
  args[n++] = "-Wno-reserved-user-defined-literal"; /* and "%s"msg"\n" in macros */
  /* nvcc checks a function only on the side it is compiled for: a host
   * function may call one that a macro makes __device__ in the device pass
   * alone (#ifdef __CUDA_ARCH__ #define HD __device__), a kernel one that is
   * host-only in the host pass. clang reports such calls only in functions
   * it emits for that side */
  args[n++] = "-fgpu-defer-diag";
  /* a launch from device code (dynamic parallelism) parses only as
   * relocatable device code, nvcc's -rdc=true, which such code's builds
   * give; it changes nothing else of the host side's syntax (the device
   * compile asks for it only where it must: device.c) */
  if (!device) args[n++] = "-fgpu-rdc";
  /* The device compile links the toolkit's libdevice as nvcc does (and
   * without it clang takes the toolkit for an old one: no launches). */
  if (!device || !opt->cuda_path) args[n++] = "-nocudalib";
  if (opt->cuda_path) {
    /* What clang's driver does for CUDA, spelt out so that warplint's
     * built-in variables come first (builtin_vars_text), then the toolkit,
     * then CUDA 13's cub, thrust and libcu++ (nvcc adds include/cccl). */
    snprintf(s->cuda_path_arg, sizeof s->cuda_path_arg, "--cuda-path=%s", opt->cuda_path);
    snprintf(s->cuda_include_arg, sizeof s->cuda_include_arg, "%s/include", opt->cuda_path);
    args[n++] = s->cuda_path_arg;
    args[n++] = "-nocudainc";
    args[n++] = "-include";
    args[n++] = WARPLINT_BUILTIN_VARS;
    args[n++] = "-isystem";
    args[n++] = s->cuda_include_arg;
    if (opt->cccl_include) {
      args[n++] = "-isystem";
      args[n++] = opt->cccl_include;
    }
    args[n++] = "-include";
    args[n++] = "__clang_cuda_runtime_wrapper.h";
    for (size_t i = 0; i < sizeof toolkit_includes / sizeof toolkit_includes[0]; i++) {
      snprintf(s->toolkit_include_args[i], sizeof s->toolkit_include_args[i], "%s/%s", WARPLINT_TOOLKIT_EXTRAS,
               toolkit_includes[i]);
      args[n++] = "-include";
      args[n++] = s->toolkit_include_args[i];
    }
    s->prefix_count = n;                 /* the forced includes end here */
    args[n++] = "-idirafter";
    args[n++] = WARPLINT_FALLBACK_INCLUDE;
  } else {
    args[n++] = "-nocudainc";
    args[n++] = "-include";
    args[n++] = opt->shim_path;
    s->prefix_count = n;
    args[n++] = "-I" WARPLINT_VIRTUAL_INCLUDE;  /* before the user's -I: the stand-in CUDA headers */
  }
  pthread_once(&gcc_include_once, find_gcc_include);
  if (*gcc_include) {
    args[n++] = "-idirafter";
    args[n++] = gcc_include;
  }
  s->arg_count = n;
  /* The shim, empty stand-ins for the runtime headers it replaces (so that
   * #include <cuda_runtime.h> finds nothing to redefine), and the library
   * stand-ins (cublas_v2.h...). All sit in the virtual folder searched before
   * the user's -I and -isystem: a real toolkit header is never entered, so
   * its quoted includes never reach the real cuda_fp16.hpp and the like. */
  enum { runtime_count = sizeof stand_in_headers / sizeof stand_in_headers[0] };
  struct CXUnsavedFile *files = s->files;
  unsigned nfiles = 0;
  if (opt->cuda_path) {
    files[nfiles++] = (struct CXUnsavedFile){WARPLINT_BUILTIN_VARS, builtin_vars_text, sizeof builtin_vars_text - 1};
    for (size_t i = 0; i < sizeof toolkit_includes / sizeof toolkit_includes[0]; i++)
      add_stand_in(files, s->names, &nfiles, WARPLINT_TOOLKIT_EXTRAS, toolkit_includes[i]);
    for (size_t i = 0; i < sizeof toolkit_fallbacks / sizeof toolkit_fallbacks[0]; i++)
      add_stand_in(files, s->names, &nfiles, WARPLINT_FALLBACK_INCLUDE, toolkit_fallbacks[i]);
  } else {
    files[nfiles++] = (struct CXUnsavedFile){opt->shim_path, opt->shim_text, (unsigned long)opt->shim_len};
    for (size_t i = 0; i < runtime_count + wl_shim_headers_count && nfiles < CUDA_SETUP_FILES; i++) {
      bool runtime = i < runtime_count;
      const char *name = runtime ? stand_in_headers[i] : wl_shim_headers[i - runtime_count].name;
      snprintf(s->names[nfiles], sizeof s->names[nfiles], "%s/%s", WARPLINT_VIRTUAL_INCLUDE, name);
      files[nfiles] = runtime ? (struct CXUnsavedFile){s->names[nfiles], stand_in_text, sizeof stand_in_text - 1}
                              : (struct CXUnsavedFile){s->names[nfiles], wl_shim_headers[i - runtime_count].text,
                                                       (unsigned long)wl_shim_headers[i - runtime_count].size};
      nfiles++;
    }
  }
  s->file_count = nfiles;
}

/* Files the parse reads in respelled copies (respell.c). */
#define MAX_RESPELLED 8
typedef struct respelled_files {
  char *path[MAX_RESPELLED], *text[MAX_RESPELLED];
  size_t len[MAX_RESPELLED];
  int count;
} respelled_files;

/* Parses path as CUDA with the shim (or the real headers) and extra_args:
 * its host side through the precompiled forced includes when there are
 * some (host_pch.c; then *through_pch), in full when there are none or
 * clang rejects them; or with device, its device side for opt->arch, in
 * full. Files of respelled (or NULL) are read from their copies. */
static CXTranslationUnit parse_cuda(void *cx_index, const char *path, const char *const *extra_args,
                                    int extra_count, const wl_options *opt, bool device, enum CXErrorCode *rc,
                                    bool *through_pch, const respelled_files *respelled) {
  cuda_setup *s = malloc(sizeof *s);
  if (!s) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  cuda_setup_init(s, opt, device);
  for (int i = 0; respelled && i < respelled->count && s->file_count < CUDA_SETUP_FILES; i++)
    s->files[s->file_count++] = (struct CXUnsavedFile){respelled->path[i], respelled->text[i],
                                                       (unsigned long)respelled->len[i]};
  const char *args[CUDA_SETUP_ARGS + HOST_PCH_EXTRA_ARGS];
  char pch[800];
  CXTranslationUnit tu = NULL;
  int n = device ? 0 : host_pch_args((CXIndex)cx_index, s, extra_args, extra_count, args, pch, sizeof pch);
  if (n > 0) {
    *rc = clang_parseTranslationUnit2((CXIndex)cx_index, path, args, n, s->files, s->file_count,
                                      CXTranslationUnit_KeepGoing, &tu);
    if (host_pch_rejected(tu, *rc, path, pch)) {
      if (tu) clang_disposeTranslationUnit(tu);
      tu = NULL;
      n = 0;
    }
  }
  if (through_pch) *through_pch = n > 0;
  if (n == 0) {
    n = s->arg_count;
    memcpy(args, s->args, (size_t)n * sizeof args[0]);
    for (int i = 0; i < extra_count && i < 128; i++) args[n++] = extra_args[i];
    *rc = clang_parseTranslationUnit2((CXIndex)cx_index, path, args, n, s->files, s->file_count,
                                      CXTranslationUnit_KeepGoing, &tu);
  }
  free(s);
  return tu;
}

/* An error inside the toolkit's headers or clang's CUDA wrappers: this
 * libclang does not support that CUDA version (libclang 19 and CUDA 13). */
static bool toolkit_error(CXTranslationUnit tu, const wl_options *opt, char *why, size_t why_size) {
  unsigned n = clang_getNumDiagnostics(tu);
  bool found = false;
  size_t toolkit_len = strlen(opt->cuda_path);
  for (unsigned i = 0; i < n && !found; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile file;
      unsigned line;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, NULL, NULL);
      char *name = cx_take(clang_getFileName(file));
      if (strncmp(name, opt->cuda_path, toolkit_len) == 0 || strstr(name, "/__clang_cuda_") ||
          strstr(name, "/cuda_wrappers/")) {
        char *text = cx_take(clang_getDiagnosticSpelling(d));
        snprintf(why, why_size, "%s:%u: %s", name, line, text);
        free(text);
        found = true;
      }
      free(name);
    }
    clang_disposeDiagnostic(d);
  }
  return found;
}

static bool has_runtime_header(const char *dir) {
  char *path = wl_format("%s/include/cuda_runtime.h", dir);
  bool found = access(path, R_OK) == 0;
  free(path);
  return found;
}

/* The folder above bin/ of the first nvcc on PATH (symbolic links resolved). */
static char *toolkit_of_nvcc_on_path(void) {
  const char *path_env = getenv("PATH");
  if (!path_env) return NULL;
  char *paths = wl_strdup(path_env), *save = NULL, *found = NULL;
  for (char *dir = strtok_r(paths, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
    char candidate[4096], real[PATH_MAX];
    snprintf(candidate, sizeof candidate, "%s/nvcc", *dir ? dir : ".");
    if (access(candidate, X_OK) != 0 || !realpath(candidate, real)) continue;
    char *slash = strrchr(real, '/');            /* .../bin/nvcc -> .../bin */
    if (slash) *slash = 0;
    slash = strrchr(real, '/');                  /* .../bin -> ... */
    if (slash) *slash = 0;
    if (has_runtime_header(real)) found = wl_strdup(real);
  }
  free(paths);
  return found;
}

char *wl_find_cuda_toolkit(void) {
  const char *env[] = {"CUDAToolkit_ROOT", "CUDA_PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
    const char *dir = getenv(env[i]);
    if (dir && *dir && has_runtime_header(dir)) return wl_strdup(dir);
  }
  char *on_path = toolkit_of_nvcc_on_path();
  if (on_path) return on_path;
  return has_runtime_header("/usr/local/cuda") ? wl_strdup("/usr/local/cuda") : NULL;
}

CXTranslationUnit wl_parse_device_side(file_ctx *fc) {
  enum CXErrorCode rc;
  CXTranslationUnit tu = parse_cuda(fc->cx_index, fc->path, fc->extra_args, fc->extra_count, fc->opt, true, &rc, NULL, NULL);
  if (tu && rc == CXError_Success) return tu;
  if (tu) clang_disposeTranslationUnit(tu);
  return NULL;
}

bool wl_parse_only(void *cx_index, const char *path, const wl_options *opt) {
  enum CXErrorCode rc;
  CXTranslationUnit tu = parse_cuda(cx_index, path, NULL, 0, opt, false, &rc, NULL, NULL);
  if (!tu) return false;
  clang_disposeTranslationUnit(tu);
  return rc == CXError_Success;
}

/* The files where the parse failed at a spelling nvcc accepts (respell.c),
 * copied and respelled for a second parse; false when there is none. */
static bool find_respellings(CXTranslationUnit tu, respelled_files *out) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && out->count < MAX_RESPELLED; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXFile file;
    unsigned line, column;
    /* where the token is written: a launch inside a macro's argument too */
    clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, &column, NULL);
    char *msg = cx_take(clang_getDiagnosticSpelling(d));
    bool launch = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && file && !strcmp(msg, "expected expression");
    free(msg);
    clang_disposeDiagnostic(d);
    if (!launch) continue;
    char *name = cx_take(clang_getFileName(file));
    bool known = false;
    for (int k = 0; k < out->count && !known; k++) known = !strcmp(out->path[k], name);
    size_t len;
    char *text = known ? NULL : read_text_file(name, &len);
    if (text && respell_launch_at(text, len, byte_at_place(text, len, (int)line, (int)column)) > 0) {
      out->path[out->count] = name;
      out->text[out->count] = text;
      out->len[out->count++] = len;
      continue;
    }
    free(text);
    free(name);
  }
  return out->count > 0;
}

static void respelled_free(respelled_files *r) {
  for (int i = 0; i < r->count; i++) {
    free(r->path[i]);
    free(r->text[i]);
  }
  r->count = 0;
}

void wl_analyze_file(void *cx_index, const char *path, const char *const *extra_args, int extra_count,
                     const wl_options *opt, wl_file_result *r) {
  memset(r, 0, sizeof *r);
  r->path = wl_strdup(path);
  size_t len;
  char *text = read_source(path, &len, r);
  if (!text) { r->failed = true; return; }
  file_ctx fc = {.path = path, .opt = opt, .res = r, .cx_index = cx_index, .extra_args = extra_args,
                 .extra_count = extra_count};
  /* the device side compiles while libclang parses the host side */
  device_job *job = NULL;
  if (opt->syntax_only) snprintf(fc.device_why, sizeof fc.device_why, "the syntax model was asked for (--model syntax)");
  else job = device_start(path, extra_args, extra_count, opt, fc.device_why, sizeof fc.device_why);
  enum CXErrorCode rc;
  bool through_pch;
  CXTranslationUnit tu = parse_cuda(cx_index, path, extra_args, extra_count, opt, false, &rc, &through_pch, NULL);
  char why[1024];
  wl_options stand_ins = *opt;
  const wl_options *parse_opt = opt;
  if (tu && opt->cuda_path && toolkit_error(tu, opt, why, sizeof why)) {
    clang_disposeTranslationUnit(tu);
    tu = NULL;
    if (opt->cuda_path_explicit) {
      wl_result_error(r, "%s: error: cannot parse with the CUDA toolkit in %s: %s", path, opt->cuda_path, why);
      r->failed = true;
      device_code unused;
      if (job && device_finish(job, &unused, why, sizeof why)) device_free(&unused);
      free(text);
      return;
    }
    wl_result_note(r, "%s: note: parsed with warplint's stand-in headers: this libclang cannot parse the CUDA "
                   "headers in %s (%s)", path, opt->cuda_path, why);
    stand_ins.cuda_path = stand_ins.cccl_include = NULL;
    parse_opt = &stand_ins;
    tu = parse_cuda(cx_index, path, extra_args, extra_count, parse_opt, false, &rc, &through_pch, NULL);
  }
  respelled_files respelled = {0};
  if (tu && find_respellings(tu, &respelled)) {
    clang_disposeTranslationUnit(tu);
    tu = parse_cuda(cx_index, path, extra_args, extra_count, parse_opt, false, &rc, &through_pch, &respelled);
  }
  device_code code;
  if (job && device_finish(job, &code, fc.device_why, sizeof fc.device_why)) fc.device = &code;
  if (job && !fc.device)
    wl_result_note(r, "%s: note: no device code, kernels analysed from their syntax: %s", path, fc.device_why);
  if (rc != CXError_Success || !tu) {
    wl_result_error(r, "%s: error: libclang could not parse the file (error %d)", path, (int)rc);
    r->failed = true;
    if (fc.device) device_free(&code);
    respelled_free(&respelled);
    free(text);
    return;
  }
  fc.tu = tu;
  fc.file = clang_getFile(tu, path);
  if (through_pch) fc.own_files = host_pch_files(tu);
  collect_errors(tu, &fc);
  visit_unit(tu, find_launches, &fc);
  visit_unit(tu, find_kernels, &fc);
  report_errors(&fc, text);
  apply_suppressions(r, text, len);
  for (size_t h = 0; h < r->header_count; h++) {
    size_t header_len;
    char *header_text = read_text_file(r->headers[h].path, &header_len);
    if (header_text) apply_suppressions(&r->headers[h], header_text, header_len);
    free(header_text);
  }
  for (int i = 0; i < fc.launch_count; i++) {
    free(fc.launches[i].usr);
    free(fc.launches[i].device_name);
  }
  free(fc.launches);
  for (int i = 0; i < fc.error_count; i++) free(fc.errors[i].text);
  free(fc.errors);
  free(fc.error_inside);
  ast_index_free(fc.index);
  ast_index_free(fc.device_index);
  if (fc.device_tu) clang_disposeTranslationUnit(fc.device_tu);
  ir_kernel_table_free(fc.kernel_table);
  host_pch_files_free(fc.own_files);
  if (fc.device) device_free(&code);
  clang_disposeTranslationUnit(tu);
  respelled_free(&respelled);
  free(text);
}

/* A header's path as the user wrote the file's: absolute for an absolute
 * file, else relative to the current folder when it is under it; with no
 * "dir/.." in it. */
static char *display_path(CXFile file, const char *analysed) {
  char *name = cx_take(clang_getFileName(file)), real[PATH_MAX], cwd[PATH_MAX];
  if (!realpath(name, real) || !getcwd(cwd, sizeof cwd)) return name;
  size_t n = strlen(cwd);
  free(name);
  if (analysed[0] != '/' && strncmp(real, cwd, n) == 0 && real[n] == '/') return wl_strdup(real + n + 1);
  return wl_strdup(real);
}

wl_file_result *result_for_file(file_ctx *fc, CXFile file) {
  wl_file_result *r = fc->res;
  if (!file || same_file(file, fc->file)) return r;
  char *path = display_path(file, fc->path);
  for (size_t h = 0; h < r->header_count; h++)
    if (strcmp(r->headers[h].path, path) == 0) { free(path); return &r->headers[h]; }
  GROW(r->headers, r->header_count, r->header_cap);
  wl_file_result *h = &r->headers[r->header_count++];
  memset(h, 0, sizeof *h);
  h->path = path;
  return h;
}

void record_kernel(file_ctx *fc, CXCursor fn, const char *analysis, const char *instance, const char *reason) {
  CXFile file;
  unsigned line, column;
  clang_getExpansionLocation(clang_getCursorLocation(fn), &file, &line, &column, NULL);
  wl_file_result *r = result_for_file(fc, file);
  GROW(r->kernels, r->kernel_count, r->kernel_cap);
  wl_kernel_record *k = &r->kernels[r->kernel_count++];
  k->kernel = cx_take(clang_getCursorSpelling(fn));
  k->line = line;
  k->column = column;
  k->analysis = analysis;
  k->instance = instance ? wl_strdup(instance) : NULL;
  k->reason = reason ? wl_strdup(reason) : NULL;
}

static void finding_free(wl_finding *f) {
  free(f->kernel); free(f->array); free(f->message);
  for (int j = 0; j < f->note_count; j++) free(f->notes[j]);
  for (int j = 0; j < f->fix_count; j++) free(f->fixes[j].replacement);
}

void wl_drop_findings(wl_file_result *r, bool (*drop)(const wl_finding *f)) {
  size_t kept = 0;
  for (size_t i = 0; i < r->finding_count; i++) {
    if (drop(&r->findings[i])) finding_free(&r->findings[i]);
    else r->findings[kept++] = r->findings[i];
  }
  r->finding_count = kept;
  for (size_t h = 0; h < r->header_count; h++) wl_drop_findings(&r->headers[h], drop);
}

void wl_result_free(wl_file_result *r) {
  for (size_t i = 0; i < r->finding_count; i++) finding_free(&r->findings[i]);
  for (size_t i = 0; i < r->array_count; i++) {
    wl_array_info *a = &r->arrays[i];
    free(a->kernel); free(a->array); free(a->element_type); free(a->patterns); free(a->recommended);
  }
  for (size_t i = 0; i < r->kernel_count; i++) {
    free(r->kernels[i].kernel); free(r->kernels[i].instance); free(r->kernels[i].reason);
  }
  for (size_t i = 0; i < r->error_count; i++) free(r->errors[i]);
  for (size_t i = 0; i < r->note_count; i++) free(r->notes[i]);
  for (size_t i = 0; i < r->usage_count; i++) free(r->usage[i].kernel);
  for (size_t i = 0; i < r->header_count; i++) wl_result_free(&r->headers[i]);
  free(r->findings); free(r->arrays); free(r->kernels); free(r->errors); free(r->notes); free(r->usage);
  free(r->headers); free(r->path);
  memset(r, 0, sizeof *r);
}

static bool same_finding(const wl_finding *a, const wl_finding *b) {
  return strcmp(a->rule, b->rule) == 0 && a->line == b->line && a->column == b->column &&
         strcmp(a->array ? a->array : "", b->array ? b->array : "") == 0;
}

/* Moves what `from` holds that `into` lacks into it, and frees the rest. */
static void merge_result(wl_file_result *into, wl_file_result *from) {
  for (size_t i = 0; i < from->finding_count; i++) {
    bool seen = false;
    for (size_t j = 0; j < into->finding_count && !seen; j++) seen = same_finding(&into->findings[j], &from->findings[i]);
    if (seen) continue;
    GROW(into->findings, into->finding_count, into->finding_cap);
    into->findings[into->finding_count++] = from->findings[i];
    memset(&from->findings[i], 0, sizeof from->findings[i]);
  }
  for (size_t i = 0; i < from->array_count; i++) {
    bool seen = false;
    for (size_t j = 0; j < into->array_count && !seen; j++)
      seen = strcmp(into->arrays[j].kernel, from->arrays[i].kernel) == 0 &&
             strcmp(into->arrays[j].array, from->arrays[i].array) == 0;
    if (seen) continue;
    GROW(into->arrays, into->array_count, into->array_cap);
    into->arrays[into->array_count++] = from->arrays[i];
    memset(&from->arrays[i], 0, sizeof from->arrays[i]);
  }
  for (size_t i = 0; i < from->kernel_count; i++) {
    bool seen = false;
    for (size_t j = 0; j < into->kernel_count && !seen; j++)
      seen = into->kernels[j].line == from->kernels[i].line &&
             strcmp(into->kernels[j].instance ? into->kernels[j].instance : "",
                    from->kernels[i].instance ? from->kernels[i].instance : "") == 0;
    if (seen) continue;
    GROW(into->kernels, into->kernel_count, into->kernel_cap);
    into->kernels[into->kernel_count++] = from->kernels[i];
    memset(&from->kernels[i], 0, sizeof from->kernels[i]);
  }
  if (from->kernels_analysed > into->kernels_analysed) into->kernels_analysed = from->kernels_analysed;
  wl_result_free(from);
}

size_t wl_flatten_results(wl_file_result **results, size_t count) {
  size_t total = count;
  for (size_t i = 0; i < count; i++) total += (*results)[i].header_count;
  wl_file_result *all = calloc(total + 1, sizeof *all);
  if (!all) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  memcpy(all, *results, count * sizeof *all);
  size_t n = count;
  for (size_t i = 0; i < count; i++) {
    wl_file_result *r = &all[i];
    for (size_t h = 0; h < r->header_count; h++) {
      wl_file_result *header = &r->headers[h];
      size_t j = 0;
      while (j < n && strcmp(all[j].path, header->path) != 0) j++;
      if (j < n) merge_result(&all[j], header);
      else all[n++] = *header;
    }
    free(r->headers);
    r->headers = NULL;
    r->header_count = r->header_cap = 0;
  }
  free(*results);
  *results = all;
  return n;
}

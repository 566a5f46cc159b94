/* Small helpers over the libclang C API: children of a cursor, looking
 * through casts, locations, and compile-time integers. */
#include "analysis.h"

#include <string.h>

char *cx_take(CXString s) {
  char *r = wl_strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

bool integer_literal(const char *text, long long *v) {
  char *end;
  *v = strtoll(text, &end, 0);
  return end != text && strspn(end, "uUlL") == strlen(end);
}

char *source_text(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  char text[64] = "";
  size_t len = 0;
  for (unsigned i = 0; i < n && len + 1 < sizeof text; i++) {
    char *t = cx_take(clang_getTokenSpelling(tu, toks[i]));
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? " " : "", t);
    free(t);
  }
  clang_disposeTokens(tu, toks, n);
  if (len >= sizeof text) len = sizeof text - 1;
  return wl_strdup(text);
}

/* An implicit instance of a function template (or of a class template's
 * member): its location is its pattern's, where an explicit
 * specialisation has its own. */
static bool implicit_instance(CXCursor c) {
  CXCursor pattern = clang_getSpecializedCursorTemplate(c);
  if (clang_Cursor_isNull(pattern)) return false;
  return clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(pattern));
}

typedef struct unit_visit {
  CXCursorVisitor visitor;
  CXClientData data;
} unit_visit;

static enum CXChildVisitResult visit_own(CXCursor c, CXCursor parent, CXClientData d) {
  unit_visit *u = d;
  if (implicit_instance(c)) return CXChildVisit_Continue;
  return u->visitor(c, parent, u->data);
}

/* Visits the translation unit as clang_visitChildren does, through the
 * declarations of the parse itself. The index leaves out the precompiled
 * header's declarations (main.c's clang_createIndex(1, ...)): visiting
 * them read the whole toolkit back from the header, most of a warm run's
 * time. libclang then walks the parse's list of top-level declarations,
 * which also holds the implicit instances of function templates, never
 * met when it walked the translation unit's declarations: they are
 * skipped here, at any depth, as they were there. */
void visit_unit(CXTranslationUnit tu, CXCursorVisitor visitor, CXClientData data) {
  unit_visit u = {visitor, data};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_own, &u);
}

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  child_list *l = d;
  if (l->n < 8) l->c[l->n] = c;
  l->n++;
  return CXChildVisit_Continue;
}

child_list children(CXCursor c) {
  child_list l = {.n = 0};
  clang_visitChildren(c, collect_child, &l);
  if (l.n > 8) l.n = 8;
  return l;
}

/* Looks through implicit casts, parentheses and explicit casts. */
CXCursor strip(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
        k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXFunctionalCastExpr &&
        k != CXCursor_CXXReinterpretCastExpr && k != CXCursor_CXXConstCastExpr)
      return c;
    child_list l = children(c);
    if (l.n == 0) return c;
    CXCursor last = l.c[l.n - 1];
    if (k == CXCursor_UnexposedExpr && l.n != 1) return c;
    c = last;
  }
}

void location_of(CXCursor c, unsigned *line, unsigned *column) {
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, line, column, NULL);
}

bool in_file(CXCursor c, CXFile file) {
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
bool child_of_kind(CXCursor c, enum CXCursorKind kind, CXCursor *out) {
  kind_search s = {.kind = kind, .hit = false};
  clang_visitChildren(c, match_kind, &s);
  if (s.hit && out) *out = s.found;
  return s.hit;
}

bool has_attr(CXCursor c, enum CXCursorKind attr) {
  return child_of_kind(c, attr, NULL);
}

/* ---- constant and polynomial evaluation ---- */

bool eval_int(CXCursor c, long long *v) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* A compile-time integer: literals, enumerators, const variables, and
 * arithmetic on them. */
bool const_value(CXCursor c, long long *v) {
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

/* A compile-time constant, even where its value depends on a template's
 * arguments: literals, template parameters, const variables initialised
 * with such constants (constexpr), members of a template parameter
 * (Traits::kN), sizeof, and arithmetic on them. */
bool compile_time(CXCursor c) {
  long long v;
  if (const_value(c, &v)) return true;
  c = strip(c);
  switch (clang_getCursorKind(c)) {
  case CXCursor_MemberRefExpr:                     /* frag.num_elements: a static const member */
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(d))                     /* Traits::kN of a template parameter */
      return clang_getCursorType(c).kind == CXType_Dependent && child_of_kind(c, CXCursor_TypeRef, NULL);
    if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) return true;
    if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) return true;
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr && clang_Cursor_getStorageClass(d) != CX_SC_Static)
      return false;
    if (clang_getCursorKind(d) != CXCursor_VarDecl || !clang_isConstQualifiedType(clang_getCursorType(d)))
      return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    return !clang_Cursor_isNull(init) && !clang_equalCursors(strip(init), c) && compile_time(init);
  }
  case CXCursor_UnaryExpr:                          /* sizeof, alignof */
    return true;
  case CXCursor_BinaryOperator:
  case CXCursor_UnaryOperator:
  case CXCursor_ConditionalOperator: {
    child_list l = children(c);
    if (l.n == 0) return false;
    for (int i = 0; i < l.n; i++)
      if (!compile_time(l.c[i])) return false;
    return true;
  }
  default:
    return false;
  }
}

long long type_size(CXType t) {
  long long size = clang_Type_getSizeOf(t);
  return size > 0 ? size : -1;
}

bool is_pointer_type(CXType t) {
  return clang_getCanonicalType(t).kind == CXType_Pointer;
}

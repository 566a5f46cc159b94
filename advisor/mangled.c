/* What an Itanium-mangled device function name says: the kernel's name
 * (ptxas.c matches ptxas's lines by it) and an instantiation's template
 * arguments. A template kernel launched from a template host function
 * (`template void invokeQuantize<half>(...)`) has no launch whose arguments
 * the syntax can read; its device code is instantiated all the same, and
 * the name clang gave each instance (_Z13quantize_rowI6__halfEvPKT_) says
 * with what. Only what the checks need is read: builtin and class types
 * (their sizes) and integral values; a substitution, a pack or an
 * expression leaves that argument unknown. */
#include "analysis.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool skip_type(const char **p);

/* A <source-name>, <len><id>: its identifier in out; p past it. */
static bool source_name(const char **p, char *out, size_t size) {
  char *end;
  long n = strtol(*p, &end, 10);
  if (end == *p || n <= 0 || strlen(end) < (size_t)n) return false;
  snprintf(out, size, "%.*s", (int)((size_t)n < size ? n : (long)size - 1), end);
  *p = end + n;
  return true;
}

bool mangled_kernel_name(const char *mangled, char *out, size_t size) {
  if (strncmp(mangled, "_Z", 2) != 0) {
    snprintf(out, size, "%s", mangled);
    return true;
  }
  const char *p = mangled + 2;
  bool nested = *p == 'N';
  if (nested) p++;
  bool found = false;
  while (isdigit((unsigned char)*p)) {
    found = source_name(&p, out, size);
    if (!found || !nested || *p == 'E' || *p == 'I') return found;
  }
  return found;
}

/* Past a balanced run up to its closing E (a nested name, a template
 * argument list, an expression). */
static bool skip_to_end(const char **p) {
  int depth = 1;
  for (const char *q = *p; *q; q++) {
    if (isdigit((unsigned char)*q)) {          /* an identifier may hold I, N or E */
      char *end;
      long n = strtol(q, &end, 10);
      if (strlen(end) < (size_t)n) return false;
      q = end + n - 1;
      continue;
    }
    if (*q == 'N' || *q == 'I' || *q == 'J' || *q == 'X' || *q == 'L') depth++;
    else if (*q == 'E' && --depth == 0) {
      *p = q + 1;
      return true;
    }
  }
  return false;
}

static long long builtin_size(char c) {
  switch (c) {
  case 'b': case 'c': case 'a': case 'h': return 1;
  case 's': case 't': return 2;
  case 'w': case 'i': case 'j': case 'f': return 4;
  case 'l': case 'm': case 'x': case 'y': case 'd': return 8;
  case 'n': case 'o': case 'e': case 'g': return 16;
  default: return 0;
  }
}

static const char *builtin_spelling(char c) {
  switch (c) {
  case 'b': return "bool"; case 'c': return "char"; case 'a': return "signed char";
  case 'h': return "unsigned char"; case 's': return "short"; case 't': return "unsigned short";
  case 'i': return "int"; case 'j': return "unsigned int"; case 'l': return "long";
  case 'm': return "unsigned long"; case 'x': return "long long"; case 'y': return "unsigned long long";
  case 'f': return "float"; case 'd': return "double";
  default: return "";
  }
}

typedef struct named_type {
  const char *name;
  long long size;
} named_type;

static enum CXChildVisitResult find_type(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  named_type *t = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
  if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl && k != CXCursor_TypedefDecl &&
      k != CXCursor_TypeAliasDecl && k != CXCursor_UnionDecl)
    return CXChildVisit_Continue;
  char *name = cx_take(clang_getCursorSpelling(c));
  bool match = strcmp(name, t->name) == 0;
  free(name);
  if (!match) return CXChildVisit_Continue;
  long long size = clang_Type_getSizeOf(clang_getCursorType(c));
  if (size <= 0) return CXChildVisit_Continue;      /* a forward declaration */
  t->size = size;
  return CXChildVisit_Break;
}

/* The size of a type the toolkit's headers declare, whose declarations
 * are in the precompiled header, where visit_unit does not walk: the
 * vector types, n unpadded components of their base type (float3: 12
 * bytes; CUDA C++ Programming Guide, "Built-in Vector Types"), and the
 * 16-bit floating-point types. 0 for any other name. */
static long long toolkit_type_size(const char *name) {
  static const struct { const char *name; long long size; } bases[] = {
    {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4}, {"uint", 4}, {"float", 4}, {"long", 8},
    {"ulong", 8}, {"longlong", 8}, {"ulonglong", 8}, {"double", 8}};
  static const struct { const char *name; long long size; } halves[] = {
    {"__half", 2}, {"__half2", 4}, {"__nv_bfloat16", 2}, {"__nv_bfloat162", 4}};
  for (size_t i = 0; i < sizeof halves / sizeof halves[0]; i++)
    if (strcmp(name, halves[i].name) == 0) return halves[i].size;
  size_t len = strlen(name);
  if (len < 2 || name[len - 1] < '1' || name[len - 1] > '4') return 0;
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
    if (strlen(bases[i].name) == len - 1 && strncmp(name, bases[i].name, len - 1) == 0)
      return bases[i].size * (name[len - 1] - '0');
  return 0;
}

/* One template argument at *p: a type's size and spelling, or an integral
 * value; false when it is not read (the argument stays unknown). */
static bool template_argument(CXTranslationUnit tu, const char **p, bool *is_type, long long *value, char *spelt,
                              size_t size) {
  const char *q = *p;
  *spelt = 0;
  if (*q == 'L') {                            /* L<type><value>E, n for minus */
    q += 2;
    bool minus = *q == 'n';
    if (minus) q++;
    char *end;
    long long v = strtoll(q, &end, 10);
    if (end == q || *end != 'E') return false;
    *p = end + 1;
    *is_type = false;
    *value = minus ? -v : v;
    return true;
  }
  *is_type = true;
  while (*q == 'K' || *q == 'V') q++;         /* const, volatile: the same size */
  if (*q == 'P') {                            /* any pointer: 8 bytes */
    *p = q + 1;
    if (!skip_type(p)) return false;
    *value = 8;
    return true;
  }
  if (builtin_size(*q)) {
    *value = builtin_size(*q);
    snprintf(spelt, size, "%s", builtin_spelling(*q));
    *p = q + 1;
    return true;
  }
  char name[64];
  if (*q == 'N') {                            /* ns::type: its last name */
    q++;
    const char *last = NULL;
    while (isdigit((unsigned char)*q)) {
      last = q;
      if (!source_name(&q, name, sizeof name)) return false;
    }
    if (!last || *q != 'E') return false;    /* a template's instance inside */
    q++;
  } else if (isdigit((unsigned char)*q)) {
    if (!source_name(&q, name, sizeof name)) return false;
    if (*q == 'I') return false;              /* a class template's instance: not looked up */
  } else {
    return false;                             /* a substitution, a pack, an expression */
  }
  *p = q;
  named_type t = {name, 0};
  visit_unit(tu, find_type, &t);
  if (t.size <= 0) t.size = toolkit_type_size(name);
  if (t.size <= 0) return false;
  *value = t.size;
  snprintf(spelt, size, "%s", name);
  return true;
}

/* Past one type (after a P): a builtin, a name, a nested name. */
static bool skip_type(const char **p) {
  const char *q = *p;
  while (*q == 'K' || *q == 'V' || *q == 'P') q++;
  if (builtin_size(*q) || *q == 'v') { *p = q + 1; return true; }
  if (isdigit((unsigned char)*q)) {
    char name[64];
    if (!source_name(&q, name, sizeof name)) return false;
    *p = q;
    return *q != 'I' || (++*p, skip_to_end(p));
  }
  if (*q == 'N') { *p = q + 1; return skip_to_end(p); }
  return false;
}

void mangled_template_args(CXTranslationUnit tu, CXCursor tmpl, const char *mangled, template_args *t) {
  memset(t, 0, sizeof *t);
  if (strncmp(mangled, "_Z", 2) != 0) return;
  /* the argument list after the kernel's own name */
  const char *p = mangled + 2;
  bool nested = *p == 'N';
  if (nested) p++;
  char name[128];
  while (isdigit((unsigned char)*p) && source_name(&p, name, sizeof name) && *p != 'I')
    if (!nested || *p == 'E') return;
  if (*p != 'I') return;
  p++;
  child_list params = children(tmpl);
  for (int i = 0; i < params.n && t->count < 8 && *p && *p != 'E'; i++) {
    enum CXCursorKind kind = clang_getCursorKind(params.c[i]);
    if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter) continue;
    int at = t->count++;
    t->param[at] = params.c[i];
    t->is_type[at] = kind == CXCursor_TemplateTypeParameter;
    bool is_type;
    long long value;
    if (!template_argument(tu, &p, &is_type, &value, t->type_name[at], sizeof t->type_name[at]) ||
        is_type != t->is_type[at]) {
      t->type_name[at][0] = 0;
      return;                                 /* not read: the arguments after it would be misaligned */
    }
    t->known[at] = true;
    t->value[at] = value;
  }
}

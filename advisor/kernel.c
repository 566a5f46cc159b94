/* One kernel: the block shape it is launched with, the walk over its body,
 * its accesses' index polynomials and warp models, the registered checks,
 * and its arrays' classes for the inventory. */
#include "analysis.h"

#include <string.h>

/* Every registered check over every access of its space, then over every
 * array of its space. */
static void run_checks(kernel_ctx *k) {
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    lane_model m;
    model_access(k, x, 0, &x->off, &m);
    for (size_t c = 0; c < wl_check_count; c++)
      if (wl_checks[c].on_access && wl_checks[c].space == k->arrays[x->array].space) wl_checks[c].on_access(k, x, &m);
  }
  for (int i = 0; i < k->array_count; i++)
    for (size_t c = 0; c < wl_check_count; c++)
      if (wl_checks[c].on_array && wl_checks[c].space == k->arrays[i].space) wl_checks[c].on_array(k, &k->arrays[i]);
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

void analyze_kernel(file_ctx *fc, CXCursor fn, CXCursor body) {
  kernel_ctx k;
  memset(&k, 0, sizeof k);
  k.fc = fc;
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
  run_checks(&k);
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


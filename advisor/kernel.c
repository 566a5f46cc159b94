/* One kernel: the block shapes and template arguments it is launched with
 * in the file (one analysis each, up to MAX_ANALYSES), the walk over its
 * body, the registered checks, and its arrays' classes for the inventory. */
#include "analysis.h"
#include "device.h"

#include <string.h>

static bool same_vector(const access_info *a, const access_info *b) {
  /* one straight-line region (nvcc merges within a basic block), a few
   * statements apart */
  unsigned lo = a->line < b->line ? a->line : b->line, hi = a->line < b->line ? b->line : a->line;
  return !b->merged && b->vec_size == a->vec_size && b->array == a->array && b->write == a->write &&
         b->read == a->read && b->region == a->region && hi - lo <= 8 && poly_equal(&b->vec_base, &a->vec_base);
}

static void shift_lanes(lane_model *m, long long bytes) {
  if (m->kind == LANE_CONCRETE)
    for (int l = 0; l < 32; l++) m->offset[l] -= bytes;
}

/* t[i].x = ..; t[i].y = ..; t[i].z = ..; t[i].w = .. on a float4: when
 * every field of one record is stored alike, or two or more are read, the
 * first access becomes the record's (its width, its offset) and the others
 * are merged away, as nvcc's one 16-byte access (shmembench's stores,
 * n_body's reads of x, y and z, REALCODE.md). */
static void merge_vector_fields(kernel_ctx *k) {
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (!x->vec_size || x->merged || x->off.unknown) continue;
    unsigned covered = 1u << (x->vec_field / x->width);
    unsigned all = (1u << (x->vec_size / x->width)) - 1;
    for (int j = i + 1; j < k->access_count; j++)
      if (same_vector(x, &k->accesses[j]))
        covered |= 1u << (k->accesses[j].vec_field / k->accesses[j].width);
    /* a store must cover the element (a 16-byte store of three fields would
     * write the fourth); a load of two or more fields may read it whole */
    if (x->write ? covered != all : __builtin_popcount(covered) < 2) continue;
    unsigned kept = 1u << (x->vec_field / x->width);
    for (int j = i + 1; j < k->access_count; j++) {
      access_info *y = &k->accesses[j];
      if (!same_vector(x, y)) continue;
      unsigned bit = 1u << (y->vec_field / y->width);
      if (kept & bit) continue;      /* a second pass over the same field stays an access of its own */
      kept |= bit;
      y->merged = true;
    }
    shift_lanes(&x->lanes, x->vec_field);
    shift_lanes(&x->padded, x->vec_field);
    x->off = x->vec_base;
    x->width = x->vec_size;
    x->vec_size = 0;
  }
}

/* Every registered check over every access of its space, then over every
 * array of its space; then whether each new finding's fix pays on the
 * profile's GPU (findings may land in the file's headers' results too). */
static void run_checks(kernel_ctx *k) {
  wl_file_result *r = k->fc->res;
  size_t first = r->finding_count;
  size_t headers_before = r->header_count;
  size_t *header_first = calloc(headers_before + 1, sizeof *header_first);
  for (size_t h = 0; h < headers_before; h++) header_first[h] = r->headers[h].finding_count;
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (x->merged) continue;
    for (size_t c = 0; c < wl_check_count; c++)
      if (wl_checks[c].on_access && wl_checks[c].space == k->arrays[x->array].space) wl_checks[c].on_access(k, x);
  }
  for (int i = 0; i < k->array_count; i++)
    for (size_t c = 0; c < wl_check_count; c++)
      if (wl_checks[c].on_array && wl_checks[c].space == k->arrays[i].space) wl_checks[c].on_array(k, &k->arrays[i]);
  for (size_t i = first; i < r->finding_count; i++) judge_payoff(k, &r->findings[i]);
  for (size_t h = 0; h < r->header_count; h++)
    for (size_t i = h < headers_before ? header_first[h] : 0; i < r->headers[h].finding_count; i++)
      judge_payoff(k, &r->headers[h].findings[i]);
  free(header_first);
}

/* An integer literal token, or a macro that the file defines as one
 * (#define THREADS 256, the last definition before offset `before`). */
static bool token_integer(CXTranslationUnit tu, CXFile file, CXToken tok, unsigned before, long long *v) {
  char *text = cx_take(clang_getTokenSpelling(tu, tok));
  bool ok = false;
  if (clang_getTokenKind(tok) == CXToken_Literal) {
    ok = integer_literal(text, v);
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
        long long value;
        if (integer_literal(t[3], &value)) { *v = value; ok = true; }
      }
      for (int j = 0; j < 4; j++) free(t[j]);
    }
    clang_disposeTokens(tu, toks, n);
  }
  free(text);
  return ok;
}

/* Which threadIdx dimensions the kernel reads, in its body and in the
 * functions of the user's it calls (a kernel that hands all its work to
 * a __device__ function reads threadIdx there); cooperative groups' ranks
 * (thread_rank(), thread_index()) count as threadIdx.x. */
#define MAX_CALLEES 64
typedef struct thread_dims {
  bool *uses;
  CXCursor callees[MAX_CALLEES];
  int callee_count, depth;
  long long row;                 /* C of threadIdx.y * C + threadIdx.x, the width the code assumes for
                                    its block's rows (2 to 16); 0 none, -1 several */
} thread_dims;

static enum CXChildVisitResult find_thread_dims(CXCursor c, CXCursor parent, CXClientData d);

static void visit_callee(thread_dims *t, CXCursor call) {
  CXCursor callee = clang_getCursorDefinition(clang_getCursorReferenced(call));
  if (clang_Cursor_isNull(callee) || t->depth >= 4 || t->callee_count == MAX_CALLEES ||
      clang_Location_isInSystemHeader(clang_getCursorLocation(callee)))
    return;
  for (int i = 0; i < t->callee_count; i++)
    if (clang_equalCursors(t->callees[i], callee)) return;
  t->callees[t->callee_count++] = callee;
  t->depth++;
  clang_visitChildren(callee, find_thread_dims, t);
  t->depth--;
}

/* ATOM_TX or ATOM_TY when c reads threadIdx.x or .y, directly or through
 * a variable initialised with it (const int ty = threadIdx.y), else -1. */
static int thread_index_read(CXCursor c) {
  c = strip(c);
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_VarDecl) return -1;
    child_list l = children(d);
    if (l.n < 1) return -1;
    c = strip(l.c[l.n - 1]);
  }
  return clang_getCursorKind(c) == CXCursor_MemberRefExpr ? member_builtin(c) : -1;
}

/* C when c is threadIdx.y * C (or C * threadIdx.y) for an integer constant C. */
static long long row_times(CXCursor c) {
  c = strip(c);
  if (clang_getCursorKind(c) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Mul)
    return 0;
  child_list l = children(c);
  if (l.n != 2) return 0;
  for (int side = 0; side < 2; side++) {
    CXCursor other = l.c[1 - side];
    if (thread_index_read(l.c[side]) != ATOM_TY) continue;
    CXEvalResult e = clang_Cursor_Evaluate(other);
    long long v = e && clang_EvalResult_getKind(e) == CXEval_Int ? clang_EvalResult_getAsLongLong(e) : 0;
    if (e) clang_EvalResult_dispose(e);
    return v;
  }
  return 0;
}

/* threadIdx.y * C + threadIdx.x (either order): a thread's number in a
 * block the code takes to be C wide; C recorded where it is a divisor of
 * 32 below it. */
static void note_row_width(thread_dims *t, CXCursor add) {
  if (clang_getCursorBinaryOperatorKind(add) != CXBinaryOperator_Add) return;
  child_list l = children(add);
  if (l.n != 2) return;
  for (int side = 0; side < 2; side++) {
    if (thread_index_read(l.c[side]) != ATOM_TX) continue;
    long long c = row_times(l.c[1 - side]);
    if (c < 2 || c >= 32 || 32 % c != 0) return;
    t->row = t->row == 0 || t->row == c ? c : -1;
    return;
  }
}

static enum CXChildVisitResult find_thread_dims(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  thread_dims *t = d;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_BinaryOperator) note_row_width(t, c);
  if (kind == CXCursor_MemberRefExpr) {
    int atom = member_builtin(c);
    if (atom >= ATOM_TX && atom <= ATOM_TZ) t->uses[atom - ATOM_TX] = true;
  }
  if (kind == CXCursor_CallExpr || kind == CXCursor_MemberRefExpr) {
    char *name = cx_take(clang_getCursorSpelling(c));
    if (strstr(name, "thread_rank") || strstr(name, "thread_index") || strstr(name, "group_rank"))
      t->uses[0] = true;
    free(name);
  }
  if (kind == CXCursor_CallExpr) visit_callee(t, c);
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

#define MAX_ANALYSES 4

/* The block modelled: the launch's, else __launch_bounds__(N) (as the
 * device code has it, macros and #ifs resolved, else as the file writes
 * it) for a kernel that reads neither threadIdx.y nor .z (N threads in a
 * row), else the
 * rows the code numbers its threads by (threadIdx.y * 16 + threadIdx.x:
 * 16 wide, two warps' worth of rows, or N / 16 rows under
 * __launch_bounds__(N)), else the documented default: blockDim.x a
 * multiple of 32, so a warp is 32 consecutive threadIdx.x; 2 rows in y
 * (and z) when the kernel reads threadIdx.y (.z), for reuse across them.
 * Then every warp's lanes active. */
static void model_block(kernel_ctx *k, CXCursor fn, CXCursor body, const launch_info *launch, long long device_bound) {
  thread_dims dims = {.uses = k->uses_dim};
  clang_visitChildren(body, find_thread_dims, &dims);
  long long bound = device_bound;
  if (launch && launch->known) {
    memcpy(k->block, launch->block, sizeof k->block);
    k->block_known = true;
  } else if (!k->uses_dim[1] && !k->uses_dim[2] && (bound || launch_bounds_threads(k->file, fn, body, &bound)) &&
             bound >= 1 && bound <= 1024) {
    k->block[0] = bound;
    k->block[1] = k->block[2] = 1;
    k->block_known = true;
  } else if (dims.row > 0 && k->uses_dim[0] && k->uses_dim[1] && !k->uses_dim[2]) {
    k->block[0] = dims.row;
    k->block[1] = (bound || launch_bounds_threads(k->file, fn, body, &bound)) && bound >= 2 * dims.row && bound <= 1024
                      ? bound / dims.row
                      : 64 / dims.row;
    k->block[2] = 1;
  } else if (!k->uses_dim[0] && !k->uses_dim[1] && !k->uses_dim[2]) {
    /* no thread index at all: every thread of a block would do the same
     * work, so the kernel runs one thread per block (a <<<1, 1>>> set-up or
     * debug kernel launched from another file) */
    k->block[0] = k->block[1] = k->block[2] = 1;
  } else {
    k->block[0] = 32;
    k->block[1] = k->uses_dim[1] ? 2 : 1;
    k->block[2] = k->uses_dim[2] ? 2 : 1;
  }
  long long threads = k->block[0] * k->block[1] * k->block[2];
  if (threads > 32 * MAX_WARPS) threads = 32 * MAX_WARPS;
  k->warps = (int)((threads + 31) / 32);
  for (int w = 0; w < k->warps; w++) {
    long long lanes = threads - 32LL * w;
    k->active[w] = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
  }
}

/* What one analysis of a kernel starts from: the built-in atoms, the
 * block, the result its file's findings go to. */
/* device_bound: the most threads the kernel's device code allows
 * (__launch_bounds__, as compiled), 0 where unknown. */
static void kernel_start(kernel_ctx *k, file_ctx *fc, CXCursor fn, CXCursor body, const launch_info *launch,
                         long long device_bound) {
  memset(k, 0, sizeof *k);
  k->fc = fc;
  k->path = fc->path;
  k->opt = fc->opt;
  k->pad_array = -1;
  k->probe_loop = -1;
  clang_getExpansionLocation(clang_getCursorLocation(fn), &k->file, NULL, NULL, NULL);
  k->res = result_for_file(fc, k->file);
  k->targs = launch && launch->targs.count ? &launch->targs : NULL;
  k->name = cx_take(clang_getCursorSpelling(fn));
  for (int i = 0; i < ATOM_FIRST_SYMBOL; i++) {
    GROW(k->atoms, k->atom_count, k->atom_cap);
    memset(&k->atoms[k->atom_count], 0, sizeof k->atoms[0]);
    k->atoms[k->atom_count++].kind = ATOMK_BUILTIN;
  }
  model_block(k, fn, body, launch, device_bound);
}

static void kernel_finish(kernel_ctx *k, bool inventory) {
  run_checks(k);
  for (int i = 0; i < k->array_count; i++) {
    if (inventory) classify(k, &k->arrays[i], k->res);
    free(k->arrays[i].name);
    free(k->arrays[i].elem_type);
  }
  free(k->arrays);
  free(k->accesses);
  free(k->vars);
  free(k->env);
  free(k->atoms);
  free(k->quotients);
  free(k->name);
}

/* The kernel from its syntax: the walk over its body. */
static void analyze_syntax(file_ctx *fc, CXCursor fn, CXCursor body, const launch_info *launch, bool inventory) {
  kernel_ctx k;
  kernel_start(&k, fc, fn, body, launch, 0);
  walk_kernel(&k, fn, body);
  merge_vector_fields(&k);
  kernel_finish(&k, inventory);
}

/* Private arrays as declared: their size is the source's (L_1), whether
 * the compiler keeps them in memory or spreads them over registers. */
static enum CXChildVisitResult register_private_array(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Recurse;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  if (t.kind == CXType_ConstantArray && !has_attr(c, CXCursor_CUDASharedAttr) &&
      !has_attr(c, CXCursor_CUDAConstantAttr) && clang_Cursor_getStorageClass(c) != CX_SC_Static)
    array_for_decl(d, c);
  return CXChildVisit_Continue;
}

/* The kernel from one function of its device code (an instantiation). */
static void analyze_device(file_ctx *fc, CXCursor fn, CXCursor body, void *function, const launch_info *launch,
                           bool inventory) {
  kernel_ctx k;
  kernel_start(&k, fc, fn, body, launch, ir_max_threads(function));
  ir_scope scope;
  ir_scope_init(&scope, fc, launch && !clang_Cursor_isNull(launch->kernel) ? launch->kernel : fn);
  clang_visitChildren(body, register_private_array, &k);
  ir_analyze(&k, fc->device, function, &scope);
  kernel_finish(&k, inventory);
}

static bool same_launch(const launch_info *a, const launch_info *b) {
  if (a->known != b->known || (a->known && memcmp(a->block, b->block, sizeof a->block)) ||
      a->targs.count != b->targs.count)
    return false;
  for (int i = 0; i < a->targs.count; i++)
    if (a->targs.known[i] != b->targs.known[i] || a->targs.value[i] != b->targs.value[i]) return false;
  return true;
}

#define MAX_INSTANCES 16

/* Whether a launch can make the instance whose arguments the mangled name
 * gave: no argument known on both sides differs. */
static bool may_launch(const template_args *launch, const template_args *instance) {
  for (int i = 0; i < launch->count && i < instance->count; i++)
    if (launch->known[i] && instance->known[i] && launch->value[i] != instance->value[i]) return false;
  return true;
}

/* The launch of the device code's instance `name` of a kernel: the launch
 * of that very function; else what the name and the file's launches of the
 * kernel say, for a template launched from a template host function
 * (`template void invoke<half>(...)` instantiates it): its arguments from
 * the name's mangling, its block where every launch of the kernel that can
 * make this instance gives the same. */
static const launch_info *launch_for(file_ctx *fc, CXCursor fn, const char *usr, const char *name,
                                     launch_info *guess) {
  for (int j = 0; j < fc->launch_count; j++)
    if (fc->launches[j].device_name && strcmp(fc->launches[j].device_name, name) == 0) return &fc->launches[j];
  memset(guess, 0, sizeof *guess);
  guess->kernel = clang_getNullCursor();
  if (clang_getCursorKind(fn) == CXCursor_FunctionTemplate) mangled_template_args(fc->tu, fn, name, &guess->targs);
  for (int j = 0; j < fc->launch_count; j++) {
    const launch_info *l = &fc->launches[j];
    if (strcmp(l->usr, usr) != 0 || !may_launch(&l->targs, &guess->targs)) continue;
    if (!l->known || (guess->known && memcmp(l->block, guess->block, sizeof l->block) != 0)) {
      guess->known = false;
      break;
    }
    memcpy(guess->block, l->block, sizeof l->block);
    guess->known = true;
  }
  return guess;
}

/* S_4 at the launches of device function `name` whose block the launch
 * leaves to run time, from the most threads the kernel allows. */
static void check_bounded_launches(file_ctx *fc, void *function, const char *name) {
  long long most = ir_max_threads(function);
  if (most <= 0) return;
  long long block[3] = {most, 1, 1};
  for (int j = 0; j < fc->launch_count; j++)
    if (fc->launches[j].check_bounds && fc->launches[j].device_name && strcmp(fc->launches[j].device_name, name) == 0)
      check_s4_launch(fc, fc->launches[j].callee, fc->launches[j].config, block, 0, true);
}

/* One analysis per function of the kernel's device code (each
 * instantiation the file makes), with the block of a launch of it; without
 * device code for it, one per distinct launch of the kernel in the file
 * (block shape and, for a template, its instantiation's arguments) from its
 * syntax, or one with the kernel's own bounds or the default. The
 * inventory comes from the first; a finding that several report is kept
 * once. */
void analyze_kernel(file_ctx *fc, CXCursor fn, CXCursor body) {
  char *usr = cx_take(clang_getCursorUSR(fn));
  if (fc->device) {
    void *functions[MAX_INSTANCES];
    char *names[MAX_INSTANCES];
    int n = ir_kernels_of(fc, fn, functions, names, MAX_INSTANCES);
    for (int i = 0; i < n; i++) {
      launch_info guess;
      const launch_info *launch = launch_for(fc, fn, usr, names[i], &guess);
      check_bounded_launches(fc, functions[i], names[i]);
      analyze_device(fc, fn, body, functions[i], launch, i == 0);
      record_kernel(fc, fn, "device", names[i], NULL);
      free(names[i]);
    }
    if (n > 0) { free(usr); return; }
  }
  const launch_info *chosen[MAX_ANALYSES];
  int n = 0;
  for (int i = 0; i < fc->launch_count && n < MAX_ANALYSES; i++) {
    const launch_info *l = &fc->launches[i];
    if (strcmp(l->usr, usr) != 0) continue;
    bool seen = false;
    for (int j = 0; j < n && !seen; j++) seen = same_launch(chosen[j], l);
    if (!seen) chosen[n++] = l;
  }
  free(usr);
  bool template = clang_getCursorKind(fn) == CXCursor_FunctionTemplate;
  const char *why = !fc->device ? fc->device_why
                    : template ? "no instantiation of the template in the file's device code"
                               : "not in the file's device code for this architecture, or compiled to nothing";
  if (fc->device && !template) {
    /* a kernel the device code lacks is named: its findings are the syntax's */
    CXFile file;
    unsigned line, column;
    clang_getExpansionLocation(clang_getCursorLocation(fn), &file, &line, &column, NULL);
    char *name = cx_take(clang_getCursorSpelling(fn)), *where = cx_take(clang_getFileName(file));
    wl_result_note(fc->res, "%s:%u:%u: note: kernel '%s' analysed from its syntax alone: %s", where, line, column,
                   name, why);
    free(name);
    free(where);
  }
  if (n == 0) analyze_syntax(fc, fn, body, NULL, true);
  for (int i = 0; i < n; i++) analyze_syntax(fc, fn, body, chosen[i], i == 0);
  record_kernel(fc, fn, "syntax", NULL, why);
}

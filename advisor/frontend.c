/* The front end: reads a CUDA file, parses it with libclang (with the
 * compiled-in stand-in headers, or a CUDA toolkit's real ones), reports its
 * diagnostics, finds the launches (block shapes) and the kernels, and hands
 * each kernel to kernel.c. */
#include "analysis.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

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
        if (li.known && in_file(c, fc->file)) check_s4_launch(fc, callee, li.block);
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
  "cuda_runtime.h", "device_launch_parameters.h", "builtin_types.h", "cuda_texture_types.h",
  "cuda_surface_types.h", "surface_types.h", "texture_types.h", "surface_functions.h", "channel_descriptor.h",
  "device_types.h", "host_defines.h", "crt/host_defines.h", "host_config.h", "crt/host_config.h",
  "common_functions.h", "crt/common_functions.h", "crt/math_functions.h", "crt/device_functions.h",
  "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_35_atomic_functions.h",
  "sm_60_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
  "sm_35_intrinsics.h", "sm_61_intrinsics.h", "cuda_device_runtime_api.h",
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
  enum { runtime_count = sizeof stand_in_headers / sizeof stand_in_headers[0], max_files = 256 };
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

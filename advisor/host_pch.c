/* The forced includes of libclang's host-side parse (the CUDA runtime
 * wrapper and the toolkit's headers, or the stand-ins), precompiled once
 * and reused for every file parsed with the same arguments, as device.c's
 * precompiled headers are for the device side: with the CUDA 13 toolkit a
 * fixture that includes nothing more parses in 0.05 s of CPU instead of
 * 0.39 s.
 *
 * libclang writes the precompiled header itself (clang_saveTranslationUnit
 * of an empty file parsed with the forced includes), so the library that
 * reads it is the one that made it. It lives in the user's cache
 * (wl_cache_folder), named by a hash of everything that shapes it: this
 * warplint, the libclang version, every argument (the setup's and the
 * user's: a -D or -I of the user's may change what the toolkit's headers
 * say, and clang does not notice a -D the precompiled header was made
 * without), the working folder when an include folder is named relative
 * to it, and the in-memory headers' names and contents. clang itself
 * checks that the real headers it read are unchanged; a parse that
 * rejects the precompiled header is done again without it, so the header
 * can only save time, never change a result. Headers that do not parse
 * (a libclang too old for the toolkit) are not precompiled, and a marker
 * file keeps the next warplint from trying again; a header is made only
 * when its arguments come a second time. Without a writable
 * cache every file is parsed in full. A header is about 10 MB (CUDA 13):
 * those unused for a week are removed when a new one is made. */
#include "analysis.h"
#include "device.h"

#include <dirent.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The empty main file the forced includes are precompiled with. */
#define HOST_PCH_MAIN "/__warplint__/host_pch.cu"

/* A user's argument the precompiled header can be made with: the flags
 * the compilation database gives (main.c's keep_flags). Any other (after
 * "--" on the command line) and the file is parsed in full, as before. */
static bool known_flag(const char *const *args, int count, int *a) {
  const char *arg = args[*a];
  if (strcmp(arg, "-I") == 0 || strcmp(arg, "-D") == 0 || strcmp(arg, "-U") == 0 || strcmp(arg, "-isystem") == 0) {
    if (*a + 1 >= count) return false;
    ++*a;
    return true;
  }
  return ((strncmp(arg, "-I", 2) == 0 || strncmp(arg, "-D", 2) == 0 || strncmp(arg, "-U", 2) == 0) && arg[2]) ||
         strncmp(arg, "-std=", 5) == 0 || strcmp(arg, "-fgpu-rdc") == 0;
}

/* What the precompiled header is made with: every argument of the parse
 * but the user's -include (which comes after the forced includes, so
 * after the header), and -fpch-instantiate-templates. False when an
 * argument is not one known_flag knows. */
static bool build_args(const cuda_setup *s, const char *const *extra, int extra_count, const char **args, int *n) {
  *n = 0;
  for (int i = 0; i < s->arg_count; i++) args[(*n)++] = s->args[i];
  for (int i = 0; i < extra_count; i++) {
    if (strcmp(extra[i], "-include") == 0 && i + 1 < extra_count) { i++; continue; }
    int from = i;
    if (!known_flag(extra, extra_count, &i)) return false;
    for (int k = from; k <= i; k++) args[(*n)++] = extra[k];
  }
  /* The toolkit's pending template instances made once, in the header,
   * not at the end of every parse that reads it: a warm parse of a
   * fixture takes a third of the time. */
  args[(*n)++] = "-fpch-instantiate-templates";
  return true;
}

/* Whether an include folder (or the resource folder) is named relative to
 * the working folder: the header is then one of that folder's. */
static bool names_relative_folder(const char *const *args, int count) {
  for (int i = 0; i < count; i++) {
    const char *folder = NULL;
    if ((strcmp(args[i], "-I") == 0 || strcmp(args[i], "-isystem") == 0 || strcmp(args[i], "-idirafter") == 0 ||
         strcmp(args[i], "-resource-dir") == 0) && i + 1 < count)
      folder = args[++i];
    else if (strncmp(args[i], "-I", 2) == 0)
      folder = args[i] + 2;
    if (folder && folder[0] != '/') return true;
  }
  return false;
}

/* The precompiled header's name for these arguments and headers (the
 * working folder too when they name a folder relative to it). */
static bool host_pch_name(const char *const *args, int arg_count, const struct CXUnsavedFile *files,
                          unsigned file_count, char *pch, size_t size) {
  char folder[400];
  if (!wl_cache_folder(folder, sizeof folder)) return false;
  unsigned long long h = wl_fnv(WL_FNV_START, WARPLINT_VERSION, strlen(WARPLINT_VERSION) + 1);
  char *version = cx_take(clang_getClangVersion());
  h = wl_fnv(h, version, strlen(version) + 1);
  free(version);
  char cwd[4096];
  if (names_relative_folder(args, arg_count) && getcwd(cwd, sizeof cwd)) h = wl_fnv(h, cwd, strlen(cwd) + 1);
  for (int i = 0; i < arg_count; i++) h = wl_fnv(h, args[i], strlen(args[i]) + 1);
  for (unsigned i = 0; i < file_count; i++) {
    h = wl_fnv(h, files[i].Filename, strlen(files[i].Filename) + 1);
    h = wl_fnv(h, files[i].Contents, files[i].Length);
  }
  int written = snprintf(pch, size, "%s/host-%016llx.pch", folder, h);
  return written > 0 && (size_t)written < size;
}

/* Whether the parse left an error: headers with one are not precompiled. */
static bool has_errors(CXTranslationUnit tu) {
  unsigned n = clang_getNumDiagnostics(tu);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    found = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
    clang_disposeDiagnostic(d);
  }
  return found;
}

static enum CXChildVisitResult find_launch(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  child_list l;
  if (!launch_syntax(c, &l)) return CXChildVisit_Recurse;
  *(bool *)d = true;
  return CXChildVisit_Break;
}

/* Whether the headers launch a kernel anywhere. Those of a precompiled
 * header do not, so that frontend.c's search for launches can pass over
 * them without deserializing every function body they hold (0.07 s a
 * file, more than the parse itself) and find what a full parse finds. */
static bool launches_in(CXTranslationUnit tu) {
  bool found = false;
  clang_visitChildren(clang_getTranslationUnitCursor(tu), find_launch, &found);
  return found;
}

/* The forced includes parsed alone (an empty file) and saved to pch,
 * through a temporary name of this thread's (another warplint building
 * the same header at the same time does no harm); false when they do not
 * parse cleanly or launch a kernel. */
static bool build_host_pch(CXIndex index, const char *const *args, int arg_count, const cuda_setup *s,
                           const char *pch) {
  struct CXUnsavedFile files[CUDA_SETUP_FILES + 1];
  memcpy(files, s->files, s->file_count * sizeof files[0]);
  files[s->file_count] = (struct CXUnsavedFile){HOST_PCH_MAIN, "\n", 1};
  CXTranslationUnit tu = NULL;
  enum CXErrorCode rc =
    clang_parseTranslationUnit2(index, HOST_PCH_MAIN, args, arg_count, files, s->file_count + 1,
                                CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
  bool ok = rc == CXError_Success && tu && !has_errors(tu) && !launches_in(tu);
  if (ok) {
    char tmp[800];
    snprintf(tmp, sizeof tmp, "%s.%d.%lu.tmp", pch, (int)getpid(), (unsigned long)pthread_self());
    ok = clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) == CXSaveError_None &&
         rename(tmp, pch) == 0;
    if (!ok) unlink(tmp);
  }
  if (tu) clang_disposeTranslationUnit(tu);
  return ok;
}

/* Markers beside the header's name: ".failed", these headers do not
 * precompile; ".seen", a file was parsed with these arguments before. */
static void marker_name(const char *pch, const char *suffix, char *marker, size_t size) {
  snprintf(marker, size, "%s%s", pch, suffix);
}

static void mark(const char *pch, const char *suffix) {
  char marker[800];
  marker_name(pch, suffix, marker, sizeof marker);
  FILE *f = fopen(marker, "w");
  if (f) fclose(f);
}

static bool marked(const char *pch, const char *suffix) {
  char marker[800];
  marker_name(pch, suffix, marker, sizeof marker);
  return access(marker, F_OK) == 0;
}

/* A header is made the second time its arguments are met (in this
 * process or an earlier one), not the first: arguments that one file
 * alone has (a -D naming its own target, as CMake gives each shared
 * library) would pay for making one (0.3 s more than the parse it saves)
 * and never use it. */
static bool seen_before(const char *pch) {
  if (marked(pch, ".seen")) return true;
  mark(pch, ".seen");
  return false;
}

/* Headers no warplint used for this long are removed when a new one is
 * made: each is some 10 MB, and every set of arguments has its own. */
#define UNUSED_SECONDS (7 * 24 * 3600)

/* Whether pch is there; its time is set when it is used (at most once a
 * day), so that remove_unused can tell the ones still in use. */
static bool in_use(const char *pch) {
  struct stat st;
  if (stat(pch, &st) != 0) return false;
  if (time(NULL) - st.st_mtime > 24 * 3600) utimes(pch, NULL);
  return true;
}

/* Every host header (and marker) beside pch unused for UNUSED_SECONDS. */
static void remove_unused(const char *pch) {
  char folder[800];
  snprintf(folder, sizeof folder, "%s", pch);
  char *slash = strrchr(folder, '/');
  if (!slash) return;
  *slash = 0;
  DIR *dir = opendir(folder);
  if (!dir) return;
  time_t now = time(NULL);
  for (struct dirent *e; (e = readdir(dir));) {
    if (strncmp(e->d_name, "host-", 5) != 0 ||
        !(wl_ends_with(e->d_name, ".pch") || wl_ends_with(e->d_name, ".failed") || wl_ends_with(e->d_name, ".seen")))
      continue;
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
    if (stat(path, &st) == 0 && now - st.st_mtime > UNUSED_SECONDS) unlink(path);
  }
  closedir(dir);
}

/* One thread of a process builds a header while the others wait for it,
 * instead of each building its own. */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* The precompiled header for these arguments, built when missing. */
static bool find_or_build(CXIndex index, const char *const *args, int arg_count, const cuda_setup *s, char *pch,
                          size_t size) {
  if (!host_pch_name(args, arg_count, s->files, s->file_count, pch, size)) return false;
  if (in_use(pch)) return true;
  pthread_mutex_lock(&build_lock);
  bool ok = access(pch, R_OK) == 0;
  if (!ok && !marked(pch, ".failed") && seen_before(pch)) {
    remove_unused(pch);
    ok = build_host_pch(index, args, arg_count, s, pch);
    if (!ok) mark(pch, ".failed");
  }
  pthread_mutex_unlock(&build_lock);
  return ok;
}

int host_pch_args(CXIndex index, const cuda_setup *s, const char *const *extra, int extra_count,
                  const char **args, char *pch, size_t pch_size) {
  const char *made_with[CUDA_SETUP_ARGS + HOST_PCH_EXTRA_ARGS];
  int made_count;
  if (s->prefix_count <= 0 || extra_count > HOST_PCH_EXTRA_ARGS - 2 ||
      !build_args(s, extra, extra_count, made_with, &made_count) ||
      !find_or_build(index, made_with, made_count, s, pch, pch_size))
    return 0;
  int n = 0;
  for (int i = 0; i < s->arg_count; i++) {
    bool forced = strcmp(s->args[i], "-include") == 0 || (i > 0 && strcmp(s->args[i - 1], "-include") == 0);
    if (forced && i < s->prefix_count) continue;
    if (i == s->prefix_count) {
      args[n++] = "-include-pch";
      args[n++] = pch;
    }
    args[n++] = s->args[i];
  }
  if (s->prefix_count == s->arg_count) {
    args[n++] = "-include-pch";
    args[n++] = pch;
  }
  for (int i = 0; i < extra_count; i++) args[n++] = extra[i];
  return n;
}

/* An error about the precompiled header itself (its files changed since,
 * another clang made it, it is damaged): one outside the parsed file. */
static bool pch_error(CXDiagnostic d, CXFile main_file) {
  if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) return false;
  CXFile file;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, NULL);
  if (file && main_file && clang_File_isEqual(file, main_file)) return false;
  char *text = cx_take(clang_getDiagnosticSpelling(d));
  bool about_pch = strstr(text, "precompiled") || strstr(text, "PCH") || strstr(text, "AST file");
  free(text);
  return about_pch;
}

bool host_pch_rejected(CXTranslationUnit tu, enum CXErrorCode rc, const char *path, const char *pch) {
  bool rejected = rc != CXError_Success || !tu;
  bool unusable = rc == CXError_ASTReadError;
  if (!rejected) {
    CXFile main_file = clang_getFile(tu, path);
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n && !rejected; i++) {
      CXDiagnostic d = clang_getDiagnostic(tu, i);
      rejected = unusable = pch_error(d, main_file);
      clang_disposeDiagnostic(d);
    }
  }
  if (unusable) unlink(pch);
  return rejected;
}

/* ---- the files a parse read besides the precompiled header ---- */

struct host_files {
  CXFileUniqueID *ids;           /* sorted */
  int count, cap;
};

static int compare_ids(const void *a, const void *b) {
  const CXFileUniqueID *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x->data[i] != y->data[i]) return x->data[i] < y->data[i] ? -1 : 1;
  return 0;
}

/* libclang lists the files the parse itself entered; those the
 * precompiled header holds it does not. */
static void add_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData d) {
  (void)stack;
  (void)depth;
  host_files *f = d;
  CXFileUniqueID id;
  if (!file || clang_getFileUniqueID(file, &id) != 0) return;
  GROW(f->ids, f->count, f->cap);
  f->ids[f->count++] = id;
}

host_files *host_pch_files(CXTranslationUnit tu) {
  host_files *f = calloc(1, sizeof *f);
  if (!f) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  clang_getInclusions(tu, add_inclusion, f);
  if (f->count > 1) qsort(f->ids, (size_t)f->count, sizeof f->ids[0], compare_ids);
  return f;
}

bool host_pch_own(const host_files *files, CXCursor c) {
  CXFile file;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
  CXFileUniqueID id;
  /* a declaration of no file (clang's own) is kept, as a full parse keeps it */
  if (!file || clang_getFileUniqueID(file, &id) != 0) return true;
  return bsearch(&id, files->ids, (size_t)files->count, sizeof id, compare_ids) != NULL;
}

void host_pch_files_free(host_files *files) {
  if (!files) return;
  free(files->ids);
  free(files);
}

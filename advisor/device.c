/* Device code for the lane model (ir.c): clang compiles the file's device
 * side for --arch with the arguments and headers of libclang's parse
 * (cuda_setup_init), optimised as nvcc does (-O3), with line tables, to
 * LLVM bitcode; the LLVM C API reads it back. The compile runs as a child
 * process while libclang parses the host side.
 *
 * The in-memory headers of the parse are written once per process to a
 * temporary folder, and the forced includes (the CUDA runtime wrapper and
 * the toolkit's headers, or the stand-ins) are precompiled once per
 * toolkit, architecture and language standard into the user's cache
 * ($WARPLINT_CACHE, else $XDG_CACHE_HOME/warplint, else ~/.cache/warplint):
 * a toolkit file then compiles in a tenth of a second instead of half a
 * second. Without a writable cache every file compiles in full.
 *
 * With WARPLINT_DEVICE_CACHE=DIR the compiled device code itself is kept in
 * DIR, as ccache's direct mode keeps objects: an entry is named by a hash of
 * this warplint, clang, the working folder and the whole command line, and
 * lists every file the compile read (clang's -MD: the source, its headers,
 * the precompiled headers' own inputs) with a hash of its contents. It is
 * used only when every one of those files still has those contents; else
 * clang runs and the entry is written again. The test suite sets it, so
 * that the files several tests check are compiled once per run. */
#include "device.h"

#include "analysis.h"
#include "respell.h"
#include "text_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define DEVICE_TIMEOUT_SECONDS 120
#define DEVICE_MAX_ARGS (CUDA_SETUP_ARGS + 160)

/* One compile; argv[1] is the same without the precompiled headers, tried
 * when the first fails (a PCH the user's flags do not fit). */
struct device_job {
  pid_t pid;
  char dir[256];                 /* this compile's temporary folder */
  char bitcode[300], errors[300];
  char arch[32];
  char pch[700];                 /* the precompiled headers used, or "" */
  char deps[300];                /* clang's list of the files it read (-MD) */
  char cached[700];              /* WARPLINT_DEVICE_CACHE's entry (.deps), or "" */
  char cached_bitcode[800];      /* the entry's bitcode when it is used (no clang runs), or "" */
  struct timespec started;       /* a file changed after this is not trusted */
  char **argv[2];
  int argc[2];
  int remapped;                  /* copies remap<N>.cu written in dir (compile_as_nvcc_accepts) */
};

const char *device_clang(void) {
  const char *env = getenv("WARPLINT_CLANG");
  if (env && *env) return access(env, X_OK) == 0 ? env : NULL;
#ifdef WARPLINT_CLANG
  if (access(WARPLINT_CLANG, X_OK) == 0) return WARPLINT_CLANG;
#endif
  return NULL;
}

/* ---- the in-memory headers, on disk ---- */

static pthread_mutex_t headers_lock = PTHREAD_MUTEX_INITIALIZER;
static char headers_root[512];

static void remove_tree(const char *dir) {
  pid_t pid;
  char *argv[] = {"rm", "-rf", (char *)dir, NULL};
  if (posix_spawnp(&pid, "rm", NULL, NULL, argv, environ) == 0) waitpid(pid, NULL, 0);
}

static void remove_headers(void) {
  if (*headers_root) remove_tree(headers_root);
}

static bool make_parents(char *path) {
  for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
    *p = 0;
    bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
    *p = '/';
    if (!ok) return false;
  }
  return true;
}

/* path written whole under a temporary name unique to this thread, then
 * renamed: a reader sees the old file or the new one, never a part. */
static bool write_file(const char *path, const void *data, size_t len) {
  static unsigned counter;
  char tmp[800];
  snprintf(tmp, sizeof tmp, "%s.%d.%u.tmp", path, (int)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
  FILE *f = fopen(tmp, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  ok = fclose(f) == 0 && ok;
  if (ok) ok = rename(tmp, path) == 0;
  if (!ok) unlink(tmp);
  return ok;
}

/* Whether the file at path holds exactly text (a header another warplint
 * wrote: the same version's is kept, another's replaced). */
static bool same_contents(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  bool same = true;
  char buf[4096];
  size_t at = 0, n;
  while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    same = at + n <= len && memcmp(buf, text + at, n) == 0;
    at += n;
  }
  fclose(f);
  return same && at == len;
}

static const char *tmp_folder(void) {
  const char *t = getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

/* The in-memory headers on disk, under one folder for the process: in the
 * cache, named by their contents (so that a precompiled header made from
 * them stays valid for the next warplint), else a temporary folder. Each
 * file is written once, through a temporary name. */
static bool write_headers(const cuda_setup *s) {
  pthread_mutex_lock(&headers_lock);
  bool ok = true;
  if (!*headers_root) {
    char cache[400];
    unsigned long long h = wl_fnv(WL_FNV_START, WARPLINT_VERSION, strlen(WARPLINT_VERSION));
    for (size_t i = 0; i < wl_shim_headers_count; i++)
      h = wl_fnv(h, wl_shim_headers[i].text, wl_shim_headers[i].size);
    if (wl_cache_folder(cache, sizeof cache)) {
      snprintf(headers_root, sizeof headers_root, "%s/headers-%016llx", cache, h);
    } else {
      snprintf(headers_root, sizeof headers_root, "%s/warplint-headers-XXXXXX", tmp_folder());
      if (!mkdtemp(headers_root)) { *headers_root = 0; ok = false; }
      else atexit(remove_headers);
    }
  }
  for (unsigned i = 0; ok && i < s->file_count; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s%s", headers_root, s->files[i].Filename);
    if (same_contents(path, s->files[i].Contents, s->files[i].Length)) continue;
    ok = make_parents(path) && write_file(path, s->files[i].Contents, s->files[i].Length);
  }
  pthread_mutex_unlock(&headers_lock);
  return ok;
}

/* An argument naming a virtual path, moved under the headers' folder. */
static char *real_arg(const char *arg) {
  const char *v = strstr(arg, "/__warplint__");
  if (!v) return wl_strdup(arg);
  return wl_format("%.*s%s%s", (int)(v - arg), arg, headers_root, v);
}

/* ---- precompiled forced includes ---- */

unsigned long long wl_fnv(unsigned long long h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

bool wl_cache_folder(char *out, size_t size) {
  const char *env = getenv("WARPLINT_CACHE");
  if (env && *env) snprintf(out, size, "%s", env);
  else if ((env = getenv("XDG_CACHE_HOME")) && *env) snprintf(out, size, "%s/warplint", env);
  else if ((env = getenv("HOME")) && *env) snprintf(out, size, "%s/.cache/warplint", env);
  else return false;
  char probe[600];
  snprintf(probe, sizeof probe, "%s/x", out);
  return make_parents(probe) && access(out, W_OK) == 0;
}

static int run_clang(char **argv, const char *errors, int timeout_seconds);

/* The last -std= of the user's arguments (the setup's own says c++17). */
static const char *language_standard(const cuda_setup *s, const char *const *extra, int extra_count) {
  const char *std = "-std=c++17";
  for (int i = 0; i < s->arg_count; i++)
    if (strncmp(s->args[i], "-std=", 5) == 0) std = s->args[i];
  for (int i = 0; i < extra_count; i++)
    if (strncmp(extra[i], "-std=", 5) == 0) std = extra[i];
  return std;
}

/* Every error listed (compile_as_nvcc_accepts needs them all), and -O3
 * with nvcc's appetite for unrolling and inlining: NVVM unrolls
 * constant-trip loops over private arrays that LLVM's default threshold
 * leaves rolled (and so in local memory; 1000 matches nvcc 13 on the
 * fixtures'), and inlines every __device__ function that is not
 * __noinline__: one clang leaves as a call (dxtc's evalAllPermutations) is
 * not in the kernel the lane model walks. */
static const char *const codegen_args[] = {"-O3", "-gline-tables-only", "-w", "-mllvm", "-unroll-threshold=1000",
                                           "-mllvm", "-inline-threshold=100000", "-mllvm",
                                           "-simplifycfg-hoist-common=false", "-mllvm",
                                           "-simplifycfg-sink-common=false", "-ferror-limit=0"};

/* The precompiled forced includes for this setup and standard, built into
 * the cache when missing; false when there is no cache or it cannot be built. */
static pthread_mutex_t pch_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device PCH at pch, built under a name of this process's and renamed. */
static bool build_pch(const char *clang, const cuda_setup *s, const char *std, const char *folder, const char *pch) {
  char empty[700], tmp[700], errors[700];
  snprintf(empty, sizeof empty, "%s/empty.cu", folder);   /* kept: the PCH refers to it */
  snprintf(tmp, sizeof tmp, "%s.%d.tmp", pch, (int)getpid());
  snprintf(errors, sizeof errors, "%s/errors-%d.txt", folder, (int)getpid());
  if (access(empty, R_OK) != 0 && !write_file(empty, "\n", 1)) return false;
  char *argv[DEVICE_MAX_ARGS];
  int n = 0;
  argv[n++] = wl_strdup(clang);
  for (int i = 0; i < s->arg_count; i++) argv[n++] = real_arg(strncmp(s->args[i], "-std=", 5) ? s->args[i] : std);
  for (size_t i = 0; i < sizeof codegen_args / sizeof codegen_args[0]; i++) argv[n++] = wl_strdup(codegen_args[i]);
  const char *tail[] = {"-S", "-emit-llvm", "-Xclang", "-emit-pch", "-o", tmp, empty};
  for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) argv[n++] = wl_strdup(tail[i]);
  argv[n] = NULL;
  bool ok = run_clang(argv, errors, DEVICE_TIMEOUT_SECONDS) == 0 && rename(tmp, pch) == 0;
  for (int i = 0; i < n; i++) free(argv[i]);
  unlink(tmp);
  unlink(errors);
  return ok;
}


static bool precompiled(const char *clang, const cuda_setup *s, const char *std, char *pch, size_t size) {
  char folder[400];
  if (!wl_cache_folder(folder, sizeof folder)) return false;
  unsigned long long h = WL_FNV_START;
  h = wl_fnv(h, WARPLINT_VERSION, strlen(WARPLINT_VERSION));
  h = wl_fnv(h, clang, strlen(clang));
  struct stat st;
  if (stat(clang, &st) == 0) h = wl_fnv(h, &st.st_mtime, sizeof st.st_mtime);
  for (int i = 0; i < s->arg_count; i++) h = wl_fnv(h, s->args[i], strlen(s->args[i]) + 1);
  h = wl_fnv(h, std, strlen(std));
  h = wl_fnv(h, headers_root, strlen(headers_root));      /* the PCH names the files it was made from */
  for (unsigned i = 0; i < s->file_count; i++) h = wl_fnv(h, s->files[i].Contents, s->files[i].Length);
  snprintf(pch, size, "%s/device-%016llx.pch", folder, h);
  if (access(pch, R_OK) == 0) return true;
  /* one thread of a process builds it while the others wait (they shared
   * its temporary name and wrote one file at once); built beside it under a
   * name of this process's, then renamed: another warplint building the
   * same file at the same time does no harm */
  pthread_mutex_lock(&pch_lock);
  bool ok = access(pch, R_OK) == 0 || build_pch(clang, s, std, folder, pch);
  pthread_mutex_unlock(&pch_lock);
  return ok;
}


/* ---- the compile ---- */

static pid_t spawn_clang(char **argv, const char *errors) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

/* The child's exit status, or -1 when it was killed after timeout_seconds. */
static int wait_clang(pid_t pid, int timeout_seconds) {
  struct timespec start, now, pause = {0, 2000000};
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    int status;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (done < 0 && errno != EINTR) return -1;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > timeout_seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    nanosleep(&pause, NULL);
    if (pause.tv_nsec < 20000000) pause.tv_nsec *= 2;
  }
}

static int run_clang(char **argv, const char *errors, int timeout_seconds) {
  pid_t pid = spawn_clang(argv, errors);
  return pid < 0 ? -1 : wait_clang(pid, timeout_seconds);
}

/* clang's first error line ("file:line:col: error: ..."), or a fallback. */
static void first_error(const char *errors, char *why, size_t size) {
  FILE *f = fopen(errors, "r");
  char line[1024];
  snprintf(why, size, "clang failed");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    if (!strstr(line, "error:")) continue;
    line[strcspn(line, "\n")] = 0;
    snprintf(why, size, "%s", line);
    break;
  }
  fclose(f);
}

static void free_args(device_job *j) {
  for (int v = 0; v < 2; v++) {
    for (int i = 0; i < j->argc[v]; i++) free(j->argv[v][i]);
    free(j->argv[v]);
  }
}

static void remove_job_files(const device_job *j) {
  unlink(j->bitcode);
  unlink(j->errors);
  unlink(j->deps);
  for (int i = 0; i < j->remapped; i++) {
    char copy[320];
    snprintf(copy, sizeof copy, "%s/remap%d.cu", j->dir, i);
    unlink(copy);
  }
  rmdir(j->dir);
}

/* ---- WARPLINT_DEVICE_CACHE: compiled device code kept between runs ---- */

/* WARPLINT_DEVICE_CACHE, made when missing; false when unset or not writable. */
static bool device_cache_folder(char *out, size_t size) {
  const char *dir = getenv("WARPLINT_DEVICE_CACHE");
  if (!dir || !*dir) return false;
  snprintf(out, size, "%s/x", dir);
  bool ok = make_parents(out);
  out[strlen(out) - 2] = 0;
  return ok && access(out, W_OK) == 0;
}

/* The hash of a file's contents; false when it cannot be read. */
static bool file_hash(const char *path, unsigned long long *h) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  unsigned long long x = WL_FNV_START;
  static __thread unsigned char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) x = wl_fnv(x, buf, n);
  bool ok = !ferror(f);
  fclose(f);
  *h = x;
  return ok;
}

/* The entry's name: this warplint, clang (its path and time), the working
 * folder (relative paths, the file names in the line tables), the
 * environment clang reads include folders from, and every argument but the
 * output's name. What the compile reads is checked by the entry itself. */
static void cache_entry_name(device_job *j, const char *folder, const char *clang) {
  unsigned long long h = wl_fnv(WL_FNV_START, WARPLINT_VERSION, strlen(WARPLINT_VERSION));
  h = wl_fnv(h, clang, strlen(clang) + 1);
  struct stat st;
  if (stat(clang, &st) == 0) h = wl_fnv(h, &st.st_mtime, sizeof st.st_mtime);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) h = wl_fnv(h, cwd, strlen(cwd) + 1);
  const char *env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
    const char *v = getenv(env[i]);
    h = wl_fnv(h, v ? v : "", v ? strlen(v) + 1 : 0);
    h = wl_fnv(h, "", 1);
  }
  for (int i = 0; i < j->argc[0]; i++) {
    if (i > 0 && strcmp(j->argv[0][i - 1], "-o") == 0) continue;
    h = wl_fnv(h, j->argv[0][i], strlen(j->argv[0][i]) + 1);
  }
  snprintf(j->cached, sizeof j->cached, "%s/device-%016llx.deps", folder, h);
}

/* The entry's bitcode, into bitcode (size bytes), when every file it lists
 * still has the contents it had. Its first line names the bitcode (a file
 * named by its own contents, so that an entry never names another's); each
 * next line is "HASH PATH". */
static bool cache_lookup(const device_job *j, char *bitcode, size_t size) {
  FILE *f = fopen(j->cached, "r");
  if (!f) return false;
  char line[4200];
  bool ok = fgets(line, sizeof line, f) && strncmp(line, "bitcode ", 8) == 0;
  if (ok) {
    line[strcspn(line, "\n")] = 0;
    const char *slash = strrchr(j->cached, '/');
    int written = snprintf(bitcode, size, "%.*s/%.100s", (int)(slash - j->cached), j->cached, line + 8);
    ok = written > 0 && (size_t)written < size;
  }
  int files = 0;
  while (ok && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    unsigned long long want, got;
    int at = 0;
    ok = sscanf(line, "%16llx %n", &want, &at) == 1 && at > 0 && file_hash(line + at, &got) && got == want;
    files++;
  }
  fclose(f);
  if (ok && files > 0 && access(bitcode, R_OK) == 0) return true;
  *bitcode = 0;
  return false;
}

char *wl_next_dependency(char **at) {
  char *p = *at;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (p[0] == '\\' && (p[1] == '\n' || p[1] == '\r')) { p++; continue; }
    break;
  }
  if (!*p) return NULL;
  char *name = p, *out = p;
  while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
    if (p[0] == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) p++;
    else if (p[0] == '$' && p[1] == '$') p++;
    else if (p[0] == '\\' && (p[1] == '\n' || p[1] == '\r' || !p[1])) break;
    *out++ = *p++;
  }
  char *next = *p ? p + 1 : p;
  *out = 0;
  *at = next;
  return name;
}

static bool changed_since(const struct stat *st, const struct timespec *t) {
  return st->st_mtim.tv_sec > t->tv_sec || (st->st_mtim.tv_sec == t->tv_sec && st->st_mtim.tv_nsec >= t->tv_nsec);
}

/* The compile's bitcode and the files it read, into the cache. Left out
 * when one of them changed during the compile (its contents now may not be
 * what clang read). */
static void cache_store(const device_job *j) {
  size_t deps_len, bc_len;
  char *deps = read_text_file(j->deps, &deps_len), *bc = read_text_file(j->bitcode, &bc_len);
  char *manifest = NULL;
  size_t size = 0;
  FILE *m = deps && bc ? open_memstream(&manifest, &size) : NULL;
  bool ok = m != NULL;
  if (ok) {
    const char *slash = strrchr(j->cached, '/');
    unsigned long long h = wl_fnv(WL_FNV_START, bc, bc_len);
    char name[800];
    snprintf(name, sizeof name, "%.*s/device-%016llx.bc", (int)(slash - j->cached), j->cached, h);
    fprintf(m, "bitcode %s\n", name + (slash - j->cached) + 1);
    ok = access(name, R_OK) == 0 || write_file(name, bc, bc_len);
    char *at = deps;
    char *target = wl_next_dependency(&at);   /* "OUTPUT:" */
    ok = ok && target && target[strlen(target) - 1] == ':';
    int files = 0;
    for (char *dep; ok && (dep = wl_next_dependency(&at));) {
      struct stat st;
      unsigned long long dh;
      ok = strchr(dep, '\n') == NULL && stat(dep, &st) == 0 && !changed_since(&st, &j->started) && file_hash(dep, &dh);
      if (ok) fprintf(m, "%016llx %s\n", dh, dep);
      files++;
    }
    ok = ok && files > 0;
  }
  if (m) ok = fclose(m) == 0 && ok;
  if (ok) write_file(j->cached, manifest, size);
  free(manifest);
  free(deps);
  free(bc);
}

/* clang, the setup's arguments (its forced includes replaced by pch when
 * given), the code generation flags, the user's, and the output. */
static void job_args(device_job *j, int v, const char *clang, const cuda_setup *s, const char *std, const char *pch,
                     const char *const *extra_args, int extra_count, const char *path) {
  char **argv = j->argv[v] = calloc(DEVICE_MAX_ARGS + 1, sizeof *argv);
  if (!argv) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  int n = 0;
  argv[n++] = wl_strdup(clang);
  for (int i = 0; i < s->arg_count; i++) {
    bool forced = strcmp(s->args[i], "-include") == 0 || (i > 0 && strcmp(s->args[i - 1], "-include") == 0);
    if (pch && forced && i < s->prefix_count) continue;
    argv[n++] = real_arg(strncmp(s->args[i], "-std=", 5) ? s->args[i] : std);
  }
  if (pch) {
    argv[n++] = wl_strdup("-include-pch");
    argv[n++] = wl_strdup(pch);
  }
  for (size_t i = 0; i < sizeof codegen_args / sizeof codegen_args[0]; i++) argv[n++] = wl_strdup(codegen_args[i]);
  for (int i = 0; i < extra_count && n < DEVICE_MAX_ARGS - 8; i++) argv[n++] = wl_strdup(extra_args[i]);
  const char *tail[] = {"-emit-llvm", "-c", "-o", j->bitcode, path};
  for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) argv[n++] = wl_strdup(tail[i]);
  j->argc[v] = n;
}

device_job *device_start(const char *path, const char *const *extra_args, int extra_count, const wl_options *opt,
                         char *why, size_t why_size) {
  const char *clang = device_clang();
  if (!clang) {
    snprintf(why, why_size, "no clang to compile device code (install clang-22, or set WARPLINT_CLANG)");
    return NULL;
  }
  cuda_setup *s = malloc(sizeof *s);
  device_job *j = calloc(1, sizeof *j);
  if (!s || !j) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  cuda_setup_init(s, opt, true);
  snprintf(j->dir, sizeof j->dir, "%s/warplint-device-XXXXXX", tmp_folder());
  if (!write_headers(s) || !mkdtemp(j->dir)) {
    snprintf(why, why_size, "cannot write temporary files in %s: %s", tmp_folder(), strerror(errno));
    free(s);
    free(j);
    return NULL;
  }
  snprintf(j->bitcode, sizeof j->bitcode, "%s/device.bc", j->dir);
  snprintf(j->arch, sizeof j->arch, "%s", opt->arch);
  snprintf(j->errors, sizeof j->errors, "%s/errors.txt", j->dir);
  const char *std = language_standard(s, extra_args, extra_count);
  char pch[600];
  bool have_pch = precompiled(clang, s, std, pch, sizeof pch);
  job_args(j, 0, clang, s, std, have_pch ? pch : NULL, extra_args, extra_count, path);
  if (have_pch) snprintf(j->pch, sizeof j->pch, "%s", pch);
  if (have_pch) job_args(j, 1, clang, s, std, NULL, extra_args, extra_count, path);
  free(s);
  char folder[600];
  if (device_cache_folder(folder, sizeof folder)) {
    cache_entry_name(j, folder, clang);
    if (cache_lookup(j, j->cached_bitcode, sizeof j->cached_bitcode)) return j;   /* no clang */
    /* clang lists the files it reads (the argument room is kept for it) */
    snprintf(j->deps, sizeof j->deps, "%s/device.d", j->dir);
    const char *more[] = {"-MD", "-MF", j->deps};
    for (int v = 0; v < 2; v++)
      for (size_t i = 0; j->argv[v] && i < 3; i++) j->argv[v][j->argc[v]++] = wl_strdup(more[i]);
    clock_gettime(CLOCK_REALTIME, &j->started);
  }
  j->pid = spawn_clang(j->argv[0], j->errors);
  if (j->pid < 0) {
    snprintf(why, why_size, "cannot run %s: %s", clang, strerror(errno));
    free_args(j);
    remove_job_files(j);
    free(j);
    return NULL;
  }
  return j;
}

static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

/* Every target LLVM was built with, and their parts, as libclang and the
 * NVPTX back end register them. */
static void register_targets(void) {
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  LLVMInitializeAllAsmParsers();
  LLVMInitializeAllDisassemblers();
}

/* LLVM's target registry is a list that two threads registering the same
 * target at once turn into a loop (lookupTarget then spins for ever);
 * a target registered already is left alone. So every target is
 * registered once, before any thread makes a libclang index or reads
 * device code. */
void device_init(void) { pthread_once(&targets_once, register_targets); }

/* What the NVPTX back end does to accesses before instruction selection:
 * its load-store vectorizer merges neighbouring loads and stores (the
 * fields of a float4, a struct copied whole) into 8- and 16-byte ones, as
 * nvcc does. Run here so that the model sees the widths the hardware gets. */
static void vectorize_like_backend(device_code *code, const char *arch) {
  device_init();   /* a caller without main() (a test) may come here first */
  const char *triple = LLVMGetTarget(code->module);
  LLVMTargetRef target;
  char *message = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &message)) {
    LLVMDisposeMessage(message);
    return;
  }
  LLVMTargetMachineRef machine = LLVMCreateTargetMachine(target, triple, arch, "", LLVMCodeGenLevelAggressive,
                                                         LLVMRelocDefault, LLVMCodeModelDefault);
  LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
  LLVMErrorRef error = LLVMRunPasses(code->module, "function(load-store-vectorizer)", machine, options);
  if (error) LLVMConsumeError(error);
  LLVMDisposePassBuilderOptions(options);
  LLVMDisposeTargetMachine(machine);
}

static bool read_module(const char *bitcode, const char *arch, device_code *code, char *why, size_t why_size) {
  LLVMMemoryBufferRef buffer;
  char *message = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(bitcode, &buffer, &message)) {
    snprintf(why, why_size, "cannot read the device code: %s", message ? message : "?");
    LLVMDisposeMessage(message);
    return false;
  }
  code->context = LLVMContextCreate();
  if (LLVMParseBitcodeInContext2(code->context, buffer, &code->module)) {
    snprintf(why, why_size, "cannot parse the device code's bitcode");
    LLVMDisposeMemoryBuffer(buffer);
    LLVMContextDispose(code->context);
    return false;
  }
  LLVMDisposeMemoryBuffer(buffer);
  code->layout = LLVMGetModuleDataLayout(code->module);
  vectorize_like_backend(code, arch);
  /* WARPLINT_TRACE_IR=FILE: the device code as the model reads it */
  const char *dump = getenv("WARPLINT_TRACE_IR");
  if (dump && *dump) LLVMPrintModuleToFile(code->module, dump, NULL);
  return true;
}

/* ---- what nvcc accepts and clang refuses ----
 *
 * A file clang refuses loses the device code of every kernel in it. Where
 * every error is one of a few forms nvcc accepts, the file is compiled once
 * more from copies that say the same to clang, given with -remap-file and
 * keeping every line and column:
 *
 * - A __shared__ variable whose type has a constructor (a cuda::barrier, a
 *   class with default member initialisers): nvcc does not run the
 *   constructor; clang says "initialization is not supported for __shared__
 *   variables". The declaration is made extern: no initialisation, the same
 *   element type, still in shared memory (clang allows a sized extern
 *   __shared__ under -fgpu-rdc). An array's first bound is left out, as
 *   dynamic shared memory's is: the instances of a template, or two
 *   kernels, may give one name different sizes, and one extern name has one
 *   type.
 * - A PTX special register named with one % in inline assembly
 *   ("mov.u64 %0, %globaltimer;"): nvcc passes it through, clang wants %%.
 *   The % is dropped: the assembly's text is not the model's business.
 * - Launch brackets spaced apart (`k << <grid, block >> > (a)`): clang
 *   sees no expression after `<<`; respell.c closes them up.
 * - A host function calling one that a macro makes __device__ in the
 *   device pass alone (InfiniTAM's _CPU_AND_GPU_CODE_): nvcc's device pass
 *   does not check host functions, clang's does. Most such calls wait for
 *   the function to be emitted (-fgpu-defer-diag, frontend.c); a
 *   constructor whose members have only such constructors, and a
 *   conversion or construction in a body that finds only such functions,
 *   are errors at once. The constructor, written in its class, is made a
 *   declaration; the body is emptied. The device code needs neither. */

#define SHARED_AS_EXTERN "__wlxshr__"   /* as long as "__shared__": columns stay */
#define MAX_REMAPPED 16
#define MAX_FIXES 40

typedef bool (*source_fix)(char *text, size_t len, size_t at);

typedef struct {
  char path[600];
  int line, column;
  int form;                      /* its index in nvcc_accepts */
} source_place;

static bool identifier_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool is_word_at(const char *text, size_t at, size_t end, const char *word) {
  size_t len = strlen(word);
  bool before = at == 0 || !identifier_char(text[at - 1]);
  bool after = at + len >= end || !identifier_char(text[at + len]);
  return at + len <= end && before && after && strncmp(text + at, word, len) == 0;
}

/* The first bound after the name at `name`, if any, made spaces. */
static void drop_first_bound(char *text, size_t len, size_t name) {
  size_t at = name;
  while (at < len && identifier_char(text[at])) at++;
  while (at < len && isspace((unsigned char)text[at])) at++;
  if (at == len || text[at] != '[') return;
  int depth = 0;
  for (size_t end = at; end < len; end++) {
    depth += (text[end] == '[') - (text[end] == ']');
    if (depth > 0) continue;
    for (size_t k = at + 1; k < end; k++)
      if (text[k] != '\n') text[k] = ' ';
    return;
  }
}

/* The declaration whose name is at `name` made extern: its __shared__
 * (written in the declaration, before the name) becomes SHARED_AS_EXTERN,
 * a `static` before it spaces, and its first bound spaces. False when the
 * declaration spells no __shared__ (a macro of the user's). */
static bool make_shared_extern(char *text, size_t len, size_t name) {
  size_t start = name;
  while (start > 0 && !strchr(";{}", text[start - 1])) start--;
  for (size_t i = name; i-- > start;) {
    if (!is_word_at(text, i, name, "__shared__")) continue;
    memcpy(text + i, SHARED_AS_EXTERN, strlen(SHARED_AS_EXTERN));
    for (size_t k = start; k < i; k++)
      if (is_word_at(text, k, i, "static")) memset(text + k, ' ', strlen("static"));
    drop_first_bound(text, len, name);
    return true;
  }
  return false;
}

/* The % just before `at` in an inline assembly string made a space. */
static bool drop_asm_percent(char *text, size_t len, size_t at) {
  for (size_t i = at; i-- > 0 && at - i <= 3 && i < len;) {
    if (text[i] == '"' || text[i] == '\n') return false;
    if (text[i] == '%') {
      text[i] = ' ';
      return true;
    }
  }
  return false;
}

/* Where the comment, string or character literal starting at `at` ends;
 * `at` when none starts there. */
static size_t skip_literal(const char *text, size_t len, size_t at) {
  if (text[at] == '/' && at + 1 < len && text[at + 1] == '/') {
    while (at < len && text[at] != '\n') at++;
    return at;
  }
  if (text[at] == '/' && at + 1 < len && text[at + 1] == '*') {
    for (at += 2; at + 1 < len && !(text[at] == '*' && text[at + 1] == '/'); at++) continue;
    return at + 2 < len ? at + 2 : len;
  }
  if (text[at] == '"' || text[at] == '\'') {
    char quote = text[at];
    for (at++; at < len && text[at] != quote && text[at] != '\n'; at++)
      if (text[at] == '\\') at++;
    return at < len ? at + 1 : len;
  }
  return at;
}

/* The offset of the bracket closing the one at `open` ((, [ or {); len if
 * none. */
static size_t matching_close(const char *text, size_t len, size_t open) {
  int depth = 0;
  for (size_t i = open; i < len; i++) {
    size_t past = skip_literal(text, len, i);
    if (past != i) { i = past - 1; continue; }
    if (strchr("([{", text[i])) depth++;
    else if (strchr(")]}", text[i]) && --depth == 0) return i;
  }
  return len;
}

/* Whether the brace at `open` opens a namespace, class, struct, union,
 * enum or extern "C" block, not a function's body: a word of those since
 * the statement before it. */
static bool scope_brace(const char *text, size_t open) {
  size_t start = open;
  while (start > 0 && !strchr(";{}", text[start - 1])) start--;
  static const char *const heads[] = {"namespace", "class", "struct", "union", "enum", "extern"};
  for (size_t i = start; i < open; i++)
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
      if (is_word_at(text, i, open, heads[h])) return true;
  return false;
}

/* The opening brace of the function body around `at`: the outermost brace
 * around it that opens no scope (scope_brace); len if none. */
static size_t enclosing_body(const char *text, size_t len, size_t at) {
  enum { MAX_NESTING = 64 };
  size_t open[MAX_NESTING];
  int depth = 0;
  for (size_t i = 0; i < at && i < len; i++) {
    size_t past = skip_literal(text, len, i);
    if (past != i) { i = past - 1; continue; }
    if (text[i] == '{' && depth < MAX_NESTING) open[depth++] = i;
    else if (text[i] == '}' && depth > 0) depth--;
  }
  for (int d = 0; d < depth; d++)
    if (!scope_brace(text, open[d])) return open[d];
  return len;
}

/* Characters [from, to] made spaces, newlines kept (lines stay). */
static void blank(char *text, size_t from, size_t to) {
  for (size_t i = from; i <= to; i++)
    if (text[i] != '\n') text[i] = ' ';
}

/* A host function the device pass cannot compile, with an error in its
 * body (a call of a function only the device pass makes __device__): its
 * body emptied. The device code does not need it; nvcc's device pass does
 * not check it. */
static bool empty_host_body(char *text, size_t len, size_t at) {
  size_t open = enclosing_body(text, len, at);
  size_t close = open < len ? matching_close(text, len, open) : len;
  if (close >= len) return false;
  blank(text, open + 1, close - 1);
  return true;
}

/* The same for a constructor whose members cannot be built in the device
 * pass (the error is at its name): its definition, written in its class,
 * made a declaration (its initialisers and body spaces, a `;`). */
static bool declare_host_constructor(char *text, size_t len, size_t name) {
  size_t at = name;
  while (at < len && (identifier_char(text[at]) || text[at] == ':' || text[at] == '~')) at++;
  while (at < len && isspace((unsigned char)text[at])) at++;
  if (at == len || text[at] != '(') return false;
  size_t params = matching_close(text, len, at);
  /* past the parameters: the initialisers (`: a(1), b{2}`), then the body */
  size_t i = params + 1;
  while (i < len && text[i] != '{' && text[i] != ';') {
    if (text[i] == '(' || (text[i] == '{' && i > 0 && identifier_char(text[i - 1]))) i = matching_close(text, len, i);
    i++;
    while (i < len && isspace((unsigned char)text[i])) i++;
    if (i < len && text[i] == '{' && i > 0 && (identifier_char(text[i - 1]) || text[i - 1] == '>')) {
      i = matching_close(text, len, i) + 1;    /* a member's brace initialiser */
      continue;
    }
  }
  if (i >= len || text[i] != '{') return false;
  size_t close = matching_close(text, len, i);
  if (close >= len) return false;
  blank(text, params + 1, close);
  for (size_t k = params + 1; k <= close; k++)
    if (text[k] != '\n') {              /* the lines stay where they were */
      text[k] = ';';
      return true;
    }
  return false;
}

/* A spaced launch at `at`: every spaced launch of the file closed up (the
 * file's other errors may point at one already closed up). */
static bool close_launch_brackets(char *text, size_t len, size_t at) { return respell_launch_at(text, len, at) >= 0; }

/* Each error that nvcc would not give, and the edit of the source that
 * clang then accepts: none for a launch from device code, which is
 * compiled again as relocatable device code, as nvcc's -rdc=true that its
 * build gives. */
static const struct {
  const char *error;
  source_fix fix;                /* NULL: the source stays as it is */
  bool extern_shared;            /* the copy needs SHARED_AS_EXTERN defined (and -fgpu-rdc) */
  bool rdc;                      /* the compile needs -fgpu-rdc */
} nvcc_accepts[] = {
    {": error: initialization is not supported for __shared__ variables", make_shared_extern, true, true},
    {": error: invalid % escape in inline assembly string", drop_asm_percent, false, false},
    {": error: expected expression", close_launch_brackets, false, false},
    {": error: constructor for '", declare_host_constructor, false, false},
    {": error: no viable conversion from", empty_host_body, false, false},
    {": error: no matching constructor for initialization of", empty_host_body, false, false},
    /* a host function's thread-local (Boost's stacktrace keeps its state
     * in one: `static __thread` where Boost's configuration finds no
     * thread_local for the device pass) */
    {": error: initializer for thread-local variable must be a constant expression", empty_host_body, false, false},
    {": error: kernel launch from __device__ or __global__ function requires relocatable device code", NULL, false,
     true},
};

/* The places of the compile's errors when every error is one of
 * nvcc_accepts; 0 when there is another (nothing to gain from compiling
 * again). */
static int fixable_errors(const char *errors, source_place *at, int max) {
  FILE *f = fopen(errors, "r");
  if (!f) return 0;
  char line[1024];
  int n = 0;
  bool other = false;
  while (!other && fgets(line, sizeof line, f)) {
    if (!strstr(line, "error:")) continue;
    char *message = NULL;
    int form = 0;
    for (; form < (int)(sizeof nvcc_accepts / sizeof nvcc_accepts[0]) && !message; form++)
      message = strstr(line, nvcc_accepts[form].error);
    if (!message || n == max) {
      other = true;
      break;
    }
    at[n].form = form - 1;
    *message = 0;
    char *colon = strrchr(line, ':');
    if (!colon) { other = true; break; }
    at[n].column = atoi(colon + 1);
    *colon = 0;
    colon = strrchr(line, ':');
    if (!colon) { other = true; break; }
    at[n].line = atoi(colon + 1);
    *colon = 0;
    if (strlen(line) >= sizeof at[n].path) { other = true; break; }
    memcpy(at[n].path, line, strlen(line) + 1);
    bool again = false;            /* a template's other instance, a second inlining */
    for (int i = 0; i < n && !again; i++)
      again = at[i].line == at[n].line && at[i].column == at[n].column && !strcmp(at[i].path, at[n].path);
    if (!again) n++;
  }
  fclose(f);
  return other ? 0 : n;
}

/* Compiles once more with argv[v] when every error was one nvcc accepts;
 * clang's status, or status unchanged when that cannot help. */
static int compile_as_nvcc_accepts(device_job *j, int v, int status) {
  source_place at[MAX_FIXES];
  int n = fixable_errors(j->errors, at, MAX_FIXES);
  if (n == 0) return status;
  bool done[MAX_FIXES] = {0}, shared = false, rdc = false;
  char **argv = j->argv[v];
  int argc = j->argc[v];
  for (int i = 0; i < n; i++) {
    if (done[i]) continue;
    bool edits = false;                /* an error of this file's asks for an edit */
    for (int k = i; k < n; k++) edits = edits || (!strcmp(at[k].path, at[i].path) && nvcc_accepts[at[k].form].fix);
    size_t len = 0;
    char *text = edits ? read_text_file(at[i].path, &len) : NULL;
    bool edited = !edits || (text && j->remapped < MAX_REMAPPED && argc + 6 <= DEVICE_MAX_ARGS);
    for (int k = i; edited && k < n; k++) {
      if (strcmp(at[k].path, at[i].path)) continue;
      source_fix fix = nvcc_accepts[at[k].form].fix;
      if (fix) {
        size_t place = byte_at_place(text, len, at[k].line, at[k].column);
        edited = place < len && fix(text, len, place);
      }
      shared = shared || nvcc_accepts[at[k].form].extern_shared;
      rdc = rdc || nvcc_accepts[at[k].form].rdc;
      done[k] = true;
    }
    if (!edits) continue;
    char copy[320], remap[sizeof at[i].path + sizeof copy + 1];
    snprintf(copy, sizeof copy, "%s/remap%d.cu", j->dir, j->remapped);
    if (edited) edited = write_file(copy, text, len);
    free(text);
    if (!edited) return status;
    j->remapped++;
    snprintf(remap, sizeof remap, "%.*s;%s", (int)sizeof at[i].path - 1, at[i].path, copy);
    const char *args[] = {"-Xclang", "-remap-file", "-Xclang", remap};
    for (size_t a = 0; a < 4; a++) argv[argc++] = wl_strdup(args[a]);
  }
  if (argc + 2 > DEVICE_MAX_ARGS) return status;
  if (rdc) argv[argc++] = wl_strdup("-fgpu-rdc");
  if (shared) argv[argc++] = wl_strdup("-D" SHARED_AS_EXTERN "=extern __attribute__((shared))");
  j->argc[v] = argc;
  /* a failure keeps the first compile's errors, which name the user's code */
  char errors[320];
  snprintf(errors, sizeof errors, "%s/errors-again.txt", j->dir);
  int again = run_clang(argv, errors, DEVICE_TIMEOUT_SECONDS);
  unlink(errors);
  return again == 0 ? 0 : status;
}

bool device_finish(device_job *j, device_code *code, char *why, size_t why_size) {
  memset(code, 0, sizeof *code);
  if (*j->cached_bitcode) {
    bool ok = read_module(j->cached_bitcode, j->arch, code, why, why_size);
    if (ok) {
      free_args(j);
      remove_job_files(j);
      free(j);
      return true;
    }
    *j->cached = 0;   /* an entry LLVM cannot read: compiled afresh, not stored */
    j->pid = spawn_clang(j->argv[0], j->errors);
  }
  int status = j->pid < 0 ? -1 : wait_clang(j->pid, DEVICE_TIMEOUT_SECONDS);
  if (status > 0 && j->argv[1]) {
    /* a precompiled header clang no longer accepts (its files changed) is
     * made again by the next warplint */
    char why_pch[1024];
    first_error(j->errors, why_pch, sizeof why_pch);
    bool stale = strstr(why_pch, "precompiled file") || strstr(why_pch, "PCH file");
    if (stale) unlink(j->pch);
    /* errors that are all forms nvcc accepts are the code's, not the
     * precompiled header's: compiling without it alone would fail alike,
     * so only the mended compile below runs (a whole compile saved) */
    source_place at[MAX_FIXES];
    if (stale || fixable_errors(j->errors, at, MAX_FIXES) == 0)
      status = run_clang(j->argv[1], j->errors, DEVICE_TIMEOUT_SECONDS);
  }
  /* without the precompiled headers: -fgpu-rdc changes the language options */
  if (status > 0) status = compile_as_nvcc_accepts(j, j->argv[1] ? 1 : 0, status);
  /* the same code with the precompiled headers or without: kept either way */
  if (status == 0 && *j->cached && *j->deps) cache_store(j);
  bool ok = false;
  if (status == 0) ok = read_module(j->bitcode, j->arch, code, why, why_size);
  else if (status < 0) snprintf(why, why_size, "the device compile took over %d s", DEVICE_TIMEOUT_SECONDS);
  else first_error(j->errors, why, why_size);
  free_args(j);
  remove_job_files(j);
  free(j);
  return ok;
}

void device_free(device_code *code) {
  if (code->module) LLVMDisposeModule(code->module);
  if (code->context) LLVMContextDispose(code->context);
  memset(code, 0, sizeof *code);
}

/* --ptxas: asks the real compiler what became of each kernel's private
 * arrays. nvcc compiles the file for the target arch with -Xptxas -v; its
 * report gives registers, stack (local memory) bytes and spills per kernel.
 * An L_ finding is then confirmed (the kernel uses local memory) or not. */
#include "analysis.h"
#include "device.h"
#include "text_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static wl_kernel_usage *usage_for(wl_file_result *r, const char *mangled) {
  char name[256];
  if (!mangled_kernel_name(mangled, name, sizeof name)) snprintf(name, sizeof name, "%s", mangled);
  for (size_t i = 0; i < r->usage_count; i++)
    if (strcmp(r->usage[i].kernel, name) == 0) return &r->usage[i];
  wl_kernel_usage *grown = realloc(r->usage, (r->usage_count + 1) * sizeof *grown);
  if (!grown) return NULL;
  r->usage = grown;
  wl_kernel_usage *u = &r->usage[r->usage_count++];
  memset(u, 0, sizeof *u);
  u->kernel = wl_strdup(name);
  return u;
}

static bool shell_safe(const char *s) {
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=,", *s)) return false;
  return true;
}

/* WARPLINT_NVCC, then --cuda-path/bin/nvcc, then the installer's default, then PATH. */
static char *find_nvcc(const wl_options *opt) {
  const char *env = getenv("WARPLINT_NVCC");
  if (env && *env) return wl_strdup(env);
  if (opt->cuda_path) return wl_format("%s/bin/nvcc", opt->cuda_path);
  if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0) return wl_strdup("/usr/local/cuda/bin/nvcc");
  return wl_strdup("nvcc");
}

/* ---- WARPLINT_DEVICE_CACHE: nvcc's resource reports kept between runs ----
 * As device.c keeps compiled device code: with WARPLINT_DEVICE_CACHE=DIR an
 * exit-0 report is kept in DIR, named by a hash of this warplint, the nvcc
 * it came from (the real file and its time: /usr/local/cuda/bin/nvcc and
 * --cuda-path's are one), the working folder, the environment nvcc reads
 * include folders from and the command; the entry lists every file the
 * compile read (nvcc's -MD) with a hash of its contents, and is used only
 * while each of them still has them. The test suite sets it: the same
 * fixture, checked by several tests with toolkit and stand-in headers,
 * goes through nvcc once per run. */

static unsigned long long ptxas_file_hash(const char *path, bool *ok) {
  size_t len;
  char *text = read_text_file(path, &len);
  *ok = text != NULL;
  unsigned long long h = text ? wl_fnv(WL_FNV_START, text, len) : 0;
  free(text);
  return h;
}

/* DIR/ptxas-HASH.txt for this nvcc and command, or NULL without a cache. */
static char *ptxas_entry_name(const char *nvcc, const char *cmd) {
  const char *dir = getenv("WARPLINT_DEVICE_CACHE");
  if (!dir || !*dir) return NULL;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) return NULL;
  unsigned long long h = wl_fnv(WL_FNV_START, WARPLINT_VERSION, strlen(WARPLINT_VERSION));
  char real[PATH_MAX];
  const char *which = realpath(nvcc, real) ? real : nvcc;
  h = wl_fnv(h, which, strlen(which) + 1);
  struct stat st;
  if (stat(which, &st) == 0) h = wl_fnv(h, &st.st_mtime, sizeof st.st_mtime);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) h = wl_fnv(h, cwd, strlen(cwd) + 1);
  const char *env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
    const char *v = getenv(env[i]);
    h = wl_fnv(h, v ? v : "", v ? strlen(v) + 1 : 0);
    h = wl_fnv(h, "", 1);
  }
  /* the command without its nvcc, which the real file above stands for */
  const char *rest = cmd + strlen(nvcc);
  h = wl_fnv(h, rest, strlen(rest) + 1);
  return wl_format("%s/ptxas-%016llx.txt", dir, h);
}

/* An entry: "ptxas-report BYTES\n", the report, then "HASH PATH" lines. */
static char *ptxas_lookup(const char *entry) {
  size_t len;
  char *text = read_text_file(entry, &len);
  if (!text) return NULL;
  size_t bytes;
  int at = 0;
  char *report = NULL;
  if (sscanf(text, "ptxas-report %zu\n%n", &bytes, &at) == 1 && at > 0 && (size_t)at + bytes <= len) {
    bool ok = true;
    int files = 0;
    for (char *line = text + at + bytes; ok && *line;) {
      char *end = strchr(line, '\n');
      if (!end) { ok = false; break; }
      *end = 0;
      unsigned long long want;
      int skip = 0;
      bool read;
      ok = sscanf(line, "%16llx %n", &want, &skip) == 1 && skip > 0 && ptxas_file_hash(line + skip, &read) == want && read;
      files++;
      line = end + 1;
    }
    if (ok && files > 0) {
      report = malloc(bytes + 1);
      if (report) {
        memcpy(report, text + at, bytes);
        report[bytes] = 0;
      }
    }
  }
  free(text);
  return report;
}

/* The report and the files of deps into entry; left out when one of them
 * changed since started (its contents now may not be what nvcc read). */
static void ptxas_store(const char *entry, const char *report, const char *deps_path, time_t started) {
  size_t deps_len;
  char *deps = read_text_file(deps_path, &deps_len);
  if (!deps) return;
  char *text = NULL;
  size_t size = 0;
  FILE *m = open_memstream(&text, &size);
  bool ok = m != NULL;
  if (ok) {
    fprintf(m, "ptxas-report %zu\n%s", strlen(report), report);
    char *at = deps;
    char *target = wl_next_dependency(&at);   /* "/dev/null" */
    char *colon = target ? wl_next_dependency(&at) : NULL;
    ok = colon && strcmp(colon, ":") == 0;
    int files = 0;
    for (char *dep; ok && (dep = wl_next_dependency(&at));) {
      struct stat st;
      bool read;
      unsigned long long h = ptxas_file_hash(dep, &read);
      ok = read && stat(dep, &st) == 0 && st.st_mtime < started && !strchr(dep, '\n');
      if (ok) fprintf(m, "%016llx %s\n", h, dep);
      files++;
    }
    ok = fclose(m) == 0 && ok && files > 0;
  }
  if (ok) {
    char *tmp = wl_format("%s.%d.tmp", entry, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool written = f && fwrite(text, 1, size, f) == size;
    if (f && fclose(f) != 0) written = false;
    if (!written || rename(tmp, entry) != 0) unlink(tmp);
    free(tmp);
  }
  free(text);
  free(deps);
}

/* nvcc on a large file can take minutes (a 224 KB Monte Carlo kernel: ~4
 * under load) for a confirmation the findings do not need: past this,
 * the report is given up, as the device compile is (device.c). */
#define NVCC_TIMEOUT_SECONDS 120
#define TIMED_OUT 124            /* timeout(1)'s exit status */

/* nvcc's output (stdout and stderr) for cmd, and its exit status in
 * *status; from the cache when it holds it. NULL when nvcc did not run. */
static char *nvcc_report(const char *nvcc, const char *cmd, int *status) {
  char *entry = ptxas_entry_name(nvcc, cmd);
  char *report = entry ? ptxas_lookup(entry) : NULL;
  if (report) {
    free(entry);
    *status = 0;
    return report;
  }
  char deps[4200] = "";
  if (entry) {
    const char *tmp = getenv("TMPDIR");
    snprintf(deps, sizeof deps, "%s/warplint-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(deps);
    if (fd >= 0) close(fd);
    if (fd < 0 || !shell_safe(deps)) {
      if (fd >= 0) unlink(deps);
      *deps = 0;
    }
  }
  /* the -MD file only beside a cache: it is how an entry knows its headers */
  char *run = *deps ? wl_format("%s -MD -MF %s 2>&1", cmd, deps) : wl_format("%s 2>&1", cmd);
  /* timeout(1) where the system has it (coreutils; not every macOS) */
  char *full = wl_format("if command -v timeout >/dev/null 2>&1; then exec timeout %d %s; else exec %s; fi",
                         NVCC_TIMEOUT_SECONDS, run, run);
  free(run);
  time_t started = time(NULL);
  FILE *p = popen(full, "r");
  free(full);
  if (!p) {
    if (*deps) unlink(deps);
    free(entry);
    return NULL;
  }
  size_t size = 0, cap = 4096;
  report = malloc(cap);
  char buf[4096];
  size_t got;
  while (report && (got = fread(buf, 1, sizeof buf, p)) > 0) {
    if (size + got + 1 > cap) {
      while (size + got + 1 > cap) cap *= 2;
      char *grown = realloc(report, cap);
      if (!grown) { free(report); report = NULL; break; }
      report = grown;
    }
    memcpy(report + size, buf, got);
    size += got;
  }
  *status = pclose(p);   /* as read_usage has always returned it: pclose's */
  if (report) report[size] = 0;
  /* a report holding a NUL would come back shorter than it was: not kept */
  if (report && *status == 0 && entry && *deps && strlen(report) == size) ptxas_store(entry, report, deps, started);
  if (*deps) unlink(deps);
  free(entry);
  return report;
}

/* The file's own flags nvcc needs to compile it as warplint parsed it:
 * include folders, macros, the language standard (from the compilation
 * database or after --). */
static bool nvcc_flag(const char *arg) {
  static const char *const prefixes[] = {"-I", "-D", "-U", "-isystem", "-std="};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (strncmp(arg, prefixes[i], strlen(prefixes[i])) == 0) return true;
  return false;
}

/* nvcc's resource report for the file, per kernel, into r->usage; nvcc's
 * exit status (-1: not run). */
static int read_usage(const char *path, const char *const *args, int arg_count, const wl_options *opt,
                      wl_file_result *r) {
  char *nvcc = find_nvcc(opt);
  if (!shell_safe(nvcc)) { free(nvcc); return -1; }
  char *flags = wl_strdup("");
  for (int i = 0; i < arg_count; i++) {
    if (!nvcc_flag(args[i])) continue;
    /* -I DIR, -D X and -isystem DIR take the next argument */
    bool separate = strcmp(args[i], "-I") == 0 || strcmp(args[i], "-D") == 0 || strcmp(args[i], "-isystem") == 0;
    const char *flag = args[i], *value = separate && i + 1 < arg_count ? args[++i] : "";
    if (!shell_safe(flag) || !shell_safe(value)) continue;
    char *more = wl_format("%s %s%s%s", flags, flag, *value ? " " : "", value);
    free(flags);
    flags = more;
  }
  char *cmd = wl_format("%s -arch=%s -cubin -Xptxas -v%s -o /dev/null %s", nvcc, opt->arch, flags, path);
  free(flags);
  int status;
  char *report = nvcc_report(nvcc, cmd, &status);
  free(cmd);
  free(nvcc);
  if (!report) return -1;
  FILE *p = fmemopen(report, strlen(report) + 1, "r");
  if (!p) { free(report); return -1; }
  char line[1024];
  wl_kernel_usage *current = NULL;
  while (fgets(line, sizeof line, p)) {
    char name[512];
    int a, b, c;
    const char *at;
    if ((at = strstr(line, "Function properties for ")) && sscanf(at + 24, "%511s", name) == 1) {
      current = usage_for(r, name);
    } else if ((at = strstr(line, "Compiling entry function '")) && sscanf(at + 26, "%511[^']", name) == 1) {
      current = usage_for(r, name);
    } else if (current && sscanf(line, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
                                 &a, &b, &c) == 3) {
      current->local_bytes = a;
      current->spill_stores = b;
      current->spill_loads = c;
    } else if (current && (at = strstr(line, "Used ")) && sscanf(at, "Used %d registers", &a) == 1) {
      current->registers = a;
      const char *sm = strstr(line, "bytes smem");
      if (sm) {
        const char *q = sm;
        while (q > line && q[-1] == ' ') q--;
        while (q > line && q[-1] >= '0' && q[-1] <= '9') q--;
        current->shared_bytes = atoi(q);
      }
    }
  }
  fclose(p);
  free(report);
  return status;
}

/* Each L_ finding of r (and of its headers) confirmed or not by the
 * kernel's local memory in usage. */
static void confirm(wl_file_result *r, const wl_file_result *usage) {
  for (size_t i = 0; i < r->finding_count; i++) {
    wl_finding *f = &r->findings[i];
    if (f->rule[0] != 'L') continue;
    for (size_t k = 0; k < usage->usage_count; k++) {
      if (strcmp(usage->usage[k].kernel, f->kernel) != 0) continue;
      f->confirmed_set = true;
      f->confirmed = usage->usage[k].local_bytes > 0 || usage->usage[k].spill_stores > 0;
    }
  }
  for (size_t h = 0; h < r->header_count; h++) confirm(&r->headers[h], usage);
}

static bool shell_safe_file(const char *path, const wl_options *opt) {
  return shell_safe(path) && shell_safe(opt->arch);
}

void wl_ptxas(const char *path, const char *const *args, int arg_count, const wl_options *opt, wl_file_result *r) {
  if (r->failed) return;
  if (!shell_safe_file(path, opt)) {
    wl_result_error(r, "%s: error: --ptxas skipped: path has characters warplint will not pass to a shell", path);
    return;
  }
  int status = read_usage(path, args, arg_count, opt, r);
  if (status > 0 && WIFEXITED(status) && WEXITSTATUS(status) == TIMED_OUT) {
    wl_result_error(r, "%s: note: --ptxas: nvcc took over %d s and was stopped; L_ findings stay unconfirmed", path,
                    NVCC_TIMEOUT_SECONDS);
    return;
  }
  if (status != 0 || r->usage_count == 0) {
    wl_result_error(r, "%s: note: --ptxas: nvcc gave no resource report (exit status %d); L_ findings stay "
                    "unconfirmed", path, status);
    return;
  }
  confirm(r, r);
}

static bool local_dynamic(const wl_finding *f) { return !strcmp(f->rule, "L_2") || !strcmp(f->rule, "L_3"); }

static bool has_local_dynamic(const wl_file_result *r) {
  for (size_t i = 0; i < r->finding_count; i++)
    if (local_dynamic(&r->findings[i])) return true;
  for (size_t h = 0; h < r->header_count; h++)
    if (has_local_dynamic(&r->headers[h])) return true;
  return false;
}

/* ptxas decides where private arrays live, not the source: it turns small
 * arrays indexed at run time into register selects, and clang's device code
 * does not tell which ones (the same array stays in registers from clang's
 * PTX and goes to the stack from nvcc's). So where nvcc is installed and the
 * file has L_2 or L_3 findings, nvcc compiles it once; a finding in a
 * kernel nvcc gives no stack frame and no spills is dropped. */
static bool in_registers(const wl_finding *f) { return local_dynamic(f) && f->confirmed_set && !f->confirmed; }

void wl_local_verdicts(const char *path, const char *const *args, int arg_count, const wl_options *opt,
                       wl_file_result *r) {
  if (r->failed || !has_local_dynamic(r) || !shell_safe_file(path, opt)) return;
  wl_file_result usage = {0};
  if (read_usage(path, args, arg_count, opt, &usage) == 0 && usage.usage_count) {
    confirm(r, &usage);
    wl_drop_findings(r, in_registers);
  }
  wl_result_free(&usage);
}

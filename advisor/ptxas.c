/* --ptxas: asks the real compiler what became of each kernel's private
 * arrays. nvcc compiles the file for the target arch with -Xptxas -v; its
 * report gives registers, stack (local memory) bytes and spills per kernel.
 * An L_ finding is then confirmed (the kernel uses local memory) or not. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  char *cmd = wl_format("%s -arch=%s -c -Xptxas -v%s -o /dev/null %s 2>&1", nvcc, opt->arch, flags, path);
  free(flags);
  free(nvcc);
  FILE *p = popen(cmd, "r");
  free(cmd);
  if (!p) return -1;
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
  return pclose(p);
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

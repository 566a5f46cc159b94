/* warplint verify: runs the program under Nsight Compute's source counters
 * and puts what the GPU counted beside each static finding (verify.h). */
#define _GNU_SOURCE
#include "verify.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "text_file.h"

extern char **environ;

#define MIN_INST 1000.0      /* the truth harness's mapping (advisor/truth/README.md) */
#define MIN_EXCESS 0.25

/* ---- running ncu ---- */

static int run_to(char *const *argv, const char *log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static bool on_path(const char *name) {
  if (strchr(name, '/')) return access(name, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path) return false;
  char *copy = wl_strdup(path), *save = NULL;
  bool found = false;
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    char *p = wl_format("%s/%s", *d ? d : ".", name);
    found = access(p, X_OK) == 0;
    free(p);
  }
  free(copy);
  return found;
}

static void rm_tree(const char *dir) {
  const char *names[] = {"report.ncu-rep", "ncu.log", "export.log", "source.csv", "gpu.log"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char *p = wl_format("%s/%s", dir, names[i]);
    unlink(p);
    free(p);
  }
  rmdir(dir);
}

int wl_verify_measure(char *const *program, wl_measurement *m) {
  memset(m, 0, sizeof *m);
  const char *ncu = getenv("WARPLINT_NCU");
  if (!ncu || !*ncu) ncu = "ncu";
  if (!program || !program[0]) {
    fprintf(stderr, "warplint: error: verify needs a program to run: warplint verify [check options] FILES -- PROGRAM ARGS\n");
    return 2;
  }
  if (!on_path(ncu)) {
    fprintf(stderr, "warplint: error: verify needs Nsight Compute: '%s' not found (set WARPLINT_NCU or PATH)\n", ncu);
    return 2;
  }
  char tmpl[] = "/tmp/warplint-verify-XXXXXX";
  if (!mkdtemp(tmpl)) {
    fprintf(stderr, "warplint: error: verify: cannot make a temporary folder: %s\n", strerror(errno));
    return 2;
  }
  m->workdir = wl_strdup(tmpl);
  char *gpulog = wl_format("%s/gpu.log", tmpl);
  char *smi[] = {"nvidia-smi", "-L", NULL};
  bool gpu = on_path("nvidia-smi") && run_to(smi, gpulog) == 0;
  free(gpulog);
  if (!gpu) {
    fprintf(stderr, "warplint: error: verify needs an NVIDIA GPU: nvidia-smi -L finds none\n");
    rm_tree(tmpl);
    return 2;
  }
  int n = 0;
  while (program[n]) n++;
  char *rep = wl_format("%s/report", tmpl), *log = wl_format("%s/ncu.log", tmpl);
  char **argv = calloc((size_t)n + 16, sizeof *argv);
  int a = 0;
  argv[a++] = (char *)ncu;
  argv[a++] = "--section"; argv[a++] = "SourceCounters";
  argv[a++] = "--kernel-name-base"; argv[a++] = "demangled";
  argv[a++] = "--kernel-id"; argv[a++] = ":::1";
  argv[a++] = "--launch-count"; argv[a++] = "256";
  argv[a++] = "-f"; argv[a++] = "-o"; argv[a++] = rep;
  for (int i = 0; i < n; i++) argv[a++] = program[i];
  int rc = run_to(argv, log);
  free(argv);
  char *repfile = wl_format("%s.ncu-rep", rep);
  struct stat st;
  if (rc != 0 || stat(repfile, &st) != 0) {
    fprintf(stderr, "warplint: error: verify: %s under ncu %s (exit status %d); its output: %s\n", program[0],
            stat(repfile, &st) != 0 ? "measured no kernel" : "failed", rc, log);
    free(rep); free(log); free(repfile);
    return 2;
  }
  char *csv = wl_format("%s/source.csv", tmpl);
  char *exp[] = {(char *)ncu, "--import", repfile, "--page", "source", "--csv", "--print-source", "cuda,sass", NULL};
  rc = run_to(exp, csv);
  size_t len = 0;
  char *text = rc == 0 ? read_text_file(csv, &len) : NULL;
  if (!text) {
    fprintf(stderr, "warplint: error: verify: ncu could not export the source counters (exit status %d): %s\n", rc, csv);
    free(rep); free(log); free(repfile); free(csv);
    return 2;
  }
  wl_verify_parse_csv(text, m);
  free(text);
  free(rep); free(log); free(repfile); free(csv);
  rm_tree(tmpl);
  return 0;
}

/* ---- the CSV ---- */

/* One CSV record from *p (quotes, doubled quotes, newlines inside quotes);
 * fields point into a buffer the caller frees. */
static int csv_record(const char **p, char ***fields, char **buf) {
  const char *s = *p;
  if (!*s) return -1;
  size_t cap = 16;
  int n = 0;
  *fields = malloc(cap * sizeof **fields);
  *buf = malloc(strlen(s) + 1);
  char *out = *buf;
  for (;;) {
    if ((size_t)n == cap) *fields = realloc(*fields, (cap *= 2) * sizeof **fields);
    (*fields)[n++] = out;
    if (*s == '"') {
      s++;
      for (;;) {
        if (!*s) break;
        if (*s == '"' && s[1] == '"') { *out++ = '"'; s += 2; continue; }
        if (*s == '"') { s++; break; }
        *out++ = *s++;
      }
    }
    while (*s && *s != ',' && *s != '\n' && *s != '\r') *out++ = *s++;
    *out++ = 0;
    if (*s == ',') { s++; continue; }
    while (*s == '\r') s++;
    if (*s == '\n') s++;
    break;
  }
  *p = s;
  return n;
}

static int column(char **hdr, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(hdr[i], name) == 0) return i;
  return -1;
}

static double num(char **f, int n, int col) {
  if (col < 0 || col >= n) return 0;
  char clean[64];
  size_t k = 0;
  for (const char *s = f[col]; *s && k + 1 < sizeof clean; s++)
    if (*s != ',') clean[k++] = *s;
  clean[k] = 0;
  char *end;
  double v = strtod(clean, &end);
  return end == clean ? 0 : v;
}

static char *kernel_name(const char *signature) {
  /* "void foo<int>(float *, int)" -> "foo" */
  const char *paren = strchr(signature, '(');
  size_t len = paren ? (size_t)(paren - signature) : strlen(signature);
  char *s = malloc(len + 1);
  memcpy(s, signature, len);
  s[len] = 0;
  char *lt = strchr(s, '<');
  if (lt) *lt = 0;
  char *name = strrchr(s, ' ');
  name = name ? name + 1 : s;
  char *colon = strrchr(name, ':');
  if (colon) name = colon + 1;
  char *r = wl_strdup(name);
  free(s);
  return r;
}

size_t wl_verify_parse_csv(const char *text, wl_measurement *m) {
  const char *p = text;
  char *file = NULL, *kernel = NULL;
  char **hdr = NULL, *hbuf = NULL;
  int hn = 0, c_line = -1, c_addr = -1, c_inst = -1, c_s = -1, c_si = -1, c_w = -1, c_wi = -1, c_space = -1;
  long last = -1;                   /* the line row the SASS rows below belong to */
  unsigned long long seen[512];     /* its SASS rows' addresses: ncu lists each twice */
  int nseen = 0;
  size_t before = m->count;
  char **f, *buf;
  int n;
  while ((n = csv_record(&p, &f, &buf)) >= 0) {
    bool keep = false;
    if (n >= 2 && strcmp(f[0], "File Path") == 0) {
      free(file);
      file = wl_strdup(f[1]);
    } else if (n >= 2 && strcmp(f[0], "Function Name") == 0) {
      free(kernel);
      kernel = kernel_name(f[1]);
    } else if (n >= 3 && strcmp(f[0], "Line No") == 0) {
      free(hdr); free(hbuf);
      hdr = f; hbuf = buf; hn = n; keep = true;
      c_line = 0;
      c_addr = column(hdr, hn, "Address");
      c_inst = column(hdr, hn, "Instructions Executed");
      c_s = column(hdr, hn, "L2 Theoretical Sectors Global");
      c_si = column(hdr, hn, "L2 Theoretical Sectors Global Ideal");
      c_w = column(hdr, hn, "L1 Wavefronts Shared");
      c_wi = column(hdr, hn, "L1 Wavefronts Shared Ideal");
      c_space = column(hdr, hn, "Address Space");
    } else if (hdr && file && kernel && n == hn && f[c_line][0] >= '0' && f[c_line][0] <= '9' &&
               (c_addr < 0 || strcmp(f[c_addr], "-") == 0 || !f[c_addr][0])) {
      unsigned line = (unsigned)strtoul(f[c_line], NULL, 10);
      double inst = num(f, n, c_inst), s = num(f, n, c_s), si = num(f, n, c_si);
      double w = num(f, n, c_w), wi = num(f, n, c_wi);
      bool dup = false;
      for (size_t i = before; i < m->count && !dup; i++)
        dup = m->lines[i].line == line && strcmp(m->lines[i].file, file) == 0 && strcmp(m->lines[i].kernel, kernel) == 0;
      last = -1;
      nseen = 0;
      if (!dup && inst > 0) {
        if (m->count == m->cap) {
          m->cap = m->cap ? 2 * m->cap : 64;
          m->lines = realloc(m->lines, m->cap * sizeof *m->lines);
        }
        last = (long)m->count;
        m->lines[m->count++] = (wl_measured_line){wl_strdup(file), wl_strdup(kernel), line, inst, 0, 0, s, si, w, wi};
      }
    } else if (hdr && n == hn && last >= 0 && c_space >= 0 && !f[c_line][0]) {
      /* a SASS row under the last line row: count its memory instructions, once per address */
      unsigned long long addr = c_addr >= 0 ? strtoull(f[c_addr], NULL, 16) : 0;
      bool again = false;
      for (int i = 0; i < nseen && !again; i++) again = seen[i] == addr;
      if (again) { free(f); free(buf); continue; }
      if (nseen < 512) seen[nseen++] = addr;
      if (strcmp(f[c_space], "Global") == 0) m->lines[last].global_inst += num(f, n, c_inst);
      else if (strcmp(f[c_space], "Shared") == 0) m->lines[last].shared_inst += num(f, n, c_inst);
    }
    if (!keep) { free(f); free(buf); }
  }
  free(hdr); free(hbuf); free(file); free(kernel);
  return m->count - before;
}

/* ---- attaching ---- */

static bool same_file(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return true;
  char ra[PATH_MAX], rb[PATH_MAX];
  if (realpath(a, ra) && realpath(b, rb)) return strcmp(ra, rb) == 0;
  return false;
}

static void add_note(wl_finding *f, unsigned line, unsigned column, char *text) {
  if (f->note_count >= 4) { free(text); return; }
  f->note_line[f->note_count] = line;
  f->note_column[f->note_count] = column;
  f->notes[f->note_count++] = text;
}

static bool shared_rule(const wl_finding *f) { return f->space && strcmp(f->space, "shared") == 0; }

static bool flagged(double total, double ideal, double inst) {
  return inst >= MIN_INST && ideal > 0 && total - ideal >= MIN_EXCESS * ideal;
}

static void file_note(wl_file_result *r, char *text) {
  if (r->note_count == r->note_cap) {
    r->note_cap = r->note_cap ? 2 * r->note_cap : 8;
    r->notes = realloc(r->notes, r->note_cap * sizeof *r->notes);
  }
  r->notes[r->note_count++] = text;
}

void wl_verify_attach(wl_file_result *results, size_t count, const wl_measurement *m) {
  /* each measured line's file, resolved once against the checked files */
  long *owner = malloc((m->count + 1) * sizeof *owner);
  for (size_t i = 0; i < m->count; i++) {
    owner[i] = -1;
    for (size_t r = 0; r < count && owner[i] < 0; r++)
      if (same_file(m->lines[i].file, results[r].path)) owner[i] = (long)r;
  }
  bool *explained = calloc(m->count + 1, 1);
  for (size_t r = 0; r < count; r++) {
    wl_file_result *res = &results[r];
    for (size_t k = 0; k < res->finding_count; k++) {
      wl_finding *f = &res->findings[k];
      bool sh = shared_rule(f);
      double tot = 0, ideal = 0, inst = 0, minst = 0, kexcess = 0;
      const char *kern = NULL;
      for (size_t i = 0; i < m->count; i++) {
        if (owner[i] != (long)r || m->lines[i].line != f->line) continue;
        const wl_measured_line *l = &m->lines[i];
        tot += sh ? l->wavefronts : l->sectors;
        ideal += sh ? l->wavefronts_ideal : l->sectors_ideal;
        inst += l->inst;
        minst += sh ? l->shared_inst : l->global_inst;
        explained[i] = true;
        kern = l->kernel;
      }
      if (inst <= 0) {
        f->measured = "not executed";
        f->measured_kernel_share = -1;
        add_note(f, f->line, f->column, wl_strdup("measured: this line did not run (no instruction of it executed)"));
        continue;
      }
      for (size_t i = 0; kern && i < m->count; i++) {
        const wl_measured_line *l = &m->lines[i];
        if (strcmp(l->kernel, kern) != 0) continue;
        double t = sh ? l->wavefronts : l->sectors, id = sh ? l->wavefronts_ideal : l->sectors_ideal;
        if (t > id) kexcess += t - id;
      }
      f->measured = "measured";
      f->measured_unit = sh ? "wavefronts" : "sectors";
      f->measured_total = tot;
      f->measured_ideal = ideal;
      f->measured_inst = minst;
      f->measured_excess_pct = tot > 0 ? 100.0 * (tot - ideal) / tot : 0;
      f->measured_kernel_share = kexcess > 0 ? 100.0 * (tot - ideal) / kexcess : -1;
      if (f->space && strcmp(f->space, "constant") == 0)
        add_note(f, f->line, f->column,
                 wl_format("measured: %.0f warp instructions ran on this line; Nsight Compute's source counters "
                           "have no per-line constant-cache counter", inst));
      else if (strcmp(f->rule, "G_2") == 0 && tot > 0 && minst > 0)
        add_note(f, f->line, f->column,
                 wl_format("measured: %.2f sectors per global request on this line (%.0f sectors, %.0f requests; "
                           "a warp of 4-byte elements needs 4)", tot / minst, tot, minst));
      else if (tot <= 0)
        add_note(f, f->line, f->column,
                 wl_format("measured: no %s %s on this line (%.0f warp instructions ran)", sh ? "shared" : "global",
                           f->measured_unit, inst));
      else if (f->measured_kernel_share >= 0 && tot > ideal)
        add_note(f, f->line, f->column,
                 wl_format("measured: %.0f%% of this line's %s are excess (%.0f of %.0f); this line is %.0f%% of the kernel's excess %s",
                           f->measured_excess_pct, f->measured_unit, tot - ideal, tot, f->measured_kernel_share, f->measured_unit));
      else
        add_note(f, f->line, f->column,
                 wl_format("measured: %.0f%% of this line's %s are excess (%.0f of %.0f)", f->measured_excess_pct,
                           f->measured_unit, tot > ideal ? tot - ideal : 0, tot));
    }
  }
  /* lines the hardware flags that no finding explains */
  for (size_t i = 0; i < m->count; i++) {
    const wl_measured_line *l = &m->lines[i];
    if (owner[i] < 0 || explained[i]) continue;
    const char *what = NULL;
    double t = 0, id = 0;
    if (flagged(l->sectors, l->sectors_ideal, l->global_inst)) { what = "sectors"; t = l->sectors; id = l->sectors_ideal; }
    else if (flagged(l->wavefronts, l->wavefronts_ideal, l->shared_inst)) { what = "wavefronts"; t = l->wavefronts; id = l->wavefronts_ideal; }
    if (!what) continue;
    file_note(&results[owner[i]],
              wl_format("%s:%u:1: note: measured, not explained by any check: %.0f%% of this line's %s %s are excess (%.0f of %.0f) in kernel '%s'",
                        results[owner[i]].path, l->line, 100.0 * (t - id) / t,
                        strcmp(what, "sectors") == 0 ? "global" : "shared", what, t - id, t, l->kernel));
  }
  free(owner);
  free(explained);
}

void wl_verify_caption(const wl_finding *f, char *buf, size_t size) {
  if (!f->measured) snprintf(buf, size, "%s", "");
  else if (strcmp(f->measured, "measured") != 0) snprintf(buf, size, "measured: %s", f->measured);
  else if (f->measured_total <= 0) snprintf(buf, size, "measured: no %s on this line", f->measured_unit);
  else
    snprintf(buf, size, "measured: %.0f%% of this line's %.0f %s are excess", f->measured_excess_pct,
             f->measured_total, f->measured_unit);
}

void wl_measurement_free(wl_measurement *m) {
  for (size_t i = 0; i < m->count; i++) { free(m->lines[i].file); free(m->lines[i].kernel); }
  free(m->lines);
  if (m->workdir) free(m->workdir);
  memset(m, 0, sizeof *m);
}

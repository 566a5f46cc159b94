/* Helpers the warplint tests share (see wl_test_util.h). */
#include "wl_test_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

char *wl_test_format(const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, copy);
  va_end(copy);
  return s;
}

char *wl_test_run(const char *cmd, int *status) {
  FILE *p = popen(cmd, "r");
  if (!p) { *status = -1; return NULL; }
  size_t cap = 1 << 16, used = 0;
  char *out = malloc(cap);
  size_t got;
  while ((got = fread(out + used, 1, cap - used - 1, p)) > 0) {
    used += got;
    if (used + 1 == cap) out = realloc(out, cap *= 2);
  }
  out[used] = 0;
  int rc = pclose(p);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

json_value *wl_test_run_json(const char *cmd, int *status) {
  char *out = wl_test_run(cmd, status);
  if (!out) return NULL;
  char err[256];
  json_value *doc = json_parse(out, strlen(out), err, sizeof err);
  if (!doc) fprintf(stderr, "not JSON (%s) from: %s\n%.400s\n", err, cmd, out);
  free(out);
  return doc;
}

bool wl_test_write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(text, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

static char *report_path(const char *name) {
  const char *dir = getenv("WL_TEST_REPORTS");
  return dir && *dir ? wl_test_format("%s/%s", dir, name) : NULL;
}

void wl_test_forget_report(const char *name) {
  char *path = report_path(name);
  if (path) remove(path);
  free(path);
}

void wl_test_save_report(const char *name, const char *text) {
  char *path = report_path(name);
  if (!path || !text) { free(path); return; }
  mkdir(getenv("WL_TEST_REPORTS"), 0777);   /* one level: its parent is the test's build folder */
  if (!wl_test_write_file(path, text, strlen(text))) fprintf(stderr, "cannot write %s\n", path);
  free(path);
}

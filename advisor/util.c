/* String and file helpers for warplint. */
#include "warplint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *p) {
  if (!p) {
    fputs("warplint: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

char *wl_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(checked(malloc(n)), s, n);
}

char *wl_format(const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = checked(malloc((size_t)(n > 0 ? n : 0) + 1));
  vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, copy);
  va_end(copy);
  return s;
}

/* Whole file, NUL-terminated; NULL with errno set on failure. */
char *wl_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, used = 0;
  char *buf = checked(malloc(cap));
  for (;;) {
    size_t got = fread(buf + used, 1, cap - used - 1, f);
    used += got;
    if (got == 0) break;
    if (used + 1 == cap) buf = checked(realloc(buf, cap *= 2));
  }
  bool failed = ferror(f) != 0;
  fclose(f);
  if (failed) { free(buf); return NULL; }
  buf[used] = 0;
  *len = used;
  return buf;
}

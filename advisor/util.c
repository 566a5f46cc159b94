/* String helpers for warplint. */
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

bool wl_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
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


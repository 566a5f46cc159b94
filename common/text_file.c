#include "text_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *read_text_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, used = 0;
  char *buf = malloc(cap);
  while (buf) {
    used += fread(buf + used, 1, cap - used - 1, f);
    if (used + 1 < cap) break; /* short read: end of file or an error */
    char *bigger = realloc(buf, cap *= 2);
    if (!bigger) free(buf);
    buf = bigger;
  }
  int read_error = ferror(f);
  fclose(f);
  if (!buf) {
    errno = ENOMEM;
    return NULL;
  }
  if (read_error) {
    free(buf);
    errno = EIO;
    return NULL;
  }
  buf[used] = '\0';
  *len = used;
  return buf;
}

/* --fix: applies a file's fix-its in place. The new text goes to a temporary
 * file that is renamed over the original, so a failure never leaves a
 * half-written source; a file that failed to parse is never touched. */
#include "warplint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct edit { size_t offset, length; const char *replacement; } edit;

static int by_offset_asc(const void *a, const void *b) {
  const edit *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : 0;
}

static bool offset_of(const char *text, size_t len, unsigned line, unsigned column, size_t *out) {
  size_t pos = 0;
  for (unsigned l = 1; l < line; l++) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    if (!nl) return false;
    pos = (size_t)(nl - text) + 1;
  }
  pos += column - 1;
  if (pos > len) return false;
  *out = pos;
  return true;
}

static int write_file(const char *path, const char *data, size_t len) {
  char *tmp = wl_format("%s.warplint-tmp", path);
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
    remove(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* Returns how many edits it made (fix-its that repeat another, or overlap
 * one before them, count once or not at all), or -1 when the file could not
 * be read or rewritten. */
int wl_apply_fixes(const wl_file_result *r, bool backup) {
  if (r->failed) return 0;
  size_t total = 0;
  for (size_t i = 0; i < r->finding_count; i++) total += (size_t)r->findings[i].fix_count;
  if (total == 0) return 0;
  size_t len;
  char *text = read_text_file(r->path, &len);
  if (!text) {
    fprintf(stderr, "%s: error: cannot read for --fix: %s\n", r->path, strerror(errno));
    return -1;
  }
  edit *edits = calloc(total, sizeof *edits);
  size_t n = 0;
  for (size_t i = 0; i < r->finding_count; i++) {
    for (int k = 0; k < r->findings[i].fix_count; k++) {
      const wl_fix *fx = &r->findings[i].fixes[k];
      edit e = {0, fx->length, fx->replacement};
      if (!offset_of(text, len, fx->line, fx->column, &e.offset) || e.offset + e.length > len) continue;
      bool duplicate = false;
      for (size_t j = 0; j < n; j++)
        duplicate |= edits[j].offset == e.offset && edits[j].length == e.length;
      if (!duplicate) edits[n++] = e;
    }
  }
  qsort(edits, n, sizeof *edits, by_offset_asc);
  size_t out_len = len;
  for (size_t j = 0; j < n; j++) out_len += strlen(edits[j].replacement);
  char *out = malloc(out_len + 1);
  size_t from = 0, used = 0;
  int applied = 0;
  for (size_t j = 0; out && j < n; j++) {
    if (edits[j].offset < from) continue;  /* overlaps the previous edit: skip it */
    applied++;
    memcpy(out + used, text + from, edits[j].offset - from);
    used += edits[j].offset - from;
    size_t rl = strlen(edits[j].replacement);
    memcpy(out + used, edits[j].replacement, rl);
    used += rl;
    from = edits[j].offset + edits[j].length;
  }
  if (out) {
    memcpy(out + used, text + from, len - from);
    used += len - from;
  }
  int rc = 0;
  if (backup) {
    char *orig = wl_format("%s.orig", r->path);
    rc = write_file(orig, text, len);
    free(orig);
  }
  if (!out) rc = -1;
  if (rc == 0) rc = write_file(r->path, out, used);
  free(out);
  free(edits);
  free(text);
  return rc == 0 ? applied : -1;
}

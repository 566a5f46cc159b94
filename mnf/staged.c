/* All-or-nothing output files (see staged.h). */
#define _POSIX_C_SOURCE 200809L

#include "staged.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void staged_init(staged_files *s) { memset(s, 0, sizeof *s); }

FILE *staged_open(staged_files *s, const char *final_path)
{
  if (s->count == STAGED_MAX_FILES || strlen(final_path) >= STAGED_PATH_MAX) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  char *temp = s->temp_path[s->count];
  snprintf(temp, sizeof s->temp_path[0], "%s.tmp.XXXXXX", final_path);
  int fd = mkstemp(temp);
  if (fd < 0) return NULL;
  fchmod(fd, 0644); /* mkstemp makes it private; images are meant to be shared */
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    int saved = errno;
    close(fd);
    unlink(temp);
    errno = saved;
    return NULL;
  }
  snprintf(s->final_path[s->count], sizeof s->final_path[0], "%s", final_path);
  s->count++;
  return f;
}

int staged_name(staged_files *s, const char *final_path, char *temp, size_t temp_size)
{
  FILE *f = staged_open(s, final_path);
  if (!f) return -1;
  fclose(f);
  /* The writer replaces the empty file; it stays registered. */
  return snprintf(temp, temp_size, "%s", s->temp_path[s->count - 1]) < (int)temp_size ? 0 : -1;
}

int staged_adopt(staged_files *s, const char *temp_path, const char *final_path)
{
  if (s->count == STAGED_MAX_FILES || strlen(final_path) >= STAGED_PATH_MAX || strlen(temp_path) >= STAGED_PATH_MAX)
    return -1;
  snprintf(s->temp_path[s->count], sizeof s->temp_path[0], "%s", temp_path);
  snprintf(s->final_path[s->count], sizeof s->final_path[0], "%s", final_path);
  s->count++;
  return 0;
}

int staged_close(FILE *f)
{
  int bad = ferror(f);
  if (fclose(f) != 0) bad = 1;
  return bad ? -1 : 0;
}

void staged_abort(staged_files *s)
{
  for (int i = 0; i < s->count; i++) unlink(s->temp_path[i]);
  s->count = 0;
}

int staged_commit(staged_files *s, char *err, size_t err_size)
{
  for (int i = 0; i < s->count; i++) {
    if (rename(s->temp_path[i], s->final_path[i]) == 0) continue;
    if (err && err_size)
      snprintf(err, err_size, "%s: cannot write: %s; nothing written", s->final_path[i], strerror(errno));
    for (int j = 0; j < i; j++) unlink(s->final_path[j]);
    for (int j = i; j < s->count; j++) unlink(s->temp_path[j]);
    s->count = 0;
    return -1;
  }
  s->count = 0;
  return 0;
}

/* Output files written all or nothing. Each file is written to a temporary
 * file beside its final name; staged_commit renames them all into place,
 * or, when any step failed, removes every temporary and every file it had
 * already renamed, so a run leaves either all of its outputs or none. */
#ifndef MNF_STAGED_H
#define MNF_STAGED_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STAGED_MAX_FILES 8
#define STAGED_PATH_MAX 4096

typedef struct staged_files {
  int count;
  char final_path[STAGED_MAX_FILES][STAGED_PATH_MAX];
  char temp_path[STAGED_MAX_FILES][STAGED_PATH_MAX + 16];
} staged_files;

void staged_init(staged_files *s);
/* A temporary file (mode 0644) that staged_commit renames to final_path.
 * NULL with errno set on failure. */
FILE *staged_open(staged_files *s, const char *final_path);
/* A temporary name beside final_path (into temp, temp_size bytes) for a
 * writer that makes its own file (GDAL): registered like staged_open's, so
 * staged_commit renames it and staged_abort removes it. 0, or -1. */
int staged_name(staged_files *s, const char *final_path, char *temp, size_t temp_size);
/* Registers a temporary file another writer made (temp_path), to be
 * renamed to final_path; 0, or -1 when the set is full. */
int staged_adopt(staged_files *s, const char *temp_path, const char *final_path);
/* Closes f, which staged_open returned; -1 if anything written to it was
 * lost (ferror, or a failing close: a full disk shows here). */
int staged_close(FILE *f);
/* Renames every staged file into place: 0, or -1 with err naming the file
 * that failed and nothing of the set left behind. */
int staged_commit(staged_files *s, char *err, size_t err_size);
/* Removes every temporary file (after a failure elsewhere). */
void staged_abort(staged_files *s);

#ifdef __cplusplus
}
#endif

#endif

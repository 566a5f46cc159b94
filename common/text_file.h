/* Reading a whole file into memory: JSON documents, source files, READMEs. */
#ifndef WARPMEM_TEXT_FILE_H
#define WARPMEM_TEXT_FILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole file, NUL-terminated (the content may hold NULs of its own: *len
 * says how much was read). NULL with errno set when it cannot be opened or
 * read; the caller frees the result. */
char *read_text_file(const char *path, size_t *len);

#ifdef __cplusplus
}
#endif

#endif

/* A streaming JSON writer: objects, arrays, strings (escaped), numbers.
 * It tracks commas itself, so callers only say what comes next. Used for the
 * benchmark result lines, GPU profiles and warplint's JSON and SARIF output. */
#ifndef WARPMEM_JSON_WRITER_H
#define WARPMEM_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jsonw {
  FILE *out;
  int depth;
  bool need_comma[JSONW_MAX_DEPTH];
  bool after_key;   /* a key was written; the value follows without a comma */
  bool pretty;      /* newline + indent per member (profiles, SARIF) */
} jsonw;

void jsonw_init(jsonw *w, FILE *out, bool pretty);
void jsonw_object_begin(jsonw *w);
void jsonw_object_end(jsonw *w);
void jsonw_array_begin(jsonw *w);
void jsonw_array_end(jsonw *w);
void jsonw_key(jsonw *w, const char *key);
void jsonw_string(jsonw *w, const char *s); /* NULL writes null */
void jsonw_number(jsonw *w, double x);      /* NaN and infinities write null */
void jsonw_int(jsonw *w, long long x);
void jsonw_bool(jsonw *w, bool b);
void jsonw_null(jsonw *w);

/* Writes s as a JSON string literal with quotes, escaping what JSON requires. */
void json_write_escaped(FILE *out, const char *s);

#ifdef __cplusplus
}
#endif

#endif

/* The JSON writer: callers say what comes next (begin an object, a key, a
 * number, ...) and json-c builds the document, which is written to the file,
 * escaped and laid out, when its outermost value ends. Numbers keep the
 * project's format, "%.9g". Used for the benchmark result lines, GPU
 * profiles, MNF reports and warplint's JSON and SARIF output. */
#ifndef WARPMEM_JSON_WRITER_H
#define WARPMEM_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

#ifdef __cplusplus
extern "C" {
#endif

struct json_object;  /* json-c's; its header stays out of the callers' */

typedef struct jsonw {
  FILE *out;
  bool pretty;      /* newline + two-space indent per member (profiles, SARIF) */
  int depth;        /* containers begun and not yet ended */
  struct json_object *open[JSONW_MAX_DEPTH];  /* those containers, outermost first */
  char *key;        /* the key the next value goes under, or NULL */
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

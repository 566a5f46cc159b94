#define _POSIX_C_SOURCE 200809L /* strdup */
#include "json_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

static json_object *made(json_object *o) {
  if (!o) abort();  /* out of memory, as in json_reader.c */
  return o;
}

void jsonw_init(jsonw *w, FILE *out, bool pretty) {
  w->out = out;
  w->pretty = pretty;
  w->depth = 0;
  w->key = NULL;
}

static void write_document(jsonw *w, json_object *doc) {
  int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
              (w->pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
  size_t len;
  const char *text = json_object_to_json_string_length(doc, flags, &len);
  fwrite(text, 1, len, w->out);
}

/* Every value goes here: under the pending key, at the end of the open
 * array, or, outside any container, straight to the file. */
static void add(jsonw *w, json_object *value) {
  if (w->depth == 0) {
    write_document(w, value);
    json_object_put(value);
    return;
  }
  json_object *parent = w->open[w->depth - 1];
  if (json_object_is_type(parent, json_type_object)) {
    json_object_object_add(parent, w->key ? w->key : "", value);
    free(w->key);
    w->key = NULL;
  } else {
    json_object_array_add(parent, value);
  }
}

static void begin(jsonw *w, json_object *container) {
  if (w->depth == JSONW_MAX_DEPTH) abort();  /* a bug in the caller: no document of ours nests so deep */
  if (w->depth > 0) add(w, container);  /* the parent now owns it; the top one is freed in end() */
  w->open[w->depth++] = container;
}

/* json-c's pretty layout puts a newline inside an empty container; ours has none. */
static int write_empty(json_object *o, struct printbuf *pb, int level, int flags) {
  (void)level, (void)flags;
  return printbuf_memappend(pb, json_object_is_type(o, json_type_object) ? "{}" : "[]", 2);
}

static void end(jsonw *w) {
  if (w->depth == 0) return;
  json_object *container = w->open[--w->depth];
  bool empty = json_object_is_type(container, json_type_object) ? json_object_object_length(container) == 0
                                                                 : json_object_array_length(container) == 0;
  if (empty) json_object_set_serializer(container, write_empty, NULL, NULL);
  if (w->depth == 0) {
    write_document(w, container);
    json_object_put(container);
    free(w->key);  /* a key with no value after it is dropped */
    w->key = NULL;
  }
}

void jsonw_object_begin(jsonw *w) { begin(w, made(json_object_new_object())); }
void jsonw_object_end(jsonw *w) { end(w); }
void jsonw_array_begin(jsonw *w) { begin(w, made(json_object_new_array())); }
void jsonw_array_end(jsonw *w) { end(w); }

void jsonw_key(jsonw *w, const char *key) {
  free(w->key);
  w->key = strdup(key);
  if (!w->key) abort();
}

void json_write_escaped(FILE *out, const char *s) {
  json_object *string = made(json_object_new_string(s));
  fputs(json_object_to_json_string_ext(string, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), out);
  json_object_put(string);
}

void jsonw_string(jsonw *w, const char *s) {
  add(w, s ? made(json_object_new_string(s)) : NULL);
}

void jsonw_number(jsonw *w, double x) {
  if (!isfinite(x)) {
    jsonw_null(w);
    return;
  }
  char text[32];
  snprintf(text, sizeof text, "%.9g", x);
  add(w, made(json_object_new_double_s(x, text)));
}

void jsonw_int(jsonw *w, long long x) {
  add(w, made(json_object_new_int64(x)));
}

void jsonw_bool(jsonw *w, bool b) {
  add(w, made(json_object_new_boolean(b)));
}

void jsonw_null(jsonw *w) {
  add(w, NULL);  /* json-c's null */
}

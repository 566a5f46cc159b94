#include "json_reader.h"
#include "text_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* Deeper nesting than this is refused rather than risking the C stack
 * (json-c's tokener counts it; the conversion below recurses as deep). */
#define JSON_MAX_NESTING 200

static void *checked(void *p) {
  if (!p) abort();  /* out of memory: as everywhere in this library */
  return p;
}

static json_value *new_value(json_kind type) {
  json_value *v = checked(calloc(1, sizeof *v));
  v->type = type;
  return v;
}

static char *copy_bytes(const char *s, size_t n) {
  char *copy = checked(malloc(n + 1));
  memcpy(copy, s, n);
  copy[n] = '\0';
  return copy;
}

/* json-c's tree, as the plain tree callers walk (json-c's null is NULL). */
static json_value *convert(json_object *o) {
  switch (json_object_get_type(o)) {
  case json_type_null:
    return new_value(JSON_NULL);
  case json_type_boolean: {
    json_value *v = new_value(JSON_BOOL);
    v->boolean = json_object_get_boolean(o);
    return v;
  }
  case json_type_int:
  case json_type_double: {
    json_value *v = new_value(JSON_NUMBER);
    v->number = json_object_get_double(o);
    return v;
  }
  case json_type_string: {
    json_value *v = new_value(JSON_STRING);
    v->string = copy_bytes(json_object_get_string(o), (size_t)json_object_get_string_len(o));
    return v;
  }
  case json_type_array: {
    json_value *v = new_value(JSON_ARRAY);
    v->count = json_object_array_length(o);
    v->items = checked(calloc(v->count + 1, sizeof *v->items));
    for (size_t i = 0; i < v->count; i++) v->items[i] = convert(json_object_array_get_idx(o, i));
    return v;
  }
  case json_type_object: {
    json_value *v = new_value(JSON_OBJECT);
    size_t n = (size_t)json_object_object_length(o);
    v->keys = checked(calloc(n + 1, sizeof *v->keys));
    v->items = checked(calloc(n + 1, sizeof *v->items));
    json_object_object_foreach(o, key, member) {
      v->keys[v->count] = copy_bytes(key, strlen(key));
      v->items[v->count++] = convert(member);
    }
    return v;
  }
  }
  abort();  /* json-c has no other type */
}

/* "line L, column C: what", both counted from 1 (columns in bytes). */
static void report(char *err, size_t err_size, const char *text, size_t len, size_t pos,
                   const char *what) {
  int line = 1, column = 1;
  for (size_t i = 0; i < pos && i < len; i++) {
    if (text[i] == '\n') { line++; column = 1; } else column++;
  }
  snprintf(err, err_size, "line %d, column %d: %s", line, column, what);
}

json_value *json_parse(const char *text, size_t len, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  if (len > INT_MAX - 1) {  /* json-c takes an int length */
    snprintf(err, err_size, "document of %zu bytes is too large", len);
    return NULL;
  }
  json_tokener *tok = checked(json_tokener_new_ex(JSON_MAX_NESTING));
  json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
  json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
  enum json_tokener_error error = json_tokener_get_error(tok);
  size_t end = json_tokener_get_parse_end(tok);
  if (error == json_tokener_continue) {
    /* All input used and the value not done: a NUL tells json-c the input
     * ended, which completes a top-level number and fails anything else. */
    doc = json_tokener_parse_ex(tok, "", 1);
    error = json_tokener_get_error(tok);
    end = len;
  }
  json_tokener_free(tok);
  if (error != json_tokener_success) {
    report(err, err_size, text, len, end,
           error == json_tokener_error_parse_eof ? "unexpected end of input" : json_tokener_error_desc(error));
    return NULL;
  }
  while (end < len && strchr(" \t\r\n", text[end]) && text[end]) end++;
  if (end < len) {  /* e.g. a NUL after the document, which ends json-c's input */
    json_object_put(doc);
    report(err, err_size, text, len, end, "trailing characters after the document");
    return NULL;
  }
  json_value *v = convert(doc);
  json_object_put(doc);
  return v;
}

json_value *json_parse_file(const char *path, char *err, size_t err_size) {
  size_t len;
  char *text = read_text_file(path, &len);
  if (!text) {
    snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
    return NULL;
  }
  char msg[256];
  json_value *v = json_parse(text, len, msg, sizeof msg);
  free(text);
  if (!v) snprintf(err, err_size, "%s: %s", path, msg);
  return v;
}

void json_free(json_value *v) {
  if (!v) return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
  free(v);
}

const json_value *json_get(const json_value *object, const char *key) {
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; i++)
    if (strcmp(object->keys[i], key) == 0) return object->items[i];
  return NULL;
}

const json_value *json_path(const json_value *root, const char *dotted) {
  const json_value *v = root;
  char key[128];
  while (v && *dotted) {
    size_t n = strcspn(dotted, ".");
    if (n >= sizeof key) return NULL;
    memcpy(key, dotted, n);
    key[n] = '\0';
    v = json_get(v, key);
    dotted += n;
    if (*dotted == '.') dotted++;
  }
  return v;
}

const json_value *json_at(const json_value *array, size_t index) {
  if (!array || (array->type != JSON_ARRAY && array->type != JSON_OBJECT) || index >= array->count)
    return NULL;
  return array->items[index];
}

double json_number_or(const json_value *v, double fallback) {
  return v && v->type == JSON_NUMBER ? v->number : fallback;
}

const char *json_string_or(const json_value *v, const char *fallback) {
  return v && v->type == JSON_STRING ? v->string : fallback;
}

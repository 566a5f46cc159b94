/* The JSON reader: parses a whole document (with json-c) into a plain tree
 * that callers walk directly. Used to load GPU profiles and rule data, and by
 * tests that check the JSON the tools write. Errors come back as
 * "line L, column C: what" in the caller's buffer. */
#ifndef WARPMEM_JSON_READER_H
#define WARPMEM_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Not json_type: json-c declares that name, and json_reader.c includes both. */
typedef enum json_kind {
  JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} json_kind;

typedef struct json_value json_value;
struct json_value {
  json_kind type;
  bool boolean;
  double number;
  char *string;          /* JSON_STRING: UTF-8, NUL-terminated */
  size_t count;          /* JSON_ARRAY / JSON_OBJECT: number of members */
  char **keys;           /* JSON_OBJECT: member names, in document order */
  json_value **items;    /* JSON_ARRAY / JSON_OBJECT: member values */
};

/* Parses text[0..len-1]; NULL on error with a message in err. */
json_value *json_parse(const char *text, size_t len, char *err, size_t err_size);
/* Reads and parses a file; the message names the file. */
json_value *json_parse_file(const char *path, char *err, size_t err_size);
void json_free(json_value *v);

/* Lookups that tolerate NULL and wrong types, returning NULL / the default. */
const json_value *json_get(const json_value *object, const char *key);
/* Follows a dotted path of object keys, e.g. "latency.shared.cycles". */
const json_value *json_path(const json_value *root, const char *dotted);
const json_value *json_at(const json_value *array, size_t index);
double json_number_or(const json_value *v, double fallback);
const char *json_string_or(const json_value *v, const char *fallback);

#ifdef __cplusplus
}
#endif

#endif

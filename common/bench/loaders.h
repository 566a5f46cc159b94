/* One load (parse into the library's tree, then free it) with each candidate
 * library. Each lives in its own file: jansson's and json-c's headers declare
 * the same names (json_type, json_object) and cannot meet in one. */
#ifndef WARPMEM_BENCH_LOADERS_H
#define WARPMEM_BENCH_LOADERS_H

#include <stdbool.h>
#include <stddef.h>

/* Each returns false when the document did not parse. */
typedef bool (*load_fn)(const char *text, size_t len);

bool load_json_c(const char *text, size_t len);
bool load_jansson(const char *text, size_t len);
bool load_cjson(const char *text, size_t len);

/* The version each library reports at run time. */
const char *json_c_library_version(void);
const char *jansson_library_version(void);
const char *cjson_library_version(void);

#endif

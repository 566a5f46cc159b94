#include "loaders.h"

#include <jansson.h>

bool load_jansson(const char *text, size_t len) {
  json_error_t error;
  json_t *v = json_loadb(text, len, 0, &error);
  json_decref(v);
  return v != NULL;
}

const char *jansson_library_version(void) { return jansson_version_str(); }

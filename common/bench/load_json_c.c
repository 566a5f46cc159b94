#include "loaders.h"

#include <json-c/json.h>

bool load_json_c(const char *text, size_t len) {
  json_tokener *tok = json_tokener_new();
  json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
  json_object *v = json_tokener_parse_ex(tok, text, (int)len);
  json_tokener_free(tok);
  json_object_put(v);
  return v != NULL;
}

const char *json_c_library_version(void) { return json_c_version(); }

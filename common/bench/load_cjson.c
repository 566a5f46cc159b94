#include "loaders.h"

#include <cJSON.h>

bool load_cjson(const char *text, size_t len) {
  cJSON *v = cJSON_ParseWithLength(text, len);
  cJSON_Delete(v);
  return v != NULL;
}

const char *cjson_library_version(void) { return cJSON_Version(); }

/* libFuzzer target: the ENVI header parser (envi_parse_header) and the
 * completion of a parsed header must return cleanly on any bytes: no
 * crash, no leak, no read out of bounds (built with AddressSanitizer and
 * UndefinedBehaviorSanitizer by fuzz_envi_header.sh). */
#include <stddef.h>
#include <stdint.h>

#include "envi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  envi_header h;
  char err[256];
  if (envi_parse_header((const char *)data, size, "fuzz.hdr", &h, err, sizeof err) == 0) {
    envi_assume assume = {ENVI_BIL, 1};
    envi_header_complete(&h, "fuzz.hdr", size % 2 ? &assume : NULL, err, sizeof err);
  }
  envi_header_free(&h);
  return 0;
}

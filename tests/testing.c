#include "testing.h"

#include <stdarg.h>
#include <stdlib.h>

int test_passed, test_failed;

void test_fail(const char *file, int line, const char *fmt, ...) {
  test_failed++;
  fprintf(stderr, "%s:%d: FAILED: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int test_summary(void) {
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}

const char *test_source_dir(void) { return WARPMEM_SOURCE_DIR; }

int test_small_sizes(void) {
  static int small = -1;
  if (small < 0) {
    const char *value = getenv("WARPMEM_TEST_SMALL");
    small = value && *value && strcmp(value, "0") != 0;
    if (small) printf("small sizes, no timing claims (WARPMEM_TEST_SMALL)\n");
  }
  return small;
}

#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "testing.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

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

void test_progress(const char *fmt, ...) {
  if (!test_small_sizes()) return;
  static struct timespec start;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (start.tv_sec == 0 && start.tv_nsec == 0) start = now;
  printf("[%7.1f s] ", (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec));
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

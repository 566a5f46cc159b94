/* A minimal test harness: CHECK macros that count, and a summary line in the
 * form CI reads ("N passed, N failed"). Each test file has a main() that
 * calls its test functions and returns test_summary(). */
#ifndef WARPMEM_TESTING_H
#define WARPMEM_TESTING_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int test_passed, test_failed;

void test_fail(const char *file, int line, const char *fmt, ...);
/* Prints "N passed, N failed" and returns the process exit status. */
int test_summary(void);
/* Directory of the source tree, for fixtures (set by CMake). */
const char *test_source_dir(void);
/* True when WARPMEM_TEST_SMALL is set (and not "0"): GPU tests then keep
 * to small sizes and leave out timing claims, because under
 * compute-sanitizer (scripts/gpu-check.sh --sanitize) kernels run 10 to
 * 1000 times slower, and unevenly. Prints a line saying so, once. */
int test_small_sizes(void);
/* With WARPMEM_TEST_SMALL: a line "[SECONDS s] what", the time since the
 * first such line, so that a sanitizer log stopped by its time limit shows
 * how far the test got and what took long. Silent otherwise. */
void test_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define CHECK(cond)                                                   \
  do {                                                                \
    if (cond) test_passed++;                                          \
    else test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);           \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                         \
  do {                                                                \
    double a_ = (a), b_ = (b);                                        \
    if (fabs(a_ - b_) <= (tol)) test_passed++;                        \
    else test_fail(__FILE__, __LINE__, "%s = %.9g, expected %.9g (tol %g)", #a, a_, b_, (double)(tol)); \
  } while (0)

#define CHECK_STR(a, b)                                               \
  do {                                                                \
    const char *a_ = (a), *b_ = (b);                                  \
    if (a_ && b_ && strcmp(a_, b_) == 0) test_passed++;               \
    else test_fail(__FILE__, __LINE__, "%s = \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif

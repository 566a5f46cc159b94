/* Helpers the warplint tests share: run a command and capture its output. */
#ifndef WL_TEST_UTIL_H
#define WL_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "json_reader.h"

char *wl_test_format(const char *fmt, ...);
/* Runs cmd through the shell; returns its stdout (malloc'd) and exit status. */
char *wl_test_run(const char *cmd, int *status);
/* Runs cmd and parses its stdout as JSON (NULL if it is not JSON). */
json_value *wl_test_run_json(const char *cmd, int *status);
bool wl_test_write_file(const char *path, const char *text, size_t len);
/* A JSON report kept for a later test (test_warplint_fixits reads which
 * files drew fix-its from them): written as $WL_TEST_REPORTS/NAME when that
 * is set. wl_test_forget_report removes it first, so that a run that stops
 * early leaves no report of an earlier run behind. */
void wl_test_forget_report(const char *name);
void wl_test_save_report(const char *name, const char *text);

#endif

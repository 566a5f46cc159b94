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

#endif

/* The lab's tests run the `lab` program as a student would and read what
 * it prints. */
#ifndef LAB_TEST_RUN_H
#define LAB_TEST_RUN_H

/* Runs COMMAND through the shell, stderr merged into stdout; returns the
 * output (malloc'd, never NULL) and sets *status to the exit status. */
char *lab_test_run(int *status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif

/* warplint verify: the static findings beside what the GPU measured.
 * verify.c runs the user's program under Nsight Compute's source counters
 * (the first launch of each kernel), reads the per-line counters back and
 * attaches them to the findings of the checked files. */
#ifndef WARPLINT_VERIFY_H
#define WARPLINT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "warplint.h"

/* What the hardware counted on one source line of one kernel. */
typedef struct wl_measured_line {
  char *file, *kernel;
  unsigned line;
  double inst;                      /* warp-level instructions executed on the line */
  double global_inst, shared_inst;  /* of which global / shared memory instructions */
  double sectors, sectors_ideal;    /* L2 theoretical sectors, global */
  double wavefronts, wavefronts_ideal; /* L1 wavefronts, shared */
} wl_measured_line;

typedef struct wl_measurement {
  wl_measured_line *lines;
  size_t count, cap;
  char *workdir;                    /* the report and the program's output */
} wl_measurement;

/* Runs PROGRAM (argv, NULL-terminated) under ncu. On failure prints one
 * line "warplint: error: ..." and returns 2 (no ncu, no GPU, the program or
 * ncu failed); 0 with *m filled otherwise. WARPLINT_NCU names the ncu to
 * run (default: ncu on PATH). */
int wl_verify_measure(char *const *program, wl_measurement *m);

/* Parses the CSV of `ncu --import R --page source --csv --print-source
 * cuda,sass` into m (exposed for the tests). Returns the lines read. */
size_t wl_verify_parse_csv(const char *text, wl_measurement *m);

/* Adds to every finding of results what was measured on its line (a note,
 * and the measured_* fields), marks findings on lines that never ran, and
 * adds a file note for each line the hardware flags that no finding
 * explains (excess >= 25% of the ideal on a line executed >= 1,000 times). */
void wl_verify_attach(wl_file_result *results, size_t count, const wl_measurement *m);

/* "measured: 78% of this line's sectors are excess (...)" or "measured:
 * not executed" for a verified finding; "" for one that was not verified. */
void wl_verify_caption(const wl_finding *f, char *buf, size_t size);

void wl_measurement_free(wl_measurement *m);

#endif

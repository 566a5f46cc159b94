/* Machine-readable results: one JSON object per line (JSON Lines), the one
 * format every benchmark and case study writes. The schema is documented in
 * benchmarks/README.md ("Result lines"). Pure C, so tools without CUDA can
 * write and read it too. */
#ifndef WARPMEM_RESULTS_H
#define WARPMEM_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include "json_writer.h"
#include "stats.h"

#define RESULT_SCHEMA "warpmem.result/1"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct result_line {
  jsonw w;
  bool params_open;
  bool measured;
} result_line;

/* Starts a line: schema, suite, name and device ("none" when no GPU). */
void result_begin(result_line *r, FILE *out, const char *suite, const char *name,
                  const char *device);
/* Parameters of the run (sizes, configuration); all before result_measure. */
void result_param_int(result_line *r, const char *key, long long value);
void result_param_num(result_line *r, const char *key, double value);
void result_param_str(result_line *r, const char *key, const char *value);
/* The measured quantity and its statistics over the repeats. */
void result_measure(result_line *r, const char *metric, const char *unit,
                    const stats_summary *s);
/* Derived figures (GFLOP/s, GB/s, ratios), after result_measure. */
void result_derived(result_line *r, const char *key, double value);
/* Closes the object and ends the line. */
void result_end(result_line *r);

#ifdef __cplusplus
}
#endif

#endif

/* The GPU profile (benchmarks/PROFILE.md): what the suite measured on one GPU,
 * or what a paper published, plus the paper's Table 2 derived from it.
 * Plain C with no CUDA, so warplint and the CPU tests can use it too. */
#ifndef WARPMEM_PROFILE_H
#define WARPMEM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats.h"

#define PROFILE_SCHEMA "warpmem.profile/1"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profile_measurement {
  char key[96];
  char unit[16];
  char source[48];   /* transcribed values: where in the paper; "" when measured */
  double value;      /* the median when measured */
  double min, max;
  int n;             /* repeats; 0 for a transcribed value */
} profile_measurement;

/* The paper's Table 2, one row per memory: shared, constant, global, texture. */
enum { TABLE2_MEMORIES = 4 };
extern const char *const table2_memory_names[TABLE2_MEMORIES];

typedef struct table2_row {
  bool known;               /* false: the measurements it needs are missing */
  bool broadcast, parallel;
  char aligned[16];         /* "no impact", "small impact", "large impact", "N/A" */
  char consecutive[16];
} table2_row;

typedef struct profile {
  char name[256], short_name[64], arch[16], driver[16];
  char source[16];          /* "measured" or "transcribed" */
  char reference[512];
  int sm_count, sm_clock_mhz;
  long chases, chase_failures;  /* "checks": pointer chases run and wrong */
  profile_measurement *items;
  size_t count, capacity;
  table2_row table2[TABLE2_MEMORIES];
} profile;

void profile_init(profile *p);
void profile_free(profile *p);

/* Adds or replaces a measured value (median, min, max, n from s). */
void profile_set(profile *p, const char *key, const char *unit, const stats_summary *s);
/* Adds or replaces a single value (transcribed or derived): min = max = value. */
void profile_set_value(profile *p, const char *key, const char *unit, double value,
                       const char *source);
const profile_measurement *profile_find(const profile *p, const char *key);
/* The value of key, or NaN when the profile lacks it. */
double profile_value(const profile *p, const char *key);

/* Writes the profile as JSON to path through a temporary file and a rename,
 * so a failed write never leaves half a profile. False with a message. */
bool profile_write(const profile *p, const char *path, char *err, size_t err_size);
void profile_write_stream(const profile *p, FILE *out);
/* Reads a profile written by profile_write (or by hand in the same schema). */
bool profile_read(const char *path, profile *p, char *err, size_t err_size);

/* Lists on out every measurement present in both profiles whose values differ
 * by more than `tolerance` (0.05 = 5%) relative to the older one; returns how
 * many it listed. */
int profile_compare(const profile *older, const profile *newer, double tolerance, FILE *out);

#ifdef __cplusplus
}
#endif

#endif

/* What every experiment shares: the run's settings, and one call that turns
 * the raw samples of a measurement into a result line (common/results.h) and,
 * when it is one of the profile's quantities, a profile entry. */
#ifndef WARPMEM_BENCH_H
#define WARPMEM_BENCH_H

#include <stdbool.h>
#include <stdio.h>

#include "gpu.h"
#include "profile.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_ctx {
  bool quick;              /* --quick: fewer points and repeats, for the GPU test */
  bool tiny;               /* --tiny: every kernel once on the smallest sizes, for
                              compute-sanitizer; implies quick; the figures mean nothing */
  int repeats;             /* kernel launches per measured point */
  int max_sms;             /* SMs whose latencies l2_partition measures; 0: all */
  gpu_device_info dev;
  FILE *results;           /* result lines */
  profile *prof;
  const char *source_dir;  /* for data files the compile-time probes wrote */
} bench_ctx;

typedef struct bench_param {
  const char *key;
  long long value;
} bench_param;

/* Summarises samples[0..n-1], writes one result line (suite "benchmarks",
 * name `experiment`, params: label_key=label and the integer params) and,
 * when profile_key is not NULL, stores the summary under it. */
stats_summary bench_emit(bench_ctx *c, const char *experiment, const char *label_key,
                         const char *label, const bench_param *params, int nparams,
                         const char *metric, const char *unit, const double *samples, int n,
                         const char *profile_key);

/* Counts one pointer chase whose final value the host can predict; a wrong
 * value means the chase did not run as designed, and the suite fails. */
void bench_check_chase(bench_ctx *c, const char *what, long long got, long long expected);

/* Integer in [0, bound) from a fixed-seed generator (reproducible layouts). */
unsigned bench_random(unsigned bound);

/* The SM clock the GPU runs at now, in MHz, measured on the GPU (sm_clock.cu). */
double bench_sm_clock_mhz(void);

/* The experiments, one per file in experiments/. */
void exp_latency_chase(bench_ctx *c);
void exp_warp_broadcast(bench_ctx *c);
void exp_access_pattern(bench_ctx *c);
void exp_local_array(bench_ctx *c);
void exp_bank_conflict(bench_ctx *c);
void exp_datatype_bandwidth(bench_ctx *c);
void exp_cache_structure(bench_ctx *c);
void exp_onchip_bandwidth(bench_ctx *c);
void exp_l2_partition(bench_ctx *c);

#ifdef __cplusplus
}
#endif

#endif

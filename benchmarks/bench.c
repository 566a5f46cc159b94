#include "bench.h"

#include <stdlib.h>

#include "results.h"

stats_summary bench_emit(bench_ctx *c, const char *experiment, const char *label_key,
                         const char *label, const bench_param *params, int nparams,
                         const char *metric, const char *unit, const double *samples, int n,
                         const char *profile_key) {
  stats_summary s;
  stats_summarize(samples, n, &s);
  result_line r;
  result_begin(&r, c->results, "benchmarks", experiment, c->dev.name);
  if (label_key) result_param_str(&r, label_key, label);
  for (int i = 0; i < nparams; i++) result_param_int(&r, params[i].key, params[i].value);
  result_measure(&r, metric, unit, &s);
  result_end(&r);
  if (profile_key) profile_set(c->prof, profile_key, unit, &s);
  return s;
}

void bench_check_chase(bench_ctx *c, const char *what, long long got, long long expected) {
  c->prof->chases++;
  if (got == expected) return;
  c->prof->chase_failures++;
  fprintf(stderr, "warpbench: %s: chase ended at %lld, expected %lld\n", what, got, expected);
}

unsigned bench_random(unsigned bound) {
  static unsigned long long state = 0x9e3779b97f4a7c15ULL;
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned)(state % bound);
}

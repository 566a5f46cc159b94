/* Summary statistics of repeated measurements: median, min, max, mean. */
#ifndef WARPMEM_STATS_H
#define WARPMEM_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stats_summary {
  int n;          /* number of samples; 0 means "no data" and the rest is 0 */
  double median;  /* middle sample, or the mean of the two middle ones */
  double min;
  double max;
  double mean;
} stats_summary;

/* Summarises x[0..n-1]; x is not modified. */
void stats_summarize(const double *x, int n, stats_summary *out);

/* (max - min) / median: how far the repeats spread, 0 when n < 2. */
double stats_spread(const stats_summary *s);

#ifdef __cplusplus
}
#endif

#endif

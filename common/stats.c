#include "stats.h"

#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void stats_summarize(const double *x, int n, stats_summary *out) {
  memset(out, 0, sizeof *out);
  if (n <= 0) return;
  double *sorted = malloc((size_t)n * sizeof *sorted);
  if (!sorted) abort();
  memcpy(sorted, x, (size_t)n * sizeof *sorted);
  qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += sorted[i];
  out->n = n;
  out->min = sorted[0];
  out->max = sorted[n - 1];
  out->mean = sum / n;
  out->median = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  free(sorted);
}

double stats_spread(const stats_summary *s) {
  if (s->n < 2 || s->median == 0) return 0;
  return (s->max - s->min) / s->median;
}

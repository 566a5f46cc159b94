/* The serial implementation: one thread, plain loops, double accumulators.
 * It is the reference the speed-ups are measured against and the clearest
 * statement of the eight steps. It holds F and a float copy of X, so it
 * needs about 8 bytes per value of memory. */
#include "mnf_internal.h"

#include <stdlib.h>
#include <string.h>

/* C = 1/(S-1) sum_k (a_ik - mean_i)(a_jk - mean_j), equations (1) and (4). */
static void covariance(const float *a, int B, size_t S, double *mean, double *cov)
{
  for (int i = 0; i < B; i++) {
    double sum = 0.0;
    for (size_t k = 0; k < S; k++) sum += a[i * S + k];
    mean[i] = sum / (double)S;
  }
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++) {
      const float *ai = a + i * S, *aj = a + j * S;
      double sum = 0.0;
      for (size_t k = 0; k < S; k++) sum += (ai[k] - mean[i]) * (aj[k] - mean[j]);
      cov[(size_t)i * B + j] = sum / (double)(S - 1);
    }
  mnf_mirror_lower(cov, B);
}

int mnf_run_serial(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size)
{
  if (mnf_result_alloc(r, img, opt)) return mnf_fail(err, err_size, "out of memory");
  int B = img->bands, M = r->components;
  size_t S = r->pixels;
  float *f = malloc(sizeof(float) * B * S), *x = malloc(sizeof(float) * B * S);
  double *noise_mean = malloc(sizeof(double) * B), *acc = malloc(sizeof(double) * S);
  if (!f || !x || !noise_mean || !acc) {
    free(f), free(x), free(noise_mean), free(acc);
    mnf_result_free(r);
    return mnf_fail(err, err_size, "out of memory (the serial version needs %zu MB)", (size_t)B * S * 8 >> 20);
  }
  double start = mnf_now_ms(), t = start, now;

  for (int b = 0; b < B; b++) mnf_noise_rows(img, opt->noise, b, 0, img->lines, f + b * S);
  now = mnf_now_ms(), r->step_ms[0] = now - t, t = now;

  covariance(f, B, S, noise_mean, r->noise_cov);
  now = mnf_now_ms(), r->step_ms[1] = now - t, t = now;

  for (int b = 0; b < B; b++)
    for (int y = 0; y < img->lines; y++) mnf_load_row(img, b, y, x + b * S + (size_t)y * img->samples);
  covariance(x, B, S, r->band_mean, r->data_cov);
  now = mnf_now_ms(), r->step_ms[3] = now - t;

  int rc = mnf_solve(r, false, err, err_size);
  if (rc == 0) {
    t = mnf_now_ms();
    for (int m = 0; m < M; m++) {
      memset(acc, 0, sizeof(double) * S);
      for (int b = 0; b < B; b++) {
        double tbm = r->transform[(size_t)b * B + m];
        const float *xb = x + b * S;
        for (size_t k = 0; k < S; k++) acc[k] += tbm * xb[k];
      }
      for (size_t k = 0; k < S; k++) r->components_data[m * S + k] = (float)acc[k];
    }
    now = mnf_now_ms();
    r->step_ms[7] = now - t;
    r->total_ms = now - start;
    r->note = "wall clock per step, one thread; S3 and S5-S7 shared with every implementation";
  }
  free(f), free(x), free(noise_mean), free(acc);
  if (rc) mnf_result_free(r);
  return rc;
}

/* The serial implementation: one thread, plain loops, float64 throughout.
 * It is the reference the speed-ups are measured against and the clearest
 * statement of the eight steps. It holds F (double) and a float copy of X
 * (exact for every type but int32 beyond 2^24), so it needs about 12 bytes
 * per value of memory. */
#include "mnf_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* C = 1/(n-1) sum_k (a_ik - mean_i)(a_jk - mean_j) over the n pixels k
 * with use[k] (equations 1 and 4); use NULL: all S pixels. Pixels left out
 * are skipped, so their values do not matter. */
static void covariance(const float *a, const double *ad, int B, size_t S, const unsigned char *use, size_t n,
                       double *mean, double *cov)
{
#define VALUE(i, k) (a ? (double)a[(size_t)(i) * S + (k)] : ad[(size_t)(i) * S + (k)])
  for (int i = 0; i < B; i++) {
    double sum = 0.0;
    for (size_t k = 0; k < S; k++)
      if (!use || use[k]) sum += VALUE(i, k);
    mean[i] = sum / (double)n;
  }
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++) {
      double sum = 0.0;
      for (size_t k = 0; k < S; k++)
        if (!use || use[k]) sum += (VALUE(i, k) - mean[i]) * (VALUE(j, k) - mean[j]);
      cov[(size_t)i * B + j] = sum / (double)(n - 1);
    }
#undef VALUE
  mnf_mirror_lower(cov, B);
}

int mnf_run_serial(const mnf_image *img, const mnf_options *opt, const unsigned char *valid, mnf_result *r, char *err,
                   size_t err_size)
{
  if (mnf_result_alloc(r, img, opt)) return mnf_fail(err, err_size, "out of memory");
  int B = img->bands, W = img->samples, M = r->components;
  size_t S = r->pixels;
  double *f = malloc(sizeof(double) * B * S), *noise_mean = malloc(sizeof(double) * B);
  float *x = malloc(sizeof(float) * B * S);
  double *acc = malloc(sizeof(double) * S), *offset = malloc(sizeof(double) * M);
  unsigned char *has_noise = calloc(S, 1);
  if (!f || !x || !noise_mean || !acc || !offset || !has_noise) {
    free(f), free(x), free(noise_mean), free(acc), free(offset), free(has_noise);
    mnf_result_free(r);
    return mnf_fail(err, err_size, "out of memory (the serial version needs %zu MB)", (size_t)B * S * 12 >> 20);
  }
  double start = mnf_now_ms(), t = start, now;

  for (int b = 0; b < B; b++) mnf_noise_rows(img, opt->noise, valid, b, 0, img->lines, f + b * S);
  r->noise_pixels = 0;
  for (size_t k = 0; k < S; k++) {
    has_noise[k] = (unsigned char)mnf_noise_defined(img, opt->noise, valid, (int)(k % W), (int)(k / W));
    r->noise_pixels += has_noise[k];
  }
  now = mnf_now_ms(), r->step_ms[0] = now - t, t = now;

  covariance(NULL, f, B, S, has_noise, r->noise_pixels, noise_mean, r->noise_cov);
  now = mnf_now_ms(), r->step_ms[1] = now - t, t = now;

  for (int b = 0; b < B; b++)
    for (int y = 0; y < img->lines; y++) mnf_load_row(img, b, y, x + b * S + (size_t)y * img->samples);
  r->valid_pixels = S;
  if (valid) {
    r->valid_pixels = 0;
    for (size_t k = 0; k < S; k++) r->valid_pixels += valid[k];
  }
  covariance(x, NULL, B, S, valid, r->valid_pixels, r->band_mean, r->data_cov);
  now = mnf_now_ms(), r->step_ms[3] = now - t;

  int rc = mnf_solve(r, false, err, err_size);
  if (rc == 0 && !opt->stats_only) {
    t = mnf_now_ms();
    mnf_component_offsets(r, opt, offset);
    for (int m = 0; m < M; m++) {
      memset(acc, 0, sizeof(double) * S);
      for (int b = 0; b < B; b++) {
        double tbm = r->transform[(size_t)b * B + m];
        const float *xb = x + b * S;
        for (size_t k = 0; k < S; k++) acc[k] += tbm * xb[k];
      }
      for (size_t k = 0; k < S; k++)
        r->components_data[m * S + k] = !valid || valid[k] ? (float)(acc[k] - offset[m]) : NAN;
    }
    r->step_ms[7] = mnf_now_ms() - t;
  }
  if (rc == 0) {
    r->total_ms = mnf_now_ms() - start;
    r->note = "wall clock per step, one thread; S3 and S5-S7 shared with every implementation";
  }
  free(f), free(x), free(noise_mean), free(acc), free(offset), free(has_noise);
  if (rc) mnf_result_free(r);
  return rc;
}

int mnf_apply_map_serial(const mnf_image *img, const mnf_map *m, float *out)
{
  size_t S = mnf_image_pixels(img);
  double *acc = malloc(sizeof(double) * S);
  if (!acc) return -1;
  for (int o = 0; o < m->out_bands; o++) {
    for (size_t k = 0; k < S; k++) acc[k] = m->offset[o];
    for (int i = 0; i < m->in_bands; i++) {
      double a = m->a[(size_t)o * m->in_bands + i];
      for (size_t k = 0; k < S; k++) acc[k] += a * (mnf_image_value(img, (size_t)i * S + k) - m->shift[i]);
    }
    for (size_t k = 0; k < S; k++) out[(size_t)o * S + k] = (float)acc[k];
  }
  free(acc);
  return 0;
}

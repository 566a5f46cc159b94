/* The independent float64 MNF of the tests (mnf_reference.h). */
#include "mnf_reference.h"

#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "synth.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double ref_px(const mnf_image *img, int b, int x, int y)
{
  x = x < 0 ? 0 : x >= img->samples ? img->samples - 1 : x;
  y = y < 0 ? 0 : y >= img->lines ? img->lines - 1 : y;
  return mnf_image_value(img, ((size_t)b * img->lines + y) * img->samples + x);
}

double ref_noise(const mnf_image *img, int noise, int b, int x, int y)
{
  double v[9];
  int n = 0;
  if (noise == MNF_NOISE_DIFF)
    return (ref_px(img, b, x, y) - ref_px(img, b, x + 1 < img->samples ? x + 1 : x - 1, y)) / sqrt(2.0);
  if (noise == MNF_NOISE_SHIFT)
    return x + 1 < img->samples && y > 0
               ? (ref_px(img, b, x, y) - (ref_px(img, b, x + 1, y) + ref_px(img, b, x, y - 1)) / 2) / sqrt(1.5)
               : NAN;
  if (noise == MNF_NOISE_DIAG)
    return x + 1 < img->samples && y + 1 < img->lines ? (ref_px(img, b, x, y) - ref_px(img, b, x + 1, y + 1)) / sqrt(2.0)
                                                      : NAN;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) v[n++] = ref_px(img, b, x + dx, y + dy);
  if (noise == MNF_NOISE_MEAN3) {
    double s = 0;
    for (int i = 0; i < 9; i++) s += v[i];
    return (ref_px(img, b, x, y) - s / 9.0) * 3.0 / sqrt(8.0);
  }
  qsort(v, 9, sizeof *v, cmp_double);
  return (ref_px(img, b, x, y) - v[4]) * 1.0292;
}

void ref_covariance(const double *a, int nb, size_t S, double *cov)
{
  double *mean = calloc(nb, sizeof *mean);
  size_t n = 0;
  for (size_t k = 0; k < S; k++) n += !isnan(a[k]);
  for (int i = 0; i < nb; i++) {
    for (size_t k = 0; k < S; k++)
      if (!isnan(a[k])) mean[i] += a[i * S + k];
    mean[i] /= (double)n;
  }
  for (int i = 0; i < nb; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (size_t k = 0; k < S; k++)
        if (!isnan(a[k])) s += (a[i * S + k] - mean[i]) * (a[j * S + k] - mean[j]);
      cov[i * nb + j] = cov[j * nb + i] = s / (double)(n - 1);
    }
  free(mean);
}

static double extreme_eigenvalue(const double *c, int n, int largest)
{
  double *a = malloc(sizeof(double) * n * n), *w = malloc(sizeof(double) * n), v;
  memcpy(a, c, sizeof(double) * n * n);
  v = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'L', n, a, n, w) == 0 ? w[largest ? n - 1 : 0] : NAN;
  free(a);
  free(w);
  return v;
}

int ref_mnf_run(const mnf_image *img, int noise, ref_mnf *ref)
{
  int B = img->bands, W = img->samples, H = img->lines;
  size_t S = (size_t)W * H;
  memset(ref, 0, sizeof *ref);
  ref->bands = B;
  ref->noise_cov = malloc(sizeof(double) * B * B), ref->data_cov = malloc(sizeof(double) * B * B);
  ref->mean = calloc(B, sizeof(double)), ref->lambda = malloc(sizeof(double) * B), ref->t = malloc(sizeof(double) * B * B);
  double *f = calloc((size_t)B * S, sizeof(double)), *x = calloc((size_t)B * S, sizeof(double));
  double *cn = malloc(sizeof(double) * B * B), *cd = malloc(sizeof(double) * B * B), *w = malloc(sizeof(double) * B);
  for (int b = 0; b < B; b++)
    for (int y = 0; y < H; y++)
      for (int xx = 0; xx < W; xx++) {
        f[b * S + (size_t)y * W + xx] = ref_noise(img, noise, b, xx, y);
        x[b * S + (size_t)y * W + xx] = ref_px(img, b, xx, y);
      }
  ref_covariance(f, B, S, ref->noise_cov);
  ref_covariance(x, B, S, ref->data_cov);
  for (int b = 0; b < B; b++) {
    for (size_t k = 0; k < S; k++) ref->mean[b] += x[b * S + k];
    ref->mean[b] /= (double)S;
  }
  ref->kappa = extreme_eigenvalue(ref->data_cov, B, 1) / extreme_eigenvalue(ref->noise_cov, B, 0);
  /* C_D t = lambda C_N t, t^T C_N t = 1: LAPACK's generalized problem. */
  memcpy(cn, ref->noise_cov, sizeof(double) * B * B);
  memcpy(cd, ref->data_cov, sizeof(double) * B * B);
  int rc = LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'V', 'L', B, cd, B, cn, B, w) == 0 ? 0 : -1;
  for (int m = 0; m < B; m++) {
    ref->lambda[m] = w[B - 1 - m];
    for (int b = 0; b < B; b++) ref->t[b * B + m] = cd[b * B + (B - 1 - m)];
  }
  free(f), free(x), free(cn), free(cd), free(w);
  return rc;
}

void ref_mnf_free(ref_mnf *ref)
{
  free(ref->noise_cov), free(ref->data_cov), free(ref->mean), free(ref->lambda), free(ref->t);
  memset(ref, 0, sizeof *ref);
}

void ref_compare(const ref_mnf *ref, const mnf_result *got, ref_accuracy *acc)
{
  int B = ref->bands;
  memset(acc, 0, sizeof *acc);
  acc->min_cos = 1.0;
  for (int m = 0; m < B; m++) {
    double l = ref->lambda[m];
    if (l < 1.5) {
      acc->noise_floor++;
      double e = fabs(got->eigenvalues[m] - l) / l;
      acc->noise_eig_rel = isnan(e) ? INFINITY : fmax(acc->noise_eig_rel, e); /* fmax would skip a NaN */
    }
    int apart = (m == 0 || ref->lambda[m - 1] - l >= 0.01 * l) && (m == B - 1 || l - ref->lambda[m + 1] >= 0.01 * l);
    if (!apart) continue;
    double dot = 0, na = 0, nb = 0;
    for (int b = 0; b < B; b++) {
      dot += got->transform[b * B + m] * ref->t[b * B + m];
      na += got->transform[b * B + m] * got->transform[b * B + m];
      nb += ref->t[b * B + m] * ref->t[b * B + m];
    }
    acc->separated++;
    double c = fabs(dot) / sqrt(na * nb);
    acc->min_cos = isnan(c) ? 0.0 : fmin(acc->min_cos, c);
  }
}

int ref_kappa_scene(int w, int h, int b, double kappa, int type, mnf_image *img)
{
  synth_params p;
  synth_defaults(&p, w, h, b, type, 31);
  return synth_noise_for_kappa(&p, kappa) || synth_generate(&p, img, NULL) ? -1 : 0;
}

int ref_kappa_case(int w, int h, int b, double kappa, int type, int impl, int noise, ref_accuracy *acc,
                   double *measured_kappa, char *err, size_t err_size)
{
  mnf_image img;
  if (ref_kappa_scene(w, h, b, kappa, type, &img)) {
    snprintf(err, err_size, "cannot make the scene");
    return -1;
  }
  ref_mnf ref;
  mnf_options opt = {0, noise, impl, 0, 0, 1};
  mnf_result r;
  int rc = ref_mnf_run(&img, noise, &ref) == 0 ? mnf_run(&img, &opt, &r, err, err_size) : -1;
  if (rc == 0) {
    ref_compare(&ref, &r, acc);
    *measured_kappa = ref.kappa;
    printf("kappa %-8.2g (measured %.3g) %-7s %-11s %-7s noise-floor eigenvalues (%d): max rel. error %.2e; "
           "separated components (%d): min |cos| %.9f\n",
           kappa, ref.kappa, envi_type_name(type), mnf_impl_name(impl), mnf_noise_name(noise), acc->noise_floor,
           acc->noise_eig_rel, acc->separated, acc->min_cos);
    mnf_result_free(&r);
  }
  ref_mnf_free(&ref);
  mnf_image_free(&img);
  return rc;
}

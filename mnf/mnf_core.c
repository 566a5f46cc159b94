/* What every implementation shares: names, result allocation, the noise
 * filter on the CPU, and the small dense steps S3, S5, S6, S7. */
#define _POSIX_C_SOURCE 200809L

#include "mnf_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapacke.h>

static mnf_gpu_runner gpu_runner;
static mnf_gpu_map_runner gpu_map_runner;

void mnf_set_gpu_runner(mnf_gpu_runner runner) { gpu_runner = runner; }
void mnf_set_gpu_map_runner(mnf_gpu_map_runner runner) { gpu_map_runner = runner; }

double mnf_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int mnf_fail(char *err, size_t err_size, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (err && err_size) vsnprintf(err, err_size, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *noise_names[MNF_NOISES] = {"median3", "mean3", "diff", "shift", "diag"};
static const char *impl_names[] = {"serial", "cpu", "gpu-naive", "gpu", "cublas", "cublas-gemm"};
static const char *step_names[] = {"S1 noise filter", "S2 noise covariance", "S3 eig(C_N), P",
                                   "S4 data covariance", "S5 C_adj = P^T C_D P", "S6 eig(C_adj)",
                                   "S7 T = P V", "S8 Z = T^T X"};

const char *mnf_noise_name(int noise) { return noise >= 0 && noise < MNF_NOISES ? noise_names[noise] : "?"; }
const char *mnf_impl_name(int impl) { return impl >= 0 && impl < 6 ? impl_names[impl] : "?"; }
const char *mnf_step_name(int step) { return step >= 0 && step < MNF_STEPS ? step_names[step] : "?"; }

int mnf_noise_from_name(const char *name)
{
  for (int i = 0; i < MNF_NOISES; i++)
    if (!strcmp(name, noise_names[i])) return i;
  return -1;
}

int mnf_impl_from_name(const char *name)
{
  for (int i = 0; i < 6; i++)
    if (!strcmp(name, impl_names[i])) return i;
  return -1;
}

int mnf_check_image(const mnf_image *img, char *err, size_t err_size)
{
  if (img->bands < 1) return mnf_fail(err, err_size, "image has zero bands");
  if (envi_type_size(img->data_type) == 0)
    return mnf_fail(err, err_size, "unsupported data type %d", img->data_type);
  if (img->samples < 3 || img->lines < 3)
    return mnf_fail(err, err_size, "image is %dx%d pixels; the 3x3 noise filter needs at least 3x3",
                    img->samples, img->lines);
  return 0;
}

void mnf_result_free(mnf_result *r)
{
  free(r->band_mean);
  free(r->noise_cov);
  free(r->data_cov);
  free(r->eigenvalues);
  free(r->transform);
  if (r->release_components) r->release_components(r->components_data);
  else free(r->components_data);
  memset(r, 0, sizeof *r);
}

int mnf_result_alloc(mnf_result *r, const mnf_image *img, const mnf_options *opt)
{
  memset(r, 0, sizeof *r);
  int B = img->bands;
  r->bands = B;
  r->components = opt->components > 0 && opt->components < B ? opt->components : B;
  r->pixels = r->noise_pixels = r->valid_pixels = mnf_image_pixels(img);
  size_t bb = (size_t)B * B;
  r->band_mean = calloc(B, sizeof(double));
  r->noise_cov = calloc(bb, sizeof(double));
  r->data_cov = calloc(bb, sizeof(double));
  r->eigenvalues = calloc(B, sizeof(double));
  r->transform = calloc(bb, sizeof(double));
  if (!opt->stats_only) r->components_data = malloc(sizeof(float) * r->components * r->pixels);
  if (!r->band_mean || !r->noise_cov || !r->data_cov || !r->eigenvalues || !r->transform ||
      (!opt->stats_only && !r->components_data)) {
    mnf_result_free(r);
    return -1;
  }
  return 0;
}

void mnf_load_row(const mnf_image *img, int band, int y, float *out)
{
  size_t start = ((size_t)band * img->lines + y) * img->samples;
  int n = img->samples;
  switch (img->data_type) {
  case ENVI_U8: for (int x = 0; x < n; x++) out[x] = ((const uint8_t *)img->data)[start + x]; break;
  case ENVI_I16: for (int x = 0; x < n; x++) out[x] = ((const int16_t *)img->data)[start + x]; break;
  case ENVI_U16: for (int x = 0; x < n; x++) out[x] = ((const uint16_t *)img->data)[start + x]; break;
  case ENVI_I32: for (int x = 0; x < n; x++) out[x] = (float)((const int32_t *)img->data)[start + x]; break;
  default: memcpy(out, (const float *)img->data + start, sizeof(float) * n); break;
  }
}

static double median9(double *v)
{
  for (int i = 1; i < 9; i++) {
    double t = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > t; j--) v[j] = v[j - 1];
    v[j] = t;
  }
  return v[4];
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int pixel_ok(const mnf_image *img, const unsigned char *valid, int x, int y)
{
  return !valid || valid[(size_t)y * img->samples + x];
}

int mnf_noise_defined(const mnf_image *img, int noise, const unsigned char *valid, int x, int y)
{
  int W = img->samples, H = img->lines;
  switch (noise) {
  case MNF_NOISE_DIFF: return pixel_ok(img, valid, x, y) && pixel_ok(img, valid, x + 1 < W ? x + 1 : x - 1, y);
  case MNF_NOISE_SHIFT:
    return x + 1 < W && y > 0 && pixel_ok(img, valid, x, y) && pixel_ok(img, valid, x + 1, y) && pixel_ok(img, valid, x, y - 1);
  case MNF_NOISE_DIAG: return x + 1 < W && y + 1 < H && pixel_ok(img, valid, x, y) && pixel_ok(img, valid, x + 1, y + 1);
  default:
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++)
        if (!pixel_ok(img, valid, clampi(x + dx, 0, W - 1), clampi(y + dy, 0, H - 1))) return 0;
    return 1;
  }
}

size_t mnf_noise_count(const mnf_image *img, int noise, const unsigned char *valid)
{
  size_t n = 0;
  for (int y = 0; y < img->lines; y++)
    for (int x = 0; x < img->samples; x++) n += mnf_noise_defined(img, noise, valid, x, y) != 0;
  return n;
}

/* One image row of a band as doubles, edge rows replicated. */
static void load_row_double(const mnf_image *img, int band, int y, double *out)
{
  y = clampi(y, 0, img->lines - 1);
  size_t start = ((size_t)band * img->lines + y) * img->samples;
  for (int x = 0; x < img->samples; x++) out[x] = mnf_image_value(img, start + x);
}

void mnf_noise_rows(const mnf_image *img, int noise, const unsigned char *valid, int band, int row0, int nrows,
                    double *out)
{
  int W = img->samples;
  double *rows = malloc(sizeof(double) * 3 * W);
  if (!rows) abort(); /* three image rows; nothing sensible is left to do */
  for (int r = 0; r < nrows; r++) {
    int y = row0 + r;
    double *above = rows, *here = rows + W, *below = rows + 2 * W, *dst = out + (size_t)r * W;
    load_row_double(img, band, y - 1, above);
    load_row_double(img, band, y, here);
    load_row_double(img, band, y + 1, below);
    for (int x = 0; x < W; x++) {
      int xl = clampi(x - 1, 0, W - 1), xr = clampi(x + 1, 0, W - 1);
      if (!mnf_noise_defined(img, noise, valid, x, y)) {
        dst[x] = 0.0;
      } else if (noise == MNF_NOISE_DIFF) {
        dst[x] = (here[x] - here[x + 1 < W ? x + 1 : x - 1]) * MNF_DIFF_SCALE;
      } else if (noise == MNF_NOISE_SHIFT) {
        dst[x] = (here[x] - 0.5 * (here[x + 1] + above[x])) * MNF_SHIFT_SCALE;
      } else if (noise == MNF_NOISE_DIAG) {
        dst[x] = (here[x] - below[x + 1]) * MNF_DIFF_SCALE;
      } else if (noise == MNF_NOISE_MEAN3) {
        double s = above[xl] + above[x] + above[xr] + here[xl] + here[x] + here[xr] + below[xl] + below[x] + below[xr];
        dst[x] = (here[x] - s / 9.0) * MNF_MEAN3_SCALE;
      } else {
        double v[9] = {above[xl], above[x], above[xr], here[xl], here[x], here[xr], below[xl], below[x], below[xr]};
        dst[x] = (here[x] - median9(v)) * MNF_MEDIAN3_SCALE;
      }
    }
  }
  free(rows);
}

size_t mnf_find_nonfinite(const mnf_image *img, int *band, size_t *pixel, int *is_nan)
{
  if (img->data_type != ENVI_F32) return 0;
  const float *v = img->data;
  size_t S = mnf_image_pixels(img), total = S * img->bands, count = 0;
  for (size_t i = 0; i < total; i++)
    if (!isfinite(v[i])) {
      if (count++ == 0) *band = (int)(i / S), *pixel = i % S, *is_nan = isnan(v[i]) != 0;
    }
  return count;
}

int mnf_check_finite(const mnf_image *img, const char *name, char *err, size_t err_size)
{
  int band = 0, is_nan = 0;
  size_t pixel = 0, count = mnf_find_nonfinite(img, &band, &pixel, &is_nan);
  if (count == 0) return 0;
  return mnf_fail(err, err_size, "%s%s%zu NaN or Inf value%s; the first, %s, in band %d at sample %zu, line %zu "
                  "(--ignore-nonfinite leaves such pixels out)", name ? name : "", name ? ": " : "", count, count > 1 ? "s" : "",
                  is_nan ? "NaN" : "Inf", band + 1, pixel % img->samples + 1, pixel / img->samples + 1);
}

int mnf_prepare(const mnf_image *img, const mnf_options *opt, unsigned char **valid, char *err, size_t err_size)
{
  *valid = NULL;
  if (mnf_check_image(img, err, err_size)) return -1;
  if (opt->noise < 0 || opt->noise >= MNF_NOISES) return mnf_fail(err, err_size, "unknown noise estimate %d", opt->noise);
  if (opt->components < 0 || opt->components > img->bands)
    return mnf_fail(err, err_size, "--components %d: the image has %d bands", opt->components, img->bands);
  int band, is_nan;
  size_t pixel;
  if (mnf_find_nonfinite(img, &band, &pixel, &is_nan) == 0) return 0;
  if (!opt->skip_nonfinite) return mnf_check_finite(img, NULL, err, err_size);
  if (opt->impl != MNF_IMPL_SERIAL && opt->impl != MNF_IMPL_CPU)
    return mnf_fail(err, err_size, "leaving out NaN/Inf pixels needs --impl serial or cpu");
  size_t S = mnf_image_pixels(img);
  unsigned char *ok = malloc(S);
  if (!ok) return mnf_fail(err, err_size, "out of memory");
  const float *v = img->data;
  for (size_t k = 0; k < S; k++) {
    ok[k] = 1;
    for (int b = 0; b < img->bands && ok[k]; b++) ok[k] = isfinite(v[(size_t)b * S + k]) != 0;
  }
  *valid = ok;
  return 0;
}

void mnf_component_offsets(const mnf_result *r, const mnf_options *opt, double *offset)
{
  int B = r->bands;
  for (int m = 0; m < r->components; m++) {
    double o = 0.0;
    for (int b = 0; !opt->raw_output && b < B; b++) o += r->transform[(size_t)b * B + m] * r->band_mean[b];
    offset[m] = o;
  }
}

void mnf_centring(const float *a, int out_bands, int in_bands, const double *mean, const double *base, float *shift,
                  double *offset)
{
  for (int i = 0; i < in_bands; i++) shift[i] = mean ? (float)mean[i] : 0.0f;
  for (int o = 0; o < out_bands; o++) {
    double s = base ? base[o] : 0.0;
    for (int i = 0; mean && i < in_bands; i++) s += (double)a[(size_t)o * in_bands + i] * ((double)shift[i] - mean[i]);
    offset[o] = s;
  }
}

void mnf_mirror_lower(double *c, int n)
{
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) c[(size_t)i * n + j] = c[(size_t)j * n + i];
}

/* c = a b, or a^T b (all n x n): OpenBLAS, or plain loops for the serial
 * implementation. */
static void matmul(const double *a, const double *b, double *c, int n, int transpose_a, bool use_blas)
{
  if (use_blas) {
    cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    return;
  }
  memset(c, 0, sizeof(double) * n * n);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      double aik = transpose_a ? a[(size_t)k * n + i] : a[(size_t)i * n + k];
      const double *brow = b + (size_t)k * n;
      double *crow = c + (size_t)i * n;
      for (int j = 0; j < n; j++) crow[j] += aik * brow[j];
    }
}

int mnf_check_bands(const mnf_result *r, char *err, size_t err_size)
{
  int B = r->bands;
  for (int b = 0; b < B; b++) {
    if (!(r->data_cov[(size_t)b * B + b] > 0.0))
      return mnf_fail(err, err_size, "band %d is constant: its noise covariance is singular", b + 1);
    if (!(r->noise_cov[(size_t)b * B + b] > 0.0))
      return mnf_fail(err, err_size, "band %d has zero estimated noise: the noise covariance is singular", b + 1);
  }
  return 0;
}

void mnf_fix_signs(double *t, int n)
{
  for (int m = 0; m < n; m++) {
    int arg = 0;
    for (int b = 1; b < n; b++)
      if (fabs(t[(size_t)b * n + m]) > fabs(t[(size_t)arg * n + m])) arg = b;
    if (t[(size_t)arg * n + m] < 0)
      for (int b = 0; b < n; b++) t[(size_t)b * n + m] = -t[(size_t)b * n + m];
  }
}

int mnf_solve(mnf_result *r, bool use_blas, char *err, size_t err_size)
{
  int B = r->bands;
  size_t bb = (size_t)B * B;
  if (mnf_check_bands(r, err, err_size)) return -1;
  double *u = malloc(sizeof(double) * bb), *p = malloc(sizeof(double) * bb);
  double *tmp = malloc(sizeof(double) * bb), *adj = malloc(sizeof(double) * bb);
  double *w = malloc(sizeof(double) * B);
  int rc = 0;
  if (!u || !p || !tmp || !adj || !w) { rc = mnf_fail(err, err_size, "out of memory"); goto done; }

  /* S3 */
  double t0 = mnf_now_ms();
  memcpy(u, r->noise_cov, sizeof(double) * bb);
  if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'L', B, u, B, w) != 0) {
    rc = mnf_fail(err, err_size, "eigendecomposition of the noise covariance failed");
    goto done;
  }
  /* w is ascending. A tiny smallest eigenvalue means linearly dependent
   * noise: the whitening would divide by (almost) zero. */
  if (!(w[0] > 1e-12 * w[B - 1])) {
    rc = mnf_fail(err, err_size, "noise covariance is singular (smallest eigenvalue %.3g, largest %.3g): bands are linearly dependent",
                  w[0], w[B - 1]);
    goto done;
  }
  for (int i = 0; i < B; i++)
    for (int k = 0; k < B; k++) p[(size_t)i * B + k] = u[(size_t)i * B + k] / sqrt(w[k]);
  double t1 = mnf_now_ms();
  r->step_ms[2] = t1 - t0;

  /* S5 */
  matmul(r->data_cov, p, tmp, B, 0, use_blas);
  matmul(p, tmp, adj, B, 1, use_blas);
  double t2 = mnf_now_ms();
  r->step_ms[4] = t2 - t1;

  /* S6: ascending from LAPACK; components go in decreasing order. */
  if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'L', B, adj, B, w) != 0) {
    rc = mnf_fail(err, err_size, "eigendecomposition of the adjusted data covariance failed");
    goto done;
  }
  for (int m = 0; m < B; m++) {
    r->eigenvalues[m] = w[B - 1 - m];
    for (int i = 0; i < B; i++) u[(size_t)i * B + m] = adj[(size_t)i * B + (B - 1 - m)];
  }
  double t3 = mnf_now_ms();
  r->step_ms[5] = t3 - t2;

  /* S7 */
  matmul(p, u, r->transform, B, 0, use_blas);
  mnf_fix_signs(r->transform, B);
  r->step_ms[6] = mnf_now_ms() - t3;
done:
  free(u);
  free(p);
  free(tmp);
  free(adj);
  free(w);
  return rc;
}

/* lambda_max(a) / lambda_min(b) for two symmetric B x B matrices (float64,
 * eigenvalues only); 0 when either decomposition fails or b is not
 * positive definite. */
static double condition_number(const double *a, const double *b, int B)
{
  size_t bb = (size_t)B * B;
  double *copy = malloc(sizeof(double) * (bb + B));
  if (!copy) return 0.0;
  double *w = copy + bb, top, bottom;
  memcpy(copy, a, sizeof(double) * bb);
  int rc = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'L', B, copy, B, w);
  top = w[B - 1];
  memcpy(copy, b, sizeof(double) * bb);
  rc |= LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'L', B, copy, B, w);
  bottom = w[0];
  free(copy);
  return rc == 0 && bottom > 0.0 ? top / bottom : 0.0;
}

/* The cuBLAS variants reproduce the paper: covariances in float32 (Ssyrk or
 * Sgemm). Their rounding moves the noise-floor eigenvalues (lambda = 1) by
 * about 1-3e-8 times kappa = lambda_max(C_D) / lambda_min(C_N) (measured
 * for float32 products in mnf_cpu.c's history, tests/mnf/test_mnf_kappa.c);
 * past 10% pure-noise components pass for signal (lambda > 1.1), and well
 * past it eigenvalues turn negative. The run says so rather than return a
 * wrong rotation in silence; the float64 implementations are not affected. */
#define FLOAT32_COVARIANCE_ERROR 3e-8
#define NOISE_FLOOR_TOLERANCE 0.1

void mnf_check_float32_covariances(int impl, mnf_result *r)
{
  if (impl != MNF_IMPL_CUBLAS && impl != MNF_IMPL_CUBLAS_GEMM) return;
  r->kappa = condition_number(r->data_cov, r->noise_cov, r->bands);
  double off = FLOAT32_COVARIANCE_ERROR * r->kappa;
  if (r->kappa > 0.0 && off <= NOISE_FLOOR_TOLERANCE) return;
  if (r->kappa > 0.0)
    snprintf(r->warning, sizeof r->warning,
             "--impl %s: float32 covariances cannot resolve this image's noise floor (condition number %.2g: "
             "noise-floor eigenvalues off by up to %.2g); use --impl gpu or cpu (float64)",
             mnf_impl_name(impl), r->kappa, off);
  else
    snprintf(r->warning, sizeof r->warning,
             "--impl %s: the float32 noise covariance is not positive definite: its eigenvalues cannot be trusted; "
             "use --impl gpu or cpu (float64)", mnf_impl_name(impl));
}

int mnf_run(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size)
{
  memset(r, 0, sizeof *r);
  unsigned char *valid;
  if (mnf_prepare(img, opt, &valid, err, err_size)) return -1;
  int rc;
  switch (opt->impl) {
  case MNF_IMPL_SERIAL: rc = mnf_run_serial(img, opt, valid, r, err, err_size); break;
  case MNF_IMPL_CPU: rc = mnf_run_cpu(img, opt, valid, r, err, err_size); break;
  case MNF_IMPL_GPU_NAIVE:
  case MNF_IMPL_GPU:
  case MNF_IMPL_CUBLAS:
  case MNF_IMPL_CUBLAS_GEMM:
    rc = gpu_runner ? gpu_runner(img, opt, r, err, err_size) : mnf_fail(err, err_size, "this build has no GPU implementations");
    break;
  default: rc = mnf_fail(err, err_size, "unknown implementation %d", opt->impl); break;
  }
  if (rc == 0) mnf_check_float32_covariances(opt->impl, r);
  free(valid);
  return rc;
}

/* ---- maps: apply, inverse, denoise -------------------------------------- */

void mnf_map_free(mnf_map *m)
{
  free(m->a);
  free(m->shift);
  free(m->offset);
  memset(m, 0, sizeof *m);
}

int mnf_map_make(mnf_map *m, const mnf_result *r, int kind, int k, int raw)
{
  int B = r->bands;
  memset(m, 0, sizeof *m);
  m->in_bands = kind == MNF_MAP_INVERSE ? k : B;
  m->out_bands = kind == MNF_MAP_FORWARD ? k : B;
  double *a = calloc((size_t)m->out_bands * m->in_bands, sizeof(double));
  double *back = malloc(sizeof(double) * B * k); /* (C_N T)_K, B x k: the inverse of T_K^T on the components */
  m->a = malloc(sizeof(float) * m->out_bands * m->in_bands);
  m->shift = malloc(sizeof(float) * m->in_bands);
  m->offset = malloc(sizeof(double) * m->out_bands);
  if (!a || !back || !m->a || !m->shift || !m->offset) {
    free(a), free(back), mnf_map_free(m);
    return -1;
  }
  for (int i = 0; i < B; i++)
    for (int c = 0; c < k; c++) {
      double s = 0.0;
      for (int j = 0; j < B; j++) s += r->noise_cov[(size_t)i * B + j] * r->transform[(size_t)j * B + c];
      back[(size_t)i * k + c] = s;
    }
  if (kind == MNF_MAP_FORWARD) {
    for (int c = 0; c < k; c++)
      for (int b = 0; b < B; b++) a[(size_t)c * B + b] = r->transform[(size_t)b * B + c];
  } else if (kind == MNF_MAP_INVERSE) {
    memcpy(a, back, sizeof(double) * B * k);
  } else {
    for (int i = 0; i < B; i++)
      for (int c = 0; c < k; c++)
        for (int b = 0; b < B; b++) a[(size_t)i * B + b] += back[(size_t)i * k + c] * r->transform[(size_t)b * B + c];
  }
  for (size_t i = 0; i < (size_t)m->out_bands * m->in_bands; i++) m->a[i] = (float)a[i];
  /* out = A (x - mean_in) + mean_out; components (the inverse's input) have
   * mean 0, and so has the forward map's output. */
  const double *mean_in = raw || kind == MNF_MAP_INVERSE ? NULL : r->band_mean;
  const double *mean_out = raw || kind == MNF_MAP_FORWARD ? NULL : r->band_mean;
  mnf_centring(m->a, m->out_bands, m->in_bands, mean_in, mean_out, m->shift, m->offset);
  free(a);
  free(back);
  return 0;
}

int mnf_apply_map(const mnf_image *img, const mnf_map *m, int impl, float *out, double *ms, char *err, size_t err_size)
{
  if (img->bands != m->in_bands)
    return mnf_fail(err, err_size, "the image has %d bands, the statistics need %d", img->bands, m->in_bands);
  double t0 = mnf_now_ms();
  int rc;
  switch (impl) {
  case MNF_IMPL_SERIAL: rc = mnf_apply_map_serial(img, m, out); break;
  case MNF_IMPL_CPU: rc = mnf_apply_map_cpu(img, m, out); break;
  case MNF_IMPL_GPU:
    if (!gpu_map_runner) return mnf_fail(err, err_size, "this build has no GPU implementations");
    return gpu_map_runner(img, m, out, ms, err, err_size);
  default: return mnf_fail(err, err_size, "apply, inverse and denoise run on --impl serial, cpu or gpu");
  }
  if (rc) return mnf_fail(err, err_size, "out of memory");
  *ms = mnf_now_ms() - t0;
  return 0;
}

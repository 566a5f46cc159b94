/* The CPU implementation a careful user would run: OpenBLAS on blocks of
 * pixel rows (so memory stays small), OpenMP for the filter and the
 * conversions. The covariances are float64 throughout: the noise estimate
 * in double, each block's centred values in double and their products by
 * dsyrk, summed in double. Float32 blocks with float products (ssyrk, as
 * before issue 11) put the noise-floor eigenvalues off by 1-3e-8 times
 * lambda_max(C_D) / lambda_min(C_N); tests/mnf/test_mnf_kappa.c holds this
 * version to 1e-6 at 1e8. S8 stays float (sgemm): its output is float. */
#include "mnf_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#define BLOCK_PIXELS 32768

static void add_upper(const double *block, double *sum, int B)
{
  for (int i = 0; i < B; i++)
    for (int j = i; j < B; j++) sum[(size_t)j * B + i] += block[(size_t)i * B + j];
}

/* Means of X over the valid pixels, band by band, in double. */
static void band_means(const mnf_image *img, const unsigned char *valid, size_t n, double *mean)
{
  size_t S = mnf_image_pixels(img);
#pragma omp parallel for schedule(dynamic)
  for (int b = 0; b < img->bands; b++) {
    double sum = 0.0;
    for (size_t k = 0; k < S; k++)
      if (!valid || valid[k]) sum += mnf_image_value(img, (size_t)b * S + k);
    mean[b] = sum / (double)n;
  }
}

static int block_rows(int y0, int rows_per_block, int lines)
{
  return lines - y0 < rows_per_block ? lines - y0 : rows_per_block;
}

/* S1 + S2. Pixels without an estimate hold 0 and add nothing; the noise
 * mean is close to zero, so raw sums of F F^T are accurate and the mean is
 * taken out at the end. */
static void noise_covariance(const mnf_image *img, int noise, const unsigned char *valid, int rows_per_block,
                             double *blk, double *prod, double *noise_sum, mnf_result *r)
{
  int B = img->bands, W = img->samples;
  double t;
  for (int y0 = 0; y0 < img->lines; y0 += rows_per_block) {
    int rows = block_rows(y0, rows_per_block, img->lines), n = rows * W;
    t = mnf_now_ms();
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < B; b++) mnf_noise_rows(img, noise, valid, b, y0, rows, blk + (size_t)b * n);
    r->step_ms[0] += mnf_now_ms() - t;
    t = mnf_now_ms();
    for (int b = 0; b < B; b++)
      for (int k = 0; k < n; k++) noise_sum[b] += blk[(size_t)b * n + k];
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, B, n, 1.0, blk, n, 0.0, prod, B);
    add_upper(prod, r->noise_cov, B);
    r->step_ms[1] += mnf_now_ms() - t;
  }
  t = mnf_now_ms();
  r->noise_pixels = mnf_noise_count(img, noise, valid);
  double n = (double)r->noise_pixels;
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++)
      r->noise_cov[(size_t)i * B + j] = (r->noise_cov[(size_t)i * B + j] - noise_sum[i] * noise_sum[j] / n) / (n - 1.0);
  mnf_mirror_lower(r->noise_cov, B);
  r->step_ms[1] += mnf_now_ms() - t;
}

/* S4: blocks of X - mean in double (0 at invalid pixels). */
static void data_covariance(const mnf_image *img, const unsigned char *valid, int rows_per_block, double *blk,
                            double *prod, mnf_result *r)
{
  int B = img->bands, W = img->samples;
  size_t S = r->pixels;
  double t = mnf_now_ms();
  r->valid_pixels = S;
  if (valid) {
    r->valid_pixels = 0;
    for (size_t k = 0; k < S; k++) r->valid_pixels += valid[k];
  }
  band_means(img, valid, r->valid_pixels, r->band_mean);
  for (int y0 = 0; y0 < img->lines; y0 += rows_per_block) {
    int rows = block_rows(y0, rows_per_block, img->lines), n = rows * W;
    size_t first = (size_t)y0 * W;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < B; b++) {
      double *dst = blk + (size_t)b * n, mean = r->band_mean[b];
      for (int k = 0; k < n; k++)
        dst[k] = !valid || valid[first + k] ? mnf_image_value(img, (size_t)b * S + first + k) - mean : 0.0;
    }
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, B, n, 1.0, blk, n, 0.0, prod, B);
    add_upper(prod, r->data_cov, B);
  }
  for (size_t i = 0; i < (size_t)B * B; i++) r->data_cov[i] /= (double)(r->valid_pixels - 1);
  mnf_mirror_lower(r->data_cov, B);
  r->step_ms[3] = mnf_now_ms() - t;
}

/* out (out_bands x S, ld S) rows [y0, y0 + rows) = a (out_bands x B) times
 * the image block minus shift (per band), through a float block. */
static void map_rows(const mnf_image *img, const float *a, int out_bands, const float *shift, int y0, int rows,
                     float *blk, float *out)
{
  int B = img->bands, W = img->samples, n = rows * W;
#pragma omp parallel for schedule(static)
  for (int b = 0; b < B; b++) {
    float *dst = blk + (size_t)b * n;
    for (int y = 0; y < rows; y++) mnf_load_row(img, b, y0 + y, dst + (size_t)y * W);
    for (int k = 0; k < n; k++) dst[k] -= shift[b];
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, out_bands, n, B, 1.0f, a, B, blk, n, 0.0f,
              out + (size_t)y0 * W, (int)mnf_image_pixels(img));
}

/* out[o][k] += offset[o] for the S pixels of each of the rows. */
static void add_offsets(float *out, int rows, size_t S, const double *offset)
{
#pragma omp parallel for schedule(static)
  for (int o = 0; o < rows; o++)
    for (size_t k = 0; k < S; k++) out[(size_t)o * S + k] += (float)offset[o];
}

int mnf_run_cpu(const mnf_image *img, const mnf_options *opt, const unsigned char *valid, mnf_result *r, char *err,
                size_t err_size)
{
  if (mnf_result_alloc(r, img, opt)) return mnf_fail(err, err_size, "out of memory");
  int B = img->bands, W = img->samples, M = r->components;
  size_t S = r->pixels;
  int rows_per_block = BLOCK_PIXELS / W > 0 ? BLOCK_PIXELS / W : 1;
  size_t block_max = (size_t)rows_per_block * W;
  double *blk = malloc(sizeof(double) * B * block_max), *prod = malloc(sizeof(double) * B * B);
  float *tf = malloc(sizeof(float) * M * B), *shift = malloc(sizeof(float) * B);
  double *noise_sum = calloc(B, sizeof(double)), *offset = malloc(sizeof(double) * M);
  if (!blk || !prod || !tf || !shift || !noise_sum || !offset) {
    free(blk), free(prod), free(tf), free(shift), free(noise_sum), free(offset);
    mnf_result_free(r);
    return mnf_fail(err, err_size, "out of memory");
  }
  double start = mnf_now_ms();
  noise_covariance(img, opt->noise, valid, rows_per_block, blk, prod, noise_sum, r);
  data_covariance(img, valid, rows_per_block, blk, prod, r);

  int rc = mnf_solve(r, true, err, err_size);
  if (rc == 0 && !opt->stats_only) {
    /* S8: Z block = T^T (M x B) times the (centred) X block, in place. The
     * float block reuses the double one's memory. */
    double t = mnf_now_ms();
    for (int m = 0; m < M; m++)
      for (int b = 0; b < B; b++) tf[(size_t)m * B + b] = (float)r->transform[(size_t)b * B + m];
    mnf_centring(tf, M, B, opt->raw_output ? NULL : r->band_mean, NULL, shift, offset);
    for (int y0 = 0; y0 < img->lines; y0 += rows_per_block)
      map_rows(img, tf, M, shift, y0, block_rows(y0, rows_per_block, img->lines), (float *)blk, r->components_data);
    add_offsets(r->components_data, M, S, offset);
    for (size_t k = 0; valid && k < S; k++)
      for (int m = 0; m < M && !valid[k]; m++) r->components_data[(size_t)m * S + k] = NAN;
    r->step_ms[7] = mnf_now_ms() - t;
  }
  if (rc == 0) {
    r->total_ms = mnf_now_ms() - start;
    r->note = "wall clock per step; S1 and S2 accumulated over blocks of pixel rows";
  }
  free(blk), free(prod), free(tf), free(shift), free(noise_sum), free(offset);
  if (rc) mnf_result_free(r);
  return rc;
}

int mnf_apply_map_cpu(const mnf_image *img, const mnf_map *m, float *out)
{
  int W = img->samples, rows_per_block = BLOCK_PIXELS / W > 0 ? BLOCK_PIXELS / W : 1;
  size_t S = mnf_image_pixels(img);
  float *blk = malloc(sizeof(float) * img->bands * (size_t)rows_per_block * W);
  if (!blk) return -1;
  for (int y0 = 0; y0 < img->lines; y0 += rows_per_block)
    map_rows(img, m->a, m->out_bands, m->shift, y0, block_rows(y0, rows_per_block, img->lines), blk, out);
  add_offsets(out, m->out_bands, S, m->offset);
  free(blk);
  return 0;
}

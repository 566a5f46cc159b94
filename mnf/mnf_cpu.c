/* The CPU implementation a careful user would run: OpenBLAS ssyrk/sgemm on
 * blocks of pixel rows (so memory stays small), OpenMP for the filter and
 * conversions. Each block's float product is added into double sums, which
 * keeps the covariances accurate over millions of pixels. */
#include "mnf_internal.h"

#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#define BLOCK_PIXELS 32768

static void add_upper(const float *block, double *sum, int B)
{
  for (int i = 0; i < B; i++)
    for (int j = i; j < B; j++) sum[(size_t)j * B + i] += block[(size_t)i * B + j];
}

/* Means of X, band by band, in double. */
static void band_means(const mnf_image *img, double *mean)
{
  size_t S = mnf_image_pixels(img);
#pragma omp parallel for schedule(dynamic)
  for (int b = 0; b < img->bands; b++) {
    double sum = 0.0;
    for (size_t k = 0; k < S; k++) sum += mnf_image_value(img, (size_t)b * S + k);
    mean[b] = sum / (double)S;
  }
}

int mnf_run_cpu(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size)
{
  if (mnf_result_alloc(r, img, opt)) return mnf_fail(err, err_size, "out of memory");
  int B = img->bands, W = img->samples, M = r->components;
  size_t S = r->pixels;
  int rows_per_block = BLOCK_PIXELS / W > 0 ? BLOCK_PIXELS / W : 1;
  size_t block_max = (size_t)rows_per_block * W;
  float *blk = malloc(sizeof(float) * B * block_max), *prod = malloc(sizeof(float) * B * B);
  float *tf = malloc(sizeof(float) * M * B);
  double *noise_sum = calloc(B, sizeof(double));
  if (!blk || !prod || !tf || !noise_sum) {
    free(blk), free(prod), free(tf), free(noise_sum);
    mnf_result_free(r);
    return mnf_fail(err, err_size, "out of memory");
  }
  double start = mnf_now_ms(), t;

  /* S1 + S2: the noise mean is close to zero, so raw sums of F F^T are
   * accurate and the mean is taken out at the end. */
  for (int y0 = 0; y0 < img->lines; y0 += rows_per_block) {
    int rows = img->lines - y0 < rows_per_block ? img->lines - y0 : rows_per_block;
    int n = rows * W;
    t = mnf_now_ms();
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < B; b++) mnf_noise_rows(img, opt->noise, b, y0, rows, blk + (size_t)b * n);
    r->step_ms[0] += mnf_now_ms() - t;
    t = mnf_now_ms();
    for (int b = 0; b < B; b++)
      for (int k = 0; k < n; k++) noise_sum[b] += blk[(size_t)b * n + k];
    cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, B, n, 1.0f, blk, n, 0.0f, prod, B);
    add_upper(prod, r->noise_cov, B);
    r->step_ms[1] += mnf_now_ms() - t;
  }
  t = mnf_now_ms();
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++)
      r->noise_cov[(size_t)i * B + j] =
          (r->noise_cov[(size_t)i * B + j] - noise_sum[i] * noise_sum[j] / (double)S) / (double)(S - 1);
  mnf_mirror_lower(r->noise_cov, B);
  r->step_ms[1] += mnf_now_ms() - t;

  /* S4: mean-subtracted blocks. */
  t = mnf_now_ms();
  band_means(img, r->band_mean);
  for (int y0 = 0; y0 < img->lines; y0 += rows_per_block) {
    int rows = img->lines - y0 < rows_per_block ? img->lines - y0 : rows_per_block;
    int n = rows * W;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < B; b++) {
      float *dst = blk + (size_t)b * n;
      for (int y = 0; y < rows; y++) mnf_load_row(img, b, y0 + y, dst + (size_t)y * W);
      float mean = (float)r->band_mean[b];
      for (int k = 0; k < n; k++) dst[k] -= mean;
    }
    cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, B, n, 1.0f, blk, n, 0.0f, prod, B);
    add_upper(prod, r->data_cov, B);
  }
  for (size_t i = 0; i < (size_t)B * B; i++) r->data_cov[i] /= (double)(S - 1);
  mnf_mirror_lower(r->data_cov, B);
  r->step_ms[3] = mnf_now_ms() - t;

  int rc = mnf_solve(r, true, err, err_size);
  if (rc == 0) {
    /* S8: Z block = T^T (M x B) times X block (B x n), written in place. */
    t = mnf_now_ms();
    for (int m = 0; m < M; m++)
      for (int b = 0; b < B; b++) tf[(size_t)m * B + b] = (float)r->transform[(size_t)b * B + m];
    for (int y0 = 0; y0 < img->lines; y0 += rows_per_block) {
      int rows = img->lines - y0 < rows_per_block ? img->lines - y0 : rows_per_block;
      int n = rows * W;
#pragma omp parallel for schedule(static)
      for (int b = 0; b < B; b++)
        for (int y = 0; y < rows; y++) mnf_load_row(img, b, y0 + y, blk + (size_t)b * n + (size_t)y * W);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, n, B, 1.0f, tf, B, blk, n, 0.0f,
                  r->components_data + (size_t)y0 * W, (int)S);
    }
    double now = mnf_now_ms();
    r->step_ms[7] = now - t;
    r->total_ms = now - start;
    r->note = "wall clock per step; S1 and S2 accumulated over blocks of pixel rows";
  }
  free(blk), free(prod), free(tf), free(noise_sum);
  if (rc) mnf_result_free(r);
  return rc;
}

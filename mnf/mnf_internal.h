/* Pieces shared by the implementations of libmnf. */
#ifndef MNF_INTERNAL_H
#define MNF_INTERNAL_H

#include <stdbool.h>

#include "mnf.h"

#ifdef __cplusplus
extern "C" {
#endif

double mnf_now_ms(void);
int mnf_fail(char *err, size_t err_size, const char *fmt, ...);

/* Checks the shape (at least 3x3, at least one band, supported type). */
int mnf_check_image(const mnf_image *img, char *err, size_t err_size);
/* Allocates r for img and the options; components_data too. */
int mnf_result_alloc(mnf_result *r, const mnf_image *img, const mnf_options *opt);

/* The residuals are scaled so that white noise of variance s^2 gives an
 * estimate of variance s^2 (x - x' has 2 s^2; x - mean9 has 8/9 s^2;
 * x - (r + a)/2 has 3/2 s^2; x - median9 has 0.9441 s^2 for Gaussian
 * noise, by a Monte Carlo of 4e7 neighbourhoods): noise-only components
 * then get lambda close to 1. */
#define MNF_DIFF_SCALE 0.70710678118654752   /* 1/sqrt(2): diff and diag */
#define MNF_MEAN3_SCALE 1.06066017177982128  /* 3/sqrt(8) */
#define MNF_SHIFT_SCALE 0.81649658092772603  /* sqrt(2/3) */
#define MNF_MEDIAN3_SCALE 1.0292             /* 1/sqrt(0.9441) */

/* Row y of a band as floats. */
void mnf_load_row(const mnf_image *img, int band, int y, float *out);
/* S1 for rows [row0, row0 + nrows) of one band, in double: F = X -
 * filter(X) with the image's edges replicated so every pixel has a 3x3
 * neighbourhood (diff: the last column uses x-1), scaled as above. A pixel
 * with no estimate (shift and diag at the edges; with valid, a pixel whose
 * estimate reads an invalid one) gets 0, which adds nothing to the sums.
 * out is nrows x samples. valid: NULL, or 1 per usable pixel. */
void mnf_noise_rows(const mnf_image *img, int noise, const unsigned char *valid, int band, int row0, int nrows,
                    double *out);
/* Whether pixel (x, y) has a noise estimate (see mnf_noise_rows). */
int mnf_noise_defined(const mnf_image *img, int noise, const unsigned char *valid, int x, int y);
/* The number of pixels with a noise estimate. */
size_t mnf_noise_count(const mnf_image *img, int noise, const unsigned char *valid);
/* Checks the options against the image (components, noise, non-finite
 * values) and, with skip_nonfinite, makes the valid-pixel mask (*valid,
 * free it; NULL when every pixel is valid). */
int mnf_prepare(const mnf_image *img, const mnf_options *opt, unsigned char **valid, char *err, size_t err_size);
/* Offsets of the centred output: offset[m] = sum_b T[b][m] mean[b] (0
 * with raw_output). */
void mnf_component_offsets(const mnf_result *r, const mnf_options *opt, double *offset);

/* out = A (x - mean) + base, written for float products as
 * A (x - shift) + offset: shift = mean rounded to float, offset = base +
 * A (shift - mean) in double (the rounding's small remainder; without it a
 * constant error of up to 2^-24 |A| |mean| would stay). a: out_bands x
 * in_bands, the float matrix as applied. mean NULL: shift 0; base NULL: 0. */
void mnf_centring(const float *a, int out_bands, int in_bands, const double *mean, const double *base, float *shift,
                  double *offset);

/* Lower triangle -> full symmetric matrix. */
void mnf_mirror_lower(double *c, int n);

/* S3, S5, S6, S7 from r->noise_cov and r->data_cov (filled, full): checks
 * for constant bands and a singular C_N, then fills r->eigenvalues and
 * r->transform, timing each step into r->step_ms. The two matrix products
 * use OpenBLAS when use_blas, plain loops otherwise (serial). */
int mnf_solve(mnf_result *r, bool use_blas, char *err, size_t err_size);
/* The pieces of mnf_solve a GPU solver shares: the constant-band check on
 * the covariances' diagonals, and the sign convention (the largest-magnitude
 * entry of each column of t, n x n row-major, made positive). */
int mnf_check_bands(const mnf_result *r, char *err, size_t err_size);
void mnf_fix_signs(double *t, int n);

/* With valid (NULL: every pixel), the statistics leave the invalid pixels
 * out and their components are NaN. */
int mnf_run_serial(const mnf_image *img, const mnf_options *opt, const unsigned char *valid, mnf_result *r, char *err,
                   size_t err_size);
int mnf_run_cpu(const mnf_image *img, const mnf_options *opt, const unsigned char *valid, mnf_result *r, char *err,
                size_t err_size);
int mnf_apply_map_serial(const mnf_image *img, const mnf_map *m, float *out);
int mnf_apply_map_cpu(const mnf_image *img, const mnf_map *m, float *out);

#ifdef __cplusplus
}
#endif

#endif

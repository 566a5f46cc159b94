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

/* The diff and mean3 residuals are scaled so that white noise of variance
 * s^2 gives an estimate of variance s^2 (x - x' has 2 s^2; x - mean9 has
 * 8/9 s^2): noise-only components then get lambda close to 1. */
#define MNF_DIFF_SCALE 0.70710678f  /* 1/sqrt(2) */
#define MNF_MEAN3_SCALE 1.06066017f /* 3/sqrt(8) */

/* Row y of a band as floats. */
void mnf_load_row(const mnf_image *img, int band, int y, float *out);
/* S1 for rows [row0, row0 + nrows) of one band: F = X - filter(X), with the
 * image's edges replicated so every pixel has a 3x3 neighbourhood (diff:
 * X(x,y) - X(x+1,y), the last column using x-1), scaled as above. out is
 * nrows x samples. */
void mnf_noise_rows(const mnf_image *img, int noise, int band, int row0, int nrows, float *out);

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

int mnf_run_serial(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size);
int mnf_run_cpu(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif

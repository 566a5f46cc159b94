/* An independent float64 MNF for the tests: its own noise estimates,
 * covariances and LAPACK's generalized symmetric eigensolver (dsygv), and
 * the accuracy measures of issue 11 against it. */
#ifndef TESTS_MNF_REFERENCE_H
#define TESTS_MNF_REFERENCE_H

#include <stddef.h>

#include "mnf.h"

/* Pixel (x, y) of band b, edges replicated. */
double ref_px(const mnf_image *img, int b, int x, int y);
/* The noise estimate of a pixel; NAN where the estimate leaves it out. */
double ref_noise(const mnf_image *img, int noise, int b, int x, int y);
/* nb x nb covariance of a (nb x S) over the pixels not NAN in row 0. */
void ref_covariance(const double *a, int nb, size_t S, double *cov);

typedef struct ref_mnf {
  int bands;
  double *noise_cov, *data_cov, *mean;
  double *lambda;    /* decreasing */
  double *t;         /* B x B row-major, column m for lambda[m], T^T C_N T = I */
  double kappa;      /* lambda_max(C_D) / lambda_min(C_N) */
} ref_mnf;

/* 0, or -1 if LAPACK failed. */
int ref_mnf_run(const mnf_image *img, int noise, ref_mnf *ref);
void ref_mnf_free(ref_mnf *ref);

/* Issue 11's two targets for got against ref: the largest relative error
 * of a noise-floor eigenvalue (reference lambda below 1.5), and the
 * smallest |cos| between a column of T and the reference's, over the
 * components whose eigenvalue is at least 1% away from its neighbours. */
typedef struct ref_accuracy {
  double noise_eig_rel, min_cos;
  int noise_floor, separated;
} ref_accuracy;
void ref_compare(const ref_mnf *ref, const mnf_result *got, ref_accuracy *acc);

/* A w x h x b scene of the type at about kappa (seed 31); 0, or -1. */
int ref_kappa_scene(int w, int h, int b, double kappa, int type, mnf_image *img);
/* One kappa case: a W x H x B scene of the type at about kappa (seed 31),
 * the MNF by impl against the reference. Prints one line; 0, or -1 with
 * err when the run failed. */
int ref_kappa_case(int w, int h, int b, double kappa, int type, int impl, int noise, ref_accuracy *acc,
                   double *measured_kappa, char *err, size_t err_size);

#endif

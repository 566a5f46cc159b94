/* The eight steps on a small synthetic scene against an independent float64
 * reference (its own filter, covariances and LAPACK's generalized symmetric
 * eigensolver), the properties of T, reconstruction, bad images, and the
 * serial and cpu implementations agreeing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "mnf.h"
#include "mnf_reference.h"
#include "synth.h"
#include "testing.h"

enum { W = 37, H = 29, B = 12, SIGNAL = 5 };

static double max_rel_diff(const double *a, const double *b, size_t n)
{
  double worst = 0, scale = 0;
  for (size_t i = 0; i < n; i++) scale = fmax(scale, fabs(b[i]));
  for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs(a[i] - b[i]));
  return worst / scale;
}

static void make_scene(mnf_image *img, int type, unsigned seed)
{
  synth_params p;
  synth_defaults(&p, W, H, B, type, seed);
  p.endmembers = SIGNAL;
  if (synth_generate(&p, img, NULL)) abort();
}

static void check_against_reference(int noise, int type, int impl)
{
  mnf_image img;
  make_scene(&img, type, 7 + noise);
  size_t S = (size_t)W * H;
  double *f = malloc(sizeof(double) * B * S), *x = malloc(sizeof(double) * B * S);
  for (int b = 0; b < B; b++)
    for (int y = 0; y < H; y++)
      for (int xx = 0; xx < W; xx++) {
        f[b * S + (size_t)y * W + xx] = ref_noise(&img, noise, b, xx, y);
        x[b * S + (size_t)y * W + xx] = ref_px(&img, b, xx, y);
      }
  double cn[B * B], cd[B * B], cn2[B * B], cd2[B * B], lambda[B];
  ref_covariance(f, B, S, cn);
  ref_covariance(x, B, S, cd);
  /* Generalized problem C_D t = lambda C_N t: the MNF eigenvalues. */
  memcpy(cn2, cn, sizeof cn);
  memcpy(cd2, cd, sizeof cd);
  CHECK(LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'N', 'L', B, cd2, B, cn2, B, lambda) == 0);

  mnf_options opt = {0, noise, impl, 0, 0, 0};
  mnf_result r;
  char err[512];
  int rc = mnf_run(&img, &opt, &r, err, sizeof err);
  CHECK(rc == 0);
  if (rc) { printf("mnf_run: %s\n", err); return; }
  CHECK(max_rel_diff(r.noise_cov, cn, B * B) < 1e-6);
  CHECK(max_rel_diff(r.data_cov, cd, B * B) < 1e-9);
  for (int m = 0; m < B; m++) CHECK_NEAR(r.eigenvalues[m] / lambda[B - 1 - m], 1.0, 1e-6);
  for (int m = 1; m < B; m++) CHECK(r.eigenvalues[m] <= r.eigenvalues[m - 1]);
  /* The synthetic scene has SIGNAL endmembers: SIGNAL-1 independent
   * directions besides the mean carry signal, far above the rest. */
  CHECK(r.eigenvalues[SIGNAL - 2] - 1.0 > 2.0 * (r.eigenvalues[SIGNAL - 1] - 1.0));

  /* T^T C_N T = I and T^T C_D T = diag(lambda). */
  double worst_n = 0, worst_d = 0;
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      double sn = 0, sd = 0;
      for (int a = 0; a < B; a++)
        for (int c = 0; c < B; c++) {
          double t = r.transform[a * B + i] * r.transform[c * B + j];
          sn += t * cn[a * B + c];
          sd += t * cd[a * B + c];
        }
      worst_n = fmax(worst_n, fabs(sn - (i == j)));
      worst_d = fmax(worst_d, fabs(sd - (i == j ? r.eigenvalues[i] : 0.0)) / r.eigenvalues[0]);
    }
  CHECK(worst_n < 1e-6);
  CHECK(worst_d < 1e-8);

  /* Sign convention. */
  for (int m = 0; m < B; m++) {
    int arg = 0;
    for (int b = 1; b < B; b++)
      if (fabs(r.transform[b * B + m]) > fabs(r.transform[arg * B + m])) arg = b;
    CHECK(r.transform[arg * B + m] > 0);
  }

  /* Z = T^T (X - mean), and with every component X = mean + C_N T Z. */
  double worst_z = 0, worst_x = 0, zscale = 0, xscale = 0;
  for (size_t k = 0; k < S; k += 7) {
    double z[B];
    for (int m = 0; m < B; m++) {
      z[m] = 0;
      for (int b = 0; b < B; b++) z[m] += r.transform[b * B + m] * (x[b * S + k] - r.band_mean[b]);
      worst_z = fmax(worst_z, fabs(z[m] - r.components_data[m * S + k]));
      zscale = fmax(zscale, fabs(z[m]));
      z[m] = r.components_data[m * S + k];
    }
    for (int b = 0; b < B; b++) {
      double back = r.band_mean[b];
      for (int a = 0; a < B; a++)
        for (int m = 0; m < B; m++) back += cn[b * B + a] * r.transform[a * B + m] * z[m];
      worst_x = fmax(worst_x, fabs(back - x[b * S + k]));
      xscale = fmax(xscale, fabs(x[b * S + k]));
    }
  }
  CHECK(worst_z / zscale < 1e-6);
  CHECK(worst_x / xscale < 1e-5);
  mnf_result_free(&r);
  mnf_image_free(&img);
  free(f);
  free(x);
}

static void expect_run_error(mnf_image *img, const char *want)
{
  mnf_options opt = {0, MNF_NOISE_MEAN3, MNF_IMPL_SERIAL, 0, 0, 0};
  mnf_result r;
  char err[512] = "";
  for (int impl = MNF_IMPL_SERIAL; impl <= MNF_IMPL_CPU; impl++) {
    opt.impl = impl;
    if (mnf_run(img, &opt, &r, err, sizeof err) == 0) {
      test_fail(__FILE__, __LINE__, "expected error '%s'", want);
      mnf_result_free(&r);
    } else if (!strstr(err, want)) {
      test_fail(__FILE__, __LINE__, "error '%s' lacks '%s'", err, want);
    } else {
      test_passed++;
    }
  }
}

static void test_bad_images(void)
{
  mnf_image img;
  make_scene(&img, ENVI_I16, 11);
  size_t S = (size_t)W * H;
  for (size_t k = 0; k < S; k++) ((short *)img.data)[2 * S + k] = 1234; /* band 3 */
  expect_run_error(&img, "band 3 is constant");
  mnf_image_free(&img);

  /* Band 5 a copy of band 4: every band varies, but C_N is singular. */
  make_scene(&img, ENVI_F32, 12);
  memcpy((float *)img.data + 4 * S, (float *)img.data + 3 * S, sizeof(float) * S);
  expect_run_error(&img, "singular");
  mnf_image_free(&img);

  synth_params p;
  synth_defaults(&p, 2, 5, 3, ENVI_I16, 1);
  CHECK(synth_generate(&p, &img, NULL) == 0);
  expect_run_error(&img, "at least 3x3");
  mnf_image_free(&img);
}

/* serial and cpu must give the same components. Only the signal
 * components are compared column by column: the noise eigenvalues are
 * nearly equal, so their eigenvectors are not determined. */
static void test_serial_vs_cpu(int noise, int type)
{
  mnf_image img;
  make_scene(&img, type, 21);
  mnf_options opt = {6, noise, MNF_IMPL_SERIAL, 0, 0, 0};
  mnf_result a, b;
  char err[512];
  CHECK(mnf_run(&img, &opt, &a, err, sizeof err) == 0);
  opt.impl = MNF_IMPL_CPU;
  CHECK(mnf_run(&img, &opt, &b, err, sizeof err) == 0);
  CHECK(max_rel_diff(b.noise_cov, a.noise_cov, B * B) < 1e-5);
  CHECK(max_rel_diff(b.data_cov, a.data_cov, B * B) < 1e-5);
  for (int m = 0; m < B; m++) CHECK_NEAR(b.eigenvalues[m] / a.eigenvalues[m], 1.0, 1e-4);
  size_t S = a.pixels;
  for (int m = 0; m < SIGNAL - 1; m++) {
    double tcol_a[B], tcol_b[B], worst = 0, scale = 0;
    for (int k = 0; k < B; k++) tcol_a[k] = a.transform[k * B + m], tcol_b[k] = b.transform[k * B + m];
    CHECK(max_rel_diff(tcol_b, tcol_a, B) < 1e-3);
    for (size_t k = 0; k < S; k++) {
      worst = fmax(worst, fabs(a.components_data[m * S + k] - b.components_data[m * S + k]));
      scale = fmax(scale, fabs(a.components_data[m * S + k]));
    }
    CHECK(worst / scale < 1e-3);
  }
  mnf_result_free(&a);
  mnf_result_free(&b);
  mnf_image_free(&img);
}

int main(void)
{
  check_against_reference(MNF_NOISE_MEDIAN3, ENVI_I16, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_MEAN3, ENVI_U16, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_DIFF, ENVI_F32, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_MEAN3, ENVI_U8, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_SHIFT, ENVI_F32, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_DIAG, ENVI_I16, MNF_IMPL_SERIAL);
  check_against_reference(MNF_NOISE_SHIFT, ENVI_I16, MNF_IMPL_CPU);
  check_against_reference(MNF_NOISE_DIAG, ENVI_F32, MNF_IMPL_CPU);
  check_against_reference(MNF_NOISE_MEDIAN3, ENVI_F32, MNF_IMPL_CPU);
  test_bad_images();
  test_serial_vs_cpu(MNF_NOISE_MEAN3, ENVI_I16);
  test_serial_vs_cpu(MNF_NOISE_MEDIAN3, ENVI_I32);
  test_serial_vs_cpu(MNF_NOISE_DIFF, ENVI_U8);
  test_serial_vs_cpu(MNF_NOISE_SHIFT, ENVI_F32);
  test_serial_vs_cpu(MNF_NOISE_DIAG, ENVI_I16);
  return test_summary();
}

/* Issue 11 on the CPU implementations: accuracy that holds at any
 * condition number, the noise estimates' scale, denoising, the statistics
 * file, apply and inverse, and NaN/Inf pixels.
 *
 * kappa = lambda_max(C_D) / lambda_min(C_N). Float32 scenes at kappa 1e4,
 * 1e6 and 1e8 (synth_noise_for_kappa) against the float64 reference
 * (mnf_reference.c): every noise-floor eigenvalue within 1e-6 of its value,
 * |cos| >= 0.9999 for every component at least 1% from its neighbours. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mnf.h"
#include "mnf_reference.h"
#include "synth.h"
#include "testing.h"

enum { W = 96, H = 80, B = 24 };

static void test_kappa(int impl)
{
  static const double kappas[3] = {1e4, 1e6, 1e8};
  for (int i = 0; i < 3; i++) {
    ref_accuracy acc;
    double measured;
    char err[512];
    if (ref_kappa_case(W, H, B, kappas[i], ENVI_F32, impl, MNF_NOISE_MEAN3, &acc, &measured, err, sizeof err)) {
      test_fail(__FILE__, __LINE__, "%s: %s", mnf_impl_name(impl), err);
      continue;
    }
    CHECK(acc.noise_floor >= B - 5 && acc.separated >= 3);
    CHECK(acc.noise_eig_rel < 1e-6);
    CHECK(acc.min_cos >= 0.9999);
    /* The scene is what was asked for, within a factor of 3. */
    CHECK(measured > kappas[i] / 3 && measured < kappas[i] * 3);
  }
}

/* White Gaussian noise of variance sigma^2 must give a noise covariance
 * with sigma^2 on its diagonal, for every estimate. */
static void test_noise_scale(void)
{
  enum { SIZE = 300, BANDS = 3 };
  const double sigma = 2.0;
  mnf_image img;
  CHECK(mnf_image_alloc(&img, SIZE, SIZE, BANDS, ENVI_F32, NULL) == 0);
  uint64_t state = 12345;
  float *v = img.data;
  for (size_t i = 0; i < (size_t)SIZE * SIZE * BANDS; i += 2) {
    double u1, u2;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    u1 = ((state >> 11) + 0.5) / 9007199254740992.0;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    u2 = ((state >> 11) + 0.5) / 9007199254740992.0;
    double r = sqrt(-2.0 * log(u1));
    v[i] = (float)(1000.0 + sigma * r * cos(6.283185307179586 * u2));
    v[i + 1] = (float)(1000.0 + sigma * r * sin(6.283185307179586 * u2));
  }
  for (int noise = 0; noise < MNF_NOISES; noise++) {
    mnf_options opt = {0, noise, MNF_IMPL_CPU, 0, 0, 1};
    mnf_result r;
    char err[512];
    if (mnf_run(&img, &opt, &r, err, sizeof err)) { test_fail(__FILE__, __LINE__, "%s", err); continue; }
    double worst = 0;
    for (int b = 0; b < BANDS; b++) worst = fmax(worst, fabs(r.noise_cov[b * BANDS + b] / (sigma * sigma) - 1.0));
    printf("white noise, sigma^2 = %.1f: %-7s estimates it within %.2f%%\n", sigma * sigma, mnf_noise_name(noise), 100 * worst);
    CHECK(worst < 0.03);
    mnf_result_free(&r);
  }
  mnf_image_free(&img);
}

/* Denoising a scene of known signal plus known noise: the denoised image is
 * the clean one plus the noise projected onto the K kept components, R n
 * with R = C_N T_K T_K^T, whose variance the statistics predict,
 * trace(R Sigma R^T) for the true noise covariance Sigma, plus what the map
 * loses of the signal (measured by mapping the clean image). */
static void test_denoise(int impl)
{
  enum { K = 4 };
  synth_params p;
  synth_defaults(&p, W, H, B, ENVI_F32, 77);
  mnf_image clean, noisy;
  p.noise = 0.0;
  CHECK(synth_generate(&p, &clean, NULL) == 0);
  p.noise = 40.0;
  CHECK(synth_generate(&p, &noisy, NULL) == 0);
  mnf_options opt = {0, MNF_NOISE_MEAN3, impl, 0, 0, 1};
  mnf_result r;
  char err[512];
  if (mnf_run(&noisy, &opt, &r, err, sizeof err)) { test_fail(__FILE__, __LINE__, "%s", err); return; }
  mnf_map map;
  CHECK(mnf_map_make(&map, &r, MNF_MAP_DENOISE, K, 0) == 0);
  size_t S = mnf_image_pixels(&noisy);
  float *out = malloc(sizeof(float) * B * S), *kept = malloc(sizeof(float) * B * S);
  double ms;
  CHECK(mnf_apply_map(&noisy, &map, impl, out, &ms, err, sizeof err) == 0);
  CHECK(mnf_apply_map(&clean, &map, impl, kept, &ms, err, sizeof err) == 0);
  double before = 0, after = 0, predicted = 0, total_noise = 0, signal_lost = 0;
  for (size_t i = 0; i < (size_t)B * S; i++) {
    double c = mnf_image_value(&clean, i);
    before += (mnf_image_value(&noisy, i) - c) * (mnf_image_value(&noisy, i) - c);
    after += (out[i] - c) * (out[i] - c);
    signal_lost += (kept[i] - c) * (kept[i] - c);
  }
  /* back = C_N T_K, the left factor of R. The true noise covariance is
   * diagonal, sigma_b^2 (synth.c). */
  double *back = calloc((size_t)B * K, sizeof(double));
  for (int b = 0; b < B; b++) {
    double t = (double)b / (B - 1), sb = p.noise * (1.0 + 8.0 * (t - 0.5) * (t - 0.5));
    total_noise += sb * sb;
    for (int c = 0; c < K; c++)
      for (int j = 0; j < B; j++) back[b * K + c] += r.noise_cov[b * B + j] * r.transform[j * B + c];
  }
  /* E|R n|^2 = trace(R Sigma R^T) = sum_cd (back^T back)_cd (T_K^T Sigma T_K)_cd. */
  for (int c = 0; c < K; c++)
    for (int d = 0; d < K; d++) {
      double g = 0, h = 0;
      for (int b = 0; b < B; b++) {
        double t = (double)b / (B - 1), sb = p.noise * (1.0 + 8.0 * (t - 0.5) * (t - 0.5));
        g += back[b * K + c] * back[b * K + d];
        h += r.transform[b * B + c] * r.transform[b * B + d] * sb * sb;
      }
      predicted += g * h;
    }
  before /= (double)S, after /= (double)S, signal_lost /= (double)S;
  printf("denoise (%s, K = %d): squared error per pixel %.1f -> %.1f (%.1fx less); expected %.1f -> %.1f = "
         "%.1f noise kept + %.1f signal lost\n", mnf_impl_name(impl), K, before, after, before / after, total_noise,
         predicted + signal_lost, predicted, signal_lost);
  CHECK(fabs(before / total_noise - 1.0) < 0.05);
  CHECK(fabs(after / (predicted + signal_lost) - 1.0) < 0.1);
  CHECK(after < before / 5.0);
  free(back);
  free(out);
  free(kept);
  mnf_map_free(&map);
  mnf_result_free(&r);
  mnf_image_free(&clean);
  mnf_image_free(&noisy);
}

/* The statistics file round trip, apply with it, and inverse. */
static void test_stats_apply_inverse(void)
{
  mnf_image img;
  CHECK(ref_kappa_scene(W, H, B, 1e5, ENVI_F32, &img) == 0);
  mnf_options opt = {0, MNF_NOISE_SHIFT, MNF_IMPL_CPU, 0, 0, 0};
  mnf_result r, back;
  char err[512], path[] = "/tmp/test_mnf_stats.XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  CHECK(mnf_run(&img, &opt, &r, err, sizeof err) == 0);
  envi_meta meta = {{0}}, meta_back;
  envi_meta_set(&meta, ENVI_META_WAVELENGTH, "{400.0,\n 500.0}");
  staged_files s;
  staged_init(&s);
  CHECK(mnf_write_stats(path, &r, opt.noise, &meta, &s, err, sizeof err) == 0);
  CHECK(staged_commit(&s, err, sizeof err) == 0);
  int noise;
  CHECK(mnf_read_stats(path, &back, &noise, &meta_back, err, sizeof err) == 0);
  unlink(path);
  if (!back.bands) return;
  int same = noise == MNF_NOISE_SHIFT && back.bands == B && back.pixels == r.pixels && back.noise_pixels == r.noise_pixels;
  same &= !memcmp(back.band_mean, r.band_mean, sizeof(double) * B) && !memcmp(back.eigenvalues, r.eigenvalues, sizeof(double) * B);
  same &= !memcmp(back.noise_cov, r.noise_cov, sizeof(double) * B * B) && !memcmp(back.transform, r.transform, sizeof(double) * B * B);
  CHECK(same); /* bit for bit */
  CHECK(meta_back.value[ENVI_META_WAVELENGTH] && !strcmp(meta_back.value[ENVI_META_WAVELENGTH], "{400.0,  500.0}"));
  size_t S = mnf_image_pixels(&img);
  for (int impl = MNF_IMPL_SERIAL; impl <= MNF_IMPL_CPU; impl++) {
    mnf_map fwd, inv;
    float *z = malloc(sizeof(float) * B * S), *x = malloc(sizeof(float) * B * S);
    double ms, worst_z = 0, worst_x = 0, scale_z = 0, scale_x = 0;
    CHECK(mnf_map_make(&fwd, &back, MNF_MAP_FORWARD, B, 0) == 0 && mnf_map_make(&inv, &back, MNF_MAP_INVERSE, B, 0) == 0);
    CHECK(mnf_apply_map(&img, &fwd, impl, z, &ms, err, sizeof err) == 0);
    mnf_image zi = {W, H, B, ENVI_F32, z, NULL};
    CHECK(mnf_apply_map(&zi, &inv, impl, x, &ms, err, sizeof err) == 0);
    for (size_t i = 0; i < (size_t)B * S; i++) {
      worst_z = fmax(worst_z, fabs(z[i] - r.components_data[i]));
      scale_z = fmax(scale_z, fabs(r.components_data[i]));
      worst_x = fmax(worst_x, fabs(x[i] - mnf_image_value(&img, i)));
      scale_x = fmax(scale_x, fabs(mnf_image_value(&img, i)));
    }
    printf("apply (%s) vs the run's components: %.1e; inverse(apply) vs the image: %.1e\n", mnf_impl_name(impl),
           worst_z / scale_z, worst_x / scale_x);
    CHECK(worst_z / scale_z < 1e-5);
    CHECK(worst_x / scale_x < 1e-5);
    free(z), free(x);
    mnf_map_free(&fwd), mnf_map_free(&inv);
  }
  /* A damaged file is named and refused. */
  FILE *f = fopen(path, "w");
  fputs("MNF statistics 1\nbands = 2\nnoise = mean3\nband mean = 1 2\neigenvalues = 3 oops\n", f);
  fclose(f);
  err[0] = 0;
  CHECK(mnf_read_stats(path, &back, &noise, NULL, err, sizeof err) != 0);
  CHECK(strstr(err, path) && strstr(err, "eigenvalues"));
  unlink(path);
  mnf_result_free(&back);
  mnf_result_free(&r);
  envi_meta_free(&meta);
  envi_meta_free(&meta_back);
  mnf_image_free(&img);
}

/* NaN and Inf: named and refused; with skip_nonfinite left out of the
 * statistics, the data covariance is the one of the other pixels, and
 * their components are NaN. */
static void test_nonfinite(void)
{
  mnf_image img;
  CHECK(ref_kappa_scene(W, H, B, 1e5, ENVI_F32, &img) == 0);
  size_t S = mnf_image_pixels(&img);
  float *v = img.data;
  v[1 * S + 6 * W + 4] = NAN;     /* band 2, sample 5, line 7 */
  v[5 * S + 20 * W + 30] = INFINITY;
  mnf_options opt = {0, MNF_NOISE_MEAN3, MNF_IMPL_SERIAL, 0, 0, 0};
  mnf_result r[2];
  char err[512] = "";
  CHECK(mnf_run(&img, &opt, &r[0], err, sizeof err) != 0);
  CHECK(strstr(err, "2 NaN or Inf values; the first, NaN, in band 2 at sample 5, line 7") != NULL);
  opt.skip_nonfinite = 1;
  for (int impl = MNF_IMPL_SERIAL; impl <= MNF_IMPL_CPU; impl++) {
    opt.impl = impl;
    CHECK(mnf_run(&img, &opt, &r[impl], err, sizeof err) == 0);
  }
  mnf_result gpu;
  opt.impl = MNF_IMPL_GPU;
  CHECK(mnf_run(&img, &opt, &gpu, err, sizeof err) != 0 && strstr(err, "--impl serial or cpu"));
  /* The reference data covariance over the finite pixels. */
  double *x = malloc(sizeof(double) * B * S), cd[B * B];
  for (size_t i = 0; i < (size_t)B * S; i++) x[i] = v[i];
  x[6 * W + 4] = x[20 * W + 30] = NAN; /* ref_covariance leaves out pixels NAN in row 0 */
  ref_covariance(x, B, S, cd);
  for (int impl = 0; impl < 2; impl++) {
    double worst = 0, scale = 0;
    for (int i = 0; i < B * B; i++) worst = fmax(worst, fabs(r[impl].data_cov[i] - cd[i])), scale = fmax(scale, fabs(cd[i]));
    CHECK(worst / scale < 1e-12);
    CHECK(r[impl].valid_pixels == S - 2);
    CHECK(isnan(r[impl].components_data[6 * W + 4]) && isnan(r[impl].components_data[(size_t)3 * S + 20 * W + 30]));
    CHECK(isfinite(r[impl].components_data[0]) && isfinite(r[impl].eigenvalues[B - 1]));
    /* The 3x3 neighbourhoods of both pixels (9 each) have no estimate. */
    CHECK(r[impl].noise_pixels == S - 18);
  }
  CHECK(fabs(r[0].eigenvalues[0] / r[1].eigenvalues[0] - 1.0) < 1e-9);
  mnf_result_free(&r[0]);
  mnf_result_free(&r[1]);
  free(x);
  mnf_image_free(&img);
}

/* Issue 21: the float32 variants' warning, decided from the covariances
 * (here the CPU's, in float64, of the same scenes): none where float32
 * resolves the noise floor (kappa 1e3), one line naming the condition number
 * where it cannot (4e8, the scene the cuBLAS variants got wrong on the
 * H100); never for the float64 implementations. */
static void test_float32_warning(void)
{
  static const double kappas[2] = {1e3, 4e8};
  for (int i = 0; i < 2; i++) {
    mnf_image img;
    CHECK(ref_kappa_scene(W, H, B, kappas[i], ENVI_F32, &img) == 0);
    mnf_options opt = {0, MNF_NOISE_MEAN3, MNF_IMPL_CPU, 0, 0, 1};
    mnf_result r;
    char err[512];
    if (mnf_run(&img, &opt, &r, err, sizeof err)) {
      test_fail(__FILE__, __LINE__, "kappa %g: %s", kappas[i], err);
      mnf_image_free(&img);
      continue;
    }
    CHECK(r.warning[0] == 0);   /* float64: no warning, whatever the scene */
    mnf_check_float32_covariances(MNF_IMPL_CUBLAS, &r);
    printf("kappa %g: measured %.3g; cublas: %s\n", kappas[i], r.kappa, r.warning[0] ? r.warning : "no warning");
    CHECK(r.kappa > kappas[i] / 3 && r.kappa < kappas[i] * 3);
    if (i == 0) CHECK(r.warning[0] == 0);
    else {
      CHECK(strstr(r.warning, "--impl cublas: float32 covariances cannot resolve this image's noise floor "
                              "(condition number ") == r.warning);
      CHECK(strchr(r.warning, '\n') == NULL);
    }
    mnf_result_free(&r);
    mnf_image_free(&img);
  }
}

int main(void)
{
  test_float32_warning();
  test_kappa(MNF_IMPL_SERIAL);
  test_kappa(MNF_IMPL_CPU);
  test_noise_scale();
  test_denoise(MNF_IMPL_SERIAL);
  test_denoise(MNF_IMPL_CPU);
  test_stats_apply_inverse();
  test_nonfinite();
  return test_summary();
}

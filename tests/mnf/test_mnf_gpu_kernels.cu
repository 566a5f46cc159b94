/* Every GPU kernel version against the CPU reference, on sizes that are
 * not multiples of any tile (width, height, bands), several stored types,
 * outputs poisoned before each run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "gpu.h"
#include "kernels.h"
#include "mnf_internal.h"
#include "synth.h"
#include "testing.h"

struct scene {
  mnf_image img;
  void *d_x;
  gpu_image view;
};

static void scene_make(scene *s, int w, int h, int b, int type, unsigned seed)
{
  synth_params p;
  synth_defaults(&p, w, h, b, type, seed);
  if (synth_generate(&p, &s->img, NULL)) abort();
  size_t bytes = mnf_image_bytes(&s->img);
  CUDA_CHECK(cudaMalloc(&s->d_x, bytes));
  CUDA_CHECK(cudaMemcpy(s->d_x, s->img.data, bytes, cudaMemcpyHostToDevice));
  s->view = {s->d_x, type, w, h, b};
}

static void scene_free(scene *s)
{
  CUDA_CHECK(cudaFree(s->d_x));
  mnf_image_free(&s->img);
}

static void check_filter(const char *name, filter_launch launch, int noise, scene *s, int row0, int nrows)
{
  test_progress("%s, rows %d+%d", name, row0, nrows);
  const mnf_image *img = &s->img;
  size_t per_band = (size_t)nrows * img->samples, count = per_band * img->bands;
  std::vector<double> want(count);
  std::vector<float> got(count);
  for (int b = 0; b < img->bands; b++) mnf_noise_rows(img, noise, NULL, b, row0, nrows, want.data() + b * per_band);
  float *d_f;
  CUDA_CHECK(cudaMalloc(&d_f, count * 4));
  CUDA_CHECK(cudaMemset(d_f, 0xFF, count * 4)); /* NaN */
  launch(&s->view, row0, nrows, d_f, 0);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got.data(), d_f, count * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_f));
  double worst = 0, scale = 0;
  for (size_t i = 0; i < count; i++) {
    scale = fmax(scale, fabs(want[i]));
    worst = isnan(got[i]) ? INFINITY : fmax(worst, fabs(got[i] - want[i]));
  }
  /* Double arithmetic rounded to float on both sides (issue 11). */
  if (worst <= 1e-6 * scale + 1e-6) test_passed++;
  else test_fail(__FILE__, __LINE__, "%s (%s, %dx%dx%d, rows %d+%d): max error %g of %g", name,
                 envi_type_name(img->data_type), img->samples, img->lines, img->bands, row0, nrows, worst, scale);
}

/* Reference: lower triangle of sum (a_i - s_i)(a_j - s_j) over rows
 * [row0, row0 + nrows) of every band, in double. */
static void check_cov(const char *name, cov_launch launch, scene *s, int row0, int nrows, bool with_shift,
                      bool full = false, double tolerance = 1e-5)
{
  test_progress("%s, rows %d+%d", name, row0, nrows);
  const mnf_image *img = &s->img;
  int B = img->bands;
  size_t S = mnf_image_pixels(img), n = (size_t)nrows * img->samples, first = (size_t)row0 * img->samples;
  std::vector<float> shift(B);
  for (int b = 0; b < B; b++) shift[b] = with_shift ? (float)mnf_image_value(img, (size_t)b * S + 3) : 0.0f;
  std::vector<double> want((size_t)B * B, 7.0), got((size_t)B * B);
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++) {
      double sum = 0;
      for (size_t k = 0; k < n; k++)
        sum += (mnf_image_value(img, i * S + first + k) - shift[i]) * (mnf_image_value(img, j * S + first + k) - shift[j]);
      want[(size_t)i * B + j] += sum;
      if (full && j < i) want[(size_t)j * B + i] += sum;
    }
  float *d_shift;
  double *d_sum;
  CUDA_CHECK(cudaMalloc(&d_shift, B * 4));
  CUDA_CHECK(cudaMalloc(&d_sum, (size_t)B * B * 8));
  CUDA_CHECK(cudaMemcpy(d_shift, shift.data(), B * 4, cudaMemcpyHostToDevice));
  std::vector<double> seven((size_t)B * B, 7.0);
  CUDA_CHECK(cudaMemcpy(d_sum, seven.data(), (size_t)B * B * 8, cudaMemcpyHostToDevice));
  gpu_matrix a = {(const char *)s->d_x + first * envi_type_size(img->data_type), img->data_type, B, (long long)n, (long long)S};
  launch(&a, with_shift ? d_shift : NULL, d_sum, 0);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got.data(), d_sum, (size_t)B * B * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_shift));
  CUDA_CHECK(cudaFree(d_sum));
  double worst = 0, scale = 0;
  for (size_t i = 0; i < want.size(); i++) {
    scale = fmax(scale, fabs(want[i]));
    worst = isnan(got[i]) ? INFINITY : fmax(worst, fabs(got[i] - want[i]));
  }
  if (worst <= tolerance * scale) test_passed++;
  else test_fail(__FILE__, __LINE__, "%s (%s, %dx%dx%d, rows %d+%d, shift %d): max error %g of %g", name,
                 envi_type_name(img->data_type), img->samples, img->lines, B, row0, nrows, with_shift, worst, scale);
}

/* cov_fp64 as a cov_launch: a context per call, slices of 100 pixels so
 * that every case crosses slices. Dgemm fills the whole square. */
static void fp64_launch(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t st, int routine)
{
  cov_fp64 c;
  cov_fp64_create(&c, a->bands, 100, routine, st);
  cov_fp64_add(&c, a, shift, sum, st);
  CUDA_CHECK(cudaStreamSynchronize(st));
  cov_fp64_destroy(&c);
}
static void cov_fp64_dgemm(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t st)
{
  fp64_launch(a, shift, sum, st, COV_FP64_DGEMM);
}
static void cov_fp64_dsyrk(const gpu_matrix *a, const float *shift, double *sum, cudaStream_t st)
{
  fp64_launch(a, shift, sum, st, COV_FP64_DSYRK);
}

static void check_band_sums(scene *s)
{
  const mnf_image *img = &s->img;
  int B = img->bands;
  size_t S = mnf_image_pixels(img);
  std::vector<double> got(B);
  double *d_sums;
  CUDA_CHECK(cudaMalloc(&d_sums, B * 8));
  CUDA_CHECK(cudaMemset(d_sums, 0, B * 8));
  gpu_matrix a = {s->d_x, img->data_type, B, (long long)S, (long long)S};
  band_sums(&a, NULL, d_sums, 0);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got.data(), d_sums, B * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_sums));
  double worst = 0;
  for (int b = 0; b < B; b++) {
    double want = 0;
    for (size_t k = 0; k < S; k++) want += mnf_image_value(img, b * S + k);
    worst = fmax(worst, fabs(got[b] - want) / fmax(1.0, fabs(want)));
  }
  /* Integer types are summed exactly. */
  if (img->data_type == ENVI_F32) CHECK(worst < 1e-6);
  else CHECK(worst == 0.0);
}

/* With centred: each band's mean (as float) is the shift, and the error
 * is measured against the centred products, which a float sum of
 * uncentred ones would miss by far more than the tolerance on an image
 * whose mean is large against its spread. */
static void check_transform(const char *name, transform_launch launch, scene *s, int components, int row0, int nrows,
                            bool centred)
{
  test_progress("%s, rows %d+%d%s", name, row0, nrows, centred ? ", centred" : "");
  const mnf_image *img = &s->img;
  int B = img->bands;
  size_t S = mnf_image_pixels(img), n = (size_t)nrows * img->samples, first = (size_t)row0 * img->samples;
  std::vector<float> t((size_t)components * B);
  srand(5);
  for (auto &v : t) v = (float)rand() / RAND_MAX - 0.5f;
  /* Output into a wider buffer (ldz = S) at the rows' offset, as the runner does. */
  std::vector<float> got((size_t)components * S), shift(B, 0.0f);
  for (int b = 0; b < B && centred; b++) {
    double sum = 0;
    for (size_t k = 0; k < S; k++) sum += mnf_image_value(img, b * S + k);
    shift[b] = (float)(sum / S);
  }
  float *d_t, *d_z, *d_shift;
  CUDA_CHECK(cudaMalloc(&d_t, t.size() * 4));
  CUDA_CHECK(cudaMalloc(&d_z, got.size() * 4));
  CUDA_CHECK(cudaMalloc(&d_shift, B * 4));
  CUDA_CHECK(cudaMemcpy(d_t, t.data(), t.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_shift, shift.data(), B * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_z, 0xFF, got.size() * 4));
  gpu_matrix x = {(const char *)s->d_x + first * envi_type_size(img->data_type), img->data_type, B, (long long)n, (long long)S};
  launch(&x, d_t, centred ? d_shift : NULL, components, d_z + first, (long long)S, 0);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got.data(), d_z, got.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_t));
  CUDA_CHECK(cudaFree(d_z));
  CUDA_CHECK(cudaFree(d_shift));
  double worst = 0, scale = 0;
  for (int m = 0; m < components; m++)
    for (size_t k = 0; k < n; k++) {
      double want = 0;
      for (int b = 0; b < B; b++)
        want += (double)t[(size_t)m * B + b] * (mnf_image_value(img, b * S + first + k) - shift[b]);
      float g = got[m * S + first + k];
      scale = fmax(scale, fabs(want));
      worst = isnan(g) ? INFINITY : fmax(worst, fabs(g - want));
    }
  if (worst <= 1e-5 * scale) test_passed++;
  else test_fail(__FILE__, __LINE__, "%s (%s, %dx%dx%d, M %d): max error %g of %g", name, envi_type_name(img->data_type),
                 img->samples, img->lines, B, components, worst, scale);
}

/* Overwrites about half the values of a scene with its type's extremes
 * (u = 0 and u = 65535 for V8), in a pattern that differs between bands,
 * and uploads it again. */
static void scene_extremes(scene *s)
{
  size_t count = mnf_image_pixels(&s->img) * s->img.bands;
  for (size_t i = 0; i < count; i++) {
    int pick = (int)(((i * 2654435761u) >> 13) % 4);
    if (s->img.data_type == ENVI_I16 && pick < 2) ((int16_t *)s->img.data)[i] = pick ? 32767 : -32768;
    if (s->img.data_type == ENVI_U16 && pick < 2) ((uint16_t *)s->img.data)[i] = pick ? 65535 : 0;
  }
  CUDA_CHECK(cudaMemcpy(s->d_x, s->img.data, mnf_image_bytes(&s->img), cudaMemcpyHostToDevice));
}

/* V8's exactness bounds: extremes over more than 32768 pixels of a tile
 * pair (several blocks, a partial second tile), and a band whose every
 * block's int32 sum of h * h is at its limit. */
static void check_cov_v8_extremes(void)
{
  scene e16, e_u16;
  scene_make(&e16, 301, 157, 40, ENVI_I16, 5);
  scene_extremes(&e16);
  for (int shift = 0; shift < 2; shift++) {
    check_cov("cov_v8_tensor", cov_v8_tensor, &e16, 0, 157, shift);
    check_cov("cov_v8_tensor", cov_v8_tensor, &e16, 13, 131, shift);
  }
  scene_free(&e16);
  scene_make(&e_u16, 197, 181, 35, ENVI_U16, 6);
  scene_extremes(&e_u16);
  for (int shift = 0; shift < 2; shift++) check_cov("cov_v8_tensor", cov_v8_tensor, &e_u16, 0, 181, shift);
  scene_free(&e_u16);
  if (test_small_sizes()) return; /* 69 M pixels: an exactness bound, not a memory path of its own */
  /* One int16 band of 32512 + (k % 256): every high byte is 255, so a
   * block's sum h * h is 65025 per pixel. 8448 x 8192 pixels are 4 waves
   * of 132 SMs x 4 blocks x 32768 pixels: on the H100 each block has
   * exactly 32768, the int32 limit (65025 * 32768 < 2^31); elsewhere a
   * little fewer. */
  scene bound;
  if (mnf_image_alloc(&bound.img, 8448, 8192, 1, ENVI_I16, NULL)) abort();
  size_t count = mnf_image_pixels(&bound.img);
  for (size_t k = 0; k < count; k++) ((int16_t *)bound.img.data)[k] = (int16_t)(32512 + k % 256);
  CUDA_CHECK(cudaMalloc(&bound.d_x, count * 2));
  CUDA_CHECK(cudaMemcpy(bound.d_x, bound.img.data, count * 2, cudaMemcpyHostToDevice));
  bound.view = {bound.d_x, ENVI_I16, 8448, 8192, 1};
  for (int shift = 0; shift < 2; shift++) check_cov("cov_v8_tensor", cov_v8_tensor, &bound, 0, 8192, shift);
  scene_free(&bound);
}

int main(void)
{
  if (!gpu_or_skip("test_mnf_gpu_kernels")) return GPU_SKIP_EXIT;
  struct { int w, h, b, type; } sizes[] = {
      {37, 29, 13, ENVI_I16}, {53, 23, 119, ENVI_U8}, {31, 70, 9, ENVI_F32}, {45, 33, 17, ENVI_U16}, {3, 3, 5, ENVI_I32}};
  for (auto &z : sizes) {
    scene s;
    scene_make(&s, z.w, z.h, z.b, z.type, 11u + z.w);
    int mid = z.h / 3, rows = z.h - mid - 1 > 0 ? z.h - mid - 1 : 1;
    for (int part = 0; part < 2; part++) {
      int row0 = part ? mid : 0, nrows = part ? rows : z.h;
      check_filter("filter_v0_median", filter_v0_median, MNF_NOISE_MEDIAN3, &s, row0, nrows);
      check_filter("filter_v1_mean", filter_v1_mean, MNF_NOISE_MEAN3, &s, row0, nrows);
      check_filter("filter_v2_shared", filter_v2_shared, MNF_NOISE_MEAN3, &s, row0, nrows);
      check_filter("filter_v3_reuse", filter_v3_reuse, MNF_NOISE_MEAN3, &s, row0, nrows);
      check_filter("filter_diff", filter_diff, MNF_NOISE_DIFF, &s, row0, nrows);
      check_filter("filter_shift", filter_shift, MNF_NOISE_SHIFT, &s, row0, nrows);
      check_filter("filter_diag", filter_diag, MNF_NOISE_DIAG, &s, row0, nrows);
      for (int shift = 0; shift < 2; shift++) {
        /* Under the sanitizer (seconds a call) the shift goes with the part. */
        if (test_small_sizes() && shift != part) continue;
        check_cov("cov_v0_naive", cov_v0_naive, &s, row0, nrows, shift);
        check_cov("cov_v1_shared_reduce", cov_v1_shared_reduce, &s, row0, nrows, shift);
        check_cov("cov_v2_registers", cov_v2_registers, &s, row0, nrows, shift);
        check_cov("cov_v3_tiled", cov_v3_tiled, &s, row0, nrows, shift);
        check_cov("cov_v4_padded", cov_v4_padded, &s, row0, nrows, shift);
        check_cov("cov_v5_gemm", cov_v5_gemm, &s, row0, nrows, shift);
        check_cov("cov_v6_deferred", cov_v6_deferred, &s, row0, nrows, shift);
        check_cov("cov_v7_occupancy", cov_v7_occupancy, &s, row0, nrows, shift);
        check_cov("cov_v8_tensor", cov_v8_tensor, &s, row0, nrows, shift);
        check_cov("cov_fp64 dgemm", cov_fp64_dgemm, &s, row0, nrows, shift, true, 1e-13);
        check_cov("cov_fp64 dsyrk", cov_fp64_dsyrk, &s, row0, nrows, shift, false, 1e-13);
      }
      for (int m : {1, 20, 45}) {
        for (bool centred : {false, true}) {
          check_transform("transform_v0_naive", transform_v0_naive, &s, m, row0, nrows, centred);
          check_transform("transform_v1_constant", transform_v1_constant, &s, m, row0, nrows, centred);
          check_transform("transform_v2_shared", transform_v2_shared, &s, m, row0, nrows, centred);
          check_transform("transform_v3_registers", transform_v3_registers, &s, m, row0, nrows, centred);
        }
      }
    }
    check_band_sums(&s);
    scene_free(&s);
  }
  /* Enough pixels for several COV_BLOCK_PIXELS chunks and split blocks. */
  scene big;
  scene_make(&big, 301, 157, 31, ENVI_I16, 99);
  check_cov("cov_v3_tiled", cov_v3_tiled, &big, 0, 157, true);
  check_cov("cov_v4_padded", cov_v4_padded, &big, 0, 157, true);
  check_cov("cov_v5_gemm", cov_v5_gemm, &big, 0, 157, true);
  check_cov("cov_v6_deferred", cov_v6_deferred, &big, 0, 157, true);
  check_cov("cov_v7_occupancy", cov_v7_occupancy, &big, 0, 157, true);
  check_cov("cov_v8_tensor", cov_v8_tensor, &big, 0, 157, true);
  check_cov("cov_v2_registers", cov_v2_registers, &big, 0, 157, true);
  /* 473 slices of 100 pixels, a cuBLAS call each: under the sanitizer
   * (where the small scenes above already cross slices) racecheck did not
   * get through them in 400 s. */
  if (!test_small_sizes()) {
    check_cov("cov_fp64 dgemm", cov_fp64_dgemm, &big, 0, 157, true, true, 1e-13);
    check_cov("cov_fp64 dsyrk", cov_fp64_dsyrk, &big, 0, 157, true, false, 1e-13);
  }
  check_band_sums(&big);
  scene_free(&big);
  /* 200 bands: four 64-band tiles of V5, the last with one warp idle. */
  scene wide;
  scene_make(&wide, 67, 45, 200, ENVI_I16, 7);
  check_cov("cov_v4_padded", cov_v4_padded, &wide, 0, 45, true);
  check_cov("cov_v5_gemm", cov_v5_gemm, &wide, 0, 45, true);
  check_cov("cov_v5_gemm", cov_v5_gemm, &wide, 11, 30, false);
  check_cov("cov_v6_deferred", cov_v6_deferred, &wide, 0, 45, true);
  check_cov("cov_v6_deferred", cov_v6_deferred, &wide, 11, 30, false);
  check_cov("cov_v7_occupancy", cov_v7_occupancy, &wide, 0, 45, true);
  check_cov("cov_v7_occupancy", cov_v7_occupancy, &wide, 11, 30, false);
  check_cov("cov_v8_tensor", cov_v8_tensor, &wide, 0, 45, true);
  check_cov("cov_v8_tensor", cov_v8_tensor, &wide, 11, 30, false);
  check_transform("transform_v3_registers", transform_v3_registers, &wide, 20, 11, 30, true);
  check_transform("transform_v3_registers", transform_v3_registers, &wide, 33, 0, 45, true);
  scene_free(&wide);
  check_cov_v8_extremes();
  return test_summary();
}

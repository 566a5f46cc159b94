/* The whole MNF on the GPU (gpu, gpu-naive, cublas, cublas-gemm) against the
 * serial implementation on a small odd-sized scene, for each noise
 * estimate, and with S3, S5-S7 forced onto the CPU and onto cuSOLVER. Signal components are compared column by column (the noise
 * eigenvalues are nearly equal, so their eigenvectors are not determined). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "mnf.h"
#include "mnf_gpu.h"
#include "synth.h"
#include "testing.h"

enum { SIGNAL = 4 }; /* 5 endmembers: 4 directions besides the mean */

static double rel_diff(const double *a, const double *b, size_t n, size_t stride)
{
  double worst = 0, scale = 0;
  for (size_t i = 0; i < n; i++) {
    if (isnan(a[i * stride])) return INFINITY; /* fmax would skip it */
    scale = fmax(scale, fabs(b[i * stride]));
    worst = fmax(worst, fabs(a[i * stride] - b[i * stride]));
  }
  return worst / scale;
}

static void check_close(const char *label, int noise, const mnf_result *ref, const mnf_result *got);

/* solver < 0: through mnf_run (the default solver); else a plan with that
 * solver set. */
static void compare(int impl, int noise, const mnf_image *img, int solver)
{
  test_progress("%s, %s noise, solver %d", mnf_impl_name(impl), mnf_noise_name(noise), solver);
  mnf_options opt = {6, noise, MNF_IMPL_SERIAL, 0, 0, 0};
  mnf_result ref, got;
  char err[512];
  if (mnf_run(img, &opt, &ref, err, sizeof err)) { test_fail(__FILE__, __LINE__, "serial: %s", err); return; }
  opt.impl = impl;
  if (solver < 0) {
    if (mnf_run(img, &opt, &got, err, sizeof err)) test_fail(__FILE__, __LINE__, "%s: %s", mnf_impl_name(impl), err);
    else check_close(mnf_impl_name(impl), noise, &ref, &got), mnf_result_free(&got);
  } else {
    mnf_gpu_plan *plan = mnf_gpu_plan_create(img, &opt, err, sizeof err);
    const mnf_result *res;
    CHECK(plan != NULL);
    if (plan) {
      mnf_gpu_plan_set_solver(plan, solver);
      if (mnf_gpu_plan_execute(plan, &res, err, sizeof err)) test_fail(__FILE__, __LINE__, "%s: %s", mnf_impl_name(impl), err);
      else check_close(solver == MNF_GPU_SOLVER_CPU ? "cpu-solve" : solver == MNF_GPU_SOLVER_CUSOLVER ? "cusolver-sygvd"
                       : solver == MNF_GPU_SOLVER_CUSOLVER_TWO ? "cusolver-two-syevd" : "auto-solve", noise, &ref, res);
      /* Auto settles on one of the two after its first run. */
      int used = mnf_gpu_plan_solver(plan, NULL, NULL);
      CHECK(solver == MNF_GPU_SOLVER_AUTO ? used != MNF_GPU_SOLVER_AUTO : used == solver);
      mnf_gpu_plan_destroy(plan);
    }
  }
  mnf_result_free(&ref);
}

/* CUDA-MNF with chunks of a few rows: chunks of one row, filter rows
 * handed from one chunk to the next, the shrinking tail; and the streamed
 * path (two chunk buffers, the image uploaded twice, halo rows). */
static void compare_tuned(int noise, const mnf_image *img, long chunk_pixels, int storage)
{
  test_progress("tuned, %s noise, chunks of %ld pixels, storage %d", mnf_noise_name(noise), chunk_pixels, storage);
  mnf_options opt = {6, noise, MNF_IMPL_SERIAL, 0, 0, 0};
  mnf_result ref;
  char err[512];
  if (mnf_run(img, &opt, &ref, err, sizeof err)) { test_fail(__FILE__, __LINE__, "serial: %s", err); return; }
  opt.impl = MNF_IMPL_GPU;
  mnf_gpu_tuning tuning = {chunk_pixels, storage, 0, 0};
  mnf_gpu_plan *plan = mnf_gpu_plan_create_tuned(img, &opt, &tuning, err, sizeof err);
  const mnf_result *res;
  CHECK(plan != NULL);
  if (plan) {
    CHECK(mnf_gpu_plan_streamed(plan) == (storage == MNF_GPU_STORAGE_STREAMED));
    /* Twice: the second run reuses the slots and events. */
    for (int run = 0; run < 2; run++) {
      if (mnf_gpu_plan_execute(plan, &res, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "tuned: %s", err);
        continue;
      }
      check_close(storage == MNF_GPU_STORAGE_STREAMED ? "gpu-streamed" : "gpu-chunked", noise, &ref, res);
      CHECK(res->streamed == (storage == MNF_GPU_STORAGE_STREAMED));
    }
    mnf_gpu_plan_destroy(plan);
  }
  mnf_result_free(&ref);
}

/* The automatic choice on a GPU of any size (device_bytes): with too
 * little memory, a clear error; with the least memory that works, the
 * streamed path, and it is right; with plenty, the resident path. */
static void check_storage_choice(const mnf_image *img)
{
  test_progress("storage choice");
  mnf_options opt = {6, MNF_NOISE_MEAN3, MNF_IMPL_GPU, 0, 0, 0};
  mnf_gpu_tuning tuning = {0, MNF_GPU_STORAGE_AUTO, 1 << 20, 0};
  char err[512] = "";
  mnf_gpu_plan *plan = mnf_gpu_plan_create_tuned(img, &opt, &tuning, err, sizeof err);
  CHECK(plan == NULL && strstr(err, "not enough GPU memory") != NULL);
  if (plan) mnf_gpu_plan_destroy(plan);
  /* The least memory that gives a plan, to 4 KB. */
  size_t lo = 1 << 20, hi = (size_t)1 << 30;
  while (hi - lo > 4096) {
    tuning.device_bytes = lo + (hi - lo) / 2;
    plan = mnf_gpu_plan_create_tuned(img, &opt, &tuning, err, sizeof err);
    if (plan) hi = tuning.device_bytes, mnf_gpu_plan_destroy(plan);
    else lo = tuning.device_bytes;
  }
  tuning.device_bytes = hi;
  plan = mnf_gpu_plan_create_tuned(img, &opt, &tuning, err, sizeof err);
  CHECK(plan != NULL);
  if (plan) {
    CHECK(mnf_gpu_plan_streamed(plan));
    mnf_options serial = opt;
    serial.impl = MNF_IMPL_SERIAL;
    mnf_result ref;
    const mnf_result *res;
    if (mnf_run(img, &serial, &ref, err, sizeof err) == 0) {
      if (mnf_gpu_plan_execute(plan, &res, err, sizeof err) == 0) check_close("gpu-auto-streamed", opt.noise, &ref, res);
      else test_fail(__FILE__, __LINE__, "auto-streamed: %s", err);
      mnf_result_free(&ref);
    }
    mnf_gpu_plan_destroy(plan);
  }
  tuning.device_bytes = (size_t)1 << 30;
  plan = mnf_gpu_plan_create_tuned(img, &opt, &tuning, err, sizeof err);
  CHECK(plan != NULL && !mnf_gpu_plan_streamed(plan));
  if (plan) mnf_gpu_plan_destroy(plan);
}

static void check_close(const char *label, int noise, const mnf_result *ref, const mnf_result *got)
{
  int B = ref->bands;
  size_t S = ref->pixels;
  double cov_n = rel_diff(got->noise_cov, ref->noise_cov, (size_t)B * B, 1);
  double cov_d = rel_diff(got->data_cov, ref->data_cov, (size_t)B * B, 1);
  double eig = 0, tcol = 0, zdiff = 0;
  for (int m = 0; m < B; m++) eig = fmax(eig, fabs(got->eigenvalues[m] / ref->eigenvalues[m] - 1.0));
  for (int m = 0; m < SIGNAL; m++) {
    tcol = fmax(tcol, rel_diff(got->transform + m, ref->transform + m, B, B));
    double worst = 0, scale = 0;
    for (size_t k = 0; k < S; k++) {
      if (isnan(got->components_data[m * S + k])) worst = INFINITY; /* fmax would skip a NaN */
      worst = fmax(worst, fabs(got->components_data[m * S + k] - ref->components_data[m * S + k]));
      scale = fmax(scale, fabs(ref->components_data[m * S + k]));
    }
    zdiff = fmax(zdiff, worst / scale);
  }
  printf("%-12s %-8s C_N %.2e C_D %.2e eig %.2e T %.2e Z %.2e\n", label, mnf_noise_name(noise), cov_n,
         cov_d, eig, tcol, zdiff);
  CHECK(cov_n < 1e-4);
  CHECK(cov_d < 1e-4);
  CHECK(eig < 1e-3);
  CHECK(tcol < 1e-2);
  CHECK(zdiff < 1e-3);
}

int main(void)
{
  if (!gpu_or_skip("test_mnf_gpu_end_to_end")) return GPU_SKIP_EXIT;
  mnf_gpu_register();
  synth_params p;
  synth_defaults(&p, 61, 47, 24, ENVI_I16, 3);
  envi_allocator pinned = mnf_gpu_pinned_allocator();
  mnf_image img;
  CHECK(synth_generate(&p, &img, &pinned) == 0);
  int impls[] = {MNF_IMPL_GPU, MNF_IMPL_GPU_NAIVE, MNF_IMPL_CUBLAS, MNF_IMPL_CUBLAS_GEMM};
  for (int i = 0; i < 4; i++)
    for (int noise = MNF_NOISE_MEDIAN3; noise < MNF_NOISES; noise++) {
      /* Under the sanitizer the cuBLAS baselines run once: their time goes
       * to checking the library's own kernels. */
      bool library = impls[i] == MNF_IMPL_CUBLAS || impls[i] == MNF_IMPL_CUBLAS_GEMM;
      if (test_small_sizes() && library && noise != MNF_NOISE_MEAN3) continue;
      compare(impls[i], noise, &img, -1);
    }
  for (int noise = MNF_NOISE_MEDIAN3; noise < MNF_NOISES; noise++) {
    /* Under the sanitizer, one noise of each filter kernel: median3, mean3
     * (the shared-memory tile) and diag (the difference kernel); each
     * kernel launch costs it a tenth of a second or more. */
    if (test_small_sizes() && noise != MNF_NOISE_MEDIAN3 && noise != MNF_NOISE_MEAN3 && noise != MNF_NOISE_DIAG)
      continue;
    compare_tuned(noise, &img, 61 * 8, MNF_GPU_STORAGE_RESIDENT); /* 9 chunks: 7, 8, 8, 8, 6, 4, 3, 2, 1 rows */
    compare_tuned(noise, &img, 61 * 4, MNF_GPU_STORAGE_RESIDENT); /* 14 chunks: 1, 4, ..., 4, 3, 2, 1 rows */
    compare_tuned(noise, &img, 61 * 5, MNF_GPU_STORAGE_STREAMED); /* 10 chunks of 5 rows, the last 2 */
    compare_tuned(noise, &img, 61 * 1, MNF_GPU_STORAGE_STREAMED); /* 47 chunks of one row */
    compare_tuned(noise, &img, 0, MNF_GPU_STORAGE_STREAMED);      /* one chunk, no halo */
  }
  check_storage_choice(&img);
  for (int solver = MNF_GPU_SOLVER_AUTO; solver <= MNF_GPU_SOLVER_CUSOLVER_TWO; solver++) {
    compare(MNF_IMPL_GPU, MNF_NOISE_MEAN3, &img, solver);
    compare(MNF_IMPL_CUBLAS_GEMM, MNF_NOISE_MEAN3, &img, solver);
  }
  /* Two equal bands: both cuSOLVER paths report the singular noise
   * covariance (the generalised one through its Cholesky factor). */
  size_t S = mnf_image_pixels(&img);
  memcpy((short *)img.data + 9 * S, (short *)img.data + 4 * S, S * sizeof(short));
  mnf_options singular = {0, MNF_NOISE_MEAN3, MNF_IMPL_GPU, 0, 0, 0};
  char err[512] = "";
  for (int solver = MNF_GPU_SOLVER_CUSOLVER; solver <= MNF_GPU_SOLVER_CUSOLVER_TWO; solver++) {
    mnf_gpu_plan *plan = mnf_gpu_plan_create(&img, &singular, err, sizeof err);
    CHECK(plan != NULL);
    if (!plan) continue;
    const mnf_result *res;
    mnf_gpu_plan_set_solver(plan, solver);
    err[0] = 0;
    CHECK(mnf_gpu_plan_execute(plan, &res, err, sizeof err) != 0);
    CHECK(strstr(err, "singular") != NULL && strstr(err, "linearly dependent") != NULL);
    printf("solver %d on two equal bands: %s\n", solver, err);
    mnf_gpu_plan_destroy(plan);
  }
  mnf_image_free(&img);

  /* Not pinned (the plan pins it), and another type. */
  synth_defaults(&p, 40, 33, 15, ENVI_U16, 4);
  CHECK(synth_generate(&p, &img, NULL) == 0);
  compare(MNF_IMPL_GPU, MNF_NOISE_MEAN3, &img, -1);
  /* A constant band is reported by the GPU paths too. */
  S = mnf_image_pixels(&img);
  for (size_t k = 0; k < S; k++) ((unsigned short *)img.data)[6 * S + k] = 500;
  mnf_options opt = {0, MNF_NOISE_MEAN3, MNF_IMPL_GPU, 0, 0, 0};
  mnf_result r;
  err[0] = 0;
  CHECK(mnf_run(&img, &opt, &r, err, sizeof err) != 0);
  CHECK(strstr(err, "band 7 is constant") != NULL);
  mnf_image_free(&img);
  return test_summary();
}

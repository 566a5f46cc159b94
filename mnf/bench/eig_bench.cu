/* mnf-eig-bench: what S3's eigendecomposition costs with each cuSOLVER
 * routine that could do it. CUDA-MNF spends 4.1-4.3 ms on S3, S5-S7 (two
 * 224 x 224 Dsyevd and three Dgemm), a third of its time on image 1; this
 * measures the alternatives on the noise covariance of image 1 before any
 * of them goes into the pipeline:
 *   dsyevd  cusolverDnDsyevd (what CUDA-MNF uses)
 *   ssyevd  cusolverDnSsyevd on the matrix rounded to float
 *   dsyevj  cusolverDnDsyevj (Jacobi), default tolerance and sweeps
 *   xsyevd  cusolverDnXsyevd (64-bit API), double
 * Each: CUDA events around the call (the matrix copied in first, not timed),
 * median of 9 after a warm-up; accuracy as the largest relative eigenvalue
 * difference from the host's LAPACKE dsyevd and max |V^T V - I|.
 *   mnf-eig-bench [--out DIR]   (writes DIR/eig_results.jsonl) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cusolverDn.h>
#include <lapacke.h>

#include "gpu.h"
#include "mnf_gpu.h"
#include "mnf_internal.h"
#include "results.h"
#include "stats.h"
#include "synth.h"

#define REPEATS 9

struct solver_case {
  const char *name;
  cusolverDnHandle_t h;
  int n;
  const double *d_a0;  /* the matrix, column-major (symmetric) */
  double *d_a, *d_w;   /* double routines: vectors, values */
  float *d_af, *d_wf;  /* float routine */
  int *d_info;
};

/* One solve of the named routine into d_a/d_w (or d_af/d_wf); returns the
 * device time in ms. */
static float solve_once(solver_case *c, cudaStream_t s)
{
  const int n = c->n;
  const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR;
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  bool single = !strcmp(c->name, "ssyevd");
  if (single) {
    std::vector<double> h((size_t)n * n);
    std::vector<float> hf((size_t)n * n);
    CUDA_CHECK(cudaMemcpy(h.data(), c->d_a0, h.size() * 8, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < h.size(); i++) hf[i] = (float)h[i];
    CUDA_CHECK(cudaMemcpy(c->d_af, hf.data(), hf.size() * 4, cudaMemcpyHostToDevice));
  } else {
    CUDA_CHECK(cudaMemcpy(c->d_a, c->d_a0, (size_t)n * n * 8, cudaMemcpyDeviceToDevice));
  }
  /* Workspaces are sized and allocated outside the timed region. */
  void *work = NULL, *host_work = NULL;
  int lwork = 0;
  size_t dev_bytes = 0, host_bytes = 0;
  syevjInfo_t params = NULL;
  cusolverDnParams_t xparams = NULL;
  if (single) CUSOLVER_CHECK(cusolverDnSsyevd_bufferSize(c->h, vec, lower, n, c->d_af, n, c->d_wf, &lwork));
  else if (!strcmp(c->name, "dsyevd")) CUSOLVER_CHECK(cusolverDnDsyevd_bufferSize(c->h, vec, lower, n, c->d_a, n, c->d_w, &lwork));
  else if (!strcmp(c->name, "dsyevj")) {
    CUSOLVER_CHECK(cusolverDnCreateSyevjInfo(&params));
    CUSOLVER_CHECK(cusolverDnDsyevj_bufferSize(c->h, vec, lower, n, c->d_a, n, c->d_w, &lwork, params));
  } else {
    CUSOLVER_CHECK(cusolverDnCreateParams(&xparams));
    CUSOLVER_CHECK(cusolverDnXsyevd_bufferSize(c->h, xparams, vec, lower, n, CUDA_R_64F, c->d_a, n, CUDA_R_64F, c->d_w,
                                               CUDA_R_64F, &dev_bytes, &host_bytes));
  }
  if (lwork) CUDA_CHECK(cudaMalloc(&work, (size_t)lwork * (single ? 4 : 8)));
  if (dev_bytes) CUDA_CHECK(cudaMalloc(&work, dev_bytes));
  if (host_bytes) host_work = malloc(host_bytes);
  CUDA_CHECK(cudaEventRecord(a, s));
  if (single) CUSOLVER_CHECK(cusolverDnSsyevd(c->h, vec, lower, n, c->d_af, n, c->d_wf, (float *)work, lwork, c->d_info));
  else if (!strcmp(c->name, "dsyevd"))
    CUSOLVER_CHECK(cusolverDnDsyevd(c->h, vec, lower, n, c->d_a, n, c->d_w, (double *)work, lwork, c->d_info));
  else if (params)
    CUSOLVER_CHECK(cusolverDnDsyevj(c->h, vec, lower, n, c->d_a, n, c->d_w, (double *)work, lwork, c->d_info, params));
  else
    CUSOLVER_CHECK(cusolverDnXsyevd(c->h, xparams, vec, lower, n, CUDA_R_64F, c->d_a, n, CUDA_R_64F, c->d_w, CUDA_R_64F,
                                    work, dev_bytes, host_work, host_bytes, c->d_info));
  CUDA_CHECK(cudaEventRecord(b, s));
  CUDA_CHECK(cudaEventSynchronize(b));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  int info;
  CUDA_CHECK(cudaMemcpy(&info, c->d_info, sizeof info, cudaMemcpyDeviceToHost));
  if (info) fprintf(stderr, "mnf-eig-bench: %s: info %d\n", c->name, info);
  if (params) cusolverDnDestroySyevjInfo(params);
  if (xparams) cusolverDnDestroyParams(xparams);
  cudaFree(work);
  free(host_work);
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  return ms;
}

/* Eigenvalues (ascending) and max |V^T V - I| of the last solve. */
static void solve_result(const solver_case *c, double *w, double *orth)
{
  const int n = c->n;
  std::vector<double> v((size_t)n * n);
  if (!strcmp(c->name, "ssyevd")) {
    std::vector<float> vf(v.size()), wf(n);
    CUDA_CHECK(cudaMemcpy(vf.data(), c->d_af, vf.size() * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(wf.data(), c->d_wf, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < v.size(); i++) v[i] = vf[i];
    for (int i = 0; i < n; i++) w[i] = wf[i];
  } else {
    CUDA_CHECK(cudaMemcpy(v.data(), c->d_a, v.size() * 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(w, c->d_w, n * 8, cudaMemcpyDeviceToHost));
  }
  *orth = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double dot = 0;
      for (int k = 0; k < n; k++) dot += v[(size_t)i * n + k] * v[(size_t)j * n + k];
      *orth = fmax(*orth, fabs(dot - (i == j)));
    }
}

int main(int argc, char **argv)
{
#define SYNOPSIS "usage: mnf-eig-bench [--out DIR]\n"   /* alone on a mistake: one line */
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(SYNOPSIS "  the eigensolvers of the MNF on image 1's noise covariance; writes DIR/eig_results.jsonl\n"
          "  (needs a GPU)\n", stdout);
    return 0;
  }
  if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "--out"))) {
    fputs(SYNOPSIS, stderr);
    return 2;
  }
  const char *out_dir = argc == 3 ? argv[2] : ".";
  if (!gpu_available()) {
    fprintf(stderr, "mnf-eig-bench: no usable GPU\n");
    return 1;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/eig_results.jsonl", out_dir);
  FILE *results = fopen(path, "w");
  if (!results) {
    fprintf(stderr, "mnf-eig-bench: %s: cannot write\n", path);
    return 1;
  }
  /* The noise covariance of image 1, by the CPU implementation. */
  synth_params sp;
  synth_defaults(&sp, 614, 1087, 224, ENVI_I16, 1000);
  mnf_image img;
  mnf_result r;
  char err[512];
  mnf_options opt = {20, MNF_NOISE_MEAN3, MNF_IMPL_CPU, 0, 0, 0};
  if (synth_generate(&sp, &img, NULL) || mnf_run(&img, &opt, &r, err, sizeof err)) {
    fprintf(stderr, "mnf-eig-bench: %s\n", err);
    return 1;
  }
  const int n = img.bands;
  std::vector<double> ref(r.noise_cov, r.noise_cov + (size_t)n * n), w_ref(n);
  if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, ref.data(), n, w_ref.data())) return 1;
  solver_case c;
  memset(&c, 0, sizeof c);
  c.n = n;
  double *d_a0;
  CUDA_CHECK(cudaMalloc(&d_a0, (size_t)n * n * 8));
  CUDA_CHECK(cudaMemcpy(d_a0, r.noise_cov, (size_t)n * n * 8, cudaMemcpyHostToDevice));
  c.d_a0 = d_a0;
  CUDA_CHECK(cudaMalloc(&c.d_a, (size_t)n * n * 8));
  CUDA_CHECK(cudaMalloc(&c.d_w, n * 8));
  CUDA_CHECK(cudaMalloc(&c.d_af, (size_t)n * n * 4));
  CUDA_CHECK(cudaMalloc(&c.d_wf, n * 4));
  CUDA_CHECK(cudaMalloc(&c.d_info, sizeof(int)));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUSOLVER_CHECK(cusolverDnCreate(&c.h));
  CUSOLVER_CHECK(cusolverDnSetStream(c.h, s));
  gpu_device_info dev;
  gpu_device_info_get(0, &dev);
  printf("S3's eigendecomposition (%d x %d, noise covariance of image 1) on %s, ms (median of %d)\n\n", n, n, dev.name, REPEATS);
  printf("| routine | ms | max rel. eigenvalue diff vs LAPACKE | max abs(V^T V - I) |\n|---|---|---|---|\n");
  const char *names[] = {"dsyevd", "ssyevd", "dsyevj", "xsyevd"};
  for (const char *name : names) {
    c.name = name;
    double t[REPEATS];
    solve_once(&c, s);
    for (int i = 0; i < REPEATS; i++) t[i] = solve_once(&c, s);
    stats_summary st;
    stats_summarize(t, REPEATS, &st);
    std::vector<double> w(n);
    double orth, eig = 0;
    solve_result(&c, w.data(), &orth);
    for (int i = 0; i < n; i++) eig = fmax(eig, fabs(w[i] / w_ref[i] - 1.0));
    printf("| %s | %.3f | %.1e | %.1e |\n", name, st.median, eig, orth);
    result_line line;
    result_begin(&line, results, "mnf", "eig_solve", dev.name);
    result_param_str(&line, "routine", name);
    result_param_int(&line, "n", n);
    result_measure(&line, "time_ms", "ms", &st);
    result_derived(&line, "max_rel_eigenvalue_diff", eig);
    result_derived(&line, "max_orthogonality_error", orth);
    result_end(&line);
  }
  fclose(results);
  cusolverDnDestroy(c.h);
  mnf_result_free(&r);
  mnf_image_free(&img);
  return 0;
}

/* libmnf: the maximum noise fraction (MNF) rotation of Fang et al., Section
 * 8.1, in eight steps:
 *   S1 noise estimate F by filtering X        S5 C_adj = P^T C_D P
 *   S2 noise covariance C_N                   S6 C_adj = V diag(lambda) V^T
 *   S3 C_N = U D U^T, whitening P = U D^-1/2   S7 T = P V
 *   S4 data covariance C_D                    S8 Z = T^T X
 * X is the image as a bands x pixels matrix (BSQ). Components come in
 * decreasing order of lambda = 1 + SNR (the noise-whitened variance).
 * Sign convention: each column of T has its largest-magnitude entry
 * positive, so every implementation returns the same components. */
#ifndef MNF_MNF_H
#define MNF_MNF_H

#include <stddef.h>

#include "envi.h"

#ifdef __cplusplus
extern "C" {
#endif

enum mnf_noise { MNF_NOISE_MEDIAN3, MNF_NOISE_MEAN3, MNF_NOISE_DIFF };

enum mnf_impl {
  MNF_IMPL_SERIAL,      /* plain single-thread C, the speed-up baseline */
  MNF_IMPL_CPU,         /* OpenBLAS ssyrk/sgemm + LAPACKE, multi-threaded */
  MNF_IMPL_GPU_NAIVE,   /* the V0 kernels, no overlap */
  MNF_IMPL_GPU,         /* CUDA-MNF: best kernels, transfers overlapped */
  MNF_IMPL_CUBLAS,      /* CUBLAS-MNF with cublasSsyrk (the paper's baseline) */
  MNF_IMPL_CUBLAS_GEMM  /* CUBLAS-MNF with cublasSgemm */
};

enum { MNF_STEPS = 8 };

typedef struct mnf_options {
  int components;   /* M; 0 means all bands */
  int noise;        /* enum mnf_noise */
  int impl;         /* enum mnf_impl */
} mnf_options;

typedef struct mnf_result {
  int bands, components;
  size_t pixels;
  double *band_mean;     /* bands */
  double *noise_cov;     /* C_N, bands x bands */
  double *data_cov;      /* C_D, bands x bands */
  double *eigenvalues;   /* bands, decreasing: lambda = 1 + SNR */
  double *transform;     /* T, bands x bands, row-major: T[b * bands + m] */
  float *components_data;/* Z, components x pixels (BSQ) */
  void (*release_components)(void *p); /* frees components_data; NULL: free() */
  double step_ms[MNF_STEPS];  /* wall time of each step; fused steps say so in note */
  double total_ms;       /* the whole run, transfers included, file reading excluded */
  const char *note;      /* how this implementation's steps were timed */
  int streamed;          /* --impl gpu: the image did not fit in GPU memory and went up twice */
} mnf_result;

const char *mnf_noise_name(int noise);
const char *mnf_impl_name(int impl);
int mnf_noise_from_name(const char *name);   /* -1 if unknown */
int mnf_impl_from_name(const char *name);    /* -1 if unknown */
const char *mnf_step_name(int step);

/* Runs the MNF rotation. Returns 0, or -1 with a one-line reason in err
 * (image smaller than 3x3, constant band k, singular noise covariance,
 * no GPU, out of memory). Free the result with mnf_result_free. */
int mnf_run(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size);
void mnf_result_free(mnf_result *r);

/* The JSON report: eigenvalues, SNR, noise fractions, the M used columns of
 * T, timings per step. Written through a temp file + rename. */
int mnf_write_report(const char *path, const char *input, const mnf_image *img,
                     const mnf_options *opt, const mnf_result *r, char *err, size_t err_size);

/* The GPU implementations live in libmnf_gpu (C linkage); mnf_run calls
 * them through this hook so that libmnf itself needs no CUDA. */
typedef int (*mnf_gpu_runner)(const mnf_image *img, const mnf_options *opt, mnf_result *r,
                              char *err, size_t err_size);
void mnf_set_gpu_runner(mnf_gpu_runner runner);

#ifdef __cplusplus
}
#endif

#endif

/* libmnf: the maximum noise fraction (MNF) rotation of Fang et al., Section
 * 8.1, in eight steps:
 *   S1 noise estimate F by filtering X        S5 C_adj = P^T C_D P
 *   S2 noise covariance C_N                   S6 C_adj = V diag(lambda) V^T
 *   S3 C_N = U D U^T, whitening P = U D^-1/2   S7 T = P V
 *   S4 data covariance C_D                    S8 Z = T^T X
 * X is the image as a bands x pixels matrix (BSQ). Components come in
 * decreasing order of lambda = 1 + SNR (the noise-whitened variance).
 * Sign convention: each column of T has its largest-magnitude entry
 * positive, so every implementation returns the same components. By
 * default S8 centres the image first, Z = T^T (X - mean), as ENVI and SPy
 * do; mnf_options.raw_output gives equation 8's Z = T^T X. */
#ifndef MNF_MNF_H
#define MNF_MNF_H

#include <stddef.h>

#include "envi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Noise estimates (S1), each scaled so white noise of variance s^2 gives
 * s^2: median3 X - median of 3x3; mean3 X - mean of 3x3; diff X(x,y) -
 * X(x+1,y); shift (ENVI's shift difference) X - (right + above) / 2, the
 * last column and first row left out; diag (SPy's default) X(x,y) -
 * X(x+1,y+1), the last column and row left out. */
enum mnf_noise { MNF_NOISE_MEDIAN3, MNF_NOISE_MEAN3, MNF_NOISE_DIFF, MNF_NOISE_SHIFT, MNF_NOISE_DIAG, MNF_NOISES };

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
  int components;     /* M; 0 means all bands; more than the bands is an error */
  int noise;          /* enum mnf_noise */
  int impl;           /* enum mnf_impl */
  int raw_output;     /* 1: Z = T^T X as stored, not centred */
  int skip_nonfinite; /* 1: pixels with a NaN or Inf in any band are left out of the statistics
                         (their components are NaN); 0: such an image is refused. serial and cpu only */
  int stats_only;     /* 1: S1-S7 only, no components (components_data stays NULL) */
} mnf_options;

typedef struct mnf_result {
  int bands, components;
  size_t pixels;
  size_t noise_pixels;   /* pixels with a noise estimate (shift and diag leave edges out) */
  size_t valid_pixels;   /* pixels in the statistics (all but non-finite ones) */
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
  double kappa;          /* lambda_max(C_D) / lambda_min(C_N), set for the float32 (cuBLAS) variants */
  char warning[400];     /* one line when the result cannot be trusted (float32 covariances below
                            the noise floor), else empty */
} mnf_result;

const char *mnf_noise_name(int noise);
const char *mnf_impl_name(int impl);
int mnf_noise_from_name(const char *name);   /* -1 if unknown */
int mnf_impl_from_name(const char *name);    /* -1 if unknown */
const char *mnf_step_name(int step);

/* Non-finite values of a float32 image: their count, and the first one's
 * band, pixel and kind. 0 when there are none (and for integer types). */
size_t mnf_find_nonfinite(const mnf_image *img, int *band, size_t *pixel, int *is_nan);
/* The one-line refusal of an image with non-finite values ("IN: 3 NaN or
 * Inf values; the first, NaN, in band 2 at sample 5, line 7"); 0 when there
 * are none, else -1 with the line in err. */
int mnf_check_finite(const mnf_image *img, const char *name, char *err, size_t err_size);

/* Runs the MNF rotation. Returns 0, or -1 with a one-line reason in err
 * (image smaller than 3x3, constant band k, singular noise covariance,
 * no GPU, out of memory). Free the result with mnf_result_free. */
int mnf_run(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size);
/* For the float32 variants (--impl cublas, cublas-gemm; mnf_run calls it):
 * sets r->kappa from r's covariances and r->warning when float32 rounding
 * (about 3e-8 kappa) moves the noise-floor eigenvalues by more than 10%. */
void mnf_check_float32_covariances(int impl, mnf_result *r);
void mnf_result_free(mnf_result *r);

/* The JSON report: eigenvalues, SNR, noise fractions, the M used columns of
 * T, timings per step. Staged in s (written when s is committed). */
int mnf_write_report(const char *path, const char *input, const mnf_image *img, const mnf_options *opt,
                     const mnf_result *r, staged_files *s, char *err, size_t err_size);

/* ---- the statistics file (sidecar), and applying a saved transform ---- */

/* What `mnf apply` and `mnf inverse` need of a run: bands, noise estimate,
 * pixels, band means, C_N, eigenvalues and T (in r), and the input's kept
 * header fields (wavelength, units, fwhm, band names, map info). The
 * format is documented in mnf/README.md. Staged in s. */
int mnf_write_stats(const char *path, const mnf_result *r, int noise, const envi_meta *meta, staged_files *s,
                    char *err, size_t err_size);
/* Reads a statistics file into r (components_data NULL) and meta (may be
 * NULL); 0, or -1 with a one-line error naming the file. */
int mnf_read_stats(const char *path, mnf_result *r, int *noise, envi_meta *meta, char *err, size_t err_size);

/* A linear map per pixel, out = A x + offset (A out_bands x in_bands,
 * row-major, float; offset in double). */
/* out = A (x - shift) + offset for every pixel x: shift (in_bands) is
 * the mean the map centres on, rounded to float, so that float products
 * see centred values (no cancellation between A x and A mean); offset
 * (out_bands) is the rest, in double (mnf_centring). */
typedef struct mnf_map {
  int in_bands, out_bands;
  float *a;
  float *shift;
  double *offset;
} mnf_map;

enum mnf_map_kind {
  MNF_MAP_FORWARD, /* Z = T_K^T (X - mean): K components of a saved transform */
  MNF_MAP_INVERSE, /* X = mean + (C_N T)_K Z: back from K components (C_N T inverts T^T) */
  MNF_MAP_DENOISE  /* the two in one: X' = mean + (C_N T_K) T_K^T (X - mean) */
};
/* The map of a kind for the first k components of r (raw: no means, for
 * images made with raw_output). 0, or -1 out of memory. */
int mnf_map_make(mnf_map *m, const mnf_result *r, int kind, int k, int raw);
void mnf_map_free(mnf_map *m);
/* out (out_bands x pixels, BSQ) = the map applied to every pixel of img,
 * by impl (serial, cpu, or gpu: CUDA-MNF's transform kernel, the image
 * streamed through the GPU in chunks). *ms: the time, transfers included.
 * 0, or -1 with err. */
int mnf_apply_map(const mnf_image *img, const mnf_map *m, int impl, float *out, double *ms, char *err, size_t err_size);


/* The GPU implementations live in libmnf_gpu (C linkage); mnf_run calls
 * them through this hook so that libmnf itself needs no CUDA. */
typedef int (*mnf_gpu_runner)(const mnf_image *img, const mnf_options *opt, mnf_result *r,
                              char *err, size_t err_size);
void mnf_set_gpu_runner(mnf_gpu_runner runner);
typedef int (*mnf_gpu_map_runner)(const mnf_image *img, const mnf_map *m, float *out, double *ms, char *err,
                                  size_t err_size);
void mnf_set_gpu_map_runner(mnf_gpu_map_runner runner);

#ifdef __cplusplus
}
#endif

#endif

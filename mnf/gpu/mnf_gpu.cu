/* The GPU implementations of the whole MNF:
 *   gpu (CUDA-MNF): the image goes up in chunks of pixel rows on one stream
 *     while another filters each chunk that has arrived (V3 mean, V0 median
 *     or a difference) and adds its noise covariance (float64: cov_fp64,
 *     Dgemm on the FP64 tensor cores) and data covariance (V8, exact on the
 *     int8 tensor cores for 16-bit types; cov_fp64 for float32 and int32)
 *     into double sums; S3,
 *     S5-S7 by default wherever the first run measures faster: on the host
 *     (LAPACKE/OpenBLAS) or by cuSOLVER Dsyevd and cuBLAS Dgemm on the
 *     device (mnf_gpu_plan_set_solver forces one; on the H100 the device
 *     solve takes about 4.2 ms against 11-15 ms on the host, mnf/RESULTS.md);
 *     S8 (transform V3) runs chunk by chunk with each chunk's components
 *     going down while the next is computed.
 *   gpu-naive: whole-image copies, the V0 filter (V1 for mean3), both
 *     covariances by cov_fp64 (V0's float sums are not accurate enough at
 *     the noise floor, issue 11), the V0 transform, no overlap.
 *   cublas / cublas-gemm (CUBLAS-MNF): the image converted to float on the
 *     device, means by cublasSgemv, covariances by cublasSsyrk (the paper's
 *     choice) or cublasSgemm, S8 by cublasSgemm plus cublasSger for the
 *     mean; the noise filter is the same kernel as CUDA-MNF's, as in the
 *     paper, and S3, S5-S7 run where CUDA-MNF's do. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cusolverDn.h>

#include "gpu.h"
#include "kernels.h"
#include "mnf_gpu.h"
#include "mnf_internal.h"

/* CUDA-MNF uploads the image in chunks of pixel rows (at most MAX_CHUNKS),
 * see plan_chunks. */
#define CHUNK_PIXELS 262144
#define MAX_CHUNKS 32

struct mnf_gpu_plan {
  const mnf_image *img;
  mnf_options opt;
  int B, W, H, M;
  size_t S, esize;
  bool registered;        /* we pinned the caller's image */
  void *d_x;              /* the image in its stored type (streamed: two chunk slots) */
  float *d_f;             /* noise estimate: one chunk (gpu) or all of it */
  float *d_xf;            /* cuBLAS: the image as float */
  float *d_z;             /* the components (streamed: two chunk slots) */
  float *d_t, *d_shift, *d_ones, *d_vec;
  double *d_acc;          /* C_N sums, C_D sums, noise sums, data sums */
  cov_fp64 fp64;          /* gpu, gpu-naive: the float64 covariance's handle and buffer */
  float *d_offset, *h_offset; /* the centring of S8 (mnf_centring): M offsets, then B shifts */
  float *d_accf;          /* cuBLAS: C_N, C_D, noise means, data means (float) */
  double *h_acc;          /* pinned copies */
  float *h_accf, *h_shift, *h_t, *h_vec;
  /* Resident: chunk c is rows [chunk_row0[c], chunk_row0[c + 1]). Streamed
   * (stream_rows > 0): chunks of stream_rows rows, as many as it takes, in
   * two buffers (d_x and d_z hold two slots each; slot c % 2). */
  int chunks, chunk_row0[MAX_CHUNKS + 1], stream_rows;
  size_t x_slot, z_slot; /* elements of one slot of d_x (stored type), d_z (float) */
  cudaStream_t down;     /* streamed: the downloads of S8, beside the uploads */
  cudaEvent_t downloaded[2];
  cudaStream_t copy, compute;
  /* Per chunk (streamed: per slot), in: uploaded; covered: its S1, S2, S4
   * done (also the timeline); out: its components computed. reduced: the
   * covariance sums are on the host; work_done: the compute stream is done.
   * Resident S8: s8_start before T goes up, s8_first once the first chunk's
   * components may go down (mnf_gpu_plan_s8_timeline). */
  cudaEvent_t in[MAX_CHUNKS], covered[MAX_CHUNKS], out[MAX_CHUNKS], start, stop, reduced, work_done, s8_start, s8_first;
  cublasHandle_t blas;
  /* S3, S5-S7 on the device: C_N then C_adj then V (in place), P, C_D P
   * then T; the eigenvalues of C_N and C_adj; Dsyevd's workspace and two
   * info words; the pinned copies of T, the eigenvalues and the infos. */
  cusolverDnHandle_t solver;
  cublasHandle_t solver_blas;
  double *d_eig, *d_p, *d_tmp, *d_cd, *d_w, *d_work, *h_solved;
  int *d_info, *h_info, lwork;
  int solver_choice;                 /* enum mnf_gpu_solver */
  double solve_cpu_ms, solve_gpu_ms; /* the auto choice's measurements */
  mnf_result r;
};

static void *pinned_alloc(size_t bytes)
{
  void *p = NULL;
  if (gpu_available() && cudaMallocHost(&p, bytes) == cudaSuccess) return p;
  cudaGetLastError();
  return malloc(bytes);
}

static bool is_pinned(const void *p)
{
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

static void pinned_release(void *p)
{
  if (p && is_pinned(p)) CUDA_CHECK(cudaFreeHost(p));
  else free(p);
}

extern "C" envi_allocator mnf_gpu_pinned_allocator(void)
{
  envi_allocator a = {pinned_alloc, pinned_release};
  return a;
}

extern "C" void mnf_gpu_register(void)
{
  mnf_set_gpu_runner(mnf_gpu_run);
  mnf_set_gpu_map_runner(mnf_gpu_map);
}

static gpu_image image_view(const mnf_gpu_plan *p)
{
  gpu_image v = {p->d_x, p->img->data_type, p->W, p->H, p->B};
  return v;
}

/* Rows [row0, row0 + rows) of the device image as a bands x pixels matrix. */
static gpu_matrix image_rows(const mnf_gpu_plan *p, int row0, int rows)
{
  gpu_matrix m = {(const char *)p->d_x + (size_t)row0 * p->W * p->esize, p->img->data_type, p->B,
                  (long long)rows * p->W, (long long)p->S};
  return m;
}

static filter_launch difference_filter(int noise)
{
  return noise == MNF_NOISE_SHIFT ? filter_shift : noise == MNF_NOISE_DIAG ? filter_diag : filter_diff;
}

static filter_launch best_filter(int noise)
{
  return noise == MNF_NOISE_MEDIAN3 ? filter_v0_median : noise == MNF_NOISE_MEAN3 ? filter_v3_reuse : difference_filter(noise);
}

static filter_launch naive_filter(int noise)
{
  return noise == MNF_NOISE_MEDIAN3 ? filter_v0_median : noise == MNF_NOISE_MEAN3 ? filter_v1_mean : difference_filter(noise);
}

__global__ void add_offsets_kernel(float *z, long long ldz, long long n, const float *offset)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) z[blockIdx.y * ldz + k] += offset[blockIdx.y];
}

void add_offsets(float *z, long long ldz, long long n, int rows, const float *offset, cudaStream_t s)
{
  add_offsets_kernel<<<dim3(ceil_div(n, 256), rows), 256, 0, s>>>(z, ldz, n, offset);
  CUDA_CHECK_LAUNCH();
}

__global__ void to_float_kernel(const void *x, int type, long long n, float *out)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (k >= n) return;
  float v;
  MNF_DISPATCH_TYPE(type, (v = load_as_float<T>(x, b * n + k)));
  out[b * n + k] = v;
}

__global__ void subtract_mean_kernel(float *a, long long n, const float *mean)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) a[blockIdx.y * n + k] -= mean[blockIdx.y];
}

void mnf_gpu_plan_destroy(mnf_gpu_plan *p)
{
  if (!p) return;
  cudaFree(p->d_x), cudaFree(p->d_f), cudaFree(p->d_xf), cudaFree(p->d_z), cudaFree(p->d_t);
  cudaFree(p->d_shift), cudaFree(p->d_ones), cudaFree(p->d_vec), cudaFree(p->d_acc), cudaFree(p->d_accf);
  cudaFreeHost(p->h_acc), cudaFreeHost(p->h_accf), cudaFreeHost(p->h_shift), cudaFreeHost(p->h_t), cudaFreeHost(p->h_vec);
  cudaFree(p->d_offset), cudaFreeHost(p->h_offset);
  cov_fp64_destroy(&p->fp64);
  if (p->copy) {
    for (int c = 0; c < MAX_CHUNKS; c++)
      cudaEventDestroy(p->in[c]), cudaEventDestroy(p->out[c]), cudaEventDestroy(p->covered[c]);
    cudaEventDestroy(p->downloaded[0]), cudaEventDestroy(p->downloaded[1]);
    cudaStreamDestroy(p->down);
    cudaEventDestroy(p->start), cudaEventDestroy(p->stop), cudaEventDestroy(p->reduced), cudaEventDestroy(p->work_done);
    cudaEventDestroy(p->s8_start), cudaEventDestroy(p->s8_first);
    cudaStreamDestroy(p->copy), cudaStreamDestroy(p->compute);
  }
  if (p->blas) cublasDestroy(p->blas);
  if (p->solver) cusolverDnDestroy(p->solver);
  if (p->solver_blas) cublasDestroy(p->solver_blas);
  cudaFree(p->d_eig), cudaFree(p->d_p), cudaFree(p->d_tmp), cudaFree(p->d_cd), cudaFree(p->d_w);
  cudaFree(p->d_work), cudaFree(p->d_info), cudaFreeHost(p->h_solved), cudaFreeHost(p->h_info);
  if (p->registered) cudaHostUnregister(p->img->data);
  mnf_result_free(&p->r);
  free(p);
}

/* P = U D^-1/2: column k of U (column-major) divided by sqrt(w_k). A
 * singular C_N (w_k <= 0) is reported after the run; its columns are set
 * to 0 meanwhile so no NaN reaches the second eigensolver. */
__global__ void whiten_kernel(const double *u, const double *w, int n, double *p)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
  if (i < n) p[(size_t)k * n + i] = w[k] > 0.0 ? u[(size_t)k * n + i] / sqrt(w[k]) : 0.0;
}

__global__ void diagonal_kernel(double *a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  /* The diagonal is strided by nature; B values, once per plan. */
  if (i < n) a[(size_t)i * n + i] = 1.0 + i; // NOLINT(warplint-G_3)
}

/* The device buffers and handles of the cuSOLVER path; made for every plan
 * (a few hundred KB) so the choice can change between runs. */
static void solver_create(mnf_gpu_plan *p)
{
  size_t bb = (size_t)p->B * p->B;
  CUSOLVER_CHECK(cusolverDnCreate(&p->solver));
  CUSOLVER_CHECK(cusolverDnSetStream(p->solver, p->compute));
  CUBLAS_CHECK(cublasCreate(&p->solver_blas));
  CUBLAS_CHECK(cublasSetStream(p->solver_blas, p->compute));
  CUDA_CHECK(cudaMalloc(&p->d_eig, bb * 8));
  CUDA_CHECK(cudaMalloc(&p->d_p, bb * 8));
  CUDA_CHECK(cudaMalloc(&p->d_tmp, bb * 8));
  CUDA_CHECK(cudaMalloc(&p->d_cd, bb * 8));
  CUDA_CHECK(cudaMalloc(&p->d_w, 2 * (size_t)p->B * 8));
  CUDA_CHECK(cudaMalloc(&p->d_info, 2 * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&p->h_solved, (bb + 2 * p->B) * 8));
  CUDA_CHECK(cudaMallocHost(&p->h_info, 2 * sizeof(int)));
  CUSOLVER_CHECK(cusolverDnDsyevd_bufferSize(p->solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, p->B, p->d_eig,
                                             p->B, p->d_w, &p->lwork));
  int lwork_general = 0;
  CUSOLVER_CHECK(cusolverDnDsygvd_bufferSize(p->solver, CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_MODE_VECTOR,
                                             CUBLAS_FILL_MODE_LOWER, p->B, p->d_eig, p->B, p->d_cd, p->B, p->d_w,
                                             &lwork_general));
  if (lwork_general > p->lwork) p->lwork = lwork_general;
  CUDA_CHECK(cudaMalloc(&p->d_work, (size_t)p->lwork * 8));
  /* One solve of a diagonal matrix loads the kernels (CUDA loads them on
   * first use), so the auto choice's first timing is not that of a cold
   * start. */
  const double one = 1.0, zero = 0.0;
  int B = p->B;
  CUDA_CHECK(cudaMemsetAsync(p->d_eig, 0, bb * 8, p->compute));
  diagonal_kernel<<<ceil_div(B, 128), 128, 0, p->compute>>>(p->d_eig, B);
  CUSOLVER_CHECK(cusolverDnDsyevd(p->solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, B, p->d_eig, B, p->d_w,
                                  p->d_work, p->lwork, p->d_info));
  whiten_kernel<<<dim3(ceil_div(B, 128), B), 128, 0, p->compute>>>(p->d_eig, p->d_w, B, p->d_p);
  CUBLAS_CHECK(cublasDgemm(p->solver_blas, CUBLAS_OP_N, CUBLAS_OP_N, B, B, B, &one, p->d_p, B, p->d_p, B, &zero, p->d_tmp, B));
  CUBLAS_CHECK(cublasDgemm(p->solver_blas, CUBLAS_OP_T, CUBLAS_OP_N, B, B, B, &one, p->d_p, B, p->d_tmp, B, &zero, p->d_eig, B));
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaStreamSynchronize(p->compute));
}

/* Chunks of about CHUNK_PIXELS pixels keep the covariance kernels
 * efficient, but the work on the last chunk starts only when the whole
 * image is up, so the chunks shrink towards the end, down to 1/8 of that.
 * They shrink by 1.3x a chunk: the work on a chunk takes up to 0.67 of its
 * upload time (image 1, run 9), and a chunk smaller than that fraction of
 * the one before it arrives before the work on that one is done, so
 * halving chunks (run 9) piled the work up at the end. The first chunk
 * takes the rows left over. gpu-naive and the cuBLAS variants use one
 * chunk. */
static void plan_chunks(mnf_gpu_plan *p, bool streamed, long chunk_pixels)
{
  int sizes[MAX_CHUNKS], n = 0, left = p->H;
  long big_rows = (chunk_pixels + p->W - 1) / p->W;
  int big = big_rows < p->H ? (int)big_rows : p->H, want = big / 8 > 0 ? big / 8 : 1;
  while (streamed && left > 0 && n < MAX_CHUNKS - 1) {
    sizes[n] = want < left ? want : left;
    left -= sizes[n++];
    if (want < big) want = want * 13 / 10 + 1 < big ? want * 13 / 10 + 1 : big;
  }
  if (left > 0) sizes[n++] = left;
  /* sizes[] runs from the last chunk back to the first. */
  p->chunks = n;
  p->chunk_row0[0] = 0;
  for (int c = 0; c < n; c++) p->chunk_row0[c + 1] = p->chunk_row0[c] + sizes[n - 1 - c];
}

mnf_gpu_plan *mnf_gpu_plan_create(const mnf_image *img, const mnf_options *opt, char *err, size_t err_size)
{
  mnf_gpu_tuning defaults = {0, MNF_GPU_STORAGE_AUTO, 0, COV_FP64_DGEMM};
  return mnf_gpu_plan_create_tuned(img, opt, &defaults, err, err_size);
}

/* Rows [*row0, *row0 + *rows) of chunk c. */
static void chunk_range(const mnf_gpu_plan *p, int c, int *row0, int *rows)
{
  if (p->stream_rows) {
    *row0 = c * p->stream_rows;
    *rows = p->H - *row0 < p->stream_rows ? p->H - *row0 : p->stream_rows;
  } else {
    *row0 = p->chunk_row0[c];
    *rows = p->chunk_row0[c + 1] - *row0;
  }
}

/* Decides where the image lives and sizes the buffers (elements): returns
 * 0, or -1 with err set when even streaming does not fit. */
static int plan_memory(mnf_gpu_plan *p, const mnf_gpu_tuning *tuning, size_t *f_floats, char *err, size_t err_size)
{
  const mnf_options *opt = &p->opt;
  bool custom = opt->impl == MNF_IMPL_GPU, blas = opt->impl == MNF_IMPL_CUBLAS || opt->impl == MNF_IMPL_CUBLAS_GEMM;
  long chunk_pixels = tuning->chunk_pixels > 0 ? tuning->chunk_pixels : CHUNK_PIXELS;
  size_t B = p->B, S = p->S, W = p->W, M = p->M, margin = 8 << 20;
  size_t free_bytes, total_bytes;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (tuning->device_bytes && tuning->device_bytes < free_bytes) free_bytes = tuning->device_bytes;
  plan_chunks(p, custom, chunk_pixels);
  int max_rows = 0;
  for (int c = 0; c < p->chunks; c++)
    if (p->chunk_row0[c + 1] - p->chunk_row0[c] > max_rows) max_rows = p->chunk_row0[c + 1] - p->chunk_row0[c];
  *f_floats = B * (size_t)(max_rows + 1) * W; /* chunk_filter_rows: up to one row more */
  p->x_slot = S * B, p->z_slot = M * S;
  if (opt->stats_only) M = 0;
  size_t fp64 = blas ? 0 : cov_fp64_bytes((int)B, (long long)max_rows * W);
  size_t resident = S * B * p->esize + *f_floats * 4 + M * S * 4 + (blas ? S * B * 4 + S * 4 : 0) + fp64 + margin;
  bool stream = custom && (tuning->storage == MNF_GPU_STORAGE_STREAMED ||
                           (tuning->storage == MNF_GPU_STORAGE_AUTO && resident > free_bytes));
  if (!stream) {
    if (resident <= free_bytes) return 0;
    return mnf_fail(err, err_size, "not enough GPU memory for --impl %s: needs %zu MB, %zu MB free%s",
                    mnf_impl_name(opt->impl), resident >> 20, free_bytes >> 20,
                    custom ? "" : " (--impl gpu streams the image and needs less)");
  }
  /* Per chunk row: two slots of the image and of the components, one of
   * the noise estimate, the float64 buffer (at most); plus the two halo
   * rows of each image slot. */
  size_t per_row = W * (2 * B * p->esize + B * 4 + 2 * M * 4 + B * 8), fixed = margin + W * (4 * B * p->esize + B * 4);
  if (free_bytes < fixed + per_row)
    return mnf_fail(err, err_size, "not enough GPU memory for --impl gpu even streaming a row at a time: needs %zu MB, %zu MB free",
                    (fixed + per_row) >> 20, free_bytes >> 20);
  size_t fit = (free_bytes - fixed) / per_row, want = ((size_t)chunk_pixels + W - 1) / W;
  p->stream_rows = (int)(fit < want ? fit : want);
  if (p->stream_rows > p->H) p->stream_rows = p->H;
  p->chunks = (p->H + p->stream_rows - 1) / p->stream_rows;
  *f_floats = B * (size_t)p->stream_rows * W;
  p->x_slot = (size_t)(p->stream_rows + 2) * W * B, p->z_slot = M * p->stream_rows * W;
  return 0;
}

mnf_gpu_plan *mnf_gpu_plan_create_tuned(const mnf_image *img, const mnf_options *opt, const mnf_gpu_tuning *tuning,
                                        char *err, size_t err_size)
{
  if (mnf_check_image(img, err, err_size)) return NULL;
  if (!gpu_available()) {
    mnf_fail(err, err_size, "no usable GPU for --impl %s (try --impl cpu)", mnf_impl_name(opt->impl));
    return NULL;
  }
  mnf_gpu_plan *p = (mnf_gpu_plan *)calloc(1, sizeof *p);
  p->img = img;
  p->opt = *opt;
  p->B = img->bands, p->W = img->samples, p->H = img->lines;
  p->S = mnf_image_pixels(img);
  p->esize = envi_type_size(img->data_type);
  if (mnf_result_alloc(&p->r, img, opt)) {
    free(p);
    mnf_fail(err, err_size, "out of host memory");
    return NULL;
  }
  p->M = p->r.components;
  p->r.noise_pixels = mnf_noise_count(img, opt->noise, NULL);
  bool blas = opt->impl == MNF_IMPL_CUBLAS || opt->impl == MNF_IMPL_CUBLAS_GEMM;
  size_t f_floats, B = p->B, S = p->S;
  if (plan_memory(p, tuning, &f_floats, err, err_size)) {
    mnf_result_free(&p->r);
    free(p);
    return NULL;
  }
  int slots = p->stream_rows ? 2 : 1;
  /* The output goes straight into pinned memory. */
  if (!opt->stats_only) CUDA_CHECK(cudaMallocHost(&p->r.components_data, sizeof(float) * p->M * S));
  p->r.release_components = pinned_release;
  if (!is_pinned(img->data)) {
    CUDA_CHECK(cudaHostRegister(img->data, mnf_image_bytes(img), cudaHostRegisterReadOnly));
    p->registered = true;
  }
  CUDA_CHECK(cudaMalloc(&p->d_x, slots * p->x_slot * p->esize));
  CUDA_CHECK(cudaMalloc(&p->d_f, f_floats * 4));
  if (!opt->stats_only) CUDA_CHECK(cudaMalloc(&p->d_z, slots * p->z_slot * 4));
  CUDA_CHECK(cudaMalloc(&p->d_offset, (size_t)(p->M + B) * 4));
  CUDA_CHECK(cudaMallocHost(&p->h_offset, (size_t)(p->M + B) * 4));
  CUDA_CHECK(cudaMalloc(&p->d_t, (size_t)p->M * B * 4));
  CUDA_CHECK(cudaMalloc(&p->d_shift, B * 4));
  CUDA_CHECK(cudaMalloc(&p->d_acc, (2 * B * B + 2 * B) * 8));
  CUDA_CHECK(cudaMallocHost(&p->h_acc, (2 * B * B + 2 * B) * 8));
  CUDA_CHECK(cudaMallocHost(&p->h_shift, B * 4));
  CUDA_CHECK(cudaMallocHost(&p->h_t, (size_t)p->M * B * 4));
  if (blas) {
    CUDA_CHECK(cudaMalloc(&p->d_xf, S * B * 4));
    CUDA_CHECK(cudaMalloc(&p->d_ones, S * 4));
    CUDA_CHECK(cudaMalloc(&p->d_vec, (2 * B + p->M) * 4));
    CUDA_CHECK(cudaMalloc(&p->d_accf, 2 * B * B * 4));
    CUDA_CHECK(cudaMallocHost(&p->h_accf, 2 * B * B * 4));
    CUDA_CHECK(cudaMallocHost(&p->h_vec, (2 * B + p->M) * 4));
    CUBLAS_CHECK(cublasCreate(&p->blas));
    float *ones = (float *)malloc(S * 4);
    for (size_t k = 0; k < S; k++) ones[k] = 1.0f;
    CUDA_CHECK(cudaMemcpy(p->d_ones, ones, S * 4, cudaMemcpyHostToDevice));
    free(ones);
  }
  CUDA_CHECK(cudaStreamCreateWithFlags(&p->copy, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&p->compute, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&p->down, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&p->downloaded[0], cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&p->downloaded[1], cudaEventDisableTiming));
  if (blas) CUBLAS_CHECK(cublasSetStream(p->blas, p->compute));
  for (int c = 0; c < MAX_CHUNKS; c++) {
    /* Timed, for mnf_gpu_plan_timeline. */
    CUDA_CHECK(cudaEventCreate(&p->in[c]));
    CUDA_CHECK(cudaEventCreate(&p->covered[c]));
    CUDA_CHECK(cudaEventCreateWithFlags(&p->out[c], cudaEventDisableTiming));
  }
  CUDA_CHECK(cudaEventCreate(&p->start));
  CUDA_CHECK(cudaEventCreate(&p->stop));
  CUDA_CHECK(cudaEventCreate(&p->reduced));
  CUDA_CHECK(cudaEventCreate(&p->work_done));
  CUDA_CHECK(cudaEventCreate(&p->s8_start));
  CUDA_CHECK(cudaEventCreate(&p->s8_first));
  if (!blas) {
    long long max_pixels = 0;
    for (int c = 0; c < p->chunks; c++) {
      int row0, rows;
      chunk_range(p, c, &row0, &rows);
      if ((long long)(rows + 1) * p->W > max_pixels) max_pixels = (long long)(rows + 1) * p->W;
    }
    cov_fp64_create(&p->fp64, p->B, max_pixels, tuning->fp64_routine, p->compute);
  }
  p->solver_choice = MNF_GPU_SOLVER_AUTO;
  solver_create(p);
  return p;
}

/* Uploads image rows [row0, row0 + rows) of every band to dev, whose band
 * rows are dev_pitch elements apart. */
static void upload_rows(mnf_gpu_plan *p, void *dev, size_t dev_pitch, int row0, int rows, cudaStream_t s)
{
  const char *host = (const char *)p->img->data + (size_t)row0 * p->W * p->esize;
  CUDA_CHECK(cudaMemcpy2DAsync(dev, dev_pitch * p->esize, host, p->S * p->esize, (size_t)rows * p->W * p->esize, p->B,
                               cudaMemcpyHostToDevice, s));
}

/* Streamed: slot c % 2 of d_x and d_z. */
static char *x_slot(const mnf_gpu_plan *p, int c)
{
  return (char *)p->d_x + (size_t)(c % 2) * p->x_slot * p->esize;
}

static float *z_slot(const mnf_gpu_plan *p, int c)
{
  return p->d_z + (size_t)(c % 2) * p->z_slot;
}

/* Components of image rows [row0, row0 + rows) from z (rows z_pitch
 * floats apart) into the result. */
static void copy_components_down(mnf_gpu_plan *p, const float *z, size_t z_pitch, int row0, int rows, cudaStream_t s)
{
  CUDA_CHECK(cudaMemcpy2DAsync(p->r.components_data + (size_t)row0 * p->W, p->S * 4, z, z_pitch * 4,
                               (size_t)rows * p->W * 4, p->M, cudaMemcpyDeviceToHost, s));
}

/* The shift subtracted before the data covariance: the mean of the first
 * image row, close enough to the band mean that the float sums keep their
 * precision; the exact mean is restored from the sums. Computed on the
 * device from the first chunk (a block per band): on the host it kept the
 * first upload waiting (run 9). */
template <typename T>
__global__ void first_row_shift_kernel(gpu_image img, float *shift)
{
  __shared__ double warp_sums[32];
  const T *row = static_cast<const T *>(img.data) + (size_t)blockIdx.x * img.lines * img.samples;
  double s = 0;
  for (int x = threadIdx.x; x < img.samples; x += blockDim.x) s += (double)row[x];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) total += warp_sums[w];
    shift[blockIdx.x] = (float)(total / img.samples);
  }
}

/* C = (sums - s s^T / S) / (S - 1) from the lower-triangle sums of the
 * shifted values and the shifted band sums. */
static void finish_covariance(const double *sums, const double *band, size_t S, int B, double *c)
{
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++)
      c[(size_t)i * B + j] = (sums[(size_t)i * B + j] - band[i] * band[j] / (double)S) / (double)(S - 1);
  mnf_mirror_lower(c, B);
}

static void upload_transform(mnf_gpu_plan *p)
{
  double *offset = (double *)malloc(sizeof(double) * p->M);
  if (!offset) abort(); /* M doubles */
  for (int m = 0; m < p->M; m++)
    for (int b = 0; b < p->B; b++) p->h_t[(size_t)m * p->B + b] = (float)p->r.transform[(size_t)b * p->B + m];
  mnf_centring(p->h_t, p->M, p->B, p->opt.raw_output ? NULL : p->r.band_mean, NULL, p->h_offset + p->M, offset);
  for (int m = 0; m < p->M; m++) p->h_offset[m] = (float)offset[m];
  free(offset);
  CUDA_CHECK(cudaMemcpyAsync(p->d_t, p->h_t, sizeof(float) * p->M * p->B, cudaMemcpyHostToDevice, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->d_offset, p->h_offset, sizeof(float) * (p->M + p->B), cudaMemcpyHostToDevice,
                             p->compute));
}

/* S8 of n pixels of x into z (rows ldz apart), centred unless raw. */
static void transform_chunk(mnf_gpu_plan *p, transform_launch transform, const gpu_matrix *x, float *z, long long ldz)
{
  if (p->opt.raw_output) {
    transform(x, p->d_t, NULL, p->M, z, ldz, p->compute);
    CUDA_CHECK_LAUNCH();
    return;
  }
  transform(x, p->d_t, p->d_offset + p->M, p->M, z, ldz, p->compute);
  add_offsets(z, ldz, x->n, p->M, p->d_offset, p->compute);
}

/* Filter rows [first, end) go with chunk c: each needs the row below it,
 * so a chunk filters up to its second-to-last row and the next chunk
 * starts with that last one. The work on chunk c then waits for chunk c
 * alone, not also for chunk c + 1. */
static void chunk_filter_rows(const mnf_gpu_plan *p, int c, int *first, int *end)
{
  int row0, rows;
  chunk_range(p, c, &row0, &rows);
  *first = c == 0 ? 0 : row0 - 1;
  *end = c == p->chunks - 1 ? p->H : row0 + rows - 1;
}

/* S1, S2, S4 of one chunk into the double sums: the noise estimate of
 * view rows [first, end) and the data covariance of x. The first chunk
 * also sets the shift. */
static void chunk_covariances(mnf_gpu_plan *p, const gpu_image *view, int first, int end, const gpu_matrix *x, bool first_chunk)
{
  int B = p->B;
  double *cn = p->d_acc, *cd = cn + (size_t)B * B, *fsum = cd + (size_t)B * B, *xsum = fsum + B;
  bool best = p->opt.impl == MNF_IMPL_GPU;
  filter_launch filter = best ? best_filter(p->opt.noise) : naive_filter(p->opt.noise);
  /* The noise estimate is float: float64 sums (cov_fp64). The image
   * itself, if its type fits in 16 bits, goes exactly through the int8
   * tensor cores (V8); float32 and int32 images through cov_fp64. */
  bool exact_integers = best && (p->img->data_type == ENVI_U8 || p->img->data_type == ENVI_I16 || p->img->data_type == ENVI_U16);
  if (first_chunk) MNF_DISPATCH_TYPE(view->type, (first_row_shift_kernel<T><<<B, 256, 0, p->compute>>>(*view, p->d_shift)));
  if (end > first) {
    filter(view, first, end - first, p->d_f, p->compute);
    CUDA_CHECK_LAUNCH();
    gpu_matrix f = {p->d_f, ENVI_F32, B, (long long)(end - first) * p->W, (long long)(end - first) * p->W};
    band_sums(&f, NULL, fsum, p->compute);
    cov_fp64_add(&p->fp64, &f, NULL, cn, p->compute);
  }
  band_sums(x, p->d_shift, xsum, p->compute);
  if (exact_integers) cov_v8_tensor(x, p->d_shift, cd, p->compute);
  else cov_fp64_add(&p->fp64, x, p->d_shift, cd, p->compute);
  CUDA_CHECK_LAUNCH();
}

/* Resident: every chunk goes up at once on the copy stream, into its place
 * in the whole image; the work on chunk c waits for chunk c only. */
static void covariances_resident(mnf_gpu_plan *p)
{
  gpu_image view = image_view(p);
  for (int c = 0; c < p->chunks; c++) {
    int row0, rows;
    chunk_range(p, c, &row0, &rows);
    upload_rows(p, (char *)p->d_x + (size_t)row0 * p->W * p->esize, p->S, row0, rows, p->copy);
    CUDA_CHECK(cudaEventRecord(p->in[c], p->copy));
  }
  for (int c = 0; c < p->chunks; c++) {
    int row0, rows, first, end;
    chunk_range(p, c, &row0, &rows);
    chunk_filter_rows(p, c, &first, &end);
    CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->in[c], 0));
    gpu_matrix x = image_rows(p, row0, rows);
    chunk_covariances(p, &view, first, end, &x, c == 0);
    CUDA_CHECK(cudaEventRecord(p->covered[c], p->compute));
  }
}

/* Streamed: chunk c goes into slot c % 2 with a row of halo above and
 * below (the 3x3 filter's neighbours), once the work on chunk c - 2 is
 * done with that slot. The slot is an image of its own, so the filter
 * clamps at the slot's edges only where the image ends too. */
static void covariances_streamed(mnf_gpu_plan *p)
{
  for (int c = 0; c < p->chunks; c++) {
    int row0, rows, slot = c % 2;
    chunk_range(p, c, &row0, &rows);
    int lo = row0 > 0 ? row0 - 1 : 0, hi = row0 + rows < p->H ? row0 + rows + 1 : p->H;
    if (c >= 2) CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->covered[slot], 0));
    upload_rows(p, x_slot(p, c), (size_t)(hi - lo) * p->W, lo, hi - lo, p->copy);
    CUDA_CHECK(cudaEventRecord(p->in[slot], p->copy));
    CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->in[slot], 0));
    gpu_image view = {x_slot(p, c), p->img->data_type, p->W, hi - lo, p->B};
    gpu_matrix x = {x_slot(p, c) + (size_t)(row0 - lo) * p->W * p->esize, p->img->data_type, p->B,
                    (long long)rows * p->W, (long long)(hi - lo) * p->W};
    chunk_covariances(p, &view, row0 - lo, row0 - lo + rows, &x, c == 0);
    CUDA_CHECK(cudaEventRecord(p->covered[slot], p->compute));
  }
}

/* gpu and gpu-naive: S1, S2, S4, then the sums to the host. */
static void covariances_custom(mnf_gpu_plan *p)
{
  int B = p->B;
  CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->start, 0));
  if (p->stream_rows) covariances_streamed(p);
  else covariances_resident(p);
  CUDA_CHECK(cudaMemcpyAsync(p->h_acc, p->d_acc, sizeof(double) * (2 * B * B + 2 * B), cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_shift, p->d_shift, sizeof(float) * B, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaEventRecord(p->reduced, p->compute));
  CUDA_CHECK(cudaEventSynchronize(p->reduced));
  const double *h_fsum = p->h_acc + 2 * (size_t)B * B, *h_xsum = h_fsum + B;
  finish_covariance(p->h_acc, h_fsum, p->r.noise_pixels, B, p->r.noise_cov);
  finish_covariance(p->h_acc + (size_t)B * B, h_xsum, p->S, B, p->r.data_cov);
  for (int b = 0; b < B; b++) p->r.band_mean[b] = p->h_shift[b] + h_xsum[b] / (double)p->S;
}

/* Resident: S8 chunk by chunk, each chunk's components going down on the
 * copy stream while the next is computed. The download is the longer of
 * the two (V3 transforms faster than the bus takes the components down),
 * so nothing can go down until the first chunk is transformed: S8's chunks
 * start at the upload's smallest and double up to its largest, so that
 * the first bytes go down early. gpu-naive: one chunk. An event recorded
 * again leaves the waits already queued on it as they were. */
static void transform_resident(mnf_gpu_plan *p)
{
  transform_launch transform = p->opt.impl == MNF_IMPL_GPU ? transform_v3_registers : transform_v0_naive;
  int rows = p->H, largest = 0;
  for (int c = 0; c < p->chunks; c++) {
    int n = p->chunk_row0[c + 1] - p->chunk_row0[c];
    rows = n < rows ? n : rows;
    largest = n > largest ? n : largest;
  }
  for (int row0 = 0, c = 0; row0 < p->H; row0 += rows, rows = 2 * rows < largest ? 2 * rows : largest, c++) {
    int n = p->H - row0 < rows ? p->H - row0 : rows;
    gpu_matrix x = image_rows(p, row0, n);
    float *z = p->d_z + (size_t)row0 * p->W;
    transform_chunk(p, transform, &x, z, (long long)p->S);
    CUDA_CHECK(cudaEventRecord(p->out[c % MAX_CHUNKS], p->compute));
    CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->out[c % MAX_CHUNKS], 0));
    if (c == 0) CUDA_CHECK(cudaEventRecord(p->s8_first, p->copy));
    copy_components_down(p, z, p->S, row0, n, p->copy);
  }
}

/* Streamed: the image goes up a second time, chunk c into slot c % 2 once
 * S8 of chunk c - 2 has read it; its components into z slot c % 2 once
 * chunk c - 2's have gone down (on their own stream, so uploads and
 * downloads overlap). */
static void transform_streamed(mnf_gpu_plan *p)
{
  for (int c = 0; c < p->chunks; c++) {
    int row0, rows, slot = c % 2;
    chunk_range(p, c, &row0, &rows);
    if (c >= 2) CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->out[slot], 0));
    upload_rows(p, x_slot(p, c), (size_t)rows * p->W, row0, rows, p->copy);
    CUDA_CHECK(cudaEventRecord(p->in[slot], p->copy));
    CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->in[slot], 0));
    if (c >= 2) CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->downloaded[slot], 0));
    gpu_matrix x = {x_slot(p, c), p->img->data_type, p->B, (long long)rows * p->W, (long long)rows * p->W};
    transform_chunk(p, transform_v3_registers, &x, z_slot(p, c), (long long)rows * p->W);
    CUDA_CHECK(cudaEventRecord(p->out[slot], p->compute));
    CUDA_CHECK(cudaStreamWaitEvent(p->down, p->out[slot], 0));
    copy_components_down(p, z_slot(p, c), (size_t)rows * p->W, row0, rows, p->down);
    CUDA_CHECK(cudaEventRecord(p->downloaded[slot], p->down));
  }
  /* The run's end is taken on the copy stream. */
  CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->downloaded[(p->chunks - 1) % 2], 0));
}

static void transform_custom(mnf_gpu_plan *p)
{
  if (p->stream_rows) transform_streamed(p);
  else transform_resident(p);
}

/* cuBLAS: S1 by the same filter kernel, S2 and S4 by Ssyrk or Sgemm. */
static void covariances_cublas(mnf_gpu_plan *p)
{
  int B = p->B;
  long long S = (long long)p->S;
  float *cn = p->d_accf, *cd = cn + (size_t)B * B, *fmean = p->d_vec, *xmean = fmean + B;
  const float inv_s = 1.0f / (float)S, zero = 0.0f, covscale = 1.0f / (float)(S - 1);
  gpu_image view = image_view(p);
  CUDA_CHECK(cudaMemcpyAsync(p->d_x, p->img->data, p->S * B * p->esize, cudaMemcpyHostToDevice, p->compute));
  best_filter(p->opt.noise)(&view, 0, p->H, p->d_f, p->compute);
  dim3 grid(ceil_div(S, 256), B);
  to_float_kernel<<<grid, 256, 0, p->compute>>>(p->d_x, p->img->data_type, S, p->d_xf);
  CUDA_CHECK_LAUNCH();
  /* Means: A^T 1 / S with A the S x B column-major view of the bands. */
  CUBLAS_CHECK(cublasSgemv(p->blas, CUBLAS_OP_T, S, B, &inv_s, p->d_f, S, p->d_ones, 1, &zero, fmean, 1));
  CUBLAS_CHECK(cublasSgemv(p->blas, CUBLAS_OP_T, S, B, &inv_s, p->d_xf, S, p->d_ones, 1, &zero, xmean, 1));
  subtract_mean_kernel<<<grid, 256, 0, p->compute>>>(p->d_f, S, fmean);
  subtract_mean_kernel<<<grid, 256, 0, p->compute>>>(p->d_xf, S, xmean);
  CUDA_CHECK_LAUNCH();
  /* Ssyrk writes the lower triangles only, and the copy below reads the
   * whole matrices: zeroed, no copied byte is uninitialised (initcheck). */
  CUDA_CHECK(cudaMemsetAsync(p->d_accf, 0, sizeof(float) * 2 * B * B, p->compute));
  if (p->opt.impl == MNF_IMPL_CUBLAS) {
    CUBLAS_CHECK(cublasSsyrk(p->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, B, S, &covscale, p->d_f, S, &zero, cn, B));
    CUBLAS_CHECK(cublasSsyrk(p->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, B, S, &covscale, p->d_xf, S, &zero, cd, B));
  } else {
    CUBLAS_CHECK(cublasSgemm(p->blas, CUBLAS_OP_T, CUBLAS_OP_N, B, B, S, &covscale, p->d_f, S, p->d_f, S, &zero, cn, B));
    CUBLAS_CHECK(cublasSgemm(p->blas, CUBLAS_OP_T, CUBLAS_OP_N, B, B, S, &covscale, p->d_xf, S, p->d_xf, S, &zero, cd, B));
  }
  CUDA_CHECK(cudaMemcpyAsync(p->h_accf, p->d_accf, sizeof(float) * 2 * B * B, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_vec, p->d_vec, sizeof(float) * 2 * B, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaEventRecord(p->reduced, p->compute));
  CUDA_CHECK(cudaEventSynchronize(p->reduced));
  /* Column-major lower triangle (i >= j at j * B + i). */
  for (int i = 0; i < B; i++)
    for (int j = 0; j <= i; j++) {
      p->r.noise_cov[(size_t)i * B + j] = p->h_accf[(size_t)j * B + i];
      p->r.data_cov[(size_t)i * B + j] = p->h_accf[(size_t)B * B + (size_t)j * B + i];
    }
  /* shift and diag leave pixels out with F = 0: cuBLAS took the mean over
   * all S pixels and summed (0 - m)^2 for each of them; undo that. */
  double n = (double)p->r.noise_pixels, all = (double)p->S;
  if (p->r.noise_pixels != p->S)
    for (int i = 0; i < B; i++)
      for (int j = 0; j <= i; j++) {
        double mi = p->h_vec[i] * all / n, mj = p->h_vec[j] * all / n, mi_all = p->h_vec[i], mj_all = p->h_vec[j];
        /* sum over all of (F - m_all)(F - m_all) = sum_valid F F - S m_all m_all; the valid
         * pixels' covariance is (sum_valid F F - n m m) / (n - 1). */
        double sum_ff = p->r.noise_cov[(size_t)i * B + j] * (all - 1.0) + all * mi_all * mj_all;
        p->r.noise_cov[(size_t)i * B + j] = (sum_ff - n * mi * mj) / (n - 1.0);
      }
  mnf_mirror_lower(p->r.noise_cov, B);
  mnf_mirror_lower(p->r.data_cov, B);
  for (int b = 0; b < B; b++) p->r.band_mean[b] = p->h_vec[B + b];
}

static void transform_cublas(mnf_gpu_plan *p)
{
  int B = p->B, M = p->M;
  long long S = (long long)p->S;
  const float one = 1.0f, zero = 0.0f;
  /* Z = T^T (X - mean), the centred output; raw: plus T^T mean, a rank-one
   * update of each component's offset. */
  float *offset = p->h_vec + 2 * B;
  for (int m = 0; m < M; m++) {
    double o = 0;
    for (int b = 0; b < B; b++) o += p->r.transform[(size_t)b * B + m] * p->r.band_mean[b];
    offset[m] = (float)o;
  }
  float *d_offset = p->d_vec + 2 * B;
  CUDA_CHECK(cudaMemcpyAsync(d_offset, offset, sizeof(float) * M, cudaMemcpyHostToDevice, p->compute));
  CUBLAS_CHECK(cublasSgemm(p->blas, CUBLAS_OP_N, CUBLAS_OP_N, S, M, B, &one, p->d_xf, S, p->d_t, B, &zero, p->d_z, S));
  if (p->opt.raw_output) CUBLAS_CHECK(cublasSger(p->blas, S, M, &one, p->d_ones, 1, d_offset, 1, p->d_z, S));
  CUDA_CHECK(cudaMemcpyAsync(p->r.components_data, p->d_z, sizeof(float) * M * S, cudaMemcpyDeviceToHost, p->compute));
}

/* A device solve's result into r: cuSOLVER's eigenvectors (the columns of
 * t, column-major, ascending) as T's columns in decreasing order, their
 * eigenvalues w likewise, the signs fixed; S3's time since t0 (S5-S7 are
 * inside it on the device). */
static void store_solution(mnf_result *r, const double *t, const double *w, int B, double t0)
{
  for (int m = 0; m < B; m++) {
    r->eigenvalues[m] = w[B - 1 - m];
    for (int b = 0; b < B; b++) r->transform[(size_t)b * B + m] = t[(size_t)(B - 1 - m) * B + b];
  }
  mnf_fix_signs(r->transform, B);
  r->step_ms[2] = mnf_now_ms() - t0;
  r->step_ms[4] = r->step_ms[5] = r->step_ms[6] = 0.0;
}

/* S3, S5, S6, S7 on the device, in float64 as on the host: Dsyevd for the
 * two eigenproblems, Dgemm for the three products. The symmetric inputs
 * read the same row- or column-major; the results come back column-major
 * and in ascending order and are put in the host's layout here. */
static int solve_cusolver(mnf_gpu_plan *p, char *err, size_t err_size)
{
  mnf_result *r = &p->r;
  int B = p->B;
  size_t bb = (size_t)B * B;
  const double one = 1.0, zero = 0.0;
  if (mnf_check_bands(r, err, err_size)) return -1;
  double t0 = mnf_now_ms();
  CUDA_CHECK(cudaMemcpyAsync(p->d_eig, r->noise_cov, bb * 8, cudaMemcpyHostToDevice, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->d_cd, r->data_cov, bb * 8, cudaMemcpyHostToDevice, p->compute));
  CUSOLVER_CHECK(cusolverDnDsyevd(p->solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, B, p->d_eig, B, p->d_w,
                                  p->d_work, p->lwork, p->d_info));
  whiten_kernel<<<dim3(ceil_div(B, 128), B), 128, 0, p->compute>>>(p->d_eig, p->d_w, B, p->d_p);
  CUDA_CHECK_LAUNCH();
  CUBLAS_CHECK(cublasDgemm(p->solver_blas, CUBLAS_OP_N, CUBLAS_OP_N, B, B, B, &one, p->d_cd, B, p->d_p, B, &zero, p->d_tmp, B));
  CUBLAS_CHECK(cublasDgemm(p->solver_blas, CUBLAS_OP_T, CUBLAS_OP_N, B, B, B, &one, p->d_p, B, p->d_tmp, B, &zero, p->d_eig, B));
  CUSOLVER_CHECK(cusolverDnDsyevd(p->solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, B, p->d_eig, B, p->d_w + B,
                                  p->d_work, p->lwork, p->d_info + 1));
  CUBLAS_CHECK(cublasDgemm(p->solver_blas, CUBLAS_OP_N, CUBLAS_OP_N, B, B, B, &one, p->d_p, B, p->d_eig, B, &zero, p->d_tmp, B));
  CUDA_CHECK(cudaMemcpyAsync(p->h_solved, p->d_tmp, bb * 8, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_solved + bb, p->d_w, 2 * (size_t)B * 8, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_info, p->d_info, 2 * sizeof(int), cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaStreamSynchronize(p->compute));
  const double *t = p->h_solved, *w_noise = t + bb, *w_adj = w_noise + B;
  if (p->h_info[0])
    return mnf_fail(err, err_size, "eigendecomposition of the noise covariance failed (cuSOLVER info %d)", p->h_info[0]);
  if (!(w_noise[0] > 1e-12 * w_noise[B - 1]))
    return mnf_fail(err, err_size, "noise covariance is singular (smallest eigenvalue %.3g, largest %.3g): bands are linearly dependent",
                    w_noise[0], w_noise[B - 1]);
  if (p->h_info[1])
    return mnf_fail(err, err_size, "eigendecomposition of the adjusted data covariance failed (cuSOLVER info %d)", p->h_info[1]);
  store_solution(r, t, w_adj, B, t0);
  return 0;
}

/* S3 and S5-S7 as the one generalised symmetric-definite problem they are,
 * C_D t = lambda C_N t (Dsygvd: a Cholesky factor L of C_N, L^-1 C_D L^-T,
 * one Dsyevd, the back-substitution), instead of two eigendecompositions
 * and three products: the same T (T^T C_N T = I, T^T C_D T = diag lambda)
 * in about half the time. A singular C_N fails the Cholesky (info > B), or
 * leaves a pivot L_ii^2 (at least C_N's smallest eigenvalue) that is tiny
 * next to the largest variance: both are reported as the two-step path
 * reports a tiny smallest eigenvalue. */
static int solve_cusolver_general(mnf_gpu_plan *p, char *err, size_t err_size)
{
  mnf_result *r = &p->r;
  int B = p->B;
  size_t bb = (size_t)B * B;
  if (mnf_check_bands(r, err, err_size)) return -1;
  double t0 = mnf_now_ms();
  CUDA_CHECK(cudaMemcpyAsync(p->d_eig, r->data_cov, bb * 8, cudaMemcpyHostToDevice, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->d_cd, r->noise_cov, bb * 8, cudaMemcpyHostToDevice, p->compute));
  CUSOLVER_CHECK(cusolverDnDsygvd(p->solver, CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, B,
                                  p->d_eig, B, p->d_cd, B, p->d_w, p->d_work, p->lwork, p->d_info));
  double *h_pivots = p->h_solved + bb + B;   /* the diagonal of L, stride B + 1 */
  CUDA_CHECK(cudaMemcpyAsync(p->h_solved, p->d_eig, bb * 8, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_solved + bb, p->d_w, (size_t)B * 8, cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaMemcpy2DAsync(h_pivots, 8, p->d_cd, (size_t)(B + 1) * 8, 8, (size_t)B, cudaMemcpyDeviceToHost,
                               p->compute));
  CUDA_CHECK(cudaMemcpyAsync(p->h_info, p->d_info, sizeof(int), cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaStreamSynchronize(p->compute));
  double variance = 0.0, pivot = INFINITY;
  for (int b = 0; b < B; b++) variance = fmax(variance, r->noise_cov[(size_t)b * B + b]);
  for (int b = 0; b < B && p->h_info[0] == 0; b++) pivot = fmin(pivot, h_pivots[b] * h_pivots[b]);
  if (p->h_info[0] > B || (p->h_info[0] == 0 && !(pivot > 1e-12 * variance)))
    return mnf_fail(err, err_size, "noise covariance is singular (%s): bands are linearly dependent",
                    p->h_info[0] > B ? "its Cholesky factorisation fails" : "a Cholesky pivot below 1e-12 of the largest variance");
  if (p->h_info[0])
    return mnf_fail(err, err_size, "the generalised eigenproblem C_D t = lambda C_N t failed (cuSOLVER info %d)",
                    p->h_info[0]);
  store_solution(r, p->h_solved, p->h_solved + bb, B, t0);
  return 0;
}

/* S3, S5-S7 by the plan's choice. Auto: the first run does both (one
 * sample each, so a close call can go either way), keeps the faster for
 * the runs after (the second's results stand; both are
 * float64 and agree to rounding). */
static int solve(mnf_gpu_plan *p, char *err, size_t err_size)
{
  if (p->solver_choice == MNF_GPU_SOLVER_CPU) return mnf_solve(&p->r, true, err, err_size);
  if (p->solver_choice == MNF_GPU_SOLVER_CUSOLVER) return solve_cusolver_general(p, err, err_size);
  if (p->solver_choice == MNF_GPU_SOLVER_CUSOLVER_TWO) return solve_cusolver(p, err, err_size);
  double t0 = mnf_now_ms();
  if (mnf_solve(&p->r, true, err, err_size)) return -1;
  double t1 = mnf_now_ms();
  if (solve_cusolver_general(p, err, err_size)) return -1;
  p->solve_cpu_ms = t1 - t0;
  p->solve_gpu_ms = mnf_now_ms() - t1;
  p->solver_choice = p->solve_gpu_ms < p->solve_cpu_ms ? MNF_GPU_SOLVER_CUSOLVER : MNF_GPU_SOLVER_CPU;
  return 0;
}

extern "C" int mnf_gpu_plan_timeline(const mnf_gpu_plan *p, int max, int *rows, float *uploaded_ms, float *covered_ms)
{
  bool custom = p->opt.impl == MNF_IMPL_GPU || p->opt.impl == MNF_IMPL_GPU_NAIVE;
  if (!custom || p->stream_rows) return 0; /* streamed: the events are reused, slot by slot */
  int n = p->chunks < max ? p->chunks : max;
  for (int c = 0; c < n; c++) {
    int row0;
    chunk_range(p, c, &row0, &rows[c]);
    CUDA_CHECK(cudaEventElapsedTime(&uploaded_ms[c], p->start, p->in[c]));
    CUDA_CHECK(cudaEventElapsedTime(&covered_ms[c], p->start, p->covered[c]));
  }
  return n;
}

extern "C" int mnf_gpu_plan_streamed(const mnf_gpu_plan *p) { return p->stream_rows > 0; }

extern "C" int mnf_gpu_plan_s8_timeline(const mnf_gpu_plan *p, float *first_ms, float *total_ms)
{
  if (p->opt.impl != MNF_IMPL_GPU || p->stream_rows || p->opt.stats_only) return 0;
  CUDA_CHECK(cudaEventElapsedTime(first_ms, p->s8_start, p->s8_first));
  CUDA_CHECK(cudaEventElapsedTime(total_ms, p->s8_start, p->stop));
  return 1;
}

extern "C" void mnf_gpu_plan_set_solver(mnf_gpu_plan *p, int solver) { p->solver_choice = solver; }

extern "C" int mnf_gpu_plan_solver(const mnf_gpu_plan *p, double *cpu_ms, double *cusolver_ms)
{
  if (cpu_ms) *cpu_ms = p->solve_cpu_ms;
  if (cusolver_ms) *cusolver_ms = p->solve_gpu_ms;
  return p->solver_choice;
}

int mnf_gpu_plan_execute(mnf_gpu_plan *p, const mnf_result **out, char *err, size_t err_size)
{
  bool blas = p->opt.impl == MNF_IMPL_CUBLAS || p->opt.impl == MNF_IMPL_CUBLAS_GEMM;
  int B = p->B;
  double wall0 = mnf_now_ms();
  CUDA_CHECK(cudaEventRecord(p->start, p->compute));
  if (blas) {
    covariances_cublas(p);
  } else {
    CUDA_CHECK(cudaMemsetAsync(p->d_acc, 0, sizeof(double) * (2 * B * B + 2 * B), p->compute));
    covariances_custom(p);
  }
  double wall1 = mnf_now_ms();
  if (solve(p, err, err_size)) return -1;
  double wall2 = mnf_now_ms();
  if (!p->opt.stats_only) {
    CUDA_CHECK(cudaEventRecord(p->s8_start, p->compute));
    upload_transform(p);
    if (blas) transform_cublas(p);
    else transform_custom(p);
  }
  CUDA_CHECK(cudaEventRecord(p->work_done, p->compute));
  CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->work_done, 0)); /* cuBLAS also copies down on compute */
  CUDA_CHECK(cudaEventRecord(p->stop, p->copy));
  CUDA_CHECK(cudaEventSynchronize(p->stop));
  float total;
  CUDA_CHECK(cudaEventElapsedTime(&total, p->start, p->stop));
  double wall3 = mnf_now_ms();
  p->r.step_ms[0] = wall1 - wall0;
  p->r.step_ms[1] = p->r.step_ms[3] = 0.0;
  p->r.step_ms[7] = wall3 - wall2;
  p->r.total_ms = total;
  /* Static strings: the result outlives the plan (mnf_gpu_run). */
  static const char *notes[2][3] = {
      {"GPU: 'S1 noise filter' holds S1+S2+S4 with the upload (overlapped in chunks for --impl gpu), 'S8' holds the "
       "transform with the download; S3 and S5-S7 on the CPU (LAPACKE, OpenBLAS); total by CUDA events, buffer "
       "allocation and pinning excluded",
       "GPU: 'S1 noise filter' holds S1+S2+S4 with the upload (overlapped in chunks for --impl gpu), 'S8' holds the "
       "transform with the download; 'S3' holds S3 and S5-S7 on the GPU as one generalised eigenproblem (cuSOLVER "
       "Dsygvd); total by CUDA events, buffer allocation and pinning excluded",
       "GPU: 'S1 noise filter' holds S1+S2+S4 with the upload (overlapped in chunks for --impl gpu), 'S8' holds the "
       "transform with the download; 'S3' holds S3 and S5-S7 on the GPU (cuSOLVER Dsyevd, cuBLAS Dgemm); total by "
       "CUDA events, buffer allocation and pinning excluded"},
      {"GPU, streamed (the image did not fit in GPU memory and went up twice, in chunks): 'S1 noise filter' holds "
       "S1+S2+S4 with the first upload, 'S8' the transform with the second upload and the download; S3 and S5-S7 on "
       "the CPU (LAPACKE, OpenBLAS); total by CUDA events, buffer allocation and pinning excluded",
       "GPU, streamed (the image did not fit in GPU memory and went up twice, in chunks): 'S1 noise filter' holds "
       "S1+S2+S4 with the first upload, 'S8' the transform with the second upload and the download; 'S3' holds S3 "
       "and S5-S7 on the GPU as one generalised eigenproblem (cuSOLVER Dsygvd); total by CUDA events, buffer "
       "allocation and pinning excluded",
       "GPU, streamed (the image did not fit in GPU memory and went up twice, in chunks): 'S1 noise filter' holds "
       "S1+S2+S4 with the first upload, 'S8' the transform with the second upload and the download; 'S3' holds S3 "
       "and S5-S7 on the GPU (cuSOLVER Dsyevd, cuBLAS Dgemm); total by CUDA events, buffer allocation and pinning "
       "excluded"}};
  p->r.note = notes[p->stream_rows > 0][p->solver_choice == MNF_GPU_SOLVER_CUSOLVER ? 1 :
                                         p->solver_choice == MNF_GPU_SOLVER_CUSOLVER_TWO ? 2 : 0];
  p->r.streamed = p->stream_rows > 0;
  *out = &p->r;
  return 0;
}

extern "C" int mnf_gpu_run(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size)
{
  mnf_gpu_plan *p = mnf_gpu_plan_create(img, opt, err, err_size);
  if (!p) return -1;
  const mnf_result *done;
  int rc = mnf_gpu_plan_execute(p, &done, err, err_size);
  if (rc == 0) {
    *r = p->r; /* hand the buffers over */
    memset(&p->r, 0, sizeof p->r);
  }
  mnf_gpu_plan_destroy(p);
  return rc;
}

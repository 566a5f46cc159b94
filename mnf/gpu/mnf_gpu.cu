/* The GPU implementations of the whole MNF:
 *   gpu (CUDA-MNF): the image goes up in chunks of pixel rows on one stream
 *     while another filters each chunk that has arrived (V3 mean, V0 median
 *     or diff) and adds its noise and data covariances (V4) into double
 *     sums; the small eigenproblems run on the CPU (LAPACKE: at 224 bands
 *     they take milliseconds); S8 (transform V2) runs chunk by chunk with
 *     each chunk's components going down while the next is computed.
 *   gpu-naive: whole-image copies, the V0 kernels (V1 for mean3), no overlap.
 *   cublas / cublas-gemm (CUBLAS-MNF): the image converted to float on the
 *     device, means by cublasSgemv, covariances by cublasSsyrk (the paper's
 *     choice) or cublasSgemm, S8 by cublasSgemm plus cublasSger for the
 *     mean; the noise filter is the same kernel as CUDA-MNF's, as in the
 *     paper. */
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "gpu.h"
#include "kernels.h"
#include "mnf_gpu.h"
#include "mnf_internal.h"

/* CUDA-MNF uploads the image in chunks of about CHUNK_PIXELS pixels (at
 * most MAX_CHUNKS): enough chunks to overlap the copies with the work,
 * chunks large enough to fill the GPU. */
#define CHUNK_PIXELS 262144
#define MAX_CHUNKS 16

struct mnf_gpu_plan {
  const mnf_image *img;
  mnf_options opt;
  int B, W, H, M;
  size_t S, esize;
  bool registered;        /* we pinned the caller's image */
  void *d_x;              /* the image, stored type */
  float *d_f;             /* noise estimate: one chunk (gpu) or all of it */
  float *d_xf;            /* cuBLAS: the image as float */
  float *d_z, *d_t, *d_shift, *d_ones, *d_vec;
  double *d_acc;          /* C_N sums, C_D sums, noise sums, data sums */
  float *d_accf;          /* cuBLAS: C_N, C_D, noise means, data means (float) */
  double *h_acc;          /* pinned copies */
  float *h_accf, *h_shift, *h_t, *h_vec;
  int chunk_rows, chunks;
  cudaStream_t copy, compute;
  /* in/out: a chunk is uploaded / its components computed; reduced: the
   * covariance sums are on the host; work_done: the compute stream is done. */
  cudaEvent_t in[MAX_CHUNKS], out[MAX_CHUNKS], start, stop, reduced, work_done;
  cublasHandle_t blas;
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

extern "C" void mnf_gpu_register(void) { mnf_set_gpu_runner(mnf_gpu_run); }

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

static filter_launch best_filter(int noise)
{
  return noise == MNF_NOISE_MEDIAN3 ? filter_v0_median : noise == MNF_NOISE_MEAN3 ? filter_v3_reuse : filter_diff;
}

static filter_launch naive_filter(int noise)
{
  return noise == MNF_NOISE_MEDIAN3 ? filter_v0_median : noise == MNF_NOISE_MEAN3 ? filter_v1_mean : filter_diff;
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
  if (p->copy) {
    for (int c = 0; c < MAX_CHUNKS; c++) cudaEventDestroy(p->in[c]), cudaEventDestroy(p->out[c]);
    cudaEventDestroy(p->start), cudaEventDestroy(p->stop), cudaEventDestroy(p->reduced), cudaEventDestroy(p->work_done);
    cudaStreamDestroy(p->copy), cudaStreamDestroy(p->compute);
  }
  if (p->blas) cublasDestroy(p->blas);
  if (p->registered) cudaHostUnregister(p->img->data);
  mnf_result_free(&p->r);
  free(p);
}

mnf_gpu_plan *mnf_gpu_plan_create(const mnf_image *img, const mnf_options *opt, char *err, size_t err_size)
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
  bool streamed = opt->impl == MNF_IMPL_GPU, blas = opt->impl == MNF_IMPL_CUBLAS || opt->impl == MNF_IMPL_CUBLAS_GEMM;
  int chunks = streamed ? (int)((p->S + CHUNK_PIXELS - 1) / CHUNK_PIXELS) : 1;
  chunks = chunks < 1 ? 1 : chunks > MAX_CHUNKS ? MAX_CHUNKS : chunks;
  p->chunk_rows = (p->H + chunks - 1) / chunks;
  p->chunks = (p->H + p->chunk_rows - 1) / p->chunk_rows;
  size_t B = p->B, S = p->S;
  size_t f_floats = B * (size_t)p->chunk_rows * p->W;
  size_t need = S * B * p->esize + f_floats * 4 + (size_t)p->M * S * 4 + (blas ? S * B * 4 + S * 4 : 0) + (8 << 20);
  size_t free_bytes, total_bytes;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (need > free_bytes) {
    mnf_fail(err, err_size, "not enough GPU memory for --impl %s: needs %zu MB, %zu MB free%s", mnf_impl_name(opt->impl),
             need >> 20, free_bytes >> 20, streamed ? "" : " (--impl gpu streams the noise estimate and needs less)");
    mnf_result_free(&p->r);
    free(p);
    return NULL;
  }
  /* The output goes straight into pinned memory. */
  free(p->r.components_data);
  CUDA_CHECK(cudaMallocHost(&p->r.components_data, sizeof(float) * p->M * S));
  p->r.release_components = pinned_release;
  if (!is_pinned(img->data)) {
    CUDA_CHECK(cudaHostRegister(img->data, mnf_image_bytes(img), cudaHostRegisterReadOnly));
    p->registered = true;
  }
  CUDA_CHECK(cudaMalloc(&p->d_x, S * B * p->esize));
  CUDA_CHECK(cudaMalloc(&p->d_f, f_floats * 4));
  CUDA_CHECK(cudaMalloc(&p->d_z, (size_t)p->M * S * 4));
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
  if (blas) CUBLAS_CHECK(cublasSetStream(p->blas, p->compute));
  for (int c = 0; c < MAX_CHUNKS; c++) {
    CUDA_CHECK(cudaEventCreateWithFlags(&p->in[c], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&p->out[c], cudaEventDisableTiming));
  }
  CUDA_CHECK(cudaEventCreate(&p->start));
  CUDA_CHECK(cudaEventCreate(&p->stop));
  CUDA_CHECK(cudaEventCreate(&p->reduced));
  CUDA_CHECK(cudaEventCreate(&p->work_done));
  return p;
}

/* Uploads rows [row0, row0 + rows) of every band. */
static void upload_rows(mnf_gpu_plan *p, int row0, int rows, cudaStream_t s)
{
  size_t pitch = p->S * p->esize, offset = (size_t)row0 * p->W * p->esize;
  char *dev = (char *)p->d_x + offset, *host = (char *)p->img->data + offset;
  CUDA_CHECK(cudaMemcpy2DAsync(dev, pitch, host, pitch, (size_t)rows * p->W * p->esize, p->B, cudaMemcpyHostToDevice, s));
}

static void copy_components_down(mnf_gpu_plan *p, int row0, int rows, cudaStream_t s)
{
  size_t pitch = p->S * 4, offset = (size_t)row0 * p->W;
  CUDA_CHECK(cudaMemcpy2DAsync(p->r.components_data + offset, pitch, p->d_z + offset, pitch, (size_t)rows * p->W * 4,
                               p->M, cudaMemcpyDeviceToHost, s));
}

/* The shift subtracted before the data covariance: the mean of the first
 * image row, close enough to the band mean that the float sums keep their
 * precision; the exact mean is restored from the sums. */
static void first_row_shift(mnf_gpu_plan *p)
{
  for (int b = 0; b < p->B; b++) {
    double s = 0;
    for (int x = 0; x < p->W; x++) s += mnf_image_value(p->img, (size_t)b * p->S + x);
    p->h_shift[b] = (float)(s / p->W);
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
  for (int m = 0; m < p->M; m++)
    for (int b = 0; b < p->B; b++) p->h_t[(size_t)m * p->B + b] = (float)p->r.transform[(size_t)b * p->B + m];
  CUDA_CHECK(cudaMemcpyAsync(p->d_t, p->h_t, sizeof(float) * p->M * p->B, cudaMemcpyHostToDevice, p->compute));
}

/* gpu and gpu-naive: S1, S2, S4 into the double sums. */
static void covariances_custom(mnf_gpu_plan *p)
{
  int B = p->B;
  double *cn = p->d_acc, *cd = cn + (size_t)B * B, *fsum = cd + (size_t)B * B, *xsum = fsum + B;
  bool streamed = p->opt.impl == MNF_IMPL_GPU;
  filter_launch filter = streamed ? best_filter(p->opt.noise) : naive_filter(p->opt.noise);
  cov_launch cov = streamed ? cov_v4_padded : cov_v0_naive;
  gpu_image view = image_view(p);
  CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->start, 0));
  for (int c = 0; c < p->chunks; c++) {
    int row0 = c * p->chunk_rows, rows = p->H - row0 < p->chunk_rows ? p->H - row0 : p->chunk_rows;
    upload_rows(p, row0, rows, p->copy);
    CUDA_CHECK(cudaEventRecord(p->in[c], p->copy));
  }
  for (int c = 0; c < p->chunks; c++) {
    int row0 = c * p->chunk_rows, rows = p->H - row0 < p->chunk_rows ? p->H - row0 : p->chunk_rows;
    /* The filter reads one row past the chunk: wait for the next one too. */
    CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->in[c], 0));
    if (c + 1 < p->chunks) CUDA_CHECK(cudaStreamWaitEvent(p->compute, p->in[c + 1], 0));
    filter(&view, row0, rows, p->d_f, p->compute);
    CUDA_CHECK_LAUNCH();
    gpu_matrix f = {p->d_f, ENVI_F32, B, (long long)rows * p->W, (long long)rows * p->W};
    band_sums(&f, NULL, fsum, p->compute);
    cov(&f, NULL, cn, p->compute);
    gpu_matrix x = image_rows(p, row0, rows);
    band_sums(&x, p->d_shift, xsum, p->compute);
    cov(&x, p->d_shift, cd, p->compute);
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaMemcpyAsync(p->h_acc, p->d_acc, sizeof(double) * (2 * B * B + 2 * B), cudaMemcpyDeviceToHost, p->compute));
  CUDA_CHECK(cudaEventRecord(p->reduced, p->compute));
  CUDA_CHECK(cudaEventSynchronize(p->reduced));
  const double *h_fsum = p->h_acc + 2 * (size_t)B * B, *h_xsum = h_fsum + B;
  finish_covariance(p->h_acc, h_fsum, p->S, B, p->r.noise_cov);
  finish_covariance(p->h_acc + (size_t)B * B, h_xsum, p->S, B, p->r.data_cov);
  for (int b = 0; b < B; b++) p->r.band_mean[b] = p->h_shift[b] + h_xsum[b] / (double)p->S;
}

static void transform_custom(mnf_gpu_plan *p)
{
  transform_launch transform = p->opt.impl == MNF_IMPL_GPU ? transform_v2_shared : transform_v0_naive;
  for (int c = 0; c < p->chunks; c++) {
    int row0 = c * p->chunk_rows, rows = p->H - row0 < p->chunk_rows ? p->H - row0 : p->chunk_rows;
    gpu_matrix x = image_rows(p, row0, rows);
    transform(&x, p->d_t, p->M, p->d_z + (size_t)row0 * p->W, (long long)p->S, p->compute);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(p->out[c], p->compute));
    CUDA_CHECK(cudaStreamWaitEvent(p->copy, p->out[c], 0));
    copy_components_down(p, row0, rows, p->copy);
  }
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
  mnf_mirror_lower(p->r.noise_cov, B);
  mnf_mirror_lower(p->r.data_cov, B);
  for (int b = 0; b < B; b++) p->r.band_mean[b] = p->h_vec[B + b];
}

static void transform_cublas(mnf_gpu_plan *p)
{
  int B = p->B, M = p->M;
  long long S = (long long)p->S;
  const float one = 1.0f, zero = 0.0f;
  /* Z = T^T (X - mean) + T^T mean: a product on the centred image, then a
   * rank-one update adds each component's offset. */
  float *offset = p->h_vec + 2 * B;
  for (int m = 0; m < M; m++) {
    double o = 0;
    for (int b = 0; b < B; b++) o += p->r.transform[(size_t)b * B + m] * p->r.band_mean[b];
    offset[m] = (float)o;
  }
  float *d_offset = p->d_vec + 2 * B;
  CUDA_CHECK(cudaMemcpyAsync(d_offset, offset, sizeof(float) * M, cudaMemcpyHostToDevice, p->compute));
  CUBLAS_CHECK(cublasSgemm(p->blas, CUBLAS_OP_N, CUBLAS_OP_N, S, M, B, &one, p->d_xf, S, p->d_t, B, &zero, p->d_z, S));
  CUBLAS_CHECK(cublasSger(p->blas, S, M, &one, p->d_ones, 1, d_offset, 1, p->d_z, S));
  CUDA_CHECK(cudaMemcpyAsync(p->r.components_data, p->d_z, sizeof(float) * M * S, cudaMemcpyDeviceToHost, p->compute));
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
    first_row_shift(p);
    CUDA_CHECK(cudaMemcpyAsync(p->d_shift, p->h_shift, sizeof(float) * B, cudaMemcpyHostToDevice, p->compute));
    CUDA_CHECK(cudaMemsetAsync(p->d_acc, 0, sizeof(double) * (2 * B * B + 2 * B), p->compute));
    covariances_custom(p);
  }
  double wall1 = mnf_now_ms();
  if (mnf_solve(&p->r, true, err, err_size)) return -1;
  double wall2 = mnf_now_ms();
  upload_transform(p);
  if (blas) transform_cublas(p);
  else transform_custom(p);
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
  p->r.note = "GPU: 'S1 noise filter' holds S1+S2+S4 with the upload (overlapped in chunks for --impl gpu), "
              "'S8' holds the transform with the download; S3 and S5-S7 on the CPU (LAPACKE); total by CUDA "
              "events, buffer allocation and pinning excluded";
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

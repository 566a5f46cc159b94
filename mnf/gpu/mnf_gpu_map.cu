/* apply, inverse and denoise on the GPU (mnf_gpu_map in mnf_gpu.h): out =
 * A (x - shift) + offset for every pixel, streamed. Chunk c of pixel rows goes up into
 * slot c % 2 once the transform of chunk c - 2 has read it, transform V3
 * (any type in, A as its T) and the offsets turn it into out_bands rows in
 * the slot's output buffer, and those go down on a third stream once chunk
 * c - 2's have. The image is read once and the output written once: the
 * transfers are the floor, and the map hides under them. */
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "kernels.h"
#include "mnf_gpu.h"
#include "mnf_internal.h"

#define MAP_CHUNK_PIXELS 262144

static bool pin(const void *p, size_t bytes)
{
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost) return false;
  cudaGetLastError();
  CUDA_CHECK(cudaHostRegister((void *)p, bytes, cudaHostRegisterDefault));
  return true;
}

extern "C" int mnf_gpu_map_chunked(const mnf_image *img, const mnf_map *m, long chunk_pixels, float *out, double *ms,
                                   char *err, size_t err_size)
{
  if (!gpu_available()) return mnf_fail(err, err_size, "no usable GPU (try --impl cpu)");
  const int W = img->samples, H = img->lines, B = img->bands, O = m->out_bands;
  const size_t S = mnf_image_pixels(img), esize = envi_type_size(img->data_type);
  int rows = (int)(((chunk_pixels > 0 ? chunk_pixels : MAP_CHUNK_PIXELS) + W - 1) / W);
  size_t free_bytes, total_bytes, per_row = 2 * (size_t)W * (B * esize + O * 4);
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  size_t fit = free_bytes > (64u << 20) ? (free_bytes - (64u << 20)) / per_row : 0;
  if (fit < 1) return mnf_fail(err, err_size, "not enough GPU memory for a row of the map (%zu MB free)", free_bytes >> 20);
  if ((size_t)rows > fit) rows = (int)fit;
  if (rows > H) rows = H;
  const int chunks = (H + rows - 1) / rows;
  const size_t x_slot = (size_t)rows * W * B * esize, z_slot = (size_t)rows * W * O;
  char *d_x;
  /* d_offset: the O offsets, then the B shifts. */
  float *d_z, *d_a, *d_offset, *h_offset = (float *)malloc(sizeof(float) * (O + B));
  if (!h_offset) return mnf_fail(err, err_size, "out of memory");
  for (int o = 0; o < O; o++) h_offset[o] = (float)m->offset[o];
  memcpy(h_offset + O, m->shift, sizeof(float) * B);
  bool pinned_in = pin(img->data, mnf_image_bytes(img)), pinned_out = pin(out, sizeof(float) * O * S);
  CUDA_CHECK(cudaMalloc(&d_x, 2 * x_slot));
  CUDA_CHECK(cudaMalloc(&d_z, 2 * z_slot * 4));
  CUDA_CHECK(cudaMalloc(&d_a, sizeof(float) * O * B));
  CUDA_CHECK(cudaMalloc(&d_offset, sizeof(float) * (O + B)));
  cudaStream_t up, work, down;
  cudaEvent_t start, stop, in[2], used[2], gone[2];
  CUDA_CHECK(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 2; i++) {
    CUDA_CHECK(cudaEventCreateWithFlags(&in[i], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&used[i], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&gone[i], cudaEventDisableTiming));
  }
  CUDA_CHECK(cudaEventRecord(start, up));
  CUDA_CHECK(cudaMemcpyAsync(d_a, m->a, sizeof(float) * O * B, cudaMemcpyHostToDevice, up));
  CUDA_CHECK(cudaMemcpyAsync(d_offset, h_offset, sizeof(float) * (O + B), cudaMemcpyHostToDevice, up));
  for (int c = 0; c < chunks; c++) {
    const int slot = c % 2, row0 = c * rows, n_rows = H - row0 < rows ? H - row0 : rows;
    const long long n = (long long)n_rows * W;
    char *x = d_x + slot * x_slot;
    float *z = d_z + slot * z_slot;
    if (c >= 2) CUDA_CHECK(cudaStreamWaitEvent(up, used[slot], 0));
    CUDA_CHECK(cudaMemcpy2DAsync(x, n * esize, (const char *)img->data + (size_t)row0 * W * esize, S * esize, n * esize, B,
                                 cudaMemcpyHostToDevice, up));
    CUDA_CHECK(cudaEventRecord(in[slot], up));
    CUDA_CHECK(cudaStreamWaitEvent(work, in[slot], 0));
    if (c >= 2) CUDA_CHECK(cudaStreamWaitEvent(work, gone[slot], 0));
    gpu_matrix xm = {x, img->data_type, B, n, n};
    transform_v3_registers(&xm, d_a, d_offset + O, O, z, n, work);
    add_offsets(z, n, n, O, d_offset, work);
    CUDA_CHECK(cudaEventRecord(used[slot], work));
    CUDA_CHECK(cudaStreamWaitEvent(down, used[slot], 0));
    CUDA_CHECK(cudaMemcpy2DAsync(out + (size_t)row0 * W, S * 4, z, n * 4, n * 4, O, cudaMemcpyDeviceToHost, down));
    CUDA_CHECK(cudaEventRecord(gone[slot], down));
  }
  CUDA_CHECK(cudaEventRecord(stop, down));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float elapsed;
  CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
  *ms = elapsed;
  for (int i = 0; i < 2; i++)
    cudaEventDestroy(in[i]), cudaEventDestroy(used[i]), cudaEventDestroy(gone[i]);
  cudaEventDestroy(start), cudaEventDestroy(stop);
  cudaStreamDestroy(up), cudaStreamDestroy(work), cudaStreamDestroy(down);
  cudaFree(d_x), cudaFree(d_z), cudaFree(d_a), cudaFree(d_offset);
  if (pinned_in) CUDA_CHECK(cudaHostUnregister(img->data));
  if (pinned_out) CUDA_CHECK(cudaHostUnregister(out));
  free(h_offset);
  return 0;
}

extern "C" int mnf_gpu_map(const mnf_image *img, const mnf_map *m, float *out, double *ms, char *err, size_t err_size)
{
  return mnf_gpu_map_chunked(img, m, 0, out, ms, err, err_size);
}

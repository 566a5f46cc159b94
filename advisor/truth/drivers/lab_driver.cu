// Runs one lab kernel file (casestudies/lab: a starting kernel or a
// solution) on fixed-size random inputs, for the truth harness: built with
// -DLAB_EX=N and linked with the kernel file, it calls the exercise's entry
// point three times (the first launch of each kernel is what ncu profiles)
// and prints a checksum of the output, so that a fixed kernel can be
// compared with the original.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "lab_kernels.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "lab_driver: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static unsigned rng = 12345u;
static float frand() { rng = rng * 1664525u + 1013904223u; return (rng >> 8) * (1.0f / 16777216.0f); }

template <class T> static T *upload(const std::vector<T> &h) {
  T *d; CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
static std::vector<float> randf(size_t n) { std::vector<float> v(n); for (auto &x : v) x = frand(); return v; }
template <class T> static double checksum(const T *d, size_t n) {
  std::vector<T> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  double s = 0; for (size_t i = 0; i < n; i++) s += (double)h[i] * (double)((i % 7) + 1); return s;
}

int main() {
  double sum = 0;
  for (int rep = 0; rep < 3; rep++) {
#if LAB_EX == 1
    int rows = 4096, cols = 4096;
    static float *in = upload(randf((size_t)rows * cols)), *out;
    if (!out) CK(cudaMalloc(&out, (size_t)rows * cols * 4));
    lab_transpose_args a = {in, out, rows, cols}; lab_transpose_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(out, (size_t)rows * cols);
#elif LAB_EX == 2
    int rows = 8192, cols = 1024;
    static float *in = upload(randf((size_t)rows * cols)), *out;
    if (!out) CK(cudaMalloc(&out, rows * 4));
    lab_rowsum_args a = {in, out, rows, cols}; lab_rowsum_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(out, rows);
#elif LAB_EX == 3
    int count = 1 << 18;
    static float *A = upload(randf(LAB_MIX_DIM * LAB_MIX_DIM)), *x = upload(randf((size_t)count * LAB_MIX_DIM)), *y;
    if (!y) CK(cudaMalloc(&y, (size_t)count * LAB_MIX_DIM * 4));
    lab_mix_args a = {A, x, y, count}; lab_mix_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(y, (size_t)count * LAB_MIX_DIM);
#elif LAB_EX == 4
    int pixels = 1 << 18, frames = 64;
    static float *in = upload(randf((size_t)pixels * frames)); static int *counts;
    if (!counts) CK(cudaMalloc(&counts, (size_t)pixels * LAB_HIST_BINS * 4));
    CK(cudaMemset(counts, 0, (size_t)pixels * LAB_HIST_BINS * 4));
    lab_histogram_args a = {in, counts, pixels, frames}; lab_histogram_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(counts, (size_t)pixels * LAB_HIST_BINS);
#elif LAB_EX == 5
    int rows = 1 << 20;
    static float *val = upload(randf((size_t)rows * LAB_ELL_WIDTH)), *x = upload(randf(rows)), *y;
    static int *col;
    static cudaTextureObject_t tex;
    if (!col) {
      std::vector<int> c((size_t)rows * LAB_ELL_WIDTH);
      for (auto &v : c) v = (int)(frand() * rows) % rows;
      col = upload(c);
      CK(cudaMalloc(&y, rows * 4));
      cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
      rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = x;
      rd.res.linear.desc = cudaCreateChannelDesc<float>(); rd.res.linear.sizeInBytes = (size_t)rows * 4;
      cudaTextureDesc td; memset(&td, 0, sizeof td); td.readMode = cudaReadModeElementType;
      CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    }
    lab_spmv_args a = {val, col, x, tex, y, rows}; lab_spmv_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(y, rows);
#elif LAB_EX == 6
    int n = 1 << 24;
    static float *in = upload(randf(n)), *out;
    if (!out) CK(cudaMalloc(&out, (n / LAB_REDUCE_BLOCK) * 4));
    lab_reduce_args a = {in, out, n}; lab_reduce_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(out, n / LAB_REDUCE_BLOCK);
#elif LAB_EX == 7
    int n = 1 << 22;
    static lab_particle *aos; static float *f[8], *energy;
    if (!aos) {
      std::vector<lab_particle> p(n); std::vector<float> h[8];
      for (int k = 0; k < 8; k++) h[k].resize(n);
      for (int i = 0; i < n; i++) {
        float v[8]; for (int k = 0; k < 8; k++) { v[k] = frand(); h[k][i] = v[k]; }
        memcpy(&p[i], v, sizeof v);
      }
      aos = upload(p); for (int k = 0; k < 8; k++) f[k] = upload(h[k]);
      CK(cudaMalloc(&energy, (size_t)n * 4));
    }
    lab_particles_args a = {aos, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], energy, n};
    lab_particles_run(&a);
    CK(cudaDeviceSynchronize()); sum = checksum(energy, n);
#else
#error "LAB_EX must be 1..7"
#endif
    CK(cudaGetLastError());
  }
  printf("lab_driver %d checksum %.6e\n", LAB_EX, sum);
  return 0;
}

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define N 2048
__constant__ float c_tab[1024];
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * n + y + j] = in[(y + j) * n + x];
}
__global__ void tile_column(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void copy_bytes(const unsigned char *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}
__global__ void const_divergent(const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = c_tab[idx[i] & 1023] + c_tab[0];
}
int main() {
  size_t bytes = (size_t)N * N * sizeof(float);
  float *a, *b; unsigned char *c, *d; int *ix;
  cudaMalloc(&a, bytes); cudaMalloc(&b, bytes); cudaMalloc(&c, N * N); cudaMalloc(&d, N * N);
  cudaMalloc(&ix, N * N * sizeof(int));
  int *h = (int *)malloc(N * N * sizeof(int));
  for (int i = 0; i < N * N; i++) h[i] = (int)(((unsigned)i * 7919u) % 1024u);
  cudaMemcpy(ix, h, N * N * sizeof(int), cudaMemcpyHostToDevice);
  float t[1024]; for (int i = 0; i < 1024; i++) t[i] = i;
  cudaMemcpyToSymbol(c_tab, t, sizeof t);
  cudaMemset(a, 0, bytes);
  for (int r = 0; r < 3; r++) {
    transpose_naive<<<dim3(N / 32, N / 32), dim3(32, 8)>>>(a, b, N);
    tile_column<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, N);
    copy_bytes<<<N * N / 256, 256>>>(c, d, N * N);
    const_divergent<<<N * N / 256, 256>>>(ix, b, N * N);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("probe done: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
// The program of warplint verify's tests (tests/advisor/warplint_verify*.sh):
// a naive transpose (G_3 at line 10), a [32][32] tile read by column (S_1
// at line 17), a byte copy (G_2 at line 21) and divergent constant reads
// (C_3 at line 25). probe_source.csv is what Nsight Compute 2025.3 exported
// for this program on an H100 (--page source --csv --print-source
// cuda,sass), kept to its source-line rows, with its path as @FILE@.

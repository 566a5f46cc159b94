/* The three private-array kernels of Fang et al. Section 6.1 (Table 3), one
 * per PATTERN, with the array size N set at compile time. probe.sh compiles
 * them for several architectures and reads ptxas's resource report: an
 * array that stays in registers leaves no stack frame. No unroll pragmas:
 * what is measured is the compiler's own choice.
 *   PATTERN 1, vector addition: one loop over private arrays of N elements.
 *   PATTERN 2, matrix multiplication: three nested loops over N x N arrays.
 *   PATTERN 3, vector sorting: a bubble sort, elements shuffled by value. */
#ifndef N
#define N 8
#endif

#if PATTERN == 1
__global__ void private_vecadd(const float *in, float *out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = in[i * stride + t];
    b[i] = in[(i + N) * stride + t];
  }
  for (int i = 0; i < N; i++) c[i] = a[i] + b[i];
  for (int i = 0; i < N; i++) out[i * stride + t] = c[i];
}
#elif PATTERN == 2
__global__ void private_matmul(const float *in, float *out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = in[(i * N + j) * stride + t];
      b[i][j] = in[(N * N + i * N + j) * stride + t];
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++) sum += a[i][k] * b[k][j];
      c[i][j] = sum;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) out[(i * N + j) * stride + t] = c[i][j];
}
#else
__global__ void private_sort(const float *in, float *out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[N];
  for (int i = 0; i < N; i++) a[i] = in[i * stride + t];
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (a[j] > a[j + 1]) {
        float tmp = a[j];
        a[j] = a[j + 1];
        a[j + 1] = tmp;
      }
  for (int i = 0; i < N; i++) out[i * stride + t] = a[i];
}
#endif

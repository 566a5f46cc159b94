// Runs every kernel version of casestudies/matmul (cuBLAS left out) on one
// random 2048^3 problem, twice each, for the truth harness: linked with the
// case study's kernel files, without cuBLAS (this file stands in for
// cublas_baseline.c and common/gpu.c's cuBLAS part), so it builds where
// only the CUDA runtime is installed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "gpu.h"
#include "matmul.h"

extern "C" {
void gpu_check_cuda(cudaError_t status, const char *call, const char *file, int line) {
  if (status == cudaSuccess) return;
  fprintf(stderr, "%s:%d: CUDA error %s in `%s`\n", file, line, cudaGetErrorString(status), call);
  exit(1);
}
static void no_launch(const matmul_args *) {}
extern const matmul_version matmul_cublas_fp32, matmul_cublas_pedantic, matmul_cublas_tf32;
const matmul_version matmul_cublas_fp32 = {"cublas_fp32", "left out", 0, 0, 0, MATMUL_FP32, true, no_launch, NULL, NULL};
const matmul_version matmul_cublas_pedantic = {"cublas_fp32_pedantic", "left out", 0, 0, 0, MATMUL_FP32, true, no_launch, NULL, NULL};
const matmul_version matmul_cublas_tf32 = {"cublas_tf32", "left out", 0, 0, 0, MATMUL_TF32, true, no_launch, NULL, NULL};
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048;
  size_t e = (size_t)n * n;
  std::vector<float> h(e);
  unsigned s = 7u;
  for (auto &x : h) { s = s * 1664525u + 1013904223u; x = (s >> 8) * (1.0f / 16777216.0f) - 0.5f; }
  float *A, *B, *C;
  CUDA_CHECK(cudaMalloc(&A, e * 4)); CUDA_CHECK(cudaMalloc(&B, e * 4)); CUDA_CHECK(cudaMalloc(&C, e * 4));
  CUDA_CHECK(cudaMemcpy(A, h.data(), e * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(B, h.data(), e * 4, cudaMemcpyHostToDevice));
  for (int i = 0; i < matmul_version_count; i++) {
    const matmul_version *v = matmul_versions[i];
    if (v->launch == no_launch) continue;
    double sum = 0;
    for (int rep = 0; rep < 2; rep++) {
      CUDA_CHECK(cudaMemset(C, 0, e * 4));
      matmul_args a = {n, n, n, 1.0f, 0.0f, A, B, C};
      v->launch(&a);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<float> out(e);
    CUDA_CHECK(cudaMemcpy(out.data(), C, e * 4, cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < e; k += 997) sum += out[k];
    printf("%s checksum %.6e\n", v->name, sum);
  }
  return 0;
}

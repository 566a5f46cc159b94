#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>

#include <cublas_api.h>
#include <cusolver_common.h>

void gpu_check_cuda(cudaError_t status, const char *call, const char *file, int line) {
  if (status == cudaSuccess) return;
  fprintf(stderr, "%s:%d: CUDA error %s (%s) in `%s`\n", file, line,
          cudaGetErrorName(status), cudaGetErrorString(status), call);
  exit(1);
}

const char *gpu_cublas_status_name(int status) {
  return cublasGetStatusString((cublasStatus_t)status);
}

void gpu_check_cublas(int status, const char *call, const char *file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  fprintf(stderr, "%s:%d: cuBLAS error %s in `%s`\n", file, line,
          gpu_cublas_status_name(status), call);
  exit(1);
}

/* cuSOLVER has no status-to-string function of its own. */
const char *gpu_cusolver_status_name(int status) {
  switch ((cusolverStatus_t)status) {
  case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
  case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
  case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
  case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
  case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
  case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
  case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
  case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
  default: return "CUSOLVER_STATUS_(unknown)";
  }
}

void gpu_check_cusolver(int status, const char *call, const char *file, int line) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  fprintf(stderr, "%s:%d: cuSOLVER error %s (%d) in `%s`\n", file, line,
          gpu_cusolver_status_name(status), status, call);
  exit(1);
}

static cudaError_t probe(void) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return status;
  if (count == 0) return cudaErrorNoDevice;
  /* A device may be listed yet unusable (wrong driver, no permission):
   * creating the context is the real test. */
  return cudaFree(0);
}

bool gpu_available(void) { return probe() == cudaSuccess; }

bool gpu_or_skip(const char *what) {
  cudaError_t status = probe();
  if (status == cudaSuccess) return true;
  printf("SKIP: %s: no usable GPU (%s)\n", what, cudaGetErrorString(status));
  return false;
}

static int attribute(enum cudaDeviceAttr attr, int ordinal) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, ordinal));
  return value;
}

/* FP32 lanes per SM: 64 on sm_60/sm_70/sm_75/sm_80, 128 on sm_61 and
 * sm_86 onward (CUDA C Programming Guide, arithmetic instruction throughput). */
static int fp32_lanes_per_sm(int major, int minor) {
  if (major >= 9 || (major == 8 && minor >= 6) || (major == 6 && minor == 1)) return 128;
  return 64;
}

void gpu_device_info_get(int ordinal, gpu_device_info *info) {
  struct cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  snprintf(info->name, sizeof info->name, "%s", prop.name);
  info->ordinal = ordinal;
  info->cc_major = prop.major;
  info->cc_minor = prop.minor;
  info->sm_count = prop.multiProcessorCount;
  info->sm_clock_khz = attribute(cudaDevAttrClockRate, ordinal);
  info->mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, ordinal);
  info->mem_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, ordinal);
  info->l2_bytes = attribute(cudaDevAttrL2CacheSize, ordinal);
  info->global_mem_bytes = prop.totalGlobalMem;
  info->shared_per_block_optin = prop.sharedMemPerBlockOptin;
  info->shared_per_sm = prop.sharedMemPerMultiprocessor;
  info->regs_per_sm = prop.regsPerMultiprocessor;
  CUDA_CHECK(cudaDriverGetVersion(&info->driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&info->runtime_version));
  info->peak_fp32_gflops = 2.0 * fp32_lanes_per_sm(prop.major, prop.minor) *
                           info->sm_count * info->sm_clock_khz * 1e-6;
  info->peak_dram_gbs = 2.0 * info->mem_clock_khz * 1e3 * (info->mem_bus_bits / 8.0) * 1e-9;
}

void gpu_version_string(int version, char *out, size_t out_size) {
  snprintf(out, out_size, "%d.%d", version / 1000, (version % 1000) / 10);
}

void gpu_time_ms(gpu_work_fn fn, void *ctx, int warmup, int repeats,
                 stats_summary *out, double *samples) {
  double *times = samples ? samples : malloc((size_t)(repeats > 0 ? repeats : 1) * sizeof *times);
  if (!times) abort();
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < warmup; i++) fn(ctx);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < repeats; i++) {
    float ms = 0;
    CUDA_CHECK(cudaEventRecord(start, 0));
    fn(ctx);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times[i] = ms;
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  stats_summarize(times, repeats, out);
  if (!samples) free(times);
}

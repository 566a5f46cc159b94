/* The GPU side of the shared library: checked calls for CUDA, cuBLAS and
 * cuSOLVER, a probe for a usable GPU, device facts for result files, and an
 * event-based timer. Host C; usable from .cu files too. */
#ifndef WARPMEM_GPU_H
#define WARPMEM_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status that CTest reads as "skipped" (SKIP_RETURN_CODE). */
#define GPU_SKIP_EXIT 77

/* Each prints "file:line: LIBRARY error NAME (what) in `call`" to stderr and
 * exits with status 1 when the call did not succeed. */
#define CUDA_CHECK(call) gpu_check_cuda((call), #call, __FILE__, __LINE__)
#define CUBLAS_CHECK(call) gpu_check_cublas((int)(call), #call, __FILE__, __LINE__)
#define CUSOLVER_CHECK(call) gpu_check_cusolver((int)(call), #call, __FILE__, __LINE__)
/* After a kernel launch: launch errors and, with sync, execution errors. */
#define CUDA_CHECK_LAUNCH() gpu_check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

void gpu_check_cuda(cudaError_t status, const char *call, const char *file, int line);
void gpu_check_cublas(int status, const char *call, const char *file, int line);
void gpu_check_cusolver(int status, const char *call, const char *file, int line);
const char *gpu_cublas_status_name(int status);
const char *gpu_cusolver_status_name(int status);

/* True when a CUDA device can be used (driver present, at least one device,
 * a context can be created). Never exits. */
bool gpu_available(void);

/* For GPU tests: returns true when a GPU is there; otherwise prints
 * "SKIP: <what>: no usable GPU (reason)" and the caller returns
 * GPU_SKIP_EXIT. */
bool gpu_or_skip(const char *what);

typedef struct gpu_device_info {
  char name[256];
  int ordinal;
  int cc_major, cc_minor;
  int sm_count;
  int sm_clock_khz;        /* peak SM clock the device reports */
  int mem_clock_khz;       /* peak memory clock */
  int mem_bus_bits;
  int l2_bytes;
  size_t global_mem_bytes;
  size_t shared_per_block_optin;
  size_t shared_per_sm;
  int regs_per_sm;
  int driver_version;      /* e.g. 13000 */
  int runtime_version;
  double peak_fp32_gflops; /* 128 FP32 lanes/SM x 2 flops x clock (sm_80+, 64 for sm_80) */
  double peak_dram_gbs;    /* 2 x memory clock x bus width (DDR) */
} gpu_device_info;

/* Fills info for device `ordinal`; exits via CUDA_CHECK on failure. */
void gpu_device_info_get(int ordinal, gpu_device_info *info);
/* Driver and runtime versions as "13.0". */
void gpu_version_string(int version, char *out, size_t out_size);

/* Times fn(ctx) with CUDA events on the default stream: `warmup` untimed
 * calls, then `repeats` timed ones, each synchronised. Fills the summary (in
 * milliseconds) and, if samples is not NULL, the raw times (repeats long). */
typedef void (*gpu_work_fn)(void *ctx);
void gpu_time_ms(gpu_work_fn fn, void *ctx, int warmup, int repeats,
                 stats_summary *out, double *samples);

#ifdef __cplusplus
}
#endif

#endif

/* gpu-info: prints the facts the benchmarks record about the device, or says
 * that there is none. `gpu-info --probe` prints nothing and exits 0 when a
 * GPU can be used, 77 when not (scripts use it to decide what to run). */
#include <stdio.h>
#include <string.h>

#include "gpu.h"

static const char usage_text[] =
  "usage: gpu-info [--probe]\n"
  "  prints each GPU's name, architecture, SMs, clocks, memory, driver and runtime;\n"
  "  --probe prints nothing and exits 0 when a GPU can be used, 77 when not\n";

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "--probe") != 0)) {
    fprintf(stderr, "gpu-info: unknown argument '%s'\n%s", argv[argc - 1], usage_text);
    return 2;
  }
  bool probe_only = argc > 1;
  if (!gpu_available()) {
    if (!probe_only) printf("no usable GPU on this machine\n");
    return GPU_SKIP_EXIT;
  }
  if (probe_only) return 0;
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; d++) {
    gpu_device_info info;
    char driver[16], runtime[16];
    gpu_device_info_get(d, &info);
    gpu_version_string(info.driver_version, driver, sizeof driver);
    gpu_version_string(info.runtime_version, runtime, sizeof runtime);
    printf("GPU %d: %s (sm_%d%d), %d SMs, SM clock %d MHz, %.1f GiB, L2 %d KiB\n", d,
           info.name, info.cc_major, info.cc_minor, info.sm_count, info.sm_clock_khz / 1000,
           info.global_mem_bytes / 1073741824.0, info.l2_bytes / 1024);
    printf("       driver %s, runtime %s; FP32 peak %.1f TFLOP/s, DRAM peak %.0f GB/s (from clocks)\n",
           driver, runtime, info.peak_fp32_gflops / 1000, info.peak_dram_gbs);
  }
  return 0;
}

/* The SM clock the GPU actually runs at, read off the GPU: one thread spins
 * for a fixed number of SM cycles (clock64) and reads the global nanosecond
 * timer (%globaltimer) before and after. The suite never sets clocks (no
 * nvidia-smi -lgc or -ac: the lent machines forbid it); warpbench measures
 * the clock before every experiment and keeps it in the profile
 * (clock.sm_mhz), so that a figure in cycles or GB/s can be read against the
 * clock it was taken at. */
#include "bench.h"

enum { SPIN_CYCLES = 4000000 };  /* 2 ms at 2 GHz: %globaltimer's steps are a small part of it */

__device__ __forceinline__ unsigned long long global_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void clock_kernel(long long spin, long long *out) {
  long long c0 = clock64();
  unsigned long long g0 = global_ns();
  while (clock64() - c0 < spin) {
  }
  long long c1 = clock64();
  unsigned long long g1 = global_ns();
  out[0] = c1 - c0;
  out[1] = (long long)(g1 - g0);
}

double bench_sm_clock_mhz(void) {
  long long *dev, host[2] = {0, 0};
  CUDA_CHECK(cudaMalloc(&dev, sizeof host));
  /* Twice: the first spin wakes an idle GPU, the second is measured. */
  for (int i = 0; i < 2; i++) {
    clock_kernel<<<1, 1>>>(SPIN_CYCLES, dev);  // NOLINT(warplint-S_4): one thread reads the clocks
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
  }
  CUDA_CHECK(cudaFree(dev));
  return host[1] > 0 ? 1e3 * (double)host[0] / (double)host[1] : 0;
}

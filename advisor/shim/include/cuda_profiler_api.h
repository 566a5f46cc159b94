/* warplint stand-in for cuda_profiler_api.h: start and stop profiling. */
#ifndef WARPLINT_CUDA_PROFILER_API_H
#define WARPLINT_CUDA_PROFILER_API_H
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#endif

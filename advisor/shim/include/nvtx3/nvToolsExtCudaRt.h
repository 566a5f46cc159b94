/* warplint stand-in for nvtx3/nvToolsExtCudaRt.h: naming CUDA runtime
 * devices, streams and events in profiler timelines (NVTX reference). */
#ifndef WARPLINT_NVTOOLSEXTCUDART_H
#define WARPLINT_NVTOOLSEXTCUDART_H
#include "nvToolsExt.h"
#ifdef __cplusplus
extern "C" {
#endif
void nvtxNameCudaDeviceA(int device, const char *name);
void nvtxNameCudaStreamA(cudaStream_t stream, const char *name);
void nvtxNameCudaEventA(cudaEvent_t event, const char *name);
#ifdef __cplusplus
}
#endif
#endif

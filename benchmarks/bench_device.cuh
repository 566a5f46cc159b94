/* Device-side helpers shared by the experiments: the memory spaces a chase
 * can run through, and one load per space. Each space's load is a separate
 * instruction in the SASS (see README.md, "What the SASS shows"). */
#ifndef WARPMEM_BENCH_DEVICE_CUH
#define WARPMEM_BENCH_DEVICE_CUH

#include <cuda_runtime.h>

enum bench_space { SPACE_SHARED, SPACE_CONSTANT, SPACE_GLOBAL, SPACE_GLOBAL_CG, SPACE_TEXTURE };

static const char *const bench_space_names[] = {"shared", "constant", "global", "global_cg",
                                                "texture"};

/* Default global load: LDG, cached in L1 on Hopper. */
__device__ __forceinline__ int load_global(const int *a, int i) { return a[i]; }
/* ld.global.cg: cached in L2 only. */
__device__ __forceinline__ int load_global_cg(const int *a, int i) { return __ldcg(a + i); }
__device__ __forceinline__ int load_texture(cudaTextureObject_t t, int i) {
  return tex1Dfetch<int>(t, i);
}

/* A texture object over n ints of linear device memory. */
static inline cudaTextureObject_t bench_texture_of(const int *data, size_t n) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = (void *)data;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = n * sizeof(int);
  cudaTextureDesc desc = {};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  CUDA_CHECK(cudaCreateTextureObject(&t, &res, &desc, NULL));
  return t;
}

#endif

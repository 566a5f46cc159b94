/* Device-side helpers shared by the experiments: the memory spaces a chase
 * can run through, and one load per space. Each space's load is a separate
 * instruction in the SASS (see README.md, "What the SASS shows"). */
#ifndef WARPMEM_BENCH_DEVICE_CUH
#define WARPMEM_BENCH_DEVICE_CUH

#include <cuda_runtime.h>

enum bench_space { SPACE_SHARED, SPACE_CONSTANT, SPACE_GLOBAL, SPACE_GLOBAL_CG, SPACE_GLOBAL_NC,
                   SPACE_TEXTURE };

static const char *const bench_space_names[] = {"shared", "constant", "global", "global_cg",
                                                "global_nc", "texture"};

/* Default global load: LDG, cached in L1 on Hopper. */
__device__ __forceinline__ int load_global(const int *a, int i) { return a[i]; }
/* ld.global.cg: cached in L2 only. */
__device__ __forceinline__ int load_global_cg(const int *a, int i) { return __ldcg(a + i); }
/* ld.global.nc, the read-only path: what __ldg and a const __restrict__
 * pointer compile to (LDG.E.CONSTANT in the SASS); T_4's fix-it. */
__device__ __forceinline__ int load_global_nc(const int *a, int i) { return __ldg(a + i); }
__device__ __forceinline__ int load_texture(cudaTextureObject_t t, int i) {
  return tex1Dfetch<int>(t, i);
}

/* The SM this thread runs on (%smid): lets a kernel choose which SM does
 * the work, since the scheduler, not the program, places blocks. */
__device__ __forceinline__ unsigned bench_smid(void) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

/* One step of an address chase: the 8-byte word at p holds the address of
 * the next step, so the load's result is the next load's address with no
 * arithmetic between them (LDG.E.64 [R.64], as in Mei and Chu's chase). */
__device__ __forceinline__ const void *chase_step(const void *p) {
  /* A plain ld.global (LDG.E.64, as the index chase's loads): dereferencing
   * a pointer that was itself loaded compiles to a generic LD, and __ldca to
   * a strong load; either could cost cycles of its own. */
  unsigned long long next;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(p));
  return (const void *)next;
}
/* The same through ld.global.cg: L2 and below, never L1. */
__device__ __forceinline__ const void *chase_step_cg(const void *p) {
  return (const void *)__ldcg((const unsigned long long *)p);
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

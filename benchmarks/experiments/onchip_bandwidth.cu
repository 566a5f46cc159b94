/* Experiment 8 (Jia et al. / the on-chip bandwidth paper in shared/seeds/001):
 * peak effective bandwidth of shared memory, the constant cache, L1, L2 and
 * the texture path, with 32-, 64- and 128-bit elements. Every thread of a
 * full grid reads REPS elements of a small array that lives in the level
 * under test (coalesced, 8 loads in flight per thread) and folds them into
 * one value, which it writes out; bytes delivered to the threads over the
 * kernel time is the bandwidth. The host recomputes two threads' values. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_device.cuh"

enum { REPS = 1024, THREADS = 256, SHARED_BYTES = 16384, L1_BYTES = 65536, CONST_BYTES = 32768 };
enum { MEM_SHARED, MEM_CONSTANT, MEM_L1, MEM_L2, MEM_TEXTURE, MEM_COUNT };
static const char *const memory_names[MEM_COUNT] = {"shared", "constant", "l1", "l2", "texture"};

__constant__ int4 c_data[CONST_BYTES / 16];

__device__ __forceinline__ unsigned fold(int v) { return (unsigned)v; }
__device__ __forceinline__ unsigned fold(int2 v) { return (unsigned)(v.x ^ v.y); }
__device__ __forceinline__ unsigned fold(int4 v) { return (unsigned)(v.x ^ v.y ^ v.z ^ v.w); }

template <typename T, int MEM>
__device__ __forceinline__ T read_one(const T *g, const T *s, cudaTextureObject_t t, int i) {
  if (MEM == MEM_SHARED) return s[i];
  if (MEM == MEM_CONSTANT) return ((const T *)c_data)[i];
  if (MEM == MEM_L2) return __ldcg(g + i);
  if (MEM == MEM_TEXTURE) return tex1Dfetch<T>(t, i);
  return g[i];
}

/* Element index of thread `tid`'s r-th read in an array of n elements (a
 * power of two: a mask, not a division, keeps the index arithmetic off the
 * critical path). The constant cache serves one address per warp request,
 * so there every lane of a warp reads the same element. */
__host__ __device__ inline int element_index(int mem, int tid, int r, int n) {
  int lane_part = mem == MEM_CONSTANT ? 0 : tid % 32;
  return ((tid / 32) * 32 + r * 32 + lane_part) & (n - 1);
}

template <typename T, int MEM>
__global__ void onchip_kernel(const T *g, int n, cudaTextureObject_t t, unsigned *out) {
  __shared__ T s[MEM == MEM_SHARED ? SHARED_BYTES / sizeof(T) : 1];
  if (MEM == MEM_SHARED)
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = g[i];
  __syncthreads();
  unsigned acc = 0;
#pragma unroll 8
  for (int r = 0; r < REPS; r++) acc ^= fold(read_one<T, MEM>(g, s, t, element_index(MEM, threadIdx.x, r, n)));
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

typedef struct onchip_job {
  int mem, bits, n, blocks;
  const void *data;
  cudaTextureObject_t tex;
  unsigned *out;
} onchip_job;

template <typename T>
static void launch_typed(const onchip_job *j) {
  const T *g = (const T *)j->data;
  switch (j->mem) {
  case MEM_SHARED: onchip_kernel<T, MEM_SHARED><<<j->blocks, THREADS>>>(g, j->n, j->tex, j->out); break;
  case MEM_CONSTANT: onchip_kernel<T, MEM_CONSTANT><<<j->blocks, THREADS>>>(g, j->n, j->tex, j->out); break;
  case MEM_L1: onchip_kernel<T, MEM_L1><<<j->blocks, THREADS>>>(g, j->n, j->tex, j->out); break;
  case MEM_L2: onchip_kernel<T, MEM_L2><<<j->blocks, THREADS>>>(g, j->n, j->tex, j->out); break;
  default: onchip_kernel<T, MEM_TEXTURE><<<j->blocks, THREADS>>>(g, j->n, j->tex, j->out); break;
  }
}

static void run_onchip(void *ctx) {
  const onchip_job *j = (const onchip_job *)ctx;
  if (j->bits == 32) launch_typed<int>(j);
  else if (j->bits == 64) launch_typed<int2>(j);
  else launch_typed<int4>(j);
  CUDA_CHECK_LAUNCH();
}

/* What thread tid must have folded, from the host copy of the words. */
static unsigned expected_fold(const int *words, int mem, int bits, int n, int tid) {
  int per = bits / 32;
  unsigned acc = 0;
  for (int r = 0; r < REPS; r++) {
    int e = element_index(mem, tid, r, n);
    unsigned v = 0;
    for (int k = 0; k < per; k++) v ^= (unsigned)words[e * per + k];
    acc ^= v;
  }
  return acc;
}

static size_t bytes_for(int mem) {
  switch (mem) {
  case MEM_SHARED: return SHARED_BYTES;
  case MEM_CONSTANT: return CONST_BYTES;
  case MEM_L2: return (size_t)8 << 20;
  default: return L1_BYTES;
  }
}

void exp_onchip_bandwidth(bench_ctx *c) {
  size_t max_bytes = (size_t)8 << 20;
  int words = (int)(max_bytes / 4);
  int *host = (int *)malloc(max_bytes);
  if (!host) abort();
  for (int i = 0; i < words; i++) host[i] = (int)bench_random(1u << 30) + 1;
  onchip_job j;
  memset(&j, 0, sizeof j);
  j.blocks = c->tiny ? 2 : c->dev.sm_count * 8;
  CUDA_CHECK(cudaMalloc((void **)&j.data, max_bytes));
  CUDA_CHECK(cudaMalloc(&j.out, (size_t)j.blocks * THREADS * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy((void *)j.data, host, max_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbol(c_data, host, CONST_BYTES));

  for (int mem = 0; mem < MEM_COUNT; mem++) {
    for (int bits = 32; bits <= 128; bits *= 2) {
      j.mem = mem;
      j.bits = bits;
      j.n = (int)(bytes_for(mem) / (bits / 8));
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeLinear;
      res.res.linear.devPtr = (void *)j.data;
      res.res.linear.desc = cudaCreateChannelDesc(32, bits >= 64 ? 32 : 0, bits == 128 ? 32 : 0,
                                                  bits == 128 ? 32 : 0, cudaChannelFormatKindSigned);
      res.res.linear.sizeInBytes = bytes_for(mem);
      cudaTextureDesc desc = {};
      desc.readMode = cudaReadModeElementType;
      CUDA_CHECK(cudaCreateTextureObject(&j.tex, &res, &desc, NULL));

      CUDA_CHECK(cudaMemset(j.out, 0xA5, (size_t)j.blocks * THREADS * sizeof(unsigned)));
      run_onchip(&j);
      unsigned got[2];
      int last = j.blocks * THREADS - 1;
      CUDA_CHECK(cudaMemcpy(&got[0], j.out, sizeof(unsigned), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(&got[1], j.out + last, sizeof(unsigned), cudaMemcpyDeviceToHost));
      bench_check_chase(c, "onchip_bandwidth", got[0], expected_fold(host, mem, bits, j.n, 0));
      bench_check_chase(c, "onchip_bandwidth", got[1],
                        expected_fold(host, mem, bits, j.n, last % THREADS));

      double ms[64], bw[64];
      stats_summary s;
      gpu_time_ms(run_onchip, &j, 2, c->repeats, &s, ms);
      double bytes = (double)j.blocks * THREADS * REPS * (bits / 8);
      for (int r = 0; r < c->repeats; r++) bw[r] = bytes / (ms[r] * 1e6);
      char key[64];
      snprintf(key, sizeof key, "onchip_bw.%s.%d", memory_names[mem], bits);
      bench_param params[] = {{"bits", bits}, {"blocks", j.blocks}, {"threads", THREADS},
                              {"footprint_bytes", (long long)bytes_for(mem)}};
      bench_emit(c, "onchip_bandwidth", "memory", memory_names[mem], params, 4, "bandwidth",
                 "GB/s", bw, c->repeats, key);
      CUDA_CHECK(cudaDestroyTextureObject(j.tex));
    }
  }
  free(host);
  CUDA_CHECK(cudaFree((void *)j.data));
  CUDA_CHECK(cudaFree(j.out));
}

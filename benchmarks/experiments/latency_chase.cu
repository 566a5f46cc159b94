/* Experiment 1 (Fang et al. Section 3, Table 1, Fig. 2): thread-level latency
 * by pointer chasing, p = a[p], one thread, an array of 2048 ints whose
 * element i holds (i + step) mod 2048, steps 1..1024. The chase walks the
 * array once untimed (warm-up), then `accesses` timed steps; the final p is
 * written out so the compiler keeps every load, and the host checks it.
 *
 * One thread on every SM at once, each with its own chase: the latency of a
 * level beyond the SM (L2) depends on which SM asks (issue 13), so a point is
 * the median over the SMs, not one SM's figure. Besides the paper's index
 * chase, an address chase through the same 8 KB (latency.l1_hit): the word
 * loaded is the next address, so no index arithmetic is on the chain. */
#include <stdlib.h>

#include "bench.h"
#include "bench_device.cuh"

enum { CHASE_N = 2048, CHASE_ACCESSES = 1024, REG_OPS = 1024,
       ADDRESS_WORDS = CHASE_N * sizeof(int) / sizeof(void *) };

__constant__ int c_chase[CHASE_N];

template <int SPACE>
__device__ __forceinline__ int chase_load(const int *g, const int *s, cudaTextureObject_t t,
                                          int p) {
  if (SPACE == SPACE_SHARED) return s[p];
  if (SPACE == SPACE_CONSTANT) return c_chase[p];
  if (SPACE == SPACE_GLOBAL_CG) return load_global_cg(g, p);
  if (SPACE == SPACE_GLOBAL_NC) return load_global_nc(g, p);
  if (SPACE == SPACE_TEXTURE) return load_texture(t, p);
  return load_global(g, p);
}

template <int SPACE>
__global__ void chase_kernel(const int *g, cudaTextureObject_t t, long long *cycles, int *out) {
  __shared__ int s[CHASE_N];
  if (SPACE == SPACE_SHARED) {
#pragma unroll 1  /* untimed: see chase_local_kernel */
    for (int i = 0; i < CHASE_N; i++) s[i] = g[i];
  }
  int p = 0;
#pragma unroll 1  /* the untimed warm-up */
  for (int i = 0; i < CHASE_N; i++) p = chase_load<SPACE>(g, s, t, p);
  long long t0 = clock64();
  for (int i = 0; i < CHASE_ACCESSES; i++) p = chase_load<SPACE>(g, s, t, p);
  out[blockIdx.x] = p;  /* the clock is read after p is stored: the last load has landed */
  long long t1 = clock64();
  cycles[blockIdx.x] = t1 - t0;
}

/* The L1 hit alone: a random cycle of addresses through the same 8 KB. */
__global__ void address_chase_kernel(const void *start, long long *cycles,
                                     unsigned long long *out) {
  const void *p = start;
  for (int i = 0; i < ADDRESS_WORDS; i++) p = chase_step(p);
  long long t0 = clock64();
  for (int i = 0; i < ADDRESS_WORDS; i++) p = chase_step(p);
  out[blockIdx.x] = (unsigned long long)p;
  long long t1 = clock64();
  cycles[blockIdx.x] = t1 - t0;
}

/* Local memory: a private array indexed by the chase itself cannot live in
 * registers (the compiler reports an 8 KB stack frame). */
__global__ void chase_local_kernel(const int *g, long long *cycles, int *out) {
  int a[CHASE_N];
  /* The fill and the warm-up are not timed: kept as loops (unroll 1), as
   * cicc would otherwise unroll all 2048 turns of each and spend a minute
   * on this kernel alone. The timed loop is left to the compiler. */
#pragma unroll 1
  for (int i = 0; i < CHASE_N; i++) a[i] = g[i];
  int p = 0;
#pragma unroll 1
  for (int i = 0; i < CHASE_N; i++) p = a[p];
  long long t0 = clock64();
  for (int i = 0; i < CHASE_ACCESSES; i++) p = a[p];
  out[blockIdx.x] = p;
  long long t1 = clock64();
  cycles[blockIdx.x] = t1 - t0;
}

/* Registers: a chain of dependent integer multiply-adds, which no compiler
 * can fold; its per-operation latency is what "register access" costs. */
__global__ void chain_register_kernel(unsigned seed, long long *cycles, int *out) {
  unsigned x = seed;
  long long t0 = clock64();
#pragma unroll 64
  for (int i = 0; i < REG_OPS; i++) x = x * x + seed;
  out[0] = (int)x;
  long long t1 = clock64();
  cycles[0] = t1 - t0;
}

typedef struct chase_buffers {
  int *data, *out;
  long long *cycles;
  cudaTextureObject_t tex;
  int blocks;                    /* one per SM */
  long long host_cycles[1024];
  int host_out[1024];
} chase_buffers;

/* The median over the blocks of their cycles per access. */
static double median_per_access(const chase_buffers *b, int accesses) {
  double x[1024];
  for (int i = 0; i < b->blocks; i++) x[i] = (double)b->host_cycles[i] / accesses;
  stats_summary s;
  stats_summarize(x, b->blocks, &s);
  return s.median;
}

static void fill_array(chase_buffers *b, int step) {
  int host[CHASE_N];
  for (int i = 0; i < CHASE_N; i++) host[i] = (i + step) % CHASE_N;
  CUDA_CHECK(cudaMemcpy(b->data, host, sizeof host, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbol(c_chase, host, sizeof host));
}

static double run_once(bench_ctx *c, chase_buffers *b, int space, int step) {
  int n = b->blocks;
  switch (space) {
  case SPACE_SHARED: chase_kernel<SPACE_SHARED><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  case SPACE_CONSTANT: chase_kernel<SPACE_CONSTANT><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  case SPACE_GLOBAL: chase_kernel<SPACE_GLOBAL><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  case SPACE_GLOBAL_CG: chase_kernel<SPACE_GLOBAL_CG><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  case SPACE_GLOBAL_NC: chase_kernel<SPACE_GLOBAL_NC><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  case SPACE_TEXTURE: chase_kernel<SPACE_TEXTURE><<<n, 1>>>(b->data, b->tex, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  default: chase_local_kernel<<<n, 1>>>(b->data, b->cycles, b->out); break;  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
  }
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(b->host_cycles, b->cycles, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b->host_out, b->out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long walked = (long long)(CHASE_N + CHASE_ACCESSES) * step;
  for (int i = 0; i < n; i++) bench_check_chase(c, "latency_chase", b->host_out[i], walked % CHASE_N);
  return median_per_access(b, CHASE_ACCESSES);
}

enum { SPACE_LOCAL = SPACE_TEXTURE + 1, SPACE_COUNT };

static const char *space_name(int space) {
  return space == SPACE_LOCAL ? "local" : bench_space_names[space];
}

static void measure_space(bench_ctx *c, chase_buffers *b, int space) {
  double per_step[16], samples[64];
  int steps = 0;
  int step_increment = c->quick ? 32 : 2;
  for (int step = 1; step <= 1024; step *= step_increment) {
    fill_array(b, step);
    for (int r = 0; r < c->repeats; r++) samples[r] = run_once(c, b, space, step);
    bench_param params[] = {{"step", step}, {"array", CHASE_N}, {"accesses", CHASE_ACCESSES}};
    stats_summary s = bench_emit(c, "latency_chase", "space", space_name(space), params, 3,
                                 "cycles_per_access", "cycles", samples, c->repeats, NULL);
    per_step[steps++] = s.median;
  }
  /* Table 1 is the average over steps; the profile keeps the median over
   * steps, with the spread over steps as min and max. */
  char key[64];
  snprintf(key, sizeof key, "latency.%s", space_name(space));
  stats_summary over_steps;
  stats_summarize(per_step, steps, &over_steps);
  profile_set(c->prof, key, "cycles", &over_steps);
}

static unsigned register_chain_expected(unsigned seed) {
  unsigned x = seed;
  for (int i = 0; i < REG_OPS; i++) x = x * x + seed;
  return x;
}

static void measure_register(bench_ctx *c, chase_buffers *b) {
  double samples[64];
  for (int r = 0; r < c->repeats + 1; r++) {
    unsigned seed = 3 + 2 * bench_random(1000);
    chain_register_kernel<<<1, 1>>>(seed, b->cycles, b->out);  // NOLINT(warplint-S_4): one thread times the chase on purpose
    CUDA_CHECK_LAUNCH();
    long long cycles = 0;
    int x = 0;
    CUDA_CHECK(cudaMemcpy(&cycles, b->cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&x, b->out, sizeof x, cudaMemcpyDeviceToHost));
    bench_check_chase(c, "latency_chase register", x, (int)register_chain_expected(seed));
    if (r > 0) samples[r - 1] = (double)cycles / REG_OPS;  /* the first launch warms up */
  }
  bench_param params[] = {{"operations", REG_OPS}};
  bench_emit(c, "latency_chase", "space", "register", params, 1, "cycles_per_access", "cycles",
             samples, c->repeats, "latency.register");
}

/* latency.l1_hit: the address chase on every SM, c->repeats launches after
 * a warm-up launch. */
static void measure_l1_hit(bench_ctx *c, chase_buffers *b) {
  static unsigned long long words[ADDRESS_WORDS];
  int order[ADDRESS_WORDS];
  unsigned long long base = (unsigned long long)b->data;
  for (int i = 0; i < ADDRESS_WORDS; i++) order[i] = i;
  for (int i = ADDRESS_WORDS - 1; i > 0; i--) {
    int j = (int)bench_random((unsigned)i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int i = 0; i < ADDRESS_WORDS; i++)
    words[order[i]] = base + 8 * (unsigned long long)order[(i + 1) % ADDRESS_WORDS];
  CUDA_CHECK(cudaMemcpy(b->data, words, sizeof words, cudaMemcpyHostToDevice));
  unsigned long long *ends;
  CUDA_CHECK(cudaMalloc(&ends, b->blocks * sizeof *ends));
  double samples[64];
  for (int r = 0; r <= c->repeats; r++) {
    address_chase_kernel<<<b->blocks, 1>>>(b->data, b->cycles, ends);  // NOLINT(warplint-S_4): one thread per SM times the chase on purpose
    CUDA_CHECK_LAUNCH();
    unsigned long long host_ends[1024];
    CUDA_CHECK(cudaMemcpy(host_ends, ends, b->blocks * sizeof *ends, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b->host_cycles, b->cycles, b->blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < b->blocks; i++) bench_check_chase(c, "latency_chase l1_hit", (long long)host_ends[i], (long long)base);
    if (r > 0) samples[r - 1] = median_per_access(b, ADDRESS_WORDS);  /* the first launch warms up */
  }
  CUDA_CHECK(cudaFree(ends));
  bench_param params[] = {{"bytes", ADDRESS_WORDS * 8}, {"accesses", ADDRESS_WORDS}, {"sms", b->blocks}};
  bench_emit(c, "latency_chase", "space", "l1_hit_address_chase", params, 3, "cycles_per_access",
             "cycles", samples, c->repeats, "latency.l1_hit");
}

void exp_latency_chase(bench_ctx *c) {
  chase_buffers b;
  b.blocks = c->dev.sm_count < 1024 ? c->dev.sm_count : 1024;
  CUDA_CHECK(cudaMalloc(&b.data, CHASE_N * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b.out, b.blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b.cycles, b.blocks * sizeof(long long)));
  b.tex = bench_texture_of(b.data, CHASE_N);
  measure_register(c, &b);
  for (int space = 0; space < SPACE_COUNT; space++) measure_space(c, &b, space);
  measure_l1_hit(c, &b);
  CUDA_CHECK(cudaDestroyTextureObject(b.tex));
  CUDA_CHECK(cudaFree(b.data));
  CUDA_CHECK(cudaFree(b.out));
  CUDA_CHECK(cudaFree(b.cycles));
}

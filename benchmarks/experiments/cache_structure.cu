/* Experiment 7 (Mei and Chu, "Dissecting GPU memory hierarchy through
 * microbenchmarking", shared/seeds/000): cache sizes, fill granularity and
 * hit/miss latencies by a fine-grained pointer chase: one thread, and the
 * latency of every single access recorded (in shared memory, so that the
 * record does not disturb the cache under test).
 *
 * Size: a random cycle through S / 128 lines of a global array, walked once
 * to warm and once timed; the cache holds S while nearly every timed access
 * hits. Fill granularity: a cold sequential walk in 4-byte steps; the
 * distance between two misses is what one miss brings in.
 *
 * From one SM the L2 is not one cache: a line homed in the far partition is
 * copied into the near one, so one SM's walk fills its near partition with
 * its lines and their copies and slows down at about half the L2 (the far
 * hits and DRAM beyond are measured as such by l2_partition). The L2 walk
 * therefore gives cache.l2.near_size, not the L2's size. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "results.h"
#include "bench_device.cuh"

enum { RECORD_MAX = 4096, LINE_STRIDE_INTS = 32 };

template <int SPACE>
__device__ __forceinline__ int fine_load(const int *g, cudaTextureObject_t t, int p) {
  if (SPACE == SPACE_GLOBAL_CG) return load_global_cg(g, p);
  if (SPACE == SPACE_TEXTURE) return load_texture(t, p);
  return load_global(g, p);
}

template <int SPACE>
__global__ void fine_chase_kernel(const int *g, cudaTextureObject_t t, int count, int warm,
                                  unsigned *latency, int *index, int *out) {
  __shared__ unsigned s_latency[RECORD_MAX];
  __shared__ int s_index[RECORD_MAX];
  int p = 0;
  if (warm)
    for (int i = 0; i < count; i++) p = fine_load<SPACE>(g, t, p);
  int first_recorded = count > RECORD_MAX ? count - RECORD_MAX : 0;
  for (int i = 0; i < count; i++) {
    long long t0 = clock64();
    p = fine_load<SPACE>(g, t, p);
    /* The store waits for the load; the second clock read waits for it. */
    if (i >= first_recorded) s_index[i - first_recorded] = p;
    long long t1 = clock64();
    if (i >= first_recorded) s_latency[i - first_recorded] = (unsigned)(t1 - t0);
  }
  int recorded = count - first_recorded;
  for (int i = 0; i < recorded; i++) {
    latency[i] = s_latency[i];
    index[i] = s_index[i];
  }
  out[0] = p;
}

typedef struct fine {
  int *data;
  size_t capacity_ints;
  unsigned *latency_dev;
  int *index_dev, *out_dev;
  int *host;
  unsigned latency[RECORD_MAX];
} fine;

/* Runs one chase of `count` accesses; returns how many latencies came back. */
static int fine_run(bench_ctx *c, fine *f, int space, cudaTextureObject_t t, int count, int warm,
                    int expected_end) {
  switch (space) {
  case SPACE_GLOBAL_CG: fine_chase_kernel<SPACE_GLOBAL_CG><<<1, 1>>>(f->data, t, count, warm, f->latency_dev, f->index_dev, f->out_dev); break;  // NOLINT(warplint-S_4): one thread times the chase on purpose
  case SPACE_TEXTURE: fine_chase_kernel<SPACE_TEXTURE><<<1, 1>>>(f->data, t, count, warm, f->latency_dev, f->index_dev, f->out_dev); break;  // NOLINT(warplint-S_4): one thread times the chase on purpose
  default: fine_chase_kernel<SPACE_GLOBAL><<<1, 1>>>(f->data, t, count, warm, f->latency_dev, f->index_dev, f->out_dev); break;  // NOLINT(warplint-S_4): one thread times the chase on purpose
  }
  CUDA_CHECK_LAUNCH();
  int recorded = count < RECORD_MAX ? count : RECORD_MAX;
  int end = -1;
  CUDA_CHECK(cudaMemcpy(f->latency, f->latency_dev, recorded * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, f->out_dev, sizeof end, cudaMemcpyDeviceToHost));
  bench_check_chase(c, "cache_structure", end, expected_end);
  return recorded;
}

/* A random cycle through the first `lines` lines of 128 bytes; returns the
 * number of ints the layout spans. */
static size_t random_line_cycle(fine *f, size_t lines) {
  int *order = (int *)malloc(lines * sizeof(int));
  if (!order) abort();
  for (size_t i = 0; i < lines; i++) order[i] = (int)i;
  for (size_t i = lines - 1; i > 0; i--) {
    size_t j = bench_random((unsigned)i + 1);
    int tmp = order[i]; order[i] = order[j]; order[j] = tmp;
  }
  for (size_t i = 0; i < lines; i++)
    f->host[(size_t)order[i] * LINE_STRIDE_INTS] = order[(i + 1) % lines] * LINE_STRIDE_INTS;
  free(order);
  size_t ints = lines * LINE_STRIDE_INTS;
  CUDA_CHECK(cudaMemcpy(f->data, f->host, ints * sizeof(int), cudaMemcpyHostToDevice));
  return ints;
}

static void write_samples(bench_ctx *c, const char *level, const char *what, long long size,
                          const unsigned *lat, int n) {
  static double samples[RECORD_MAX];
  for (int i = 0; i < n; i++) samples[i] = lat[i];
  result_line r;
  stats_summary s;
  stats_summarize(samples, n, &s);
  /* One line per run with its statistics, and every latency in "samples". */
  result_begin(&r, c->results, "benchmarks", "cache_structure", c->dev.name);
  result_param_str(&r, "level", level);
  result_param_str(&r, "walk", what);
  result_param_int(&r, "bytes", size);
  result_measure(&r, "access_latency", "cycles", &s);
  jsonw_key(&r.w, "samples");
  jsonw_array_begin(&r.w);
  for (int i = 0; i < n; i++) jsonw_int(&r.w, lat[i]);
  jsonw_array_end(&r.w);
  result_end(&r);
}

static double median_of(const unsigned *lat, int n) {
  static double x[RECORD_MAX];
  for (int i = 0; i < n; i++) x[i] = lat[i];
  stats_summary s;
  stats_summarize(x, n, &s);
  return s.median;
}

static int slow_count(const unsigned *lat, int n, double threshold) {
  int slow = 0;
  for (int i = 0; i < n; i++) slow += lat[i] > threshold;
  return slow;
}

typedef struct level_plan {
  const char *name;      /* profile key part: l1, texture, l2 */
  int space;
  size_t sizes_kb[12];
  int size_count;
  const char *size_key;  /* "size", or "near_size" for the L2 */
  bool latency_keys;     /* hit and miss latency into the profile (L2: l2_partition's) */
} level_plan;

static void measure_level(bench_ctx *c, fine *f, const level_plan *L, cudaTextureObject_t t) {
  static unsigned walks[12][RECORD_MAX];
  int counts[12], walked = 0;
  for (int k = 0; k < L->size_count; k++) {
    size_t bytes = L->sizes_kb[k] * 1024;
    size_t lines = bytes / 128;
    if (lines * LINE_STRIDE_INTS > f->capacity_ints) break;
    random_line_cycle(f, lines);
    counts[k] = fine_run(c, f, L->space, t, (int)lines, 1, 0);
    memcpy(walks[k], f->latency, counts[k] * sizeof(unsigned));
    write_samples(c, L->name, "warm_random_lines", (long long)bytes, f->latency, counts[k]);
    walked = k + 1;
  }
  if (walked < 2) return;
  double hit = median_of(walks[0], counts[0]);
  double miss = median_of(walks[walked - 1], counts[walked - 1]);
  char key[64];
  if (L->latency_keys) {
    snprintf(key, sizeof key, "cache.%s.hit_latency", L->name);
    profile_set_value(c->prof, key, "cycles", hit, "median of the warm walk, smallest size");
  }
  if (miss < 1.3 * hit) return;  /* the largest size still fits: no size to report */
  if (L->latency_keys) {
    snprintf(key, sizeof key, "cache.%s.miss_latency", L->name);
    profile_set_value(c->prof, key, "cycles", miss, "median of the warm walk, largest size");
  }
  /* The cache holds every size up to the first whose timed walk had 10% or
   * more accesses 1.3 times slower than a hit. */
  size_t fits = 0;
  for (int k = 0; k < walked && slow_count(walks[k], counts[k], 1.3 * hit) < 0.10 * counts[k]; k++)
    fits = L->sizes_kb[k] * 1024;
  snprintf(key, sizeof key, "cache.%s.%s", L->name, L->size_key);
  if (fits > 0)
    profile_set_value(c->prof, key, "bytes", (double)fits,
                      "largest walked size with <10% slow accesses");
}

/* Cold sequential walk in 4-byte steps over a freshly written array. */
static void measure_line(bench_ctx *c, fine *f, const char *level, int space,
                         cudaTextureObject_t t, void *flush, size_t flush_bytes) {
  enum { WALK = 2048 };
  for (int i = 0; i < WALK; i++) f->host[i] = i + 1;
  CUDA_CHECK(cudaMemcpy(f->data, f->host, (WALK + 1) * sizeof(int), cudaMemcpyHostToDevice));
  if (flush) CUDA_CHECK(cudaMemset(flush, 0x3C, flush_bytes));  /* evicts the array from L2 */
  int n = fine_run(c, f, space, t, WALK, 0, WALK);
  write_samples(c, level, "cold_sequential_4B", WALK * 4, f->latency, n);
  /* Most accesses hit; a miss costs at least twice a hit at every level.
   * The most frequent distance between two misses is what a miss brings in
   * (the average is not: later misses are partly hidden, by how much varies
   * from run to run). */
  enum { FAR = 64 };
  double threshold = 2 * median_of(f->latency, n);
  int distances[FAR] = {0}, last = -1, best = 0;
  for (int i = 0; i < n; i++) {
    if (f->latency[i] <= threshold) continue;
    if (last >= 0 && i - last < FAR) distances[i - last]++;
    last = i;
  }
  for (int d = 1; d < FAR; d++) if (distances[d] > distances[best]) best = d;
  if (distances[best] < 2) return;
  char key[64];
  snprintf(key, sizeof key, "cache.%s.line", level);
  profile_set_value(c->prof, key, "bytes", 4.0 * best,
                    "cold 4-byte walk: most frequent distance between misses");
}

void exp_cache_structure(bench_ctx *c) {
  fine f;
  memset(&f, 0, sizeof f);
  size_t l2 = (size_t)c->dev.l2_bytes;
  f.capacity_ints = c->quick ? ((size_t)1 << 20) : 2 * l2 / sizeof(int);
  f.host = (int *)calloc(f.capacity_ints, sizeof(int));
  if (!f.host) abort();
  CUDA_CHECK(cudaMalloc(&f.data, f.capacity_ints * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&f.latency_dev, RECORD_MAX * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&f.index_dev, RECORD_MAX * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&f.out_dev, sizeof(int)));
  cudaTextureObject_t t = bench_texture_of(f.data, f.capacity_ints < (1u << 27) ? f.capacity_ints : (1u << 27));
  size_t flush_bytes = 4 * l2;
  void *flush = NULL;
  CUDA_CHECK(cudaMalloc(&flush, flush_bytes));

  level_plan l1 = {"l1", SPACE_GLOBAL, {8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 320, 512}, 12,
                   "size", true};
  level_plan tex = l1;
  tex.name = "texture";
  tex.space = SPACE_TEXTURE;
  /* Sixteenths of the L2 the device reports, finest around its half. */
  static const int sixteenths[12] = {1, 4, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20};
  level_plan l2p = {"l2", SPACE_GLOBAL_CG, {0}, 12, "near_size", false};
  for (int k = 0; k < 12; k++) l2p.sizes_kb[k] = l2 / 1024 * sixteenths[k] / 16;
  if (c->quick) { l1.size_count = 4; tex.size_count = 4; l2p.size_count = 0; }
  /* The kernel needs 32 KB of shared memory for its record; ask for the
   * smallest carve-out that holds it, so L1 gets the rest. */
  CUDA_CHECK(cudaFuncSetAttribute(fine_chase_kernel<SPACE_GLOBAL>,
                                  cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  CUDA_CHECK(cudaFuncSetAttribute(fine_chase_kernel<SPACE_TEXTURE>,
                                  cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  measure_level(c, &f, &l1, t);
  measure_level(c, &f, &tex, t);
  if (l2p.size_count) measure_level(c, &f, &l2p, t);
  measure_line(c, &f, "l1", SPACE_GLOBAL, t, NULL, 0);
  measure_line(c, &f, "texture", SPACE_TEXTURE, t, NULL, 0);
  measure_line(c, &f, "l2", SPACE_GLOBAL_CG, t, flush, flush_bytes);

  CUDA_CHECK(cudaDestroyTextureObject(t));
  CUDA_CHECK(cudaFree(flush));
  CUDA_CHECK(cudaFree(f.data));
  CUDA_CHECK(cudaFree(f.latency_dev));
  CUDA_CHECK(cudaFree(f.index_dev));
  CUDA_CHECK(cudaFree(f.out_dev));
  free(f.host);
}

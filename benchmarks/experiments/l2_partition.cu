/* Experiment 9 (issue 13): the two partitions of the L2 and the DRAM behind
 * them, seen from every SM.
 *
 * A Hopper L2 is two partitions, each wired to half of the SMs and half of
 * the memory controllers. Every line has a home partition; an SM that reads
 * a line homed in the far partition crosses between the two and leaves a
 * copy in its near one, so that its next read is a near hit (NVIDIA's A100
 * whitepaper: each partition "localizes and caches data for memory accesses
 * from SMs in the GPCs directly connected to the partition"). Which lines
 * are near depends on the SM, so the suite finds out instead of assuming:
 *
 * 1. Lines. After a flush, one SM (the reference) walks a region of 1.25 x
 *    L2 cold, page by page, recording every access (twice, keeping the
 *    faster). The latencies form two clusters, DRAM behind the near
 *    partition and DRAM behind the far one: a line's cluster is its home,
 *    relative to the reference's side.
 * 2. SMs. Every SM walks a probe set of PROBE_LINES of those lines cold the
 *    same way: an SM whose clusters agree with the reference's is on its
 *    side, one whose clusters are the reverse is on the other side.
 * 3. Latency per SM, by address chase (no index arithmetic), each after a
 *    flush: its near-homed probe lines cold (DRAM near), its far-homed ones
 *    (DRAM far), all of them (DRAM: what a random line costs); then, after
 *    an SM of the other side has read every probe line, its far lines (L2
 *    far hit: they are in the far partition only), the same lines again (the
 *    copies now in its near partition) and its near lines (L2 near hit).
 * 4. Capacity: one SM of each side walks the lines homed in its own
 *    partition, warm, for totals from L2/4 to 1.25 x L2; the L2 holds a total
 *    while fewer than 10% of the timed accesses are slow.
 * 5. Bandwidth: every SM reads its share of lines once, after each line's
 *    home side has read it (so that it is in its home partition only): lines
 *    homed near it, or lines homed far. At most 0.4 x L2, so that the far
 *    lines' copies fit beside them; the rate is the difference between a
 *    full and a half pass, which cancels the start-up of so short a pass.
 *
 * The profile keeps, for each latency, the median over SMs with the range
 * over SMs as min and max; the result lines keep every SM. With --tiny the
 * "L2" is one page and the halves may be arbitrary: every kernel runs once,
 * for compute-sanitizer, and the figures mean nothing. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_device.cuh"
#include "results.h"

enum {
  LINE = 128,                 /* bytes: one access per line */
  WORDS_PER_LINE = LINE / 8,
  PAGE = 2 << 20,             /* the allocation's pages: the cold walk goes page by page */
  PROBE_LINES = 1024,         /* the probe set every SM classifies and chases */
  SEGMENTS = 3,               /* chases timed one after the other in one probe */
  BLOCKS_PER_SM = 4,          /* one-thread blocks launched to reach every SM */
  HIST_BINS = 64, HIST_BIN_CYCLES = 32,
  READ_THREADS = 1024,
  MAX_SM_ID = 1024,
};
/* Which 8-byte word of a line holds the link of which chain. */
enum { SLOT_CLASSIFY, SLOT_PROBE_MIXED, SLOT_PROBE_HOME, SLOT_CAPACITY };

/* Cycles (1 s at 2 GHz) a block waits for another: a guard against one never
 * scheduled, not a timing. */
static const long long SPIN_LIMIT = 2000000000;

/* ---------------------------------------------------------------- device */

typedef struct probe_job {
  int sm, partner;               /* the SM that chases; the SM that reads first (-1: none) */
  const void *warm_start;        /* the partner's chain and its length */
  int warm_count;
  const void *start[SEGMENTS];   /* the chases, timed one by one */
  int count[SEGMENTS];
  int segments;
  unsigned *record;              /* not NULL: every access of segment 0, untimed otherwise */
} probe_job;

typedef struct probe_out {
  long long cycles[SEGMENTS];
  unsigned long long end[SEGMENTS];
  int claimed[2];
  int ready;
  int timed_out;
} probe_out;

/* True for the first block the scheduler placed on SM `sm`; flag starts 0. */
__device__ __forceinline__ bool claim_sm(int sm, int *flag) {
  return sm >= 0 && bench_smid() == (unsigned)sm && atomicCAS(flag, 0, 1) == 0;
}

__global__ void probe_kernel(probe_job job, probe_out *out) {
  volatile __shared__ unsigned long long sink;
  if (claim_sm(job.partner, &out->claimed[1])) {
    const void *p = job.warm_start;
    for (int i = 0; i < job.warm_count; i++) p = chase_step_cg(p);
    sink = (unsigned long long)p;  /* waits for the last load */
    __threadfence();
    atomicExch(&out->ready, 1);
    return;
  }
  if (!claim_sm(job.sm, &out->claimed[0])) return;
  if (job.partner >= 0) {
    long long deadline = clock64() + SPIN_LIMIT;
    while (*(volatile int *)&out->ready == 0)
      if (clock64() > deadline) { out->timed_out = 1; return; }
  }
  for (int k = 0; k < job.segments; k++) {
    const void *p = job.start[k];
    long long t0 = clock64();
    if (k == 0 && job.record) {
      for (int i = 0; i < job.count[k]; i++) {
        long long a = clock64();
        p = chase_step_cg(p);
        sink = (unsigned long long)p;  /* the store waits for the load, the clock for the store */
        job.record[i] = (unsigned)(clock64() - a);
      }
    } else {
      for (int i = 0; i < job.count[k]; i++) p = chase_step_cg(p);
      sink = (unsigned long long)p;
    }
    out->cycles[k] = clock64() - t0;
    out->end[k] = (unsigned long long)p;
  }
}

/* Capacity: two SMs, each walking its own chain once to warm it and once
 * timed, every timed access binned by its latency (in shared memory, so
 * that the record takes no room in the L2 under test). */
typedef struct capacity_job {
  int sm[2];
  const void *start[2];
  int count[2];
} capacity_job;

typedef struct capacity_out {
  unsigned hist[2][HIST_BINS];
  long long cycles[2];
  unsigned long long end[2];
  int claimed[2];
} capacity_out;

__global__ void capacity_kernel(capacity_job job, capacity_out *out) {
  __shared__ unsigned hist[HIST_BINS];
  volatile __shared__ unsigned long long sink;
  int role = claim_sm(job.sm[0], &out->claimed[0]) ? 0 : claim_sm(job.sm[1], &out->claimed[1]) ? 1 : -1;
  if (role < 0) return;
  for (int b = 0; b < HIST_BINS; b++) hist[b] = 0;
  const void *p = job.start[role];
  for (int i = 0; i < job.count[role]; i++) p = chase_step_cg(p);
  sink = (unsigned long long)p;
  long long t0 = clock64();
  for (int i = 0; i < job.count[role]; i++) {
    long long a = clock64();
    p = chase_step_cg(p);
    sink = (unsigned long long)p;
    long long bin = (clock64() - a) / HIST_BIN_CYCLES;
    hist[bin < HIST_BINS ? bin : HIST_BINS - 1]++;
  }
  out->cycles[role] = clock64() - t0;
  out->end[role] = (unsigned long long)p;
  for (int b = 0; b < HIST_BINS; b++) out->hist[role][b] = hist[b];
}

/* Bandwidth: one block of READ_THREADS on every SM (its dynamic shared
 * memory leaves no room for a second). Phase A: every block reads its share
 * of the lines homed on its own side, so that each line is in its home
 * partition only. A grid-wide barrier. Phase B, timed: its share of its own
 * side's lines again (near) or of the other side's (far). The block's line
 * numbers are copied to shared memory first, so that only the lines
 * themselves are read in the timed part: whole, 16 bytes a thread, through
 * ld.global.cg. */
typedef struct read_job {
  const int4 *region;
  const int *home_lines[2];      /* line numbers homed in partition 0 / 1 */
  const signed char *side_of_sm; /* by %smid; -1 for an SM not mapped */
  int share_a[2];                /* lines a block of side k reads in phase A (its own) */
  int share_b[2];                /* lines a block of side k reads in phase B */
  int far;                       /* phase B reads the other side's lines */
} read_job;

typedef struct read_out {
  long long cycles[MAX_SM_ID];   /* phase B of each block */
  unsigned checksum[MAX_SM_ID];  /* of phase B's lines */
  unsigned warm_sum[MAX_SM_ID];  /* of phase A's: stored, so that its loads stay */
  int slots[2];
  int arrived;
  int barrier_timed_out;
} read_out;

/* The block's line numbers into shared memory. */
__device__ void load_slice(const int *global_lines, int count, int *slice) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) slice[i] = global_lines[i];
  __syncthreads();
}

__device__ unsigned read_lines(const int4 *region, const int *slice, int count) {
  unsigned acc = 0;
  int chunk = threadIdx.x % (LINE / 16), row = threadIdx.x / (LINE / 16);
  const int rows = READ_THREADS / (LINE / 16);
#pragma unroll 4
  for (int i = row; i < count; i += rows) {
    int4 v = __ldcg(region + (size_t)slice[i] * (LINE / 16) + chunk);
    acc += (unsigned)v.x + (unsigned)v.y + (unsigned)v.z + (unsigned)v.w;
  }
  return acc;
}

__global__ void __launch_bounds__(READ_THREADS, 1) read_kernel(read_job job, read_out *out) {
  extern __shared__ int slice[];
  __shared__ int side, slot;
  __shared__ unsigned block_sum;
  if (threadIdx.x == 0) {
    side = job.side_of_sm[bench_smid()];
    slot = side >= 0 ? atomicAdd(&out->slots[side], 1) : -1;
    block_sum = 0;
  }
  __syncthreads();
  if (side >= 0) {
    load_slice(job.home_lines[side] + slot * job.share_a[side], job.share_a[side], slice);
    atomicAdd(&block_sum, read_lines(job.region, slice, job.share_a[side]));
  }
  __syncthreads();
  if (threadIdx.x == 0) {  /* every block waits until every block has finished phase A */
    out->warm_sum[blockIdx.x] = block_sum;
    block_sum = 0;
    __threadfence();
    atomicAdd(&out->arrived, 1);
    long long deadline = clock64() + SPIN_LIMIT;
    while (*(volatile int *)&out->arrived < (int)gridDim.x)
      if (clock64() > deadline) { out->barrier_timed_out = 1; break; }
  }
  __syncthreads();
  if (side < 0) return;
  load_slice(job.home_lines[job.far ? 1 - side : side] + slot * job.share_b[side], job.share_b[side], slice);
  long long t0 = clock64();
  unsigned acc = read_lines(job.region, slice, job.share_b[side]);
  atomicAdd(&block_sum, acc);
  __syncthreads();
  if (threadIdx.x == 0) {
    out->cycles[blockIdx.x] = clock64() - t0;
    out->checksum[blockIdx.x] = block_sum;
  }
}

/* Evicts everything: reads a buffer of 3 x L2 through the L2. */
__global__ void flush_kernel(const int4 *buffer, size_t count, int *sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = __ldcg(buffer + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) sink[0] = acc;  /* keeps the loads; the buffer never gives this */
}

/* Which SM ids exist: every block marks its own. */
__global__ void smid_kernel(int *seen) {
  unsigned id = bench_smid();
  if (threadIdx.x == 0 && id < MAX_SM_ID) seen[id] = 1;
}

/* ------------------------------------------------------------------ host */

typedef struct partition {
  bench_ctx *c;
  size_t l2;                 /* the L2 size the plan is made for (one page with --tiny) */
  size_t lines;              /* in the region */
  unsigned long long *image; /* host copy of the region, word by word */
  char *region;              /* device */
  int4 *flush_buffer;
  int *flush_sink;
  size_t flush_count;
  unsigned *record;          /* device, one latency per line */
  probe_out *probe;          /* device */
  signed char *home;         /* per line: 0 homed on the reference's side, 1 the other */
  int probe_line[PROBE_LINES];
  int probe_home_start[2], probe_home_count[2], probe_mixed_start;
  int sm_ids[MAX_SM_ID], sm_count;
  signed char side[MAX_SM_ID]; /* by %smid: 0 the reference's side, 1 the other, -1 unknown */
  int partner[2];            /* an SM of each side */
} partition;

/* Where chain `slot` enters a line: the word that holds its next link. */
static const void *chain_entry(const partition *P, int slot, int line) {
  return (const void *)(P->region + (size_t)line * LINE + 8 * slot);
}

/* Links lines[0..n-1] into a cycle through word `slot` of each line. */
static void link_cycle(partition *P, const int *lines, size_t n, int slot) {
  for (size_t i = 0; i < n; i++)
    P->image[(size_t)lines[i] * WORDS_PER_LINE + slot] =
        (unsigned long long)chain_entry(P, slot, lines[(i + 1) % n]);
}

static void shuffle(int *x, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = bench_random((unsigned)i);
    int t = x[i - 1]; x[i - 1] = x[j]; x[j] = t;
  }
}

static void upload(partition *P) {
  CUDA_CHECK(cudaMemcpy(P->region, P->image, P->lines * LINE, cudaMemcpyHostToDevice));
}

static void flush(partition *P) {
  flush_kernel<<<4 * P->c->dev.sm_count, 256>>>(P->flush_buffer, P->flush_count, P->flush_sink);
  CUDA_CHECK_LAUNCH();
}

/* A flush, then the probe (up to three tries, in case the scheduler put no
 * block on an SM it needs); checks where every chase ended. False when the
 * probe never ran, which counts as a failed check. */
static bool probe(partition *P, const probe_job *job, probe_out *out) {
  for (int attempt = 0; attempt < 3; attempt++) {
    flush(P);
    CUDA_CHECK(cudaMemset(P->probe, 0, sizeof *P->probe));
    probe_kernel<<<BLOCKS_PER_SM * P->c->dev.sm_count, 1>>>(*job, P->probe);  // NOLINT(warplint-S_4): one-thread blocks, one of them on the SM under test
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(out, P->probe, sizeof *out, cudaMemcpyDeviceToHost));
    if (!out->claimed[0] || (job->partner >= 0 && !out->claimed[1]) || out->timed_out) continue;
    for (int k = 0; k < job->segments; k++)
      bench_check_chase(P->c, "l2_partition", (long long)out->end[k],
                        (long long)(unsigned long long)job->start[k]);
    return true;
  }
  bench_check_chase(P->c, "l2_partition: probe never ran", 0, 1);
  fprintf(stderr, "warpbench: l2_partition: SM %d (partner %d) could not be probed\n", job->sm,
          job->partner);
  return false;
}

static int by_value(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* Two clusters of latencies (1-D k-means from the quartiles; the slowest 3%,
 * stragglers of either kind, do not move the centres): cls[i] = 0 for the
 * lower, 1 for the upper; false when the two are not clearly apart (each a
 * fifth of the lines at least, centres 60 cycles apart). */
static bool two_clusters(const unsigned *lat, size_t n, signed char *cls, double centre[2]) {
  unsigned *sorted = (unsigned *)malloc(n * sizeof(unsigned));
  if (!sorted) abort();
  memcpy(sorted, lat, n * sizeof(unsigned));
  qsort(sorted, n, sizeof(unsigned), by_value);
  centre[0] = sorted[n / 4];
  centre[1] = sorted[3 * n / 4];
  double straggler = sorted[n - 1 - n * 3 / 100];
  free(sorted);
  size_t members[2] = {0, 0};
  for (int iteration = 0; iteration < 30; iteration++) {
    double sum[2] = {0, 0};
    size_t counted[2] = {0, 0};
    members[0] = members[1] = 0;
    for (size_t i = 0; i < n; i++) {
      int k = lat[i] - centre[0] > centre[1] - lat[i];
      cls[i] = (signed char)k;
      members[k]++;
      if (lat[i] > straggler) continue;
      sum[k] += lat[i];
      counted[k]++;
    }
    for (int k = 0; k < 2; k++) if (counted[k]) centre[k] = sum[k] / (double)counted[k];
  }
  return members[0] > n / 5 && members[1] > n / 5 && centre[1] - centre[0] > 60;
}

/* A cold walk twice, each after a flush: per access the faster of the two,
 * which drops the stragglers (a DRAM refresh, a TLB miss) that one walk
 * has. False when the probe never ran. */
static bool cold_walk_twice(partition *P, probe_job *job, unsigned *lat, size_t n) {
  unsigned *second = (unsigned *)malloc(n * sizeof(unsigned));
  probe_out out;
  if (!second) abort();
  bool ok = probe(P, job, &out);
  if (ok) CUDA_CHECK(cudaMemcpy(lat, P->record, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  ok = ok && probe(P, job, &out);
  if (ok) CUDA_CHECK(cudaMemcpy(second, P->record, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (size_t i = 0; ok && i < n; i++) if (second[i] < lat[i]) lat[i] = second[i];
  free(second);
  return ok;
}

/* One cold walk as a result line: its statistics, the two cluster centres
 * and a histogram (16-cycle bins) of every access. */
static void emit_walk(partition *P, const char *figure, int sm, int side, long long agree,
                      const unsigned *lat, size_t n, const double centre[2]) {
  enum { BINS = 128, WIDTH = 16 };
  unsigned hist[BINS] = {0};
  double *x = (double *)malloc(n * sizeof(double));
  if (!x) abort();
  for (size_t i = 0; i < n; i++) {
    x[i] = lat[i];
    hist[lat[i] / WIDTH < BINS ? lat[i] / WIDTH : BINS - 1]++;
  }
  stats_summary s;
  stats_summarize(x, (int)n, &s);
  free(x);
  result_line r;
  result_begin(&r, P->c->results, "benchmarks", "l2_partition", P->c->dev.name);
  result_param_str(&r, "figure", figure);
  result_param_int(&r, "sm", sm);
  result_param_int(&r, "side", side);
  result_param_int(&r, "lines", (long long)n);
  if (agree >= 0) result_param_int(&r, "agree", agree);
  result_measure(&r, "access_latency", "cycles", &s);
  result_derived(&r, "near_centre", centre[0]);
  result_derived(&r, "far_centre", centre[1]);
  jsonw_key(&r.w, "histogram_16_cycles");
  jsonw_array_begin(&r.w);
  for (int b = 0; b < BINS; b++) jsonw_int(&r.w, hist[b]);
  jsonw_array_end(&r.w);
  result_end(&r);
}

/* Step 1: the reference SM's cold walk of the whole region, page by page. */
static bool classify_lines(partition *P, int reference) {
  int *order = (int *)malloc(P->lines * sizeof(int));
  unsigned *lat = (unsigned *)malloc(P->lines * sizeof(unsigned));
  signed char *cls = (signed char *)malloc(P->lines);
  if (!order || !lat || !cls) abort();
  size_t per_page = PAGE / LINE;
  for (size_t i = 0; i < P->lines; i++) order[i] = (int)i;
  for (size_t first = 0; first < P->lines; first += per_page)
    shuffle(order + first, P->lines - first < per_page ? P->lines - first : per_page);
  link_cycle(P, order, P->lines, SLOT_CLASSIFY);
  upload(P);
  probe_job job;
  memset(&job, 0, sizeof job);
  job.sm = reference;
  job.partner = -1;
  job.start[0] = chain_entry(P, SLOT_CLASSIFY, order[0]);
  job.count[0] = (int)P->lines;
  job.segments = 1;
  job.record = P->record;
  bool ok = cold_walk_twice(P, &job, lat, P->lines);
  if (ok) {
    double centre[2];
    ok = two_clusters(lat, P->lines, cls, centre);
    emit_walk(P, "classify_cold_walk", reference, 0, -1, lat, P->lines, centre);
    if (!ok && P->c->tiny) {  /* the kernels still run once, on arbitrary halves */
      for (size_t i = 0; i < P->lines; i++) cls[i] = (signed char)(order[i] & 1);
      ok = true;
    }
    for (size_t i = 0; i < P->lines; i++) P->home[order[i]] = cls[i];
    if (!ok)
      fprintf(stderr, "warpbench: l2_partition: the cold walk shows no two clusters (%.0f and %.0f "
              "cycles); no partition figures\n", centre[0], centre[1]);
  }
  free(order);
  free(lat);
  free(cls);
  return ok;
}

/* The probe set: PROBE_LINES random lines of the first page, one chain
 * through all of them and one through each home's lines. */
static bool build_probe_set(partition *P) {
  static int pick[PAGE / LINE];
  for (int i = 0; i < PAGE / LINE; i++) pick[i] = i;
  shuffle(pick, PAGE / LINE);
  memcpy(P->probe_line, pick, sizeof P->probe_line);
  link_cycle(P, P->probe_line, PROBE_LINES, SLOT_PROBE_MIXED);
  P->probe_mixed_start = P->probe_line[0];
  for (int h = 0; h < 2; h++) {
    int members[PROBE_LINES], n = 0;
    for (int i = 0; i < PROBE_LINES; i++) if (P->home[P->probe_line[i]] == h) members[n++] = P->probe_line[i];
    P->probe_home_count[h] = n;
    if (n < PROBE_LINES / 8) {
      fprintf(stderr, "warpbench: l2_partition: only %d of %d probe lines are homed in partition %d\n",
              n, PROBE_LINES, h);
      return false;
    }
    P->probe_home_start[h] = members[0];
    link_cycle(P, members, (size_t)n, SLOT_PROBE_HOME);
  }
  upload(P);
  return true;
}

/* Step 2: every SM's cold walk of the probe set; its side is whether its
 * two clusters are the reference's or the reverse. */
static void map_sides(partition *P) {
  probe_job job;
  memset(&job, 0, sizeof job);
  job.partner = -1;
  job.start[0] = chain_entry(P, SLOT_PROBE_MIXED, P->probe_mixed_start);
  job.count[0] = PROBE_LINES;
  job.segments = 1;
  job.record = P->record;
  P->partner[0] = P->partner[1] = -1;
  memset(P->side, -1, sizeof P->side);
  int mapped = P->c->tiny ? 4 : P->sm_count;
  for (int i = 0; i < P->sm_count && i < mapped; i++) {
    int sm = P->sm_ids[i];
    unsigned lat[PROBE_LINES];
    signed char cls[PROBE_LINES];
    double centre[2];
    job.sm = sm;
    if (!cold_walk_twice(P, &job, lat, PROBE_LINES)) continue;
    bool separated = two_clusters(lat, PROBE_LINES, cls, centre);
    int agree = 0;
    for (int k = 0; k < PROBE_LINES; k++) agree += cls[k] == P->home[P->probe_line[k]];
    int side = !separated ? -1 : agree > PROBE_LINES * 9 / 10 ? 0 : agree < PROBE_LINES / 10 ? 1 : -1;
    if (P->c->tiny) side = i % 2;
    P->side[sm] = (signed char)side;
    if (side >= 0 && P->partner[side] < 0) P->partner[side] = sm;
    emit_walk(P, "side_cold_walk", sm, side, agree, lat, PROBE_LINES, centre);
  }
}

enum { FIG_DRAM_NEAR, FIG_DRAM_FAR, FIG_DRAM, FIG_L2_FAR, FIG_L2_COPY, FIG_L2_NEAR, FIGURES };
static const char *const figure_names[FIGURES] = {"dram_near", "dram_far", "dram", "l2_far_hit",
                                                  "l2_near_copy", "l2_near_hit"};
static const char *const figure_keys[FIGURES] = {"latency.dram_near", "latency.dram_far",
                                                 "latency.dram", "latency.l2_far_hit", NULL,
                                                 "latency.l2_near_hit"};

/* Step 3 for one SM: per_sm[figure] = the median over its repeats. */
static bool measure_sm(partition *P, int sm, double per_sm[FIGURES]) {
  int near = P->side[sm], far = 1 - near;
  double samples[FIGURES][8];
  int reps = P->c->quick ? 1 : 3;
  probe_job job;
  probe_out out;
  memset(&job, 0, sizeof job);
  job.sm = sm;
  for (int r = 0; r < reps; r++) {
    const int homes[3] = {near, far, -1};  /* DRAM near, far, all probe lines */
    for (int f = FIG_DRAM_NEAR; f <= FIG_DRAM; f++) {
      int h = homes[f];
      job.partner = -1;
      job.segments = 1;
      job.start[0] = h < 0 ? chain_entry(P, SLOT_PROBE_MIXED, P->probe_mixed_start)
                           : chain_entry(P, SLOT_PROBE_HOME, P->probe_home_start[h]);
      job.count[0] = h < 0 ? PROBE_LINES : P->probe_home_count[h];
      if (!probe(P, &job, &out)) return false;
      samples[f][r] = (double)out.cycles[0] / job.count[0];
    }
    job.partner = P->partner[far];
    job.warm_start = chain_entry(P, SLOT_PROBE_MIXED, P->probe_mixed_start);
    job.warm_count = PROBE_LINES;
    job.segments = 3;
    const int chase_homes[3] = {far, far, near};  /* far hit, its copy, near hit */
    for (int k = 0; k < 3; k++) {
      job.start[k] = chain_entry(P, SLOT_PROBE_HOME, P->probe_home_start[chase_homes[k]]);
      job.count[k] = P->probe_home_count[chase_homes[k]];
    }
    if (!probe(P, &job, &out)) return false;
    for (int k = 0; k < 3; k++) samples[FIG_L2_FAR + k][r] = (double)out.cycles[k] / job.count[k];
  }
  const int lines[FIGURES] = {P->probe_home_count[near], P->probe_home_count[far], PROBE_LINES,
                              P->probe_home_count[far], P->probe_home_count[far],
                              P->probe_home_count[near]};
  for (int f = 0; f < FIGURES; f++) {
    bench_param params[] = {{"sm", sm}, {"side", near}, {"partner", job.partner}, {"lines", lines[f]}};
    per_sm[f] = bench_emit(P->c, "l2_partition", "figure", figure_names[f], params, 4,
                           "cycles_per_access", "cycles", samples[f], reps, NULL).median;
  }
  return true;
}

static void measure_latencies(partition *P) {
  static double per_sm[FIGURES][MAX_SM_ID];
  int limit = P->c->max_sms > 0 ? P->c->max_sms : P->sm_count, measured = 0;
  for (int i = 0; i < P->sm_count && measured < limit; i++) {
    int sm = P->sm_ids[i];
    if (P->side[sm] < 0) continue;
    double fig[FIGURES];
    if (!measure_sm(P, sm, fig)) continue;
    for (int f = 0; f < FIGURES; f++) per_sm[f][measured] = fig[f];
    measured++;
  }
  for (int f = 0; f < FIGURES; f++) {
    if (!figure_keys[f] || measured == 0) continue;
    stats_summary s;
    stats_summarize(per_sm[f], measured, &s);
    profile_set(P->c->prof, figure_keys[f], "cycles", &s);
  }
}

/* The lines of home h among the first `count` lines of the region. */
static int lines_homed(const partition *P, size_t count, int h, int *out) {
  int n = 0;
  for (size_t i = 0; i < count; i++) if (P->home[i] == h) out[n++] = (int)i;
  return n;
}

static double hist_median(const unsigned *hist, long long total) {
  long long seen = 0;
  for (int b = 0; b < HIST_BINS; b++) {
    seen += hist[b];
    if (2 * seen >= total) return (b + 0.5) * HIST_BIN_CYCLES;
  }
  return HIST_BINS * HIST_BIN_CYCLES;
}

static double hist_fraction_from(const unsigned *hist, long long total, double cycles) {
  long long above = 0;
  for (int b = 0; b < HIST_BINS; b++) if (b * HIST_BIN_CYCLES >= cycles) above += hist[b];
  return total ? (double)above / (double)total : 0;
}

/* Step 4: the capacity of both partitions together. The smallest total
 * (L2/4) fits for certain: its median is the hit latency, and an access
 * 1.3 times slower is a miss. */
static void measure_capacity(partition *P) {
  int *members = (int *)malloc(P->lines * sizeof(int));
  if (!members) abort();
  capacity_out *dev, out;
  CUDA_CHECK(cudaMalloc(&dev, sizeof *dev));
  size_t fits = 0;
  double hit = 0;
  for (int eighths = 2; eighths <= 10; eighths++) {
    size_t lines = P->l2 * eighths / 8 / LINE;
    if (lines > P->lines) break;
    capacity_job job;
    for (int h = 0; h < 2; h++) {
      int n = lines_homed(P, lines, h, members);
      shuffle(members, (size_t)n);
      link_cycle(P, members, (size_t)n, SLOT_CAPACITY);
      job.sm[h] = P->partner[h];
      job.start[h] = chain_entry(P, SLOT_CAPACITY, members[0]);
      job.count[h] = n;
    }
    upload(P);
    flush(P);
    CUDA_CHECK(cudaMemset(dev, 0, sizeof *dev));
    capacity_kernel<<<BLOCKS_PER_SM * P->c->dev.sm_count, 1>>>(job, dev);  // NOLINT(warplint-S_4): one-thread blocks, one on each side's SM
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&out, dev, sizeof out, cudaMemcpyDeviceToHost));
    bool both_fit = true;
    for (int h = 0; h < 2; h++) {
      bench_check_chase(P->c, "l2_partition capacity", out.claimed[h] ? (long long)out.end[h] : 0,
                        (long long)(unsigned long long)job.start[h]);
      double median = hist_median(out.hist[h], job.count[h]);
      if (eighths == 2 && h == 0) hit = median;
      double slow = hist_fraction_from(out.hist[h], job.count[h], 1.3 * hit);
      both_fit = both_fit && out.claimed[h] && slow < 0.10;
      double per_access = (double)out.cycles[h] / job.count[h];
      bench_param params[] = {{"sm", job.sm[h]}, {"side", h}, {"total_bytes", (long long)(lines * LINE)},
                              {"lines", job.count[h]}, {"median_bin", (long long)median},
                              {"slow_permille", (long long)(1000 * slow)}};
      bench_emit(P->c, "l2_partition", "figure", "capacity_walk", params, 6, "cycles_per_access",
                 "cycles", &per_access, 1, NULL);
    }
    if (both_fit) fits = lines * LINE;
  }
  if (fits > 0)
    profile_set_value(P->c->prof, "cache.l2.size", "bytes", (double)fits,
                      "one SM per side, own-homed lines: largest total <10% slow");
  CUDA_CHECK(cudaFree(dev));
  free(members);
}

typedef struct read_plan {
  read_job job;
  read_out *dev;
  int *host_lines[2];
  int count[2];              /* lines of each home in the bandwidth set */
  int sides[2];              /* SMs mapped to each side */
  size_t shared_bytes;
} read_plan;

/* One read pass: phase B's cycles (the slowest block); checks the data. */
static double read_pass(partition *P, read_plan *R) {
  static read_out out;
  CUDA_CHECK(cudaMemset(R->dev, 0, sizeof *R->dev));
  read_kernel<<<P->c->dev.sm_count, READ_THREADS, R->shared_bytes>>>(R->job, R->dev);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(&out, R->dev, sizeof out, cudaMemcpyDeviceToHost));
  long long slowest = 0;
  unsigned got = 0, expected = 0;  /* sums of 32-bit words, modulo 2^32 */
  for (int b = 0; b < P->c->dev.sm_count; b++) {
    if (out.cycles[b] > slowest) slowest = out.cycles[b];
    got += out.checksum[b];
  }
  for (int side = 0; side < 2; side++) {
    const int *lines = R->host_lines[R->job.far ? 1 - side : side];
    for (int i = 0; i < R->sides[side] * R->job.share_b[side]; i++) {
      const unsigned *w = (const unsigned *)(P->image + (size_t)lines[i] * WORDS_PER_LINE);
      for (int k = 0; k < LINE / 4; k++) expected += w[k];
    }
  }
  bench_check_chase(P->c, "l2_partition read", got, expected);
  bench_check_chase(P->c, "l2_partition barrier", out.barrier_timed_out, 0);
  return (double)slowest;
}

/* Sets phase B's shares (a full or a half pass); returns the bytes read. */
static double plan_pass(read_plan *R, int far, int half) {
  double bytes = 0;
  R->job.far = far;
  for (int side = 0; side < 2; side++) {
    int home = far ? 1 - side : side;
    R->job.share_b[side] = R->count[home] / R->sides[side] / (half ? 2 : 1);
    bytes += (double)R->sides[side] * R->job.share_b[side] * LINE;
  }
  return bytes;
}

/* Step 5: near and far bandwidth, every SM reading. */
static void measure_bandwidth(partition *P) {
  read_plan R;
  memset(&R, 0, sizeof R);
  for (int i = 0; i < P->sm_count; i++) if (P->side[P->sm_ids[i]] >= 0) R.sides[P->side[P->sm_ids[i]]]++;
  if (R.sides[0] == 0 || R.sides[1] == 0 || P->c->dev.sm_count > MAX_SM_ID) return;
  size_t lines = P->l2 * 2 / 5 / LINE;
  R.shared_bytes = P->c->dev.shared_per_sm / 2 + 1024;
  signed char *side_of_sm;
  int *dev_lines[2];
  for (int h = 0; h < 2; h++) {
    R.host_lines[h] = (int *)malloc(lines * sizeof(int));
    if (!R.host_lines[h]) abort();
    R.count[h] = lines_homed(P, lines, h, R.host_lines[h]);
    CUDA_CHECK(cudaMalloc(&dev_lines[h], (size_t)R.count[h] * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dev_lines[h], R.host_lines[h], (size_t)R.count[h] * sizeof(int),
                          cudaMemcpyHostToDevice));
    R.job.home_lines[h] = dev_lines[h];
  }
  CUDA_CHECK(cudaMalloc(&side_of_sm, sizeof P->side));
  CUDA_CHECK(cudaMemcpy(side_of_sm, P->side, sizeof P->side, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&R.dev, sizeof *R.dev));
  CUDA_CHECK(cudaFuncSetAttribute(read_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)R.shared_bytes));
  R.job.region = (const int4 *)P->region;
  R.job.side_of_sm = side_of_sm;
  for (int side = 0; side < 2; side++) R.job.share_a[side] = R.count[side] / R.sides[side];

  double mhz = bench_sm_clock_mhz();
  static const char *const names[2][3] = {{"read_near", "read_near_one_pass", NULL},
                                          {"read_far", "read_far_one_pass", "read_far_again"}};
  static const char *const keys[2] = {"bandwidth.l2_near", "bandwidth.l2_far"};
  for (int far = 0; far <= 1; far++) {
    double gbs[3][64];
    for (int r = 0; r < P->c->repeats; r++) {
      double cycles[2], bytes[2];
      for (int half = 0; half <= 1; half++) {
        bytes[half] = plan_pass(&R, far, half);
        flush(P);
        cycles[half] = read_pass(P, &R);
        if (half) continue;
        gbs[1][r] = bytes[0] / cycles[0] * mhz * 1e-3;
        if (far) gbs[2][r] = bytes[0] / read_pass(P, &R) * mhz * 1e-3;  /* the copies are near now */
      }
      gbs[0][r] = (bytes[0] - bytes[1]) / (cycles[0] - cycles[1]) * mhz * 1e-3;
    }
    bench_param params[] = {{"far", far}, {"lines", (long long)lines}, {"sms_side0", R.sides[0]},
                            {"sms_side1", R.sides[1]}, {"sm_mhz", (long long)mhz}};
    for (int k = 0; k < 3; k++)
      if (names[far][k])
        bench_emit(P->c, "l2_partition", "figure", names[far][k], params, 5, "bandwidth", "GB/s",
                   gbs[k], P->c->repeats, k == 0 ? keys[far] : NULL);
  }
  for (int h = 0; h < 2; h++) {
    CUDA_CHECK(cudaFree(dev_lines[h]));
    free(R.host_lines[h]);
  }
  CUDA_CHECK(cudaFree(side_of_sm));
  CUDA_CHECK(cudaFree(R.dev));
}

static void find_sms(partition *P) {
  int *seen, host[MAX_SM_ID];
  CUDA_CHECK(cudaMalloc(&seen, sizeof host));
  CUDA_CHECK(cudaMemset(seen, 0, sizeof host));
  smid_kernel<<<16 * P->c->dev.sm_count, 32>>>(seen);  // NOLINT(warplint-S_4): many small blocks reach every SM
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(seen));
  P->sm_count = 0;
  for (int i = 0; i < MAX_SM_ID; i++) if (host[i]) P->sm_ids[P->sm_count++] = i;
}

void exp_l2_partition(bench_ctx *c) {
  static partition P;
  memset(&P, 0, sizeof P);
  P.c = c;
  P.l2 = c->tiny ? (size_t)PAGE : (size_t)c->dev.l2_bytes;
  size_t bytes = (P.l2 * 5 / 4 + PAGE - 1) / PAGE * PAGE;
  P.lines = bytes / LINE;
  P.flush_count = 3 * P.l2 / sizeof(int4);
  P.image = (unsigned long long *)malloc(bytes);
  P.home = (signed char *)malloc(P.lines);
  if (!P.image || !P.home) abort();
  for (size_t i = 0; i < bytes / 8; i++)
    P.image[i] = ((unsigned long long)bench_random(1u << 30) << 32) | bench_random(1u << 30);
  CUDA_CHECK(cudaMalloc(&P.region, bytes));
  CUDA_CHECK(cudaMalloc(&P.flush_buffer, P.flush_count * sizeof(int4)));
  CUDA_CHECK(cudaMemset(P.flush_buffer, 0x5A, P.flush_count * sizeof(int4)));
  CUDA_CHECK(cudaMalloc(&P.flush_sink, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&P.record, P.lines * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&P.probe, sizeof *P.probe));

  find_sms(&P);
  if (P.sm_count > 1 && classify_lines(&P, P.sm_ids[0]) && build_probe_set(&P)) {
    map_sides(&P);
    if (P.partner[0] >= 0 && P.partner[1] >= 0) {
      measure_latencies(&P);
      measure_capacity(&P);
      measure_bandwidth(&P);
    } else {
      fprintf(stderr, "warpbench: l2_partition: no SM found on one of the sides; no partition figures\n");
    }
  }
  CUDA_CHECK(cudaFree(P.region));
  CUDA_CHECK(cudaFree(P.flush_buffer));
  CUDA_CHECK(cudaFree(P.flush_sink));
  CUDA_CHECK(cudaFree(P.record));
  CUDA_CHECK(cudaFree(P.probe));
  free(P.image);
  free(P.home);
}

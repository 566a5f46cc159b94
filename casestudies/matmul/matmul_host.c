/* Host-only arithmetic of the matmul case study; see matmul_host.h. */
#include "matmul_host.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int matmul_tiles(int extent, int tile) {
  return (extent + tile - 1) / tile;
}

bool matmul_shape_ok(matmul_shape s, char *err, size_t err_size) {
  if (s.M <= 0 || s.N <= 0 || s.K <= 0) {
    snprintf(err, err_size, "%dx%dx%d: every extent must be positive", s.M, s.N, s.K);
    return false;
  }
  /* The kernels index with int; the largest matrix must fit. */
  long long biggest = (long long)s.M * s.K;
  if ((long long)s.K * s.N > biggest) biggest = (long long)s.K * s.N;
  if ((long long)s.M * s.N > biggest) biggest = (long long)s.M * s.N;
  if (biggest > INT_MAX) {
    snprintf(err, err_size, "%dx%dx%d: a matrix has more than %d elements", s.M, s.N,
             s.K, INT_MAX);
    return false;
  }
  return true;
}

bool matmul_rows_vectorizable(int N, int K) {
  return N % 4 == 0 && K % 4 == 0;
}

/* Reads one positive int at *p, advancing it; false on anything else. */
static bool parse_extent(const char **p, int *out) {
  char *end;
  long v = strtol(*p, &end, 10);
  if (end == *p || v <= 0 || v > INT_MAX || **p == '-' || **p == '+') return false;
  *out = (int)v;
  *p = end;
  return true;
}

int matmul_parse_sizes(const char *text, matmul_shape *out, int max, char *err,
                       size_t err_size) {
  int count = 0;
  const char *p = text;
  if (!*p) {
    snprintf(err, err_size, "empty size list");
    return -1;
  }
  for (;;) {
    matmul_shape s;
    const char *item = p;
    if (!parse_extent(&p, &s.M)) goto bad;
    if (*p == 'x') {
      p++;
      if (!parse_extent(&p, &s.N) || *p != 'x') goto bad;
      p++;
      if (!parse_extent(&p, &s.K)) goto bad;
    } else {
      s.N = s.K = s.M;
    }
    if (*p != ',' && *p != '\0') goto bad;
    if (count == max) {
      snprintf(err, err_size, "more than %d sizes", max);
      return -1;
    }
    if (!matmul_shape_ok(s, err, err_size)) return -1;
    out[count++] = s;
    if (*p == '\0') return count;
    p++;
    continue;
  bad:
    snprintf(err, err_size, "bad size at \"%.*s\": expected N or MxNxK", (int)strcspn(item, ","), item);
    return -1;
  }
}

void matmul_reference(int M, int N, int K, double alpha, const float *A,
                      const float *B, double beta, const float *C, double *ref) {
  double *row = malloc((size_t)N * sizeof *row);
  if (!row) abort();
  for (int i = 0; i < M; i++) {
    memset(row, 0, (size_t)N * sizeof *row);
    /* i-k-j order: the inner loop runs along rows of B, which are contiguous. */
    for (int k = 0; k < K; k++) {
      double a = A[(size_t)i * K + k];
      const float *b = B + (size_t)k * N;
      for (int j = 0; j < N; j++) row[j] += a * b[j];
    }
    for (int j = 0; j < N; j++) {
      double c = beta == 0.0 ? 0.0 : beta * C[(size_t)i * N + j];
      ref[(size_t)i * N + j] = alpha * row[j] + c;
    }
  }
  free(row);
}

double matmul_rel_error(const float *got, const double *ref, size_t count) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(got[i])) return INFINITY;
    double d = got[i] - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  return norm > 0 ? sqrt(diff / norm) : sqrt(diff);
}

double matmul_rel_error_f(const float *got, const float *ref, size_t count) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(got[i])) return INFINITY;
    double d = (double)got[i] - ref[i];
    diff += d * d;
    norm += (double)ref[i] * ref[i];
  }
  return norm > 0 ? sqrt(diff / norm) : sqrt(diff);
}

/* A small xorshift generator: reproducible from a seed, no global state. */
static unsigned next_random(unsigned *state) {
  unsigned x = *state ? *state : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

void matmul_fill_random(float *x, size_t n, unsigned *seed) {
  for (size_t i = 0; i < n; i++) {
    unsigned r = next_random(seed);
    float magnitude = 0.1f + 0.9f * (float)(r >> 8) / 16777216.0f;
    x[i] = (r & 1) ? -magnitude : magnitude;
  }
}

int matmul_k_chunk(int K, int splits) {
  int steps = matmul_tiles(K, MATMUL_SPLIT_BK);
  return (steps + splits - 1) / splits * MATMUL_SPLIT_BK;
}

int matmul_split_to_fill(int tiles, int K, const int resident[4]) {
  int log2 = 0;
  while (log2 < 3 && (long long)tiles * (2 << log2) <= resident[log2 + 1] &&
         K / (2 << log2) >= MATMUL_MIN_SPLIT_K)
    log2++;
  return 1 << log2;
}

/* How fast one SM multiply-adds with `warps` warps of the kernel resident,
 * relative to 8 (two per scheduler, what every plan reaches on a full
 * SM). From the H100 run of 2026-11-23 (data/run5): one 128x128 block (4
 * warps) per SM ran a tile 0.82 times as fast as a full SM, one 64x128
 * block (2 warps) 0.45 times. */
static double sm_speed(int warps) {
  if (warps >= 8) return 1.0;
  if (warps >= 6) return 0.93;
  if (warps >= 4) return 0.82;
  if (warps >= 2) return 0.45;
  return 0.25;
}

/* A full SM's speed with this block tile relative to 128x256: smaller
 * tiles move more bytes per multiply-add (same run: 0.983 for 128x128,
 * 0.971 for 64x128, at 8192^3). */
static double tile_speed(int bm, int bn) {
  if (bm * bn >= 128 * 256) return 1.0;
  if (bm * bn >= 128 * 128) return 0.983;
  return 0.971;
}

/* What a block costs besides its multiply-adds, in multiply-adds of one
 * SM at full speed (about 180 000 a microsecond on the H100): the first
 * loads and the stores, and the cluster barriers and remote loads of the
 * reduction when K is split. Estimates: about 2 and 2.5 microseconds. */
#define PLAN_FIXED_MACS 350000.0
#define PLAN_REDUCE_MACS 450000.0

/* The model: the blocks are spread evenly over the SMs that can hold
 * them, so the busiest SM gets ceil(blocks / SMs). It runs them in rounds
 * of as many as fit at once (per_sm), the last round maybe fewer; a round
 * of r blocks takes r times a block's work at the speed of r blocks'
 * warps. */
static double round_cost(int blocks, const matmul_plan *p, double block_macs, double overhead) {
  if (blocks <= 0) return 0.0;
  return blocks * (block_macs / (sm_speed(blocks * p->warps) * tile_speed(p->bm, p->bn)) +
                   overhead);
}

/* Stream-K (version 21): as many blocks as the GPU holds, each an equal
 * run of the tiles' K steps, so every SM gets the same number of blocks
 * and every block the same work, within one step. Two costs of its own,
 * fitted to the first H100 run of version 21 (data/run16: 18 shapes, its
 * three stream-K plans against four of version 20's), as the choice that
 * lost least time over those shapes:
 * - its multiply-adds cost STREAM_K_MAC_FACTOR times a data-parallel
 *   block's (at 4096^3 and 8192^3 the 128x256 stream-K plan ran 1.2% slower
 *   than 128x256 tiles, where the even load alone predicts 3% faster);
 * - each tile a block touches (its whole tiles, plus the partial ones at
 *   both ends) costs STREAM_K_TILE_MACS for a 128x256 tile, in proportion
 *   to the area for smaller ones (loads to start, stores or partial sums to
 *   write), and the exchange of partial sums a reduction, also in
 *   proportion. */
#define STREAM_K_MAC_FACTOR 1.03
#define STREAM_K_TILE_MACS 1400000.0

static double stream_k_cost(const matmul_plan *p, matmul_shape s) {
  long long steps = matmul_tiles(s.K, MATMUL_SPLIT_BK);
  long long total = (long long)matmul_tiles(s.M, p->bm) * matmul_tiles(s.N, p->bn) * steps;
  long long blocks = total < p->resident ? total : p->resident;
  double sms = (double)p->resident / p->per_sm;
  int per_sm = (int)ceil(blocks / sms);
  long long run = (total + blocks - 1) / blocks;
  double tiles_touched = (double)(run / steps) + 2;
  double area = (double)p->bm * p->bn / (128.0 * 256.0);
  double macs = (double)run * p->bm * p->bn * MATMUL_SPLIT_BK * STREAM_K_MAC_FACTOR;
  return round_cost(per_sm, p, macs,
                    area * (tiles_touched * STREAM_K_TILE_MACS + PLAN_REDUCE_MACS));
}

double matmul_plan_cost(const matmul_plan *p, matmul_shape s) {
  if (p->resident <= 0 || p->per_sm <= 0) return INFINITY;
  if (p->splits == 0) return stream_k_cost(p, s);
  if (p->resident < p->splits) return INFINITY;
  long long blocks = (long long)matmul_tiles(s.M, p->bm) * matmul_tiles(s.N, p->bn) * p->splits;
  int per_sm = p->per_sm;
  double sms = (double)p->resident / per_sm;  /* SMs that take blocks of this plan */
  long long busiest = (long long)ceil(blocks / sms);
  double block_macs = (double)p->bm * p->bn * matmul_k_chunk(s.K, p->splits);
  double overhead = PLAN_FIXED_MACS + (p->splits > 1 ? PLAN_REDUCE_MACS : 0.0);
  return (double)(busiest / per_sm) * round_cost(per_sm, p, block_macs, overhead) +
         round_cost((int)(busiest % per_sm), p, block_macs, overhead);
}

int matmul_plan_choose(const matmul_plan *plans, int n, matmul_shape s) {
  int best = 0;
  double best_cost = matmul_plan_cost(&plans[0], s);
  for (int i = 1; i < n; i++) {
    double cost = matmul_plan_cost(&plans[i], s);
    if (cost < best_cost) {
      best = i;
      best_cost = cost;
    }
  }
  return best;
}

/* Measured on the H100 (data/run12, data/run13): with C's rows unaligned,
 * stored a float at a time, the split-2 plans ran 3.9 to 5.0% faster than
 * the same tile unsplit at 4095x4097x1023 and 4096x4097x1024 (copies of
 * the unaligned operands in both), and 1.7 to 6.5% at 1023x1025x1027; with
 * aligned rows they ran 5 to 7% slower (4096x4096x1024, 4095x4096x1023,
 * 4096x4100x1024). Counted on the unsplit plan, the change is a factor of
 * about 1.09-1.10 between the two cases; why was not established. */
int matmul_plan_choose_rows(const matmul_plan *plans, int n, matmul_shape s) {
  int best = -1;
  double best_cost = INFINITY;
  for (int i = 0; i < n; i++) {
    double cost = matmul_plan_cost(&plans[i], s);
    if (s.N % 4 != 0 && plans[i].splits == 1) cost *= MATMUL_UNALIGNED_C_UNSPLIT;
    if (best < 0 || cost < best_cost) {
      best = i;
      best_cost = cost;
    }
  }
  return best;
}

/* The byte-plane covariance of V8 (gpu/cov_bytes.h) on the CPU: the four
 * byte Grams summed in int32 over blocks of at most COV_BYTES_MAX_PIXELS,
 * combined per block and added in double, against the direct double sum
 * of (x_i - shift_i)(x_j - shift_j) — for int16, uint16 and uint8, with
 * extreme values, with and without a shift. Without a shift the result is
 * an exact integer. */
#include <stdint.h>
#include <stdlib.h>

#include "envi.h"
#include "gpu/cov_bytes.h"
#include "testing.h"

#define BANDS 4

/* Value k of band b: pseudo-random over the type's range, with the
 * extremes: band 1 starts with a run of the minimum, band 2's whole first
 * block is the maximum (its int32 sum h*h reaches 65025 * 32768, the
 * bound), band 3 is only extremes. */
static int32_t value(int type, int b, long k, unsigned *seed)
{
  int32_t lo = type == ENVI_I16 ? -32768 : 0, hi = type == ENVI_I16 ? 32767 : type == ENVI_U16 ? 65535 : 255;
  if (b == 1 && k < 5000) return lo;
  if (b == 2 && k < COV_BYTES_MAX_PIXELS) return hi;
  if (b == 3) return (k % 3 == 0) ? hi : lo; /* a band of extremes only */
  *seed = *seed * 1103515245u + 12345u;
  return lo + (int32_t)((*seed >> 8) % (uint32_t)(hi - lo + 1));
}

/* The sum by blocks, as the kernel does it; checks that no int32 sum
 * would exceed its range. */
static void byte_plane_sum(int type, const int32_t *x, long n, const float *shift, double *got)
{
  int offset = cov_bytes_offset(type);
  for (int i = 0; i < BANDS * BANDS; i++) got[i] = 0;
  for (long begin = 0; begin < n; begin += COV_BYTES_MAX_PIXELS) {
    long end = begin + COV_BYTES_MAX_PIXELS < n ? begin + COV_BYTES_MAX_PIXELS : n;
    for (int i = 0; i < BANDS; i++)
      for (int j = 0; j <= i; j++) {
        int64_t hh = 0, hl = 0, lh = 0, ll = 0, ui = 0, uj = 0;
        for (long k = begin; k < end; k++) {
          uint32_t a = (uint32_t)(x[i * n + k] + offset), b = (uint32_t)(x[j * n + k] + offset);
          hh += (a >> 8) * (b >> 8), hl += (a >> 8) * (b & 255), lh += (a & 255) * (b >> 8), ll += (a & 255) * (b & 255);
          ui += a, uj += b;
        }
        CHECK(hh <= INT32_MAX && hl <= INT32_MAX && lh <= INT32_MAX && ll <= INT32_MAX);
        CHECK(ui <= UINT32_MAX && uj <= UINT32_MAX);
        double si = (shift ? (double)shift[i] : 0.0) + offset, sj = (shift ? (double)shift[j] : 0.0) + offset;
        got[i * BANDS + j] += cov_bytes_combine((int32_t)hh, (int32_t)hl, (int32_t)lh, (int32_t)ll, (uint32_t)ui,
                                                (uint32_t)uj, si, sj, (int32_t)(end - begin));
      }
  }
}

static void check_type(int type, long n)
{
  int32_t *x = malloc(sizeof *x * BANDS * n);
  unsigned seed = 7u + (unsigned)type;
  for (int b = 0; b < BANDS; b++)
    for (long k = 0; k < n; k++) x[b * n + k] = value(type, b, k, &seed);
  const float shift[BANDS] = {123.25f, -20000.5f, 3.0e4f, 0.1f};
  double got[BANDS * BANDS];

  /* No shift: exact against int64 (|x_i x_j| <= 2^32, n < 2^17: sums < 2^49). */
  byte_plane_sum(type, x, n, NULL, got);
  for (int i = 0; i < BANDS; i++)
    for (int j = 0; j <= i; j++) {
      int64_t want = 0;
      for (long k = 0; k < n; k++) want += (int64_t)x[i * n + k] * x[j * n + k];
      if (got[i * BANDS + j] == (double)want) test_passed++;
      else test_fail(__FILE__, __LINE__, "%s, no shift, (%d, %d): %.17g, want %lld", envi_type_name(type), i, j,
                     got[i * BANDS + j], (long long)want);
    }

  /* With a shift: against the direct double sum, to 1e-12 of the largest. */
  byte_plane_sum(type, x, n, shift, got);
  double want[BANDS * BANDS], scale = 0;
  for (int i = 0; i < BANDS; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (long k = 0; k < n; k++) s += (x[i * n + k] - (double)shift[i]) * (x[j * n + k] - (double)shift[j]);
      want[i * BANDS + j] = s;
      scale = fabs(s) > scale ? fabs(s) : scale;
    }
  for (int i = 0; i < BANDS; i++)
    for (int j = 0; j <= i; j++) {
      double err = fabs(got[i * BANDS + j] - want[i * BANDS + j]);
      if (err <= 1e-12 * scale) test_passed++;
      else test_fail(__FILE__, __LINE__, "%s, shift, (%d, %d): %.17g, want %.17g", envi_type_name(type), i, j,
                     got[i * BANDS + j], want[i * BANDS + j]);
    }
  free(x);
}

/* A band of real data's spread (1000 +- 100) around its mean: the terms of
 * the combination cancel by ~1e4 and the result must still hold to 1e-9. */
static void check_narrow(void)
{
  enum { N = 40000 };
  static int32_t x[BANDS * N];
  unsigned seed = 3;
  double mean[BANDS] = {0};
  for (int b = 0; b < BANDS; b++)
    for (long k = 0; k < N; k++) {
      seed = seed * 1103515245u + 12345u;
      x[b * N + k] = 1000 + 200 * b + (int32_t)((seed >> 8) % 201) - 100;
      mean[b] += x[b * N + k] / (double)N;
    }
  float shift[BANDS];
  for (int b = 0; b < BANDS; b++) shift[b] = (float)mean[b];
  double got[BANDS * BANDS];
  byte_plane_sum(ENVI_I16, x, N, shift, got);
  for (int i = 0; i < BANDS; i++)
    for (int j = 0; j <= i; j++) {
      double want = 0;
      for (long k = 0; k < N; k++) want += (x[i * N + k] - (double)shift[i]) * (x[j * N + k] - (double)shift[j]);
      /* Off-diagonal sums are near 0 (independent bands): relative to the diagonal. */
      double scale = 3333.0 * N;
      CHECK_NEAR(got[i * BANDS + j], want, 1e-9 * scale);
    }
}

int main(void)
{
  /* Two whole blocks and a partial one. */
  check_type(ENVI_I16, 2 * COV_BYTES_MAX_PIXELS + 1234);
  check_type(ENVI_U16, 2 * COV_BYTES_MAX_PIXELS + 1234);
  check_type(ENVI_U8, 2 * COV_BYTES_MAX_PIXELS + 1234);
  check_narrow();
  return test_summary();
}

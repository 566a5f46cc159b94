/* Synthetic scene generator (see synth.h). */
#include "synth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENDMEMBERS 16
#define MAP_WAVES 3

/* splitmix64: a small, good, seedable generator; each band gets its own
 * stream so the scene does not depend on how the bands are split among
 * threads. */
static uint64_t next_random(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t *state)
{
  return (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Approximately normal: the sum of four uniforms, rescaled to unit variance.
 * Cheap enough for the 1.2 billion values of the largest scene. */
static double gaussian(uint64_t *state)
{
  uint64_t r = next_random(state);
  double s = (double)(r & 0xFFFF) + (double)((r >> 16) & 0xFFFF) +
             (double)((r >> 32) & 0xFFFF) + (double)(r >> 48);
  return (s / 65535.0 - 2.0) * 1.7320508075688772; /* sqrt(12/4) */
}

void synth_defaults(synth_params *p, int samples, int lines, int bands, int data_type, uint64_t seed)
{
  memset(p, 0, sizeof *p);
  p->samples = samples;
  p->lines = lines;
  p->bands = bands;
  p->data_type = data_type;
  p->endmembers = 5;
  p->seed = seed;
  switch (data_type) {
  case ENVI_U8: p->scale = 200.0; p->noise = 2.0; break;
  case ENVI_I16: p->scale = 10000.0; p->noise = 40.0; break;
  case ENVI_U16: p->scale = 10000.0; p->noise = 40.0; break;
  default: p->scale = 10000.0; p->noise = 40.0; break;
  }
}

/* Endmember spectra: a slope plus two Gaussian absorption/reflection bumps,
 * kept in [0.05, 0.95]. */
static void make_spectra(const synth_params *p, uint64_t *state, double *spectra)
{
  for (int k = 0; k < p->endmembers; k++) {
    double base = 0.2 + 0.5 * uniform01(state), slope = 0.4 * (uniform01(state) - 0.5);
    double c1 = uniform01(state), w1 = 0.05 + 0.1 * uniform01(state), a1 = 0.6 * (uniform01(state) - 0.5);
    double c2 = uniform01(state), w2 = 0.05 + 0.2 * uniform01(state), a2 = 0.6 * (uniform01(state) - 0.5);
    for (int b = 0; b < p->bands; b++) {
      double t = p->bands > 1 ? (double)b / (p->bands - 1) : 0.0;
      double v = base + slope * (t - 0.5) + a1 * exp(-(t - c1) * (t - c1) / (2 * w1 * w1)) +
                 a2 * exp(-(t - c2) * (t - c2) / (2 * w2 * w2));
      spectra[k * p->bands + b] = fmin(0.95, fmax(0.05, v));
    }
  }
}

/* Abundance maps: for each endmember a sum of a few plane waves, made
 * positive and normalised so the abundances of a pixel sum to one. */
static void make_abundances(const synth_params *p, uint64_t *state, float *abundance)
{
  double fx[MAX_ENDMEMBERS][MAP_WAVES], fy[MAX_ENDMEMBERS][MAP_WAVES], phase[MAX_ENDMEMBERS][MAP_WAVES];
  for (int k = 0; k < p->endmembers; k++)
    for (int w = 0; w < MAP_WAVES; w++) {
      fx[k][w] = 6.283185307179586 * (0.5 + 3.0 * uniform01(state)) / p->samples;
      fy[k][w] = 6.283185307179586 * (0.5 + 3.0 * uniform01(state)) / p->lines;
      phase[k][w] = 6.283185307179586 * uniform01(state);
    }
  size_t pixels = (size_t)p->samples * p->lines;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < p->lines; y++)
    for (int x = 0; x < p->samples; x++) {
      double a[MAX_ENDMEMBERS], sum = 0.0;
      for (int k = 0; k < p->endmembers; k++) {
        double s = 0.0;
        for (int w = 0; w < MAP_WAVES; w++) s += sin(fx[k][w] * x + fy[k][w] * y + phase[k][w]);
        a[k] = exp(s); /* positive, with contrast */
        sum += a[k];
      }
      for (int k = 0; k < p->endmembers; k++)
        abundance[k * pixels + (size_t)y * p->samples + x] = (float)(a[k] / sum);
    }
}

/* The largest eigenvalue of a symmetric positive semi-definite n x n
 * matrix, by power iteration (plenty for a noise level). */
static double largest_eigenvalue(const double *c, int n)
{
  double *v = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n), lambda = 0.0;
  if (!v || !w) { free(v); free(w); return -1.0; }
  for (int i = 0; i < n; i++) v[i] = 1.0;
  for (int it = 0; it < 500; it++) {
    double norm = 0.0;
    for (int i = 0; i < n; i++) {
      w[i] = 0.0;
      for (int j = 0; j < n; j++) w[i] += c[(size_t)i * n + j] * v[j];
      norm += w[i] * w[i];
    }
    norm = sqrt(norm);
    if (norm == 0.0) break;
    lambda = norm;
    for (int i = 0; i < n; i++) v[i] = w[i] / norm;
  }
  free(v);
  free(w);
  return lambda;
}

int synth_noise_for_kappa(synth_params *p, double kappa)
{
  size_t pixels = (size_t)p->samples * p->lines;
  int B = p->bands, K = p->endmembers;
  if (K < 1 || K > MAX_ENDMEMBERS || kappa <= 0) return -1;
  double *spectra = malloc(sizeof(double) * K * B), *cov = calloc((size_t)K * K, sizeof(double));
  double *mean = calloc(K, sizeof(double)), *cd = malloc(sizeof(double) * B * B);
  float *abundance = malloc(sizeof(float) * K * pixels);
  int rc = -1;
  if (spectra && cov && mean && cd && abundance) {
    uint64_t state = p->seed;
    make_spectra(p, &state, spectra);
    make_abundances(p, &state, abundance);
    /* C_D of the signal = scale^2 E^T cov(abundances) E. */
    for (int k = 0; k < K; k++) {
      for (size_t i = 0; i < pixels; i++) mean[k] += abundance[k * pixels + i];
      mean[k] /= (double)pixels;
    }
    for (int k = 0; k < K; k++)
      for (int l = 0; l < K; l++) {
        double s = 0.0;
        for (size_t i = 0; i < pixels; i++) s += (abundance[k * pixels + i] - mean[k]) * (abundance[l * pixels + i] - mean[l]);
        cov[k * K + l] = s / (double)(pixels - 1);
      }
    for (int a = 0; a < B; a++)
      for (int b = 0; b < B; b++) {
        double s = 0.0;
        for (int k = 0; k < K; k++)
          for (int l = 0; l < K; l++) s += spectra[k * B + a] * cov[k * K + l] * spectra[l * B + b];
        cd[(size_t)a * B + b] = p->scale * p->scale * s;
      }
    double lambda = largest_eigenvalue(cd, B);
    if (lambda > 0) {
      p->noise = sqrt(lambda / kappa);
      rc = 0;
    }
  }
  free(spectra), free(cov), free(mean), free(cd), free(abundance);
  return rc;
}

static double clamp_to_type(double v, int data_type)
{
  double lo, hi;
  switch (data_type) {
  case ENVI_U8: lo = 0; hi = 255; break;
  case ENVI_I16: lo = -32768; hi = 32767; break;
  case ENVI_U16: lo = 0; hi = 65535; break;
  case ENVI_I32: lo = -2147483648.0; hi = 2147483647.0; break;
  default: return v;
  }
  v = nearbyint(v);
  return v < lo ? lo : v > hi ? hi : v;
}

static void store(mnf_image *img, size_t i, double v)
{
  v = clamp_to_type(v, img->data_type);
  switch (img->data_type) {
  case ENVI_U8: ((uint8_t *)img->data)[i] = (uint8_t)v; break;
  case ENVI_I16: ((int16_t *)img->data)[i] = (int16_t)v; break;
  case ENVI_U16: ((uint16_t *)img->data)[i] = (uint16_t)v; break;
  case ENVI_I32: ((int32_t *)img->data)[i] = (int32_t)v; break;
  default: ((float *)img->data)[i] = (float)v; break;
  }
}

int synth_generate(const synth_params *p, mnf_image *img, const envi_allocator *a)
{
  if (p->endmembers < 1 || p->endmembers > MAX_ENDMEMBERS) return -1;
  if (mnf_image_alloc(img, p->samples, p->lines, p->bands, p->data_type, a)) return -1;
  size_t pixels = mnf_image_pixels(img);
  double *spectra = malloc(sizeof(double) * p->endmembers * p->bands);
  float *abundance = malloc(sizeof(float) * p->endmembers * pixels);
  if (!spectra || !abundance) {
    free(spectra);
    free(abundance);
    mnf_image_free(img);
    return -1;
  }
  uint64_t state = p->seed;
  make_spectra(p, &state, spectra);
  make_abundances(p, &state, abundance);
#pragma omp parallel for schedule(dynamic)
  for (int b = 0; b < p->bands; b++) {
    uint64_t band_state = p->seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(b + 1));
    double t = p->bands > 1 ? (double)b / (p->bands - 1) : 0.5;
    double sigma = p->noise * (1.0 + 8.0 * (t - 0.5) * (t - 0.5)); /* 1x mid, 3x at the ends */
    for (size_t i = 0; i < pixels; i++) {
      double v = 0.0;
      for (int k = 0; k < p->endmembers; k++) v += abundance[k * pixels + i] * spectra[k * p->bands + b];
      store(img, b * pixels + i, p->scale * v + sigma * gaussian(&band_state));
    }
  }
  free(spectra);
  free(abundance);
  return 0;
}

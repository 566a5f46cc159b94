/* A deterministic synthetic hyperspectral scene: a few endmember spectra
 * mixed by smooth spatial abundance maps, plus noise whose level depends on
 * the band (noisier at the ends of the spectrum, as in AVIRIS). The same
 * seed gives the same scene on any machine and any thread count. */
#ifndef MNF_SYNTH_H
#define MNF_SYNTH_H

#include <stdint.h>

#include "envi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct synth_params {
  int samples, lines, bands;
  int data_type;
  int endmembers;      /* signal dimension; 5 by default */
  double scale;        /* reflectance 1.0 maps to this value */
  double noise;        /* noise standard deviation in the middle of the spectrum */
  uint64_t seed;
} synth_params;

/* Defaults for a type: scale and noise fit its range. */
void synth_defaults(synth_params *p, int samples, int lines, int bands, int data_type, uint64_t seed);
/* Sets p->noise so that the scene's condition number, kappa =
 * lambda_max(C_D) / lambda_min(C_N), is about kappa: the largest
 * eigenvalue of the noise-free scene's covariance over the smallest band
 * noise variance (the middle of the spectrum). 0, or -1 out of memory. */
int synth_noise_for_kappa(synth_params *p, double kappa);
/* Fills img (allocated here through a, which may be NULL). 0 on success. */
int synth_generate(const synth_params *p, mnf_image *img, const envi_allocator *a);

#ifdef __cplusplus
}
#endif

#endif

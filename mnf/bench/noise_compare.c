/* mnf-noise-compare: how much the noise estimate (median3, mean3, diff)
 * changes an MNF result. Runs the cpu implementation with each and prints
 * the leading SNRs and, for each leading component, the correlation of the
 * component images between the estimates (1 = the same image).
 *   mnf-noise-compare INPUT.hdr [--components K]
 *   mnf-noise-compare --synthetic SAMPLESxLINESxBANDS [--components K] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mnf.h"
#include "synth.h"

static double correlation(const float *a, const float *b, size_t n)
{
  double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; i++) ma += a[i], mb += b[i];
  ma /= n, mb /= n;
  for (size_t i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return sab / sqrt(saa * sbb);
}

int main(int argc, char **argv)
{
  int k = 6, w = 0, h = 0, b = 0;
  const char *input = NULL;
  const char *usage = "usage: mnf-noise-compare INPUT.hdr | --synthetic WxHxB [--components K]";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      puts(usage);
      return 0;
    }
    if (!strcmp(argv[i], "--components") && i + 1 < argc) k = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--synthetic") && i + 1 < argc) {
      if (sscanf(argv[++i], "%dx%dx%d", &w, &h, &b) != 3) return 2;
    } else if (argv[i][0] == '-' || input) {
      fprintf(stderr, "mnf-noise-compare: unexpected '%s'; %s\n", argv[i], usage);
      return 2;
    } else input = argv[i];
  }
  if ((!input && !w) || k < 1) {
    fprintf(stderr, "%s\n", usage);
    return 2;
  }
  mnf_image img;
  char err[1024];
  if (input) {
    if (envi_read(input, &img, NULL, NULL, NULL, err, sizeof err)) {
      fprintf(stderr, "mnf-noise-compare: %s\n", err);
      return 1;
    }
  } else {
    synth_params p;
    synth_defaults(&p, w, h, b, ENVI_I16, 2024);
    if (synth_generate(&p, &img, NULL)) return 1;
    printf("synthetic scene %dx%dx%d int16, 5 endmembers, seed 2024\n", w, h, b);
  }
  if (k > img.bands) k = img.bands;
  mnf_result r[3];
  for (int n = 0; n < 3; n++) {
    mnf_options opt = {k, n, MNF_IMPL_CPU, 0, 0, 0};
    if (mnf_run(&img, &opt, &r[n], err, sizeof err)) {
      fprintf(stderr, "mnf-noise-compare: %s: %s\n", mnf_noise_name(n), err);
      return 1;
    }
  }
  printf("\nSNR (lambda - 1) of the leading components\n\n| component |");
  for (int n = 0; n < 3; n++) printf(" %s |", mnf_noise_name(n));
  printf("\n|---|---|---|---|\n");
  for (int m = 0; m < k; m++) {
    printf("| %d |", m + 1);
    for (int n = 0; n < 3; n++) printf(" %.4g |", r[n].eigenvalues[m] - 1.0);
    printf("\n");
  }
  printf("\n|correlation| of each component image between estimates\n\n"
         "| component | median3-mean3 | median3-diff | mean3-diff |\n|---|---|---|---|\n");
  size_t S = r[0].pixels;
  for (int m = 0; m < k; m++) {
    printf("| %d |", m + 1);
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int q = 0; q < 3; q++)
      printf(" %.4f |", fabs(correlation(r[pairs[q][0]].components_data + m * S, r[pairs[q][1]].components_data + m * S, S)));
    printf("\n");
  }
  for (int n = 0; n < 3; n++) mnf_result_free(&r[n]);
  mnf_image_free(&img);
  return 0;
}

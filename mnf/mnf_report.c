/* The JSON report of a run (see mnf.h). */
#define _POSIX_C_SOURCE 200809L

#include "mnf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

static void write_report(FILE *f, const char *input, const mnf_image *img, const mnf_options *opt,
                         const mnf_result *r)
{
  jsonw w;
  int B = r->bands, M = r->components;
  jsonw_init(&w, f, true);
  jsonw_object_begin(&w);
  jsonw_key(&w, "input"), jsonw_string(&w, input);
  jsonw_key(&w, "samples"), jsonw_int(&w, img->samples);
  jsonw_key(&w, "lines"), jsonw_int(&w, img->lines);
  jsonw_key(&w, "bands"), jsonw_int(&w, B);
  jsonw_key(&w, "data_type"), jsonw_string(&w, envi_type_name(img->data_type));
  jsonw_key(&w, "components"), jsonw_int(&w, M);
  jsonw_key(&w, "noise"), jsonw_string(&w, mnf_noise_name(opt->noise));
  jsonw_key(&w, "noise_pixels"), jsonw_int(&w, (long long)r->noise_pixels);
  jsonw_key(&w, "valid_pixels"), jsonw_int(&w, (long long)r->valid_pixels);
  jsonw_key(&w, "centred"), jsonw_bool(&w, !opt->raw_output);
  jsonw_key(&w, "impl"), jsonw_string(&w, mnf_impl_name(opt->impl));
  jsonw_key(&w, "sign_convention"), jsonw_string(&w, "largest-magnitude entry of each column of T is positive");

  jsonw_key(&w, "eigenvalues"), jsonw_array_begin(&w);
  for (int m = 0; m < B; m++) jsonw_number(&w, r->eigenvalues[m]);
  jsonw_array_end(&w);
  jsonw_key(&w, "snr"), jsonw_array_begin(&w);
  for (int m = 0; m < B; m++) jsonw_number(&w, r->eigenvalues[m] - 1.0);
  jsonw_array_end(&w);
  jsonw_key(&w, "noise_fraction"), jsonw_array_begin(&w);
  for (int m = 0; m < B; m++) jsonw_number(&w, 1.0 / r->eigenvalues[m]);
  jsonw_array_end(&w);
  jsonw_key(&w, "band_mean"), jsonw_array_begin(&w);
  for (int b = 0; b < B; b++) jsonw_number(&w, r->band_mean[b]);
  jsonw_array_end(&w);

  /* One array per component: its column of T (Z_m = sum_b T[b][m] X_b). */
  jsonw_key(&w, "transform"), jsonw_array_begin(&w);
  for (int m = 0; m < M; m++) {
    jsonw_array_begin(&w);
    for (int b = 0; b < B; b++) jsonw_number(&w, r->transform[(size_t)b * B + m]);
    jsonw_array_end(&w);
  }
  jsonw_array_end(&w);

  jsonw_key(&w, "timing_ms"), jsonw_object_begin(&w);
  for (int s = 0; s < MNF_STEPS; s++) jsonw_key(&w, mnf_step_name(s)), jsonw_number(&w, r->step_ms[s]);
  jsonw_key(&w, "total"), jsonw_number(&w, r->total_ms);
  jsonw_key(&w, "note"), jsonw_string(&w, r->note);
  jsonw_key(&w, "streamed"), jsonw_bool(&w, r->streamed != 0);
  jsonw_object_end(&w);
  if (r->kappa > 0.0) jsonw_key(&w, "condition_number"), jsonw_number(&w, r->kappa);
  jsonw_key(&w, "warning");
  if (r->warning[0]) jsonw_string(&w, r->warning);
  else jsonw_null(&w);
  jsonw_object_end(&w);
  fputc('\n', f);
}

int mnf_write_report(const char *path, const char *input, const mnf_image *img, const mnf_options *opt,
                     const mnf_result *r, staged_files *s, char *err, size_t err_size)
{
  FILE *f = staged_open(s, path);
  if (!f) return mnf_fail(err, err_size, "%s: cannot write: %s", path, strerror(errno));
  write_report(f, input, img, opt, r);
  if (staged_close(f)) return mnf_fail(err, err_size, "%s: write failed; nothing written", path);
  return 0;
}

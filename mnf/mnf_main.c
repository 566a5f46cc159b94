/* mnf: the MNF rotation of an ENVI image.
 *   mnf INPUT.hdr -o OUTPUT.hdr [--components M] [--noise median3|mean3|diff]
 *       [--impl serial|cpu|gpu-naive|gpu|cublas|cublas-gemm] [--report FILE.json]
 * Writes the M components as an ENVI float32 BSQ image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mnf.h"
#include "mnf_gpu.h"

static int usage(void)
{
  fprintf(stderr,
          "usage: mnf INPUT.hdr -o OUTPUT.hdr [--components M] [--noise median3|mean3|diff]\n"
          "           [--impl serial|cpu|gpu-naive|gpu|cublas|cublas-gemm] [--report FILE.json]\n");
  return 2;
}

int main(int argc, char **argv)
{
  const char *input = NULL, *output = NULL, *report = NULL;
  mnf_options opt = {0, MNF_NOISE_MEAN3, MNF_IMPL_CPU};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-o") || !strcmp(a, "--components") || !strcmp(a, "--noise") || !strcmp(a, "--impl") ||
        !strcmp(a, "--report")) {
      if (!value) { fprintf(stderr, "mnf: %s needs a value\n", a); return usage(); }
      i++;
      if (!strcmp(a, "-o")) output = value;
      else if (!strcmp(a, "--report")) report = value;
      else if (!strcmp(a, "--components")) {
        char *end;
        long m = strtol(value, &end, 10);
        if (*end || m < 1 || m > 100000) { fprintf(stderr, "mnf: --components '%s' is not a positive count\n", value); return 2; }
        opt.components = (int)m;
      } else if (!strcmp(a, "--noise")) {
        if ((opt.noise = mnf_noise_from_name(value)) < 0) { fprintf(stderr, "mnf: unknown --noise '%s'\n", value); return 2; }
      } else if ((opt.impl = mnf_impl_from_name(value)) < 0) {
        fprintf(stderr, "mnf: unknown --impl '%s'\n", value);
        return 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "mnf: unknown option '%s'\n", a);
      return usage();
    } else if (!input) input = a;
    else return usage();
  }
  if (!input || !output) return usage();

  char err[1024];
  mnf_gpu_register();
  envi_allocator pinned = mnf_gpu_pinned_allocator();
  int on_gpu = opt.impl >= MNF_IMPL_GPU_NAIVE;
  mnf_image img;
  if (envi_read(input, &img, on_gpu ? &pinned : NULL, err, sizeof err)) {
    fprintf(stderr, "mnf: %s\n", err);
    return 1;
  }
  mnf_result r;
  if (mnf_run(&img, &opt, &r, err, sizeof err)) {
    fprintf(stderr, "mnf: %s: %s\n", input, err);
    mnf_image_free(&img);
    return 1;
  }
  mnf_image z = {img.samples, img.lines, r.components, ENVI_F32, r.components_data, NULL};
  int rc = 0;
  if (envi_write(output, &z, ENVI_BSQ, envi_host_byte_order(), "MNF components (warpmem mnf)", err, sizeof err)) {
    fprintf(stderr, "mnf: %s\n", err);
    rc = 1;
  }
  if (rc == 0 && report && mnf_write_report(report, input, &img, &opt, &r, err, sizeof err)) {
    fprintf(stderr, "mnf: %s\n", err);
    rc = 1;
  }
  if (rc == 0) {
    printf("mnf: %s: %dx%dx%d %s, %d components (%s noise, %s) in %.1f ms\n", input, img.samples, img.lines,
           img.bands, envi_type_name(img.data_type), r.components, mnf_noise_name(opt.noise),
           mnf_impl_name(opt.impl), r.total_ms);
    if (r.streamed) printf("  the image did not fit in GPU memory: it was streamed in chunks (uploaded twice)\n");
    printf("  SNR of the first components:");
    for (int m = 0; m < r.components && m < 8; m++) printf(" %.4g", r.eigenvalues[m] - 1.0);
    printf("\n");
  }
  mnf_result_free(&r);
  mnf_image_free(&img);
  return rc;
}

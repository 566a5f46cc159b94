/* mnf-synth: writes a deterministic synthetic hyperspectral scene.
 *   mnf-synth OUTPUT.hdr --size SAMPLESxLINESxBANDS [--type uint8|int16|uint16|int32|float32]
 *       [--interleave bsq|bil|bip] [--byte-order 0|1] [--seed N] [--endmembers K] [--noise SIGMA] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static int usage(void)
{
  fprintf(stderr, "usage: mnf-synth OUTPUT.hdr --size SAMPLESxLINESxBANDS [--type uint8|int16|uint16|int32|float32]\n"
                  "                 [--interleave bsq|bil|bip] [--byte-order 0|1] [--seed N] [--endmembers K] [--noise SIGMA]\n");
  return 2;
}

static int type_from_name(const char *name)
{
  static const int types[] = {ENVI_U8, ENVI_I16, ENVI_U16, ENVI_I32, ENVI_F32};
  for (int i = 0; i < 5; i++)
    if (!strcmp(name, envi_type_name(types[i]))) return types[i];
  return -1;
}

int main(int argc, char **argv)
{
  const char *output = NULL;
  int samples = 0, lines = 0, bands = 0, type = ENVI_I16, interleave = ENVI_BSQ, byte_order = envi_host_byte_order();
  int endmembers = 5;
  double noise = -1.0;
  uint64_t seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] != '-') {
      if (output) return usage();
      output = a;
      continue;
    }
    if (!v) return usage();
    i++;
    if (!strcmp(a, "--size")) {
      if (sscanf(v, "%dx%dx%d", &samples, &lines, &bands) != 3 || samples < 1 || lines < 1 || bands < 1) {
        fprintf(stderr, "mnf-synth: bad --size '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--type")) {
      if ((type = type_from_name(v)) < 0) { fprintf(stderr, "mnf-synth: unknown --type '%s'\n", v); return 2; }
    } else if (!strcmp(a, "--interleave")) {
      interleave = !strcmp(v, "bsq") ? ENVI_BSQ : !strcmp(v, "bil") ? ENVI_BIL : !strcmp(v, "bip") ? ENVI_BIP : -1;
      if (interleave < 0) { fprintf(stderr, "mnf-synth: unknown --interleave '%s'\n", v); return 2; }
    } else if (!strcmp(a, "--byte-order")) {
      byte_order = atoi(v);
      if (byte_order != 0 && byte_order != 1) { fprintf(stderr, "mnf-synth: --byte-order is 0 or 1\n"); return 2; }
    } else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--endmembers")) endmembers = atoi(v);
    else if (!strcmp(a, "--noise")) noise = atof(v);
    else return usage();
  }
  if (!output || !samples) return usage();
  synth_params p;
  synth_defaults(&p, samples, lines, bands, type, seed);
  p.endmembers = endmembers;
  if (noise >= 0) p.noise = noise;
  mnf_image img;
  if (synth_generate(&p, &img, NULL)) {
    fprintf(stderr, "mnf-synth: cannot generate (out of memory or endmembers not in 1..16)\n");
    return 1;
  }
  char err[1024], description[256];
  snprintf(description, sizeof description, "synthetic scene, seed %" PRIu64 ", %d endmembers", seed, p.endmembers);
  int rc = envi_write(output, &img, interleave, byte_order, description, err, sizeof err);
  if (rc) fprintf(stderr, "mnf-synth: %s\n", err);
  mnf_image_free(&img);
  return rc ? 1 : 0;
}

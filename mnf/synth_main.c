/* mnf-synth: writes a deterministic synthetic hyperspectral scene.
 *   mnf-synth OUTPUT.hdr --size SAMPLESxLINESxBANDS [--type uint8|int16|uint16|int32|float32]
 *       [--interleave bsq|bil|bip] [--byte-order 0|1] [--seed N] [--endmembers K]
 *       [--noise SIGMA | --kappa K] [--map-info]
 * --kappa sets the noise level for a condition number
 * lambda_max(C_D) / lambda_min(C_N) of about K; --map-info writes a UTM map
 * info, a coordinate system string and wavelengths (for the tests of what
 * mnf keeps). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static int usage(FILE *out)
{
  fprintf(out, "usage: mnf-synth OUTPUT.hdr --size SAMPLESxLINESxBANDS [--type uint8|int16|uint16|int32|float32]\n"
               "                 [--interleave bsq|bil|bip] [--byte-order 0|1] [--seed N] [--endmembers K]\n"
               "                 [--noise SIGMA | --kappa K] [--map-info]\n");
  return out == stdout ? 0 : 2;
}

static int type_from_name(const char *name)
{
  static const int types[] = {ENVI_U8, ENVI_I16, ENVI_U16, ENVI_I32, ENVI_F32};
  for (int i = 0; i < 5; i++)
    if (!strcmp(name, envi_type_name(types[i]))) return types[i];
  return -1;
}

/* Georeferencing and wavelengths such as an AVIRIS product carries: 20 m
 * pixels in UTM zone 11 north, WGS-84, 400-2500 nm. */
static int add_map_info(envi_meta *meta, int bands)
{
  char *wavelength = malloc(16 * (size_t)bands + 4);
  if (!wavelength) return -1;
  size_t len = 0;
  wavelength[len++] = '{';
  for (int b = 0; b < bands; b++)
    len += (size_t)sprintf(wavelength + len, "%s%.2f", b ? ", " : "", 400.0 + 2100.0 * b / (bands > 1 ? bands - 1 : 1));
  strcpy(wavelength + len, "}");
  int rc = envi_meta_set(meta, ENVI_META_MAP_INFO, "{UTM, 1.000, 1.000, 500000.000, 4000000.000, 2.0000000000e+01, "
                                                   "2.0000000000e+01, 11, North, WGS-84, units=Meters}");
  rc |= envi_meta_set(meta, ENVI_META_COORDINATE_SYSTEM,
                      "{PROJCS[\"WGS_1984_UTM_Zone_11N\",GEOGCS[\"GCS_WGS_1984\",DATUM[\"D_WGS_1984\",SPHEROID[\"WGS_1984\","
                      "6378137.0,298.257223563]],PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\",0.0174532925199433]],"
                      "PROJECTION[\"Transverse_Mercator\"],PARAMETER[\"False_Easting\",500000.0],"
                      "PARAMETER[\"False_Northing\",0.0],PARAMETER[\"Central_Meridian\",-117.0],"
                      "PARAMETER[\"Scale_Factor\",0.9996],PARAMETER[\"Latitude_Of_Origin\",0.0],UNIT[\"Meter\",1.0]]}");
  rc |= envi_meta_set(meta, ENVI_META_WAVELENGTH, wavelength);
  rc |= envi_meta_set(meta, ENVI_META_WAVELENGTH_UNITS, "Nanometers");
  free(wavelength);
  return rc ? -1 : 0;
}

enum { OPT_SIZE = 256, OPT_TYPE, OPT_INTERLEAVE, OPT_BYTE_ORDER, OPT_SEED, OPT_ENDMEMBERS, OPT_NOISE, OPT_KAPPA,
       OPT_MAP_INFO };
static const struct option long_options[] = {
  {"help", no_argument, NULL, 'h'},
  {"size", required_argument, NULL, OPT_SIZE},
  {"type", required_argument, NULL, OPT_TYPE},
  {"interleave", required_argument, NULL, OPT_INTERLEAVE},
  {"byte-order", required_argument, NULL, OPT_BYTE_ORDER},
  {"seed", required_argument, NULL, OPT_SEED},
  {"endmembers", required_argument, NULL, OPT_ENDMEMBERS},
  {"noise", required_argument, NULL, OPT_NOISE},
  {"kappa", required_argument, NULL, OPT_KAPPA},
  {"map-info", no_argument, NULL, OPT_MAP_INFO},
  {NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
  const char *output = NULL;
  int samples = 0, lines = 0, bands = 0, type = ENVI_I16, interleave = ENVI_BSQ, byte_order = envi_host_byte_order();
  int endmembers = 5;
  double noise = -1.0, kappa = 0.0;
  int map_info = 0;
  uint64_t seed = 1;
  opterr = 0;   /* a mistake prints the usage, as before */
  int opt;
  while ((opt = getopt_long(argc, argv, "-h", long_options, NULL)) != -1) {
    const char *v = optarg;
    switch (opt) {
    case 'h': return usage(stdout);
    case 1:   /* OUTPUT.hdr, among the options */
      if (output) return usage(stderr);
      output = v;
      break;
    case OPT_MAP_INFO: map_info = 1; break;
    case OPT_SIZE:
      if (sscanf(v, "%dx%dx%d", &samples, &lines, &bands) != 3 || samples < 1 || lines < 1 || bands < 1) {
        fprintf(stderr, "mnf-synth: bad --size '%s'\n", v);
        return 2;
      }
      break;
    case OPT_TYPE:
      if ((type = type_from_name(v)) < 0) { fprintf(stderr, "mnf-synth: unknown --type '%s'\n", v); return 2; }
      break;
    case OPT_INTERLEAVE:
      interleave = !strcmp(v, "bsq") ? ENVI_BSQ : !strcmp(v, "bil") ? ENVI_BIL : !strcmp(v, "bip") ? ENVI_BIP : -1;
      if (interleave < 0) { fprintf(stderr, "mnf-synth: unknown --interleave '%s'\n", v); return 2; }
      break;
    case OPT_BYTE_ORDER:
      byte_order = atoi(v);
      if (byte_order != 0 && byte_order != 1) { fprintf(stderr, "mnf-synth: --byte-order is 0 or 1\n"); return 2; }
      break;
    case OPT_SEED: seed = strtoull(v, NULL, 10); break;
    case OPT_ENDMEMBERS: endmembers = atoi(v); break;
    case OPT_NOISE: noise = atof(v); break;
    case OPT_KAPPA:
      kappa = atof(v);
      if (!(kappa > 0)) { fprintf(stderr, "mnf-synth: --kappa must be positive\n"); return 2; }
      break;
    default: return usage(stderr);   /* an unknown option, or one without its value */
    }
  }
  if (!output || !samples) return usage(stderr);
  synth_params p;
  synth_defaults(&p, samples, lines, bands, type, seed);
  p.endmembers = endmembers;
  if (noise >= 0) p.noise = noise;
  if (kappa > 0 && synth_noise_for_kappa(&p, kappa)) {
    fprintf(stderr, "mnf-synth: cannot compute the noise for --kappa (out of memory or endmembers not in 1..16)\n");
    return 1;
  }
  mnf_image img;
  if (synth_generate(&p, &img, NULL)) {
    fprintf(stderr, "mnf-synth: cannot generate (out of memory or endmembers not in 1..16)\n");
    return 1;
  }
  char err[1024], description[256];
  snprintf(description, sizeof description, "{synthetic scene, seed %" PRIu64 ", %d endmembers, noise %.6g}", seed,
           p.endmembers, p.noise);
  envi_meta meta = {{0}};
  int rc = envi_meta_set(&meta, ENVI_META_DESCRIPTION, description);
  if (map_info) rc |= add_map_info(&meta, bands);
  if (rc == 0) rc = envi_write(output, &img, interleave, byte_order, &meta, err, sizeof err);
  else snprintf(err, sizeof err, "out of memory");
  if (rc) fprintf(stderr, "mnf-synth: %s\n", err);
  mnf_image_free(&img);
  envi_meta_free(&meta);
  return rc ? 1 : 0;
}

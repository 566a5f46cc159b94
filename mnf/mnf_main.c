/* mnf: the MNF rotation of an ENVI image, and the uses of a saved one.
 *   mnf INPUT -o OUTPUT [--components M] [--noise median3|mean3|diff|shift|diag]
 *       [--impl serial|cpu|gpu-naive|gpu|cublas|cublas-gemm] [--report FILE.json] [--stats FILE]
 *       [--raw] [--denoise K] [--ignore-nonfinite] [--assume-interleave bsq|bil|bip] [--assume-byte-order 0|1]
 *   mnf apply STATS INPUT -o OUTPUT [--components K] [--impl serial|cpu|gpu] [--raw] ...
 *   mnf inverse STATS INPUT -o OUTPUT [--impl serial|cpu|gpu] [--raw] ...
 * Writes float32 images: the M components (MNF), or with --denoise the
 * original bands rebuilt from the first K components. Every output (image,
 * report, statistics) is written all or nothing, and an output that is or
 * aliases an input is refused before anything is read. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_io.h"
#include "mnf.h"
#ifdef MNF_WITH_GPU
#include "mnf_gpu.h"
#endif
#include "mnf_internal.h"

enum mode { MODE_MNF, MODE_APPLY, MODE_INVERSE };

typedef struct cli {
  int mode;
  const char *input, *output, *report, *stats_out, *stats_in;
  mnf_options opt;
  int denoise;          /* K, 0: not denoising */
  int impl_given;
  int help;             /* --help or -h: the usage printed, nothing else done */
  image_io_options io;
} cli;

/* The usage on out: stdout for --help (exit 0), stderr after a mistake (exit 2). */
static int usage(FILE *out)
{
  fprintf(out,
          "usage: mnf INPUT -o OUTPUT [--components M] [--noise median3|mean3|diff|shift|diag]\n"
          "           [--impl serial|cpu|gpu-naive|gpu|cublas|cublas-gemm] [--report FILE.json] [--stats FILE]\n"
          "           [--raw] [--denoise K] [--ignore-nonfinite] [--assume-interleave bsq|bil|bip]\n"
          "           [--assume-byte-order 0|1] [--gdal]\n"
          "       mnf apply STATS INPUT -o OUTPUT [--components K] [--impl serial|cpu|gpu] [--raw] [...]\n"
          "       mnf inverse STATS INPUT -o OUTPUT [--impl serial|cpu|gpu] [--raw] [...]\n"
          "       mnf [apply|inverse] --help\n");
  return out == stdout ? 0 : 2;
}

static int parse_count(const char *option, const char *value, int *out)
{
  char *end;
  long v = strtol(value, &end, 10);
  if (*end || v < 1 || v > 100000) {
    fprintf(stderr, "mnf: %s '%s' is not a positive count\n", option, value);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* The options of every mode; those with a value are set by set_option. */
enum { OPT_RAW = 256, OPT_IGNORE_NONFINITE, OPT_GDAL, OPT_REPORT, OPT_STATS, OPT_COMPONENTS, OPT_DENOISE, OPT_NOISE,
       OPT_IMPL, OPT_ASSUME_INTERLEAVE, OPT_ASSUME_BYTE_ORDER };
static const struct option long_options[] = {
  {"help", no_argument, NULL, 'h'},
  {"raw", no_argument, NULL, OPT_RAW},
  {"ignore-nonfinite", no_argument, NULL, OPT_IGNORE_NONFINITE},
  {"gdal", no_argument, NULL, OPT_GDAL},
  {"report", required_argument, NULL, OPT_REPORT},
  {"stats", required_argument, NULL, OPT_STATS},
  {"components", required_argument, NULL, OPT_COMPONENTS},
  {"denoise", required_argument, NULL, OPT_DENOISE},
  {"noise", required_argument, NULL, OPT_NOISE},
  {"impl", required_argument, NULL, OPT_IMPL},
  {"assume-interleave", required_argument, NULL, OPT_ASSUME_INTERLEAVE},
  {"assume-byte-order", required_argument, NULL, OPT_ASSUME_BYTE_ORDER},
  {NULL, 0, NULL, 0},
};

/* One option with its value; -1 after printing the problem. */
static int set_option(cli *c, int opt, const char *value)
{
  switch (opt) {
  case 'o': c->output = value; break;
  case OPT_REPORT: c->report = value; break;
  case OPT_STATS: c->stats_out = value; break;
  case OPT_COMPONENTS: return parse_count("--components", value, &c->opt.components);
  case OPT_DENOISE: return parse_count("--denoise", value, &c->denoise);
  case OPT_NOISE:
    if ((c->opt.noise = mnf_noise_from_name(value)) < 0) { fprintf(stderr, "mnf: unknown --noise '%s'\n", value); return -1; }
    break;
  case OPT_IMPL:
    c->impl_given = 1;
    if ((c->opt.impl = mnf_impl_from_name(value)) < 0) { fprintf(stderr, "mnf: unknown --impl '%s'\n", value); return -1; }
    break;
  case OPT_ASSUME_INTERLEAVE:
    c->io.assume.interleave = !strcmp(value, "bsq") ? ENVI_BSQ : !strcmp(value, "bil") ? ENVI_BIL : !strcmp(value, "bip") ? ENVI_BIP : -1;
    if (c->io.assume.interleave < 0) { fprintf(stderr, "mnf: --assume-interleave is bsq, bil or bip\n"); return -1; }
    break;
  default: /* OPT_ASSUME_BYTE_ORDER */
    if (strcmp(value, "0") && strcmp(value, "1")) { fprintf(stderr, "mnf: --assume-byte-order is 0 or 1\n"); return -1; }
    c->io.assume.byte_order = value[0] - '0';
    break;
  }
  return 0;
}

static int parse_args(int argc, char **argv, cli *c)
{
  memset(c, 0, sizeof *c);
  c->opt.noise = MNF_NOISE_MEAN3;
  c->opt.impl = MNF_IMPL_CPU;
  c->io.assume.interleave = c->io.assume.byte_order = -1;
  for (int h = 1; h < argc; h++)
    if (!strcmp(argv[h], "--help") || !strcmp(argv[h], "-h")) return c->help = 1, usage(stdout);
  int first = 1;
  if (argc > 1 && (!strcmp(argv[1], "apply") || !strcmp(argv[1], "inverse"))) {
    c->mode = !strcmp(argv[1], "apply") ? MODE_APPLY : MODE_INVERSE;
    if (argc < 4) return usage(stderr);
    c->stats_in = argv[2];
    first = 3;
  }
  /* getopt_long over argv[first..], argv[first - 1] in the program's place */
  opterr = 0;   /* mnf words its own errors; ':' first tells a missing value apart */
  optind = 1;
  int opt;
  while ((opt = getopt_long(argc - first + 1, argv + first - 1, "-:o:", long_options, NULL)) != -1) {
    char **args = argv + first - 1;
    switch (opt) {
    case 1:   /* INPUT, among the options */
      if (c->input) return usage(stderr);
      c->input = optarg;
      break;
    case OPT_RAW: c->opt.raw_output = 1; break;
    case OPT_IGNORE_NONFINITE: c->opt.skip_nonfinite = 1; break;
    case OPT_GDAL: c->io.use_gdal = 1; break;
    case ':': fprintf(stderr, "mnf: %s needs a value\n", args[optind - 1]); return usage(stderr);
    case '?': fprintf(stderr, "mnf: unknown option '%s'\n", args[optind - 1]); return 2;
    default:
      if (set_option(c, opt, optarg)) return 2;
      break;
    }
  }
  if (!c->input || !c->output) {
    fprintf(stderr, "mnf: %s is missing (mnf --help shows the usage)\n", !c->input ? "the INPUT image" : "-o OUTPUT");
    return 2;
  }
  if (c->mode != MODE_MNF && (c->report || c->stats_out || c->denoise)) {
    fprintf(stderr, "mnf: --report, --stats and --denoise belong to the MNF run, not to apply or inverse\n");
    return 2;
  }
  return 0;
}

/* Refuses an output that is, or aliases (the same file by another name or
 * link), an input or another output, before anything is read. */
static int check_outputs(const cli *c)
{
  char paths[8][4096];
  const char *what[8];
  int n_in = 0, n = 0;
  if (image_io_input_files(c->input, &c->io, paths[0], paths[1], sizeof paths[0]) == 0) {
    what[n++] = "the input", what[n++] = "the input's data";
  } else {
    snprintf(paths[n], sizeof paths[0], "%s", c->input), what[n++] = "the input";
  }
  if (c->stats_in) snprintf(paths[n], sizeof paths[0], "%s", c->stats_in), what[n++] = "the statistics";
  n_in = n;
  if (image_io_output_files(c->output, &c->io, paths[n], paths[n + 1], sizeof paths[0]) == 0) {
    what[n++] = "the output", what[n++] = "the output's data";
  } else {
    snprintf(paths[n], sizeof paths[0], "%s", c->output), what[n++] = "the output";
  }
  if (c->report) snprintf(paths[n], sizeof paths[0], "%s", c->report), what[n++] = "the report";
  if (c->stats_out) snprintf(paths[n], sizeof paths[0], "%s", c->stats_out), what[n++] = "the statistics output";
  for (int o = n_in; o < n; o++) {
    struct stat so;
    int out_exists = paths[o][0] && stat(paths[o], &so) == 0;
    for (int i = 0; i < o; i++) {
      struct stat si;
      if (!paths[i][0] || !strcmp(paths[i], "-")) continue;
      int same = !strcmp(paths[o], paths[i]) ||
                 (out_exists && stat(paths[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino);
      if (same) {
        fprintf(stderr, "mnf: %s: %s would overwrite %s (%s); nothing read or written\n", paths[o], what[o], what[i],
                paths[i]);
        return -1;
      }
    }
  }
  return 0;
}

/* "{MNF band 1, MNF band 2, ...}". */
static char *mnf_band_names(int count)
{
  char *s = malloc(20 * (size_t)count + 4), *p = s;
  if (!s) return NULL;
  *p++ = '{';
  for (int m = 0; m < count; m++) p += sprintf(p, "%sMNF band %d", m ? ", " : "", m + 1);
  strcpy(p, "}");
  return s;
}

/* The output header's kept fields. Components: the georeferencing, a
 * description, band names "MNF band k"; the input's band-wise fields do not
 * apply. Bands in the original units (denoise, inverse): the georeferencing
 * and every band-wise field of the original bands. */
static int output_meta(const image_meta *image, const envi_meta *bands, int components, const char *description,
                       image_meta *out)
{
  memset(out, 0, sizeof *out);
  int rc = envi_meta_set(&out->envi, ENVI_META_DESCRIPTION, description);
  for (int k = ENVI_META_DESCRIPTION + 1; k < ENVI_META_COUNT; k++) {
    int georef = k == ENVI_META_MAP_INFO || k == ENVI_META_COORDINATE_SYSTEM || k == ENVI_META_PROJECTION_INFO;
    const char *value = georef ? image->envi.value[k] : bands->value[k];
    if (value && (georef || !components)) rc |= envi_meta_set(&out->envi, k, value);
  }
  if (components) {
    char *names = mnf_band_names(components);
    rc |= names ? envi_meta_set(&out->envi, ENVI_META_BAND_NAMES, names) : -1;
    free(names);
  }
  out->has_geotransform = image->has_geotransform;
  memcpy(out->geotransform, image->geotransform, sizeof out->geotransform);
  if (image->wkt && !(out->wkt = strdup(image->wkt))) rc = -1;
  return rc ? -1 : 0;
}

static void print_eigenvalues(const mnf_result *r)
{
  printf("  eigenvalues (lambda = 1 + SNR; 1 is pure noise):");
  for (int m = 0; m < r->bands && m < 8; m++) printf(" %.6g", r->eigenvalues[m]);
  printf(r->bands > 8 ? " ...\n" : "\n");
}

/* The MNF run (and --denoise): statistics, then the components or the
 * denoised bands; every output staged in s. */
static int run_mnf(const cli *c, const mnf_image *img, const image_meta *meta, staged_files *s, char *err, size_t esz)
{
  mnf_options opt = c->opt;
  opt.stats_only = c->denoise > 0;
  if (c->denoise > img->bands) {
    snprintf(err, esz, "%s: --denoise %d: the image has %d bands", c->input, c->denoise, img->bands);
    return -1;
  }
  mnf_result r;
  if (mnf_run(img, &opt, &r, err, esz)) {
    char reason[900];
    snprintf(reason, sizeof reason, "%.880s", err);
    snprintf(err, esz, "%s: %s", c->input, reason);
    return -1;
  }
  if (r.warning[0]) fprintf(stderr, "mnf: %s: warning: %s\n", c->input, r.warning);
  int rc = 0, out_bands = r.components;
  float *out = r.components_data;
  double map_ms = 0.0;
  mnf_map map = {0};
  if (c->denoise) {
    out_bands = img->bands;
    out = malloc(sizeof(float) * out_bands * mnf_image_pixels(img));
    rc = !out || mnf_map_make(&map, &r, MNF_MAP_DENOISE, c->denoise, 0) ? snprintf(err, esz, "out of memory"), -1 : 0;
    int map_impl = opt.impl >= MNF_IMPL_GPU_NAIVE ? MNF_IMPL_GPU : opt.impl;
    if (rc == 0) rc = mnf_apply_map(img, &map, map_impl, out, &map_ms, err, esz);
  }
  char description[600];
  if (c->denoise)
    snprintf(description, sizeof description, "{%s denoised: its first %d MNF components (%s noise) mapped back}",
             c->input, c->denoise, mnf_noise_name(opt.noise));
  else
    snprintf(description, sizeof description, "{MNF components of %s (%s noise, %s)}", c->input,
             mnf_noise_name(opt.noise), opt.raw_output ? "raw: T^T X" : "centred: T^T (X - mean)");
  image_meta out_meta;
  if (rc == 0 && output_meta(meta, &meta->envi, c->denoise ? 0 : out_bands, description, &out_meta) == 0) {
    mnf_image z = {img->samples, img->lines, out_bands, ENVI_F32, out, NULL};
    rc = image_io_write_staged(c->output, &z, &out_meta, &c->io, s, err, esz);
    image_meta_free(&out_meta);
  } else if (rc == 0) {
    rc = -1, snprintf(err, esz, "out of memory");
  }
  if (rc == 0 && c->report) rc = mnf_write_report(c->report, c->input, img, &opt, &r, s, err, esz);
  if (rc == 0 && c->stats_out) rc = mnf_write_stats(c->stats_out, &r, opt.noise, &meta->envi, s, err, esz);
  if (rc == 0) rc = staged_commit(s, err, esz);
  if (rc == 0) {
    printf("mnf: %s: %dx%dx%d %s, %s %d %s (%s noise, %s) in %.1f ms\n", c->input, img->samples, img->lines,
           img->bands, envi_type_name(img->data_type), c->denoise ? "denoised from" : "wrote",
           c->denoise ? c->denoise : r.components, "components", mnf_noise_name(opt.noise), mnf_impl_name(opt.impl),
           r.total_ms + map_ms);
    if (r.streamed) printf("  the image did not fit in GPU memory: it was streamed in chunks (uploaded twice)\n");
    print_eigenvalues(&r);
  }
  if (c->denoise) free(out);
  mnf_map_free(&map);
  mnf_result_free(&r);
  return rc;
}

/* apply and inverse: a saved transform mapped over the image. */
static int run_saved(const cli *c, const mnf_image *img, const image_meta *meta, staged_files *s, char *err, size_t esz)
{
  mnf_result stats;
  envi_meta stats_meta;
  int noise;
  if (mnf_read_stats(c->stats_in, &stats, &noise, &stats_meta, err, esz)) return -1;
  int rc = 0, B = stats.bands, k = c->mode == MODE_APPLY ? (c->opt.components ? c->opt.components : B) : img->bands;
  if (c->mode == MODE_APPLY && img->bands != B)
    rc = -1, snprintf(err, esz, "%s: the image has %d bands, the statistics %s are of %d", c->input, img->bands, c->stats_in, B);
  else if (k > B)
    rc = -1, snprintf(err, esz, "%s: %d components, but the statistics %s have %d", c->input, k, c->stats_in, B);
  int impl = c->impl_given ? c->opt.impl : MNF_IMPL_CPU;
  mnf_map map = {0};
  float *out = NULL;
  double ms = 0.0;
  if (rc == 0 && mnf_map_make(&map, &stats, c->mode == MODE_APPLY ? MNF_MAP_FORWARD : MNF_MAP_INVERSE, k, c->opt.raw_output))
    rc = -1, snprintf(err, esz, "out of memory");
  if (rc == 0 && !(out = malloc(sizeof(float) * map.out_bands * mnf_image_pixels(img))))
    rc = -1, snprintf(err, esz, "out of memory");
  if (rc == 0) rc = mnf_apply_map(img, &map, impl, out, &ms, err, esz);
  image_meta out_meta;
  char description[600];
  snprintf(description, sizeof description, "{%s of %s by the MNF statistics %s}",
           c->mode == MODE_APPLY ? "MNF components" : "Bands rebuilt from the MNF components", c->input, c->stats_in);
  if (rc == 0 && output_meta(meta, &stats_meta, c->mode == MODE_APPLY ? k : 0, description, &out_meta) == 0) {
    mnf_image z = {img->samples, img->lines, map.out_bands, ENVI_F32, out, NULL};
    rc = image_io_write_staged(c->output, &z, &out_meta, &c->io, s, err, esz);
    image_meta_free(&out_meta);
    if (rc == 0) rc = staged_commit(s, err, esz);
  } else if (rc == 0) {
    rc = -1, snprintf(err, esz, "out of memory");
  }
  if (rc == 0)
    printf("mnf %s: %s: %d bands to %d (%s) in %.1f ms\n", c->mode == MODE_APPLY ? "apply" : "inverse", c->input,
           map.in_bands, map.out_bands, mnf_impl_name(impl), ms);
  free(out);
  mnf_map_free(&map);
  mnf_result_free(&stats);
  envi_meta_free(&stats_meta);
  return rc;
}

#ifndef MNF_WITH_GPU
/* mnf links no CUDA library: loading cuBLAS and cuSOLVER alone takes about
 * 260 MB, which a serial or CPU run on a small image has no use for. The
 * GPU implementations are the same program built with them, mnf-gpu,
 * beside this one; a GPU --impl hands the whole command line over to it. */
static int run_gpu_build(char **argv)
{
  char self[4096], path[4200];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "mnf: --impl %s: cannot find mnf-gpu (/proc/self/exe is unreadable)\n", argv[0]);
    return 1;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  snprintf(path, sizeof path, "%s/mnf-gpu", self);
  execv(path, argv);
  fprintf(stderr, "mnf: the GPU implementations are in %s, which cannot be run: %s\n", path, strerror(errno));
  return 1;
}
#endif

int main(int argc, char **argv)
{
  cli c;
  int rc = parse_args(argc, argv, &c);
  if (rc || c.help) return rc;
  int on_gpu = c.opt.impl >= MNF_IMPL_GPU_NAIVE;
#ifndef MNF_WITH_GPU
  if (on_gpu) return run_gpu_build(argv);
#endif
  if (check_outputs(&c)) return 1;

  char err[1024];
  mnf_image img;
  image_meta meta;
#ifdef MNF_WITH_GPU
  mnf_gpu_register();
  envi_allocator pinned = mnf_gpu_pinned_allocator();
  c.io.alloc = on_gpu ? &pinned : NULL;
#endif
  double t0 = mnf_now_ms();
  if (image_io_read(c.input, &img, &meta, &c.io, err, sizeof err)) {
    fprintf(stderr, "mnf: %s\n", err);
    return 1;
  }
  printf("mnf: read %s in %.1f ms (%s)\n", c.input, mnf_now_ms() - t0,
         c.io.use_gdal || !strstr(c.input, ".hdr") ? "GDAL" : "native ENVI reader");
  staged_files s;
  staged_init(&s);
  if (c.mode != MODE_MNF && !c.opt.skip_nonfinite) rc = mnf_check_finite(&img, c.input, err, sizeof err);
  if (rc == 0) rc = c.mode == MODE_MNF ? run_mnf(&c, &img, &meta, &s, err, sizeof err) : run_saved(&c, &img, &meta, &s, err, sizeof err);
  if (rc) {
    staged_abort(&s);
    fprintf(stderr, "mnf: %s\n", err);
  }
  image_meta_free(&meta);
  mnf_image_free(&img);
  return rc ? 1 : 0;
}

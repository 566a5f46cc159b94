/* The statistics file (sidecar) of a run: what `mnf apply` and `mnf
 * inverse` need to map another image through a saved transform. Plain
 * text, one "key = value" a line, numbers with 17 significant digits (a
 * double survives the round trip); the format is in mnf/README.md. */
#define _POSIX_C_SOURCE 200809L

#include "mnf_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATS_MAGIC "MNF statistics 1"
#define STATS_MAX_BYTES ((size_t)1 << 30)

static void write_numbers(FILE *f, const char *key, const double *v, size_t n)
{
  fprintf(f, "%s =", key);
  for (size_t i = 0; i < n; i++) fprintf(f, " %.17g", v[i]);
  fputc('\n', f);
}

int mnf_write_stats(const char *path, const mnf_result *r, int noise, const envi_meta *meta, staged_files *s,
                    char *err, size_t err_size)
{
  FILE *f = staged_open(s, path);
  if (!f) return mnf_fail(err, err_size, "%s: cannot write: %s", path, strerror(errno));
  size_t B = (size_t)r->bands;
  fprintf(f, STATS_MAGIC "\n; warpmem mnf: the statistics of an MNF rotation (mnf/README.md)\n");
  fprintf(f, "bands = %zu\nnoise = %s\npixels = %zu\nnoise pixels = %zu\nvalid pixels = %zu\n", B,
          mnf_noise_name(noise), r->pixels, r->noise_pixels, r->valid_pixels);
  write_numbers(f, "band mean", r->band_mean, B);
  write_numbers(f, "eigenvalues", r->eigenvalues, B);
  write_numbers(f, "noise covariance", r->noise_cov, B * B);
  write_numbers(f, "transform", r->transform, B * B);
  for (int k = 0; meta && k < ENVI_META_COUNT; k++) {
    if (!meta->value[k] || k == ENVI_META_DESCRIPTION) continue;
    fprintf(f, "%s = ", envi_meta_key_name(k));
    for (const char *c = meta->value[k]; *c; c++) fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    fputc('\n', f);
  }
  if (staged_close(f)) return mnf_fail(err, err_size, "%s: write failed; nothing written", path);
  return 0;
}

/* Exactly n finite numbers in text; -1 otherwise. */
static int parse_numbers(const char *text, double *v, size_t n)
{
  const char *p = text;
  for (size_t i = 0; i < n; i++) {
    char *end;
    errno = 0;
    v[i] = strtod(p, &end);
    if (end == p || errno || !isfinite(v[i])) return -1;
    p = end;
  }
  while (*p == ' ' || *p == '\t' || *p == '\r') p++;
  return *p ? -1 : 0;
}

static char *slurp(const char *path, char *err, size_t err_size)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    mnf_fail(err, err_size, "%s: cannot open statistics: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0, got;
  char *buf = malloc(cap + 1);
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap && cap < STATS_MAX_BYTES) {
      char *bigger = realloc(buf, 2 * cap + 1);
      if (!bigger) free(buf);
      buf = bigger;
      cap *= 2;
    } else if (len == cap) {
      break;
    }
  }
  int bad = ferror(f) || (buf && len == cap);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    mnf_fail(err, err_size, "%s: cannot read statistics (read error, or over 1 GB)", path);
    return NULL;
  }
  buf[len] = '\0';
  return buf;
}

/* Sets the field of one "key = value" line. */
static int stats_field(const char *path, char *key, char *value, mnf_result *r, int *noise, envi_meta *meta,
                       char *err, size_t err_size)
{
  size_t B = (size_t)r->bands;
  double *target = NULL;
  size_t count = 0;
  if (!strcmp(key, "bands")) {
    char *end;
    long n = strtol(value, &end, 10);
    if (*end || n < 1 || n > 100000 || r->bands) return mnf_fail(err, err_size, "%s: bad or repeated 'bands'", path);
    B = (size_t)n;
    r->bands = r->components = (int)n;
    r->band_mean = calloc(B, sizeof(double)), r->eigenvalues = calloc(B, sizeof(double));
    r->noise_cov = calloc(B * B, sizeof(double)), r->transform = calloc(B * B, sizeof(double));
    r->data_cov = calloc(B * B, sizeof(double));
    if (!r->band_mean || !r->eigenvalues || !r->noise_cov || !r->transform || !r->data_cov)
      return mnf_fail(err, err_size, "%s: out of memory", path);
    return 0;
  }
  if (!strcmp(key, "noise")) {
    *noise = mnf_noise_from_name(value);
    return *noise < 0 ? mnf_fail(err, err_size, "%s: unknown noise '%.40s'", path, value) : 0;
  }
  if (!strcmp(key, "pixels") || !strcmp(key, "noise pixels") || !strcmp(key, "valid pixels")) {
    size_t *dst = !strcmp(key, "pixels") ? &r->pixels : !strcmp(key, "noise pixels") ? &r->noise_pixels : &r->valid_pixels;
    char *end;
    *dst = (size_t)strtoull(value, &end, 10);
    return *end ? mnf_fail(err, err_size, "%s: '%s' is not a count", path, key) : 0;
  }
  if (!strcmp(key, "band mean")) target = r->band_mean, count = B;
  else if (!strcmp(key, "eigenvalues")) target = r->eigenvalues, count = B;
  else if (!strcmp(key, "noise covariance")) target = r->noise_cov, count = B * B;
  else if (!strcmp(key, "transform")) target = r->transform, count = B * B;
  if (count) {
    if (!B) return mnf_fail(err, err_size, "%s: '%s' before 'bands'", path, key);
    if (parse_numbers(value, target, count))
      return mnf_fail(err, err_size, "%s: '%s' needs %zu finite numbers", path, key, count);
    return 0;
  }
  for (int k = 0; k < ENVI_META_COUNT; k++)
    if (!strcmp(key, envi_meta_key_name(k)) && meta && envi_meta_set(meta, k, value))
      return mnf_fail(err, err_size, "%s: out of memory", path);
  return 0;
}

int mnf_read_stats(const char *path, mnf_result *r, int *noise, envi_meta *meta, char *err, size_t err_size)
{
  memset(r, 0, sizeof *r);
  if (meta) memset(meta, 0, sizeof *meta);
  *noise = -1;
  char *text = slurp(path, err, err_size);
  if (!text) return -1;
  int rc = 0;
  size_t magic = strlen(STATS_MAGIC);
  if (strncmp(text, STATS_MAGIC, magic) || (text[magic] != '\n' && text[magic] != '\r'))
    rc = mnf_fail(err, err_size, "%s: not an MNF statistics file (first line is not '" STATS_MAGIC "')", path);
  int seen = 0; /* bit per required number field */
  for (char *line = text, *next; rc == 0 && line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    if (line == text || *line == ';' || *line == '\0' || *line == '\r') continue;
    char *eq = strchr(line, '=');
    if (!eq) { rc = mnf_fail(err, err_size, "%s: malformed line '%.40s'", path, line); break; }
    char *key_end = eq;
    while (key_end > line && key_end[-1] == ' ') key_end--;
    *key_end = '\0';
    char *value = eq + 1;
    while (*value == ' ') value++;
    rc = stats_field(path, line, value, r, noise, meta, err, err_size);
    static const char *required[4] = {"band mean", "eigenvalues", "noise covariance", "transform"};
    for (int q = 0; q < 4; q++)
      if (!strcmp(line, required[q])) seen |= 1 << q;
  }
  free(text);
  if (rc == 0 && (seen != 15 || *noise < 0 || !r->bands))
    rc = mnf_fail(err, err_size, "%s: incomplete statistics (needs bands, noise, band mean, eigenvalues, noise covariance, transform)",
                  path);
  if (rc) {
    mnf_result_free(r);
    if (meta) envi_meta_free(meta);
  }
  return rc;
}

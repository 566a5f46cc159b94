/* ENVI header parsing and raw data reading/writing. */
#define _POSIX_C_SOURCE 200809L

#include "envi.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIMENSION (1 << 24)

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (err && err_size) vsnprintf(err, err_size, fmt, ap);
  va_end(ap);
  return -1;
}

size_t envi_type_size(int data_type)
{
  switch (data_type) {
  case ENVI_U8: return 1;
  case ENVI_I16: return 2;
  case ENVI_U16: return 2;
  case ENVI_I32: return 4;
  case ENVI_F32: return 4;
  default: return 0;
  }
}

const char *envi_type_name(int data_type)
{
  switch (data_type) {
  case ENVI_U8: return "uint8";
  case ENVI_I16: return "int16";
  case ENVI_U16: return "uint16";
  case ENVI_I32: return "int32";
  case ENVI_F32: return "float32";
  default: return "unsupported";
  }
}

const char *envi_interleave_name(int interleave)
{
  static const char *names[] = {"bsq", "bil", "bip"};
  return interleave >= 0 && interleave <= 2 ? names[interleave] : "?";
}

int envi_host_byte_order(void)
{
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1 ? 0 : 1;
}

size_t mnf_image_pixels(const mnf_image *img)
{
  return (size_t)img->samples * (size_t)img->lines;
}

size_t mnf_image_bytes(const mnf_image *img)
{
  return mnf_image_pixels(img) * (size_t)img->bands * envi_type_size(img->data_type);
}

static void *default_alloc(size_t bytes) { return malloc(bytes); }

int mnf_image_alloc(mnf_image *img, int samples, int lines, int bands, int data_type,
                    const envi_allocator *a)
{
  memset(img, 0, sizeof *img);
  if (samples <= 0 || lines <= 0 || bands <= 0 || envi_type_size(data_type) == 0) return -1;
  img->samples = samples;
  img->lines = lines;
  img->bands = bands;
  img->data_type = data_type;
  size_t bytes = mnf_image_bytes(img);
  void *(*alloc)(size_t) = a && a->alloc ? a->alloc : default_alloc;
  img->release = a && a->release ? a->release : free;
  img->data = alloc(bytes);
  if (!img->data) return -1;
  memset(img->data, 0, bytes);
  return 0;
}

void mnf_image_free(mnf_image *img)
{
  if (img->data && img->release) img->release(img->data);
  img->data = NULL;
}

double mnf_image_value(const mnf_image *img, size_t i)
{
  switch (img->data_type) {
  case ENVI_U8: return ((const uint8_t *)img->data)[i];
  case ENVI_I16: return ((const int16_t *)img->data)[i];
  case ENVI_U16: return ((const uint16_t *)img->data)[i];
  case ENVI_I32: return ((const int32_t *)img->data)[i];
  case ENVI_F32: return ((const float *)img->data)[i];
  default: return 0.0;
  }
}

/* ---- header ---------------------------------------------------------- */

static const char *meta_keys[ENVI_META_COUNT] = {"description", "map info", "coordinate system string",
                                                 "projection info", "wavelength", "wavelength units", "fwhm",
                                                 "band names", "data gain values", "data offset values"};

const char *envi_meta_key_name(int key) { return key >= 0 && key < ENVI_META_COUNT ? meta_keys[key] : "?"; }

int envi_meta_set(envi_meta *m, int key, const char *value)
{
  char *copy = NULL;
  if (value && !(copy = strdup(value))) return -1;
  free(m->value[key]);
  m->value[key] = copy;
  return 0;
}

void envi_meta_free(envi_meta *m)
{
  for (int k = 0; k < ENVI_META_COUNT; k++) free(m->value[k]);
  memset(m, 0, sizeof *m);
}

void envi_header_free(envi_header *h) { envi_meta_free(&h->meta); }

static char *trim(char *s)
{
  while (isspace((unsigned char)*s)) s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
  return s;
}

static void lower(char *s)
{
  for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

/* Parses a whole non-negative decimal number; -1 if value is anything else. */
static long parse_count(const char *value)
{
  char *end;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (end == value || *trim(end) != '\0' || errno || v < 0) return -1;
  return v;
}

#define MAX_HEADER_BYTES (1u << 24) /* no real header is this large */

static int read_file_text(const char *path, char **text, size_t *length, char *err, size_t err_size)
{
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, err_size, "%s: cannot open header: %s", path, strerror(errno));
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      if (cap > MAX_HEADER_BYTES) break;
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) { free(buf); buf = NULL; break; }
      buf = bigger;
      cap *= 2;
    }
  }
  int read_error = ferror(f);
  fclose(f);
  if (!buf) return fail(err, err_size, "%s: out of memory reading header", path);
  if (read_error) { free(buf); return fail(err, err_size, "%s: read error", path); }
  *text = buf;
  *length = len;
  return 0;
}

static int set_field(envi_header *h, const char *path, char *key, char *value,
                     char *err, size_t err_size)
{
  lower(key);
  long n;
  if (!strcmp(key, "samples") || !strcmp(key, "lines") || !strcmp(key, "bands")) {
    n = parse_count(value);
    if (n < 0 || n > MAX_DIMENSION)
      return fail(err, err_size, "%s: malformed header: '%s = %.40s' is not a count", path, key, value);
    if (!strcmp(key, "samples")) h->samples = (int)n;
    else if (!strcmp(key, "lines")) h->lines = (int)n;
    else h->bands = (int)n;
  } else if (!strcmp(key, "data type")) {
    n = parse_count(value);
    if (n < 0) return fail(err, err_size, "%s: malformed header: data type '%.40s'", path, value);
    h->data_type = n > INT_MAX ? INT_MAX : (int)n;
  } else if (!strcmp(key, "header offset")) {
    n = parse_count(value);
    if (n < 0) return fail(err, err_size, "%s: malformed header: header offset '%.40s'", path, value);
    h->header_offset = n;
  } else if (!strcmp(key, "byte order")) {
    n = parse_count(value);
    if (n != 0 && n != 1)
      return fail(err, err_size, "%s: malformed header: byte order '%.40s' (must be 0 or 1)", path, value);
    h->byte_order = (int)n;
  } else if (!strcmp(key, "interleave")) {
    lower(value);
    if (!strcmp(value, "bsq")) h->interleave = ENVI_BSQ;
    else if (!strcmp(value, "bil")) h->interleave = ENVI_BIL;
    else if (!strcmp(value, "bip")) h->interleave = ENVI_BIP;
    else return fail(err, err_size, "%s: unsupported interleave '%.40s' (bsq, bil or bip)", path, value);
  } else {
    for (int k = 0; k < ENVI_META_COUNT; k++)
      if (!strcmp(key, meta_keys[k]) && envi_meta_set(&h->meta, k, value))
        return fail(err, err_size, "%s: out of memory reading header", path);
  }
  /* Other keys are not needed. */
  return 0;
}

/* Splits the NUL-terminated text into "key = value" lines (a braced value
 * may run over several lines) and sets the fields. */
static int parse_lines(char *text, const char *path, envi_header *h, char *err, size_t err_size)
{
  char *line_start = text;
  int first = 1;
  while (*line_start) {
    char *line_end = strchr(line_start, '\n');
    char *next = line_end ? line_end + 1 : line_start + strlen(line_start);
    char *eq = strchr(line_start, '=');
    if (eq && (!line_end || eq < line_end)) {
      char *brace = eq + 1;
      while (*brace == ' ' || *brace == '\t') brace++;
      if (*brace == '{') {
        char *close = strchr(brace, '}');
        if (!close) return fail(err, err_size, "%s: malformed header: unclosed '{'", path);
        line_end = close + 1 + strcspn(close + 1, "\n");
        next = *line_end ? line_end + 1 : line_end;
      }
    }
    if (line_end) *line_end = '\0';
    char *line = trim(line_start);
    if (first) {
      if (strncmp(line, "ENVI", 4) != 0) return fail(err, err_size, "%s: not an ENVI header (first line is not 'ENVI')", path);
      first = 0;
    } else if (*line && *line != ';') {
      eq = strchr(line, '=');
      if (!eq) return fail(err, err_size, "%s: malformed header line '%.60s'", path, line);
      *eq = '\0';
      if (set_field(h, path, trim(line), trim(eq + 1), err, err_size)) return -1;
    }
    line_start = next;
  }
  if (first) return fail(err, err_size, "%s: empty header", path);
  return 0;
}

int envi_parse_header(const char *text, size_t len, const char *path, envi_header *h, char *err, size_t err_size)
{
  memset(h, 0, sizeof *h);
  h->samples = h->lines = h->bands = -1;
  h->data_type = h->interleave = h->byte_order = -1;
  if (len > MAX_HEADER_BYTES) return fail(err, err_size, "%s: not an ENVI header (over 16 MB)", path);
  if (memchr(text, '\0', len)) return fail(err, err_size, "%s: not an ENVI header (binary data)", path);
  char *copy = malloc(len + 1);
  if (!copy) return fail(err, err_size, "%s: out of memory reading header", path);
  memcpy(copy, text, len);
  copy[len] = '\0';
  int rc = parse_lines(copy, path, h, err, err_size);
  free(copy);
  if (rc) return rc;

  if (h->samples < 0) return fail(err, err_size, "%s: header has no 'samples'", path);
  if (h->lines < 0) return fail(err, err_size, "%s: header has no 'lines'", path);
  if (h->bands < 0) return fail(err, err_size, "%s: header has no 'bands'", path);
  if (h->data_type < 0) return fail(err, err_size, "%s: header has no 'data type'", path);
  if (h->bands == 0) return fail(err, err_size, "%s: image has zero bands", path);
  if (h->samples == 0 || h->lines == 0) return fail(err, err_size, "%s: image has zero samples or lines", path);
  if (envi_type_size(h->data_type) == 0)
    return fail(err, err_size, "%s: unsupported data type %d (supported: 1 uint8, 2 int16, 3 int32, 4 float32, 12 uint16)",
                path, h->data_type);
  return 0;
}

int envi_read_header(const char *path, envi_header *h, char *err, size_t err_size)
{
  char *text = NULL;
  size_t len = 0;
  memset(h, 0, sizeof *h);
  if (read_file_text(path, &text, &len, err, err_size)) return -1;
  int rc = envi_parse_header(text, len, path, h, err, err_size);
  free(text);
  return rc;
}

int envi_header_complete(envi_header *h, const char *path, const envi_assume *assume, char *err, size_t err_size)
{
  if (h->interleave < 0 && assume && assume->interleave >= ENVI_BSQ && assume->interleave <= ENVI_BIP)
    h->interleave = assume->interleave;
  if (h->byte_order < 0 && assume && (assume->byte_order == 0 || assume->byte_order == 1)) h->byte_order = assume->byte_order;
  /* SPy refuses such headers too: guessing BSQ little-endian turns BIP or
   * big-endian data into garbage without a word. */
  if (h->interleave < 0)
    return fail(err, err_size, "%s: header has no 'interleave' (state the layout: --assume-interleave bsq|bil|bip)", path);
  if (h->byte_order < 0 && envi_type_size(h->data_type) > 1)
    return fail(err, err_size, "%s: header has no 'byte order' (state it: --assume-byte-order 0|1)", path);
  if (h->byte_order < 0) h->byte_order = envi_host_byte_order();
  return 0;
}

/* ---- data ------------------------------------------------------------ */

static int file_exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static size_t stem_length(const char *hdr_path)
{
  size_t len = strlen(hdr_path);
  if (len > 4 && (!strcmp(hdr_path + len - 4, ".hdr") || !strcmp(hdr_path + len - 4, ".HDR"))) return len - 4;
  return len;
}

int envi_find_data_file(const char *hdr_path, char *out, size_t out_size, char *err, size_t err_size)
{
  static const char *suffixes[] = {"", ".img", ".dat", ".raw", ".bsq", ".bil", ".bip"};
  size_t stem = stem_length(hdr_path);
  if (stem == strlen(hdr_path)) return fail(err, err_size, "%s: header name does not end in .hdr", hdr_path);
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    if ((size_t)snprintf(out, out_size, "%.*s%s", (int)stem, hdr_path, suffixes[i]) >= out_size)
      return fail(err, err_size, "%s: path too long", hdr_path);
    if (file_exists(out)) return 0;
  }
  return fail(err, err_size, "%s: data file not found (looked for %.*s, .img, .dat, .raw, .bsq, .bil, .bip)",
              hdr_path, (int)stem, hdr_path);
}

static void swap_bytes(void *data, size_t count, size_t size)
{
  unsigned char *p = data;
  for (size_t i = 0; i < count; i++, p += size)
    for (size_t a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

/* Band b of a BIP line (samples x bands values) into dst. Typed loops: a
 * memcpy of 2 or 4 bytes per value made BIP reading 3x slower than GDAL's. */
static void gather_band(unsigned char *dst, const unsigned char *line, int samples, int bands, int b, size_t size)
{
  if (size == 2) {
    uint16_t *d = (uint16_t *)(void *)dst;
    const uint16_t *l = (const uint16_t *)(const void *)line + b;
    for (int x = 0; x < samples; x++) d[x] = l[(size_t)x * bands];
  } else if (size == 4) {
    uint32_t *d = (uint32_t *)(void *)dst;
    const uint32_t *l = (const uint32_t *)(const void *)line + b;
    for (int x = 0; x < samples; x++) d[x] = l[(size_t)x * bands];
  } else {
    for (int x = 0; x < samples; x++) dst[x] = line[(size_t)x * bands + b];
  }
}

/* Reads the file's BIL or BIP layout one image line at a time into BSQ. */
static int read_interleaved(FILE *f, const envi_header *h, unsigned char *bsq)
{
  size_t size = envi_type_size(h->data_type);
  size_t line_values = (size_t)h->samples * h->bands;
  size_t band_bytes = (size_t)h->samples * h->lines * size;
  unsigned char *line = malloc(line_values * size);
  if (!line) return -1;
  for (int y = 0; y < h->lines; y++) {
    if (fread(line, size, line_values, f) != line_values) { free(line); return -1; }
    for (int b = 0; b < h->bands; b++) {
      unsigned char *dst = bsq + b * band_bytes + (size_t)y * h->samples * size;
      if (h->interleave == ENVI_BIL) {
        memcpy(dst, line + (size_t)b * h->samples * size, (size_t)h->samples * size);
      } else {
        gather_band(dst, line, h->samples, h->bands, b, size);
      }
    }
  }
  free(line);
  return 0;
}

/* The pixels of the data file a complete header h describes. */
static int read_data(const envi_header *h, const char *hdr_path, const char *data_path, mnf_image *img,
                     const envi_allocator *a, char *err, size_t err_size)
{
  struct stat st;
  if (stat(data_path, &st) != 0) return fail(err, err_size, "%s: cannot stat: %s", data_path, strerror(errno));
  size_t size = envi_type_size(h->data_type);
  /* Each dimension is below 2^24: the product of three can overflow. */
  unsigned long long values = (unsigned long long)h->samples * h->lines;
  if (values > SIZE_MAX / size / h->bands)
    return fail(err, err_size, "%s: %dx%dx%d is too large an image", hdr_path, h->samples, h->lines, h->bands);
  size_t need = (size_t)values * h->bands * size;
  if ((unsigned long long)st.st_size < (unsigned long long)h->header_offset + need)
    return fail(err, err_size, "%s: data file is %lld bytes, header %s says %ld + %zu (%dx%dx%d %s)",
                data_path, (long long)st.st_size, hdr_path, h->header_offset, need,
                h->samples, h->lines, h->bands, envi_type_name(h->data_type));

  if (mnf_image_alloc(img, h->samples, h->lines, h->bands, h->data_type, a))
    return fail(err, err_size, "%s: out of memory for %zu bytes", data_path, need);
  FILE *f = fopen(data_path, "rb");
  if (!f) { mnf_image_free(img); return fail(err, err_size, "%s: cannot open: %s", data_path, strerror(errno)); }
  int rc = fseek(f, h->header_offset, SEEK_SET);
  if (rc == 0) {
    if (h->interleave == ENVI_BSQ) rc = fread(img->data, 1, need, f) == need ? 0 : -1;
    else rc = read_interleaved(f, h, img->data);
  }
  fclose(f);
  if (rc) { mnf_image_free(img); return fail(err, err_size, "%s: read error or file shorter than its header says", data_path); }
  if (size > 1 && h->byte_order != envi_host_byte_order())
    swap_bytes(img->data, need / size, size);
  return 0;
}

int envi_read(const char *hdr_path, mnf_image *img, const envi_allocator *a, const envi_assume *assume,
              envi_meta *meta, char *err, size_t err_size)
{
  envi_header h;
  char data_path[4096];
  memset(img, 0, sizeof *img);
  if (meta) memset(meta, 0, sizeof *meta);
  int rc = envi_read_header(hdr_path, &h, err, err_size);
  if (rc == 0) rc = envi_header_complete(&h, hdr_path, assume, err, err_size);
  if (rc == 0) rc = envi_find_data_file(hdr_path, data_path, sizeof data_path, err, err_size);
  if (rc == 0) rc = read_data(&h, hdr_path, data_path, img, a, err, err_size);
  if (rc == 0 && meta) *meta = h.meta;
  else envi_header_free(&h);
  return rc;
}

/* ---- writing ----------------------------------------------------------- */

static int write_data(FILE *f, const mnf_image *img, int interleave, int byte_order)
{
  size_t size = envi_type_size(img->data_type);
  size_t band_values = mnf_image_pixels(img);
  size_t line_values = (size_t)img->samples * img->bands;
  int swap = size > 1 && byte_order != envi_host_byte_order();
  unsigned char *line = malloc(line_values * size);
  if (!line) return -1;
  const unsigned char *src = img->data;
  /* One output line at a time in every layout, so memory stays small. */
  size_t lines_out = interleave == ENVI_BSQ ? (size_t)img->bands * img->lines : (size_t)img->lines;
  for (size_t l = 0; l < lines_out; l++) {
    size_t count;
    if (interleave == ENVI_BSQ) {
      count = img->samples;
      memcpy(line, src + l * count * size, count * size);
    } else {
      count = line_values;
      for (int b = 0; b < img->bands; b++) {
        const unsigned char *row = src + (b * band_values + l * img->samples) * size;
        if (interleave == ENVI_BIL) memcpy(line + (size_t)b * img->samples * size, row, (size_t)img->samples * size);
        else
          for (int x = 0; x < img->samples; x++)
            memcpy(line + ((size_t)x * img->bands + b) * size, row + x * size, size);
      }
    }
    if (swap) swap_bytes(line, count, size);
    if (fwrite(line, size, count, f) != count) { free(line); return -1; }
  }
  free(line);
  return 0;
}

static int write_header(FILE *f, const mnf_image *img, int interleave, int byte_order, const envi_meta *meta)
{
  fprintf(f, "ENVI\n");
  if (meta && meta->value[ENVI_META_DESCRIPTION])
    fprintf(f, "description = %s\n", meta->value[ENVI_META_DESCRIPTION]);
  fprintf(f, "samples = %d\nlines = %d\nbands = %d\nheader offset = 0\nfile type = ENVI Standard\n",
          img->samples, img->lines, img->bands);
  fprintf(f, "data type = %d\ninterleave = %s\nbyte order = %d\n", img->data_type,
          envi_interleave_name(interleave), byte_order);
  for (int k = ENVI_META_DESCRIPTION + 1; meta && k < ENVI_META_COUNT; k++)
    if (meta->value[k]) fprintf(f, "%s = %s\n", meta_keys[k], meta->value[k]);
  return ferror(f) ? -1 : 0;
}

int envi_output_paths(const char *path, char *header, char *data, size_t size)
{
  size_t stem = stem_length(path);
  int n;
  if (stem == strlen(path)) {
    n = snprintf(data, size, "%s", path);
    if (n >= 0 && (size_t)n < size) n = snprintf(header, size, "%s.hdr", path);
  } else {
    n = snprintf(data, size, "%.*s", (int)stem, path);
    if (n >= 0 && (size_t)n < size) n = snprintf(header, size, "%s", path);
  }
  return n >= 0 && (size_t)n < size ? 0 : -1;
}

int envi_write_staged(const char *hdr_path, const mnf_image *img, int interleave, int byte_order,
                      const envi_meta *meta, staged_files *s, char *err, size_t err_size)
{
  char header_path[4096], data_path[4096];
  if (envi_output_paths(hdr_path, header_path, data_path, sizeof header_path))
    return fail(err, err_size, "%s: path too long", hdr_path);
  if (interleave < ENVI_BSQ || interleave > ENVI_BIP || (byte_order != 0 && byte_order != 1) ||
      envi_type_size(img->data_type) == 0)
    return fail(err, err_size, "%s: cannot write: bad interleave, byte order or data type", header_path);

  FILE *df = staged_open(s, data_path);
  if (!df) return fail(err, err_size, "%s: cannot write: %s", data_path, strerror(errno));
  int rc = write_data(df, img, interleave, byte_order);
  if (staged_close(df) != 0 || rc)
    return fail(err, err_size, "%s: write failed (disk full?); nothing written", data_path);
  FILE *hf = staged_open(s, header_path);
  if (!hf) return fail(err, err_size, "%s: cannot write: %s", header_path, strerror(errno));
  rc = write_header(hf, img, interleave, byte_order, meta);
  if (staged_close(hf) != 0 || rc) return fail(err, err_size, "%s: write failed; nothing written", header_path);
  return 0;
}

int envi_write(const char *hdr_path, const mnf_image *img, int interleave, int byte_order,
               const envi_meta *meta, char *err, size_t err_size)
{
  staged_files s;
  staged_init(&s);
  if (envi_write_staged(hdr_path, img, interleave, byte_order, meta, &s, err, err_size)) {
    staged_abort(&s);
    return -1;
  }
  return staged_commit(&s, err, err_size);
}

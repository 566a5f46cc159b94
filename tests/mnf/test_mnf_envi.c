/* ENVI reading and writing: round trips in every interleave, type and byte
 * order; every kind of bad input gives a one-line error naming the file. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "envi.h"
#include "synth.h"
#include "testing.h"

static char dir[256];

static void path_in_dir(char *out, size_t size, const char *name)
{
  snprintf(out, size, "%s/%s", dir, name);
}

static void write_text(const char *name, const char *text)
{
  char path[512];
  path_in_dir(path, sizeof path, name);
  FILE *f = fopen(path, "wb");
  fputs(text, f);
  fclose(f);
}

static void write_bytes(const char *name, size_t n)
{
  char path[512];
  path_in_dir(path, sizeof path, name);
  FILE *f = fopen(path, "wb");
  for (size_t i = 0; i < n; i++) fputc((int)(i * 7 & 0xFF), f);
  fclose(f);
}

static int same_pixels(const mnf_image *a, const mnf_image *b)
{
  return a->samples == b->samples && a->lines == b->lines && a->bands == b->bands &&
         a->data_type == b->data_type && memcmp(a->data, b->data, mnf_image_bytes(a)) == 0;
}

static void test_round_trips(void)
{
  static const int types[] = {ENVI_U8, ENVI_I16, ENVI_U16, ENVI_I32, ENVI_F32};
  for (int t = 0; t < 5; t++) {
    synth_params p;
    synth_defaults(&p, 7, 5, 4, types[t], 42 + t);
    mnf_image src;
    CHECK(synth_generate(&p, &src, NULL) == 0);
    for (int il = ENVI_BSQ; il <= ENVI_BIP; il++)
      for (int order = 0; order <= 1; order++) {
        char path[512], err[512], name[64];
        snprintf(name, sizeof name, "rt_%s_%s_%d.hdr", envi_type_name(types[t]), envi_interleave_name(il), order);
        path_in_dir(path, sizeof path, name);
        CHECK(envi_write(path, &src, il, order, NULL, err, sizeof err) == 0);
        envi_header h;
        CHECK(envi_read_header(path, &h, err, sizeof err) == 0);
        CHECK(h.interleave == il && h.byte_order == order && h.data_type == types[t]);
        envi_header_free(&h);
        mnf_image back;
        int rc = envi_read(path, &back, NULL, NULL, NULL, err, sizeof err);
        CHECK(rc == 0);
        if (rc == 0) {
          if (!same_pixels(&src, &back)) test_fail(__FILE__, __LINE__, "round trip %s differs", name);
          else test_passed++;
          mnf_image_free(&back);
        }
      }
    mnf_image_free(&src);
  }
}

/* A BIL big-endian int16 file written by hand, with a header offset and a
 * multi-line braced field, read back value by value. */
static void test_hand_written_file(void)
{
  write_text("hand.hdr", "ENVI\ndescription = {two\n lines}\nsamples = 3\nlines = 2\nbands = 2\n"
                         "header offset = 5\ndata type = 2\ninterleave = BIL\nbyte order = 1\n"
                         "wavelength = {400.0,\n 410.0}\n");
  char path[512], err[512];
  path_in_dir(path, sizeof path, "hand");
  FILE *f = fopen(path, "wb");
  fputs("JUNK!", f);
  /* line 0: band 0 samples, band 1 samples; line 1 likewise. Value = 100*band + 10*line + sample. */
  for (int y = 0; y < 2; y++)
    for (int b = 0; b < 2; b++)
      for (int x = 0; x < 3; x++) {
        int v = 100 * b + 10 * y + x - 50; /* some negative */
        fputc((v >> 8) & 0xFF, f);
        fputc(v & 0xFF, f);
      }
  fclose(f);
  path_in_dir(path, sizeof path, "hand.hdr");
  mnf_image img;
  CHECK(envi_read(path, &img, NULL, NULL, NULL, err, sizeof err) == 0);
  if (!img.data) return;
  int ok = 1;
  for (int b = 0; b < 2; b++)
    for (int y = 0; y < 2; y++)
      for (int x = 0; x < 3; x++)
        ok &= mnf_image_value(&img, ((size_t)b * 2 + y) * 3 + x) == 100 * b + 10 * y + x - 50;
  CHECK(ok);
  mnf_image_free(&img);
}

/* Reads name and expects failure with a message containing want. */
static void expect_error(const char *name, const char *want)
{
  char path[512], err[512] = "";
  path_in_dir(path, sizeof path, name);
  mnf_image img;
  int rc = envi_read(path, &img, NULL, NULL, NULL, err, sizeof err);
  if (rc == 0) {
    test_fail(__FILE__, __LINE__, "%s: read succeeded, expected error '%s'", name, want);
    mnf_image_free(&img);
    return;
  }
  CHECK(img.data == NULL);
  if (!strstr(err, want) || !strstr(err, dir) || strchr(err, '\n'))
    test_fail(__FILE__, __LINE__, "%s: error '%s' lacks '%s' or the file name", name, err, want);
  else
    test_passed++;
}

static void test_bad_inputs(void)
{
  expect_error("missing.hdr", "cannot open header");
  write_text("notenvi.hdr", "samples = 3\nlines = 3\nbands = 1\ndata type = 2\n");
  expect_error("notenvi.hdr", "not an ENVI header");
  write_text("garbage.hdr", "ENVI\nsamples = 3\nthis line has no equals sign\n");
  expect_error("garbage.hdr", "malformed header line");
  write_text("badcount.hdr", "ENVI\nsamples = 3x\nlines = 3\nbands = 1\ndata type = 2\n");
  expect_error("badcount.hdr", "not a count");
  write_text("nolines.hdr", "ENVI\nsamples = 3\nbands = 1\ndata type = 2\n");
  expect_error("nolines.hdr", "no 'lines'");
  write_text("unclosed.hdr", "ENVI\nsamples = 3\ndescription = {never closed\n");
  expect_error("unclosed.hdr", "unclosed");
  write_text("zerobands.hdr", "ENVI\nsamples = 3\nlines = 3\nbands = 0\ndata type = 2\n");
  expect_error("zerobands.hdr", "zero bands");
  write_text("complex.hdr", "ENVI\nsamples = 3\nlines = 3\nbands = 1\ndata type = 6\n");
  write_bytes("complex", 72);
  expect_error("complex.hdr", "unsupported data type 6");
  write_text("interleave.hdr", "ENVI\nsamples = 3\nlines = 3\nbands = 1\ndata type = 1\ninterleave = bxq\n");
  expect_error("interleave.hdr", "unsupported interleave");
  write_text("order.hdr", "ENVI\nsamples = 3\nlines = 3\nbands = 1\ndata type = 1\nbyte order = 2\n");
  expect_error("order.hdr", "byte order");
  write_text("nodata.hdr", "ENVI\nsamples = 3\nlines = 3\nbands = 1\ndata type = 2\ninterleave = bsq\nbyte order = 0\n");
  expect_error("nodata.hdr", "data file not found");
  write_text("short.hdr", "ENVI\nsamples = 4\nlines = 3\nbands = 2\ndata type = 2\ninterleave = bil\nbyte order = 1\n");
  write_bytes("short", 4 * 3 * 2 * 2 - 1);
  expect_error("short.hdr", "data file is 47 bytes");
  write_text("offset.hdr", "ENVI\nsamples = 2\nlines = 2\nbands = 1\ndata type = 1\nheader offset = 10\ninterleave = bsq\n");
  write_bytes("offset", 12);
  expect_error("offset.hdr", "says 10 + 4");
  /* uint8 needs no byte order. */
  write_text("alt.hdr", "ENVI\nsamples = 2\nlines = 2\nbands = 1\ndata type = 1\ninterleave = bsq\n");
  write_bytes("alt.img", 4); /* the .img convention is found */
  char path[512], err[512];
  mnf_image img;
  path_in_dir(path, sizeof path, "alt.hdr");
  CHECK(envi_read(path, &img, NULL, NULL, NULL, err, sizeof err) == 0);
  mnf_image_free(&img);
  /* SPy refuses a header without interleave or byte order: so do we,
   * naming the field, unless the caller states the assumption. */
  write_text("nolayout.hdr", "ENVI\nsamples = 2\nlines = 2\nbands = 2\ndata type = 2\nbyte order = 0\n");
  write_bytes("nolayout", 16);
  expect_error("nolayout.hdr", "no 'interleave'");
  write_text("noorder.hdr", "ENVI\nsamples = 2\nlines = 2\nbands = 2\ndata type = 2\ninterleave = bip\n");
  write_bytes("noorder", 16);
  expect_error("noorder.hdr", "no 'byte order'");
  envi_assume assume = {ENVI_BIP, 1};
  path_in_dir(path, sizeof path, "nolayout.hdr");
  CHECK(envi_read(path, &img, NULL, &assume, NULL, err, sizeof err) == 0);
  mnf_image_free(&img);
  path_in_dir(path, sizeof path, "noorder.hdr");
  CHECK(envi_read(path, &img, NULL, &assume, NULL, err, sizeof err) == 0);
  /* Big-endian BIP as stated: value (band 1, pixel 0) is bytes 2-3 = 0x0e15. */
  CHECK(img.data && mnf_image_value(&img, 4) == (double)(14 * 256 + 21));
  mnf_image_free(&img);
}

/* map info, wavelengths, units, band names: read, kept, written back. */
static void test_kept_fields(void)
{
  write_text("geo.hdr", "ENVI\ndescription = {a scene}\nsamples = 2\nlines = 2\nbands = 2\ndata type = 1\n"
                        "interleave = bsq\nmap info = {UTM, 1, 1, 5e5, 4e6, 20, 20, 11, North, WGS-84}\n"
                        "wavelength units = Nanometers\nwavelength = {450.5,\n 550.25}\nband names = {blue, green}\n"
                        "sensor type = Unknown\n");
  write_bytes("geo", 8);
  char path[512], out[512], err[512];
  path_in_dir(path, sizeof path, "geo.hdr");
  path_in_dir(out, sizeof out, "geo_copy.hdr");
  mnf_image img;
  envi_meta meta;
  CHECK(envi_read(path, &img, NULL, NULL, &meta, err, sizeof err) == 0);
  if (!img.data) return;
  CHECK(meta.value[ENVI_META_MAP_INFO] && !strcmp(meta.value[ENVI_META_MAP_INFO], "{UTM, 1, 1, 5e5, 4e6, 20, 20, 11, North, WGS-84}"));
  CHECK(meta.value[ENVI_META_WAVELENGTH] && strstr(meta.value[ENVI_META_WAVELENGTH], "550.25"));
  CHECK(meta.value[ENVI_META_WAVELENGTH_UNITS] && !strcmp(meta.value[ENVI_META_WAVELENGTH_UNITS], "Nanometers"));
  CHECK(envi_write(out, &img, ENVI_BIL, 1, &meta, err, sizeof err) == 0);
  envi_header h;
  CHECK(envi_read_header(out, &h, err, sizeof err) == 0);
  for (int k = 0; k < ENVI_META_COUNT; k++)
    CHECK((h.meta.value[k] == NULL) == (meta.value[k] == NULL) &&
          (!meta.value[k] || !strcmp(h.meta.value[k], meta.value[k])));
  envi_header_free(&h);
  envi_meta_free(&meta);
  mnf_image_free(&img);
}

static int count_files_with(const char *part)
{
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strstr(e->d_name, part)) n++;
  closedir(d);
  return n;
}

static void test_unwritable_output(void)
{
  synth_params p;
  synth_defaults(&p, 4, 4, 2, ENVI_F32, 3);
  mnf_image img;
  CHECK(synth_generate(&p, &img, NULL) == 0);
  char path[1100], err[512] = "";
  path_in_dir(path, sizeof path, "no/such/folder/out.hdr");
  CHECK(envi_write(path, &img, ENVI_BSQ, 0, NULL, err, sizeof err) != 0);
  CHECK(strstr(err, "no/such/folder/out") != NULL);
  /* A read-only folder: nothing, not even a temp file, may remain. */
  char ro[512];
  path_in_dir(ro, sizeof ro, "readonly");
  mkdir(ro, 0555);
  snprintf(path, sizeof path, "%s/out.hdr", ro);
  if (access(ro, W_OK) == 0) {
    printf("note: running as a user who can write a 0555 folder; skipping that case\n");
  } else {
    CHECK(envi_write(path, &img, ENVI_BSQ, 0, NULL, err, sizeof err) != 0);
    CHECK(strstr(err, "readonly/out") != NULL);
  }
  /* The header's folder exists but the header name is a folder: the data
   * file is written first, then the header rename fails; neither may stay. */
  char clash[512];
  path_in_dir(clash, sizeof clash, "clash.hdr");
  mkdir(clash, 0755);
  CHECK(envi_write(clash, &img, ENVI_BSQ, 0, NULL, err, sizeof err) != 0);
  CHECK(count_files_with(".tmp.") == 0);
  char data[512];
  path_in_dir(data, sizeof data, "clash");
  CHECK(access(data, F_OK) != 0);
  mnf_image_free(&img);
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/test_mnf_envi.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  test_round_trips();
  test_hand_written_file();
  test_bad_inputs();
  test_kept_fields();
  test_unwritable_output();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "chmod -R u+w %s && rm -rf %s", dir, dir);
  if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
  return test_summary();
}

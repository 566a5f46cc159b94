/* mnf-read-compare: the time to read ENVI images by the native reader and
 * through GDAL (median of 5 reads each, after one warm-up read that fills
 * the page cache), to decide whether the native reader is worth keeping.
 *   mnf-read-compare IMAGE.hdr...
 * Both readers produce the same BSQ pixels; that is checked too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_io.h"
#include "mnf_internal.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_read_ms(const char *path, int gdal, mnf_image *keep)
{
  image_io_options o = {NULL, {-1, -1}, gdal};
  double t[6];
  char err[1024];
  for (int i = 0; i < 6; i++) {
    mnf_image img;
    image_meta meta;
    double t0 = mnf_now_ms();
    if (image_io_read(path, &img, &meta, &o, err, sizeof err)) {
      fprintf(stderr, "mnf-read-compare: %s\n", err);
      exit(1);
    }
    t[i] = mnf_now_ms() - t0;
    image_meta_free(&meta);
    if (i == 5 && keep) *keep = img;
    else mnf_image_free(&img);
  }
  qsort(t + 1, 5, sizeof *t, cmp_double);
  return t[3];
}

int main(int argc, char **argv)
{
#define SYNOPSIS "usage: mnf-read-compare IMAGE.hdr..."   /* alone on a mistake: one line */
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    puts(SYNOPSIS "\n  times reading each image by the native ENVI reader and through GDAL");
    return 0;
  }
  if (argc < 2) {
    fputs(SYNOPSIS "\n", stderr);
    return 2;
  }
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '-') {
      fprintf(stderr, "mnf-read-compare: unknown option '%s'; " SYNOPSIS "\n", argv[i]);
      return 2;
    }
  if (!image_io_has_gdal()) {
    fprintf(stderr, "mnf-read-compare: this build has no GDAL\n");
    return 1;
  }
  printf("| image | MB | native ms | GDAL ms | GDAL / native | same pixels |\n|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; i++) {
    mnf_image a, b;
    double native = median_read_ms(argv[i], 0, &a), gdal = median_read_ms(argv[i], 1, &b);
    int same = a.data_type == b.data_type && !memcmp(a.data, b.data, mnf_image_bytes(&a));
    printf("| %s | %.0f | %.1f | %.1f | %.2f | %s |\n", argv[i], mnf_image_bytes(&a) / 1e6, native, gdal, gdal / native,
           same ? "yes" : "NO");
    mnf_image_free(&a);
    mnf_image_free(&b);
  }
  return 0;
}

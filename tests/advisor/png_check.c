/* Is a screenshot blank? Reads a PNG (libpng) and counts the pixels that
 * differ from its most common colour (the background) and the distinct
 * colours. A page that rendered text and drawings has many of both; a
 * blank or one-colour page has none.
 * usage: png_check FILE.png
 * exit: 0 not blank, 1 blank, 2 not a readable PNG. */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static const char usage[] = "usage: png_check FILE.png\n"
                            "exit: 0 not blank, 1 blank, 2 not a readable PNG\n";

int main(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(usage, stdout);
    return 0;
  }
  if (argc != 2) {
    fputs(usage, stderr);
    return 2;
  }
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, argv[1])) {
    fprintf(stderr, "png_check: %s: %s\n", argv[1], image.message);
    return 2;
  }
  image.format = PNG_FORMAT_RGBA;
  size_t pixels = (size_t)image.width * image.height;
  uint32_t *rgba = malloc(pixels * sizeof *rgba);
  if (!rgba || !png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
    fprintf(stderr, "png_check: %s: %s\n", argv[1], rgba ? image.message : "out of memory");
    free(rgba);
    return 2;
  }
  /* Sorted, equal colours are runs: the longest run is the background. */
  qsort(rgba, pixels, sizeof *rgba, by_value);
  size_t colours = 0, background = 0;
  for (size_t i = 0, run; i < pixels; i += run) {
    for (run = 1; i + run < pixels && rgba[i + run] == rgba[i]; run++) {}
    colours++;
    if (run > background) background = run;
  }
  double other = pixels ? 100.0 * (double)(pixels - background) / (double)pixels : 0;
  printf("%s: %u x %u, %zu %s, %.2f%% of the pixels differ from the background\n", argv[1], image.width,
         image.height, colours, colours == 1 ? "colour" : "colours", other);
  free(rgba);
  /* Text alone anti-aliases into dozens of colours; 1% of the pixels is
   * a few lines of it on a large window. */
  return colours >= 8 && other >= 1.0 ? 0 : 1;
}

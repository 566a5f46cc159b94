/* Reading and writing images by file name: ENVI through the native reader
 * and writer (envi.c), every other format GDAL reads (NetCDF4, HDF5,
 * GeoTIFF, ...) through GDAL when the build has it (MNF_WITH_GDAL), and
 * GeoTIFF or ENVI written through GDAL with the input's georeferencing. */
#ifndef MNF_IMAGE_IO_H
#define MNF_IMAGE_IO_H

#include "envi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct image_io_options {
  const envi_allocator *alloc; /* where the pixels go (NULL: malloc) */
  envi_assume assume;          /* native ENVI: what a header lacks (-1: nothing) */
  int use_gdal;                /* read and write ENVI through GDAL too */
} image_io_options;

/* Kept header fields and the georeferencing: an affine geotransform (GDAL's
 * six numbers) and a WKT coordinate system, when the input had them and
 * GDAL could read them. */
typedef struct image_meta {
  envi_meta envi;
  int has_geotransform;
  double geotransform[6];
  char *wkt;
} image_meta;

void image_meta_free(image_meta *m);
/* 1 when this build reads and writes through GDAL. */
int image_io_has_gdal(void);
/* The two files of a native ENVI input (header, data) or output; -1 when
 * path goes through GDAL (then it is the one file). */
int image_io_input_files(const char *path, const image_io_options *o, char *header, char *data, size_t size);
int image_io_output_files(const char *path, const image_io_options *o, char *header, char *data, size_t size);
/* 0, or -1 with a one-line error naming the file. */
int image_io_read(const char *path, mnf_image *img, image_meta *meta, const image_io_options *o, char *err,
                  size_t err_size);
/* Stages the float32 image img as path: native ENVI for .hdr (unless
 * use_gdal or the input's georeferencing came from GDAL alone), GeoTIFF
 * for .tif/.tiff and ENVI for .hdr through GDAL, keeping meta's
 * georeferencing and band names. */
int image_io_write_staged(const char *path, const mnf_image *img, const image_meta *meta, const image_io_options *o,
                          staged_files *s, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif

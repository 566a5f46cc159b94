/* ENVI images: the header (.hdr, "key = value" text) plus raw data, the way
 * AVIRIS and most hyperspectral data are distributed. In memory an image is
 * always band-sequential (BSQ: band, line, sample) in the host's byte order
 * and in its stored data type, so kernels can read the integers directly. */
#ifndef MNF_ENVI_H
#define MNF_ENVI_H

#include <stddef.h>

#include "staged.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ENVI "data type" codes this tool reads and writes. */
enum envi_type {
  ENVI_U8 = 1,
  ENVI_I16 = 2,
  ENVI_I32 = 3,
  ENVI_F32 = 4,
  ENVI_U16 = 12
};

enum envi_interleave { ENVI_BSQ, ENVI_BIL, ENVI_BIP };

/* Header fields the tool does not interpret but carries over to what it
 * writes, verbatim (braces included where the value had them). */
enum envi_meta_key {
  ENVI_META_DESCRIPTION,
  ENVI_META_MAP_INFO,
  ENVI_META_COORDINATE_SYSTEM,
  ENVI_META_PROJECTION_INFO,
  ENVI_META_WAVELENGTH,
  ENVI_META_WAVELENGTH_UNITS,
  ENVI_META_FWHM,
  ENVI_META_BAND_NAMES,
  ENVI_META_DATA_GAIN,
  ENVI_META_DATA_OFFSET,
  ENVI_META_COUNT
};

typedef struct envi_meta {
  char *value[ENVI_META_COUNT]; /* NULL where the header had none */
} envi_meta;

/* The header key of a kept field ("map info", ...). */
const char *envi_meta_key_name(int key);
/* Replaces one value (copied; NULL removes it). 0, or -1 out of memory. */
int envi_meta_set(envi_meta *m, int key, const char *value);
void envi_meta_free(envi_meta *m);

typedef struct envi_header {
  int samples, lines, bands;
  int data_type;
  int interleave;       /* -1 when the header has no 'interleave' */
  int byte_order;       /* 0 little endian, 1 big endian (ENVI's convention); -1 when absent */
  long header_offset;   /* bytes to skip at the start of the data file */
  envi_meta meta;
} envi_header;

/* What a reader may assume for fields a header lacks: -1 assumes nothing
 * (a missing field is then an error naming it). */
typedef struct envi_assume {
  int interleave;
  int byte_order;
} envi_assume;

/* Where an image's pixels live. alloc/release let the GPU paths read straight
 * into pinned host memory; NULL means malloc/free. */
typedef struct envi_allocator {
  void *(*alloc)(size_t bytes);
  void (*release)(void *p);
} envi_allocator;

typedef struct mnf_image {
  int samples, lines, bands;
  int data_type;
  void *data;                 /* bands x lines x samples, host byte order */
  void (*release)(void *p);   /* frees data */
} mnf_image;

/* Bytes per value of an ENVI type, 0 when the type is not supported. */
size_t envi_type_size(int data_type);
const char *envi_type_name(int data_type);
const char *envi_interleave_name(int interleave);
/* 1 on a big-endian host, 0 otherwise, in ENVI's byte-order convention. */
int envi_host_byte_order(void);

size_t mnf_image_pixels(const mnf_image *img);   /* samples x lines */
size_t mnf_image_bytes(const mnf_image *img);
/* Allocates data for the given shape (zeroed); 0 on success. */
int mnf_image_alloc(mnf_image *img, int samples, int lines, int bands, int data_type,
                    const envi_allocator *a);
void mnf_image_free(mnf_image *img);
/* Value i of the BSQ array as a double, whatever the type. */
double mnf_image_value(const mnf_image *img, size_t i);

/* Every function below returns 0 on success, or -1 with a one-line message
 * naming the file and the problem in err. */
/* Parses header text (len bytes, need not end in a NUL); name is used in
 * messages. Fields are checked for form, not for presence of interleave
 * and byte order (envi_header_complete does that). Free h with
 * envi_header_free, also after a failure. */
int envi_parse_header(const char *text, size_t len, const char *name, envi_header *h, char *err, size_t err_size);
int envi_read_header(const char *hdr_path, envi_header *h, char *err, size_t err_size);
/* Fills a missing interleave or byte order from assume (NULL: none);
 * fails naming the field when it is missing and not assumed. A byte order
 * is needed only for types wider than a byte. */
int envi_header_complete(envi_header *h, const char *name, const envi_assume *assume, char *err, size_t err_size);
void envi_header_free(envi_header *h);
/* Finds the data file belonging to a header: the header's name without
 * ".hdr", or with .img, .dat, .raw, .bsq, .bil or .bip in its place. */
int envi_find_data_file(const char *hdr_path, char *out, size_t out_size,
                        char *err, size_t err_size);
/* Reads an image. assume: see envi_header_complete (NULL: nothing
 * assumed). meta (NULL: not wanted) receives the kept header fields; free
 * them with envi_meta_free. */
int envi_read(const char *hdr_path, mnf_image *img, const envi_allocator *a, const envi_assume *assume,
              envi_meta *meta, char *err, size_t err_size);
/* The header and data file names of an output named path: path without
 * ".hdr" is the data file; a path not ending in ".hdr" names the data file
 * and the header gets ".hdr" appended. */
int envi_output_paths(const char *path, char *header, char *data, size_t size);
/* Stages hdr_path and its data file (envi_output_paths) in s: nothing is
 * in place until staged_commit. meta (NULL: none) adds kept fields. */
int envi_write_staged(const char *hdr_path, const mnf_image *img, int interleave, int byte_order,
                      const envi_meta *meta, staged_files *s, char *err, size_t err_size);
/* envi_write_staged and the commit: both files, or neither. */
int envi_write(const char *hdr_path, const mnf_image *img, int interleave, int byte_order,
               const envi_meta *meta, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif

/* ENVI images: the header (.hdr, "key = value" text) plus raw data, the way
 * AVIRIS and most hyperspectral data are distributed. In memory an image is
 * always band-sequential (BSQ: band, line, sample) in the host's byte order
 * and in its stored data type, so kernels can read the integers directly. */
#ifndef MNF_ENVI_H
#define MNF_ENVI_H

#include <stddef.h>

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

typedef struct envi_header {
  int samples, lines, bands;
  int data_type;
  int interleave;
  int byte_order;       /* 0 little endian, 1 big endian (ENVI's convention) */
  long header_offset;   /* bytes to skip at the start of the data file */
} envi_header;

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
int envi_read_header(const char *hdr_path, envi_header *h, char *err, size_t err_size);
/* Finds the data file belonging to a header: the header's name without
 * ".hdr", or with .img, .dat, .raw, .bsq, .bil or .bip in its place. */
int envi_find_data_file(const char *hdr_path, char *out, size_t out_size,
                        char *err, size_t err_size);
int envi_read(const char *hdr_path, mnf_image *img, const envi_allocator *a,
              char *err, size_t err_size);
/* Writes hdr_path and its data file (hdr_path without ".hdr"; if hdr_path
 * does not end in ".hdr" it names the data file and the header gets ".hdr"
 * appended). Both go through temporary files renamed into place, so a
 * failure leaves neither file half-written. */
int envi_write(const char *hdr_path, const mnf_image *img, int interleave, int byte_order,
               const char *description, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif

/* Images by file name: native ENVI, or GDAL (see image_io.h). */
#define _POSIX_C_SOURCE 200809L

#include "image_io.h"
#include "mnf_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifdef MNF_WITH_GDAL
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#endif

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcasecmp(s + n - m, suffix);
}

static int is_tiff(const char *path) { return ends_with(path, ".tif") || ends_with(path, ".tiff"); }

void image_meta_free(image_meta *m)
{
  envi_meta_free(&m->envi);
  free(m->wkt);
  memset(m, 0, sizeof *m);
}

int image_io_input_files(const char *path, const image_io_options *o, char *header, char *data, size_t size)
{
  if (o->use_gdal || !ends_with(path, ".hdr")) return -1;
  snprintf(header, size, "%s", path);
  char err[16];
  if (envi_find_data_file(path, data, size, err, sizeof err)) data[0] = '\0';
  return 0;
}

int image_io_output_files(const char *path, const image_io_options *o, char *header, char *data, size_t size)
{
  (void)o;
  if (is_tiff(path)) return -1;
  /* ENVI, native or through GDAL: the same two names. */
  return envi_output_paths(path, header, data, size);
}

#ifdef MNF_WITH_GDAL

int image_io_has_gdal(void) { return 1; }

static void gdal_start(void)
{
  static int started;
  if (started) return;
  started = 1;
  GDALAllRegister();
  /* No .aux.xml sidecars beside the outputs, no messages on stderr: errors
   * are read back and reported on one line. */
  CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");
  CPLPushErrorHandler(CPLQuietErrorHandler);
}

static int type_from_gdal(GDALDataType t)
{
  switch (t) {
  case GDT_Byte: return ENVI_U8;
  case GDT_Int16: return ENVI_I16;
  case GDT_UInt16: return ENVI_U16;
  case GDT_Int32: return ENVI_I32;
  default: return ENVI_F32; /* float64, uint32, ...: read as float32 */
  }
}

static GDALDataType gdal_from_type(int type)
{
  switch (type) {
  case ENVI_U8: return GDT_Byte;
  case ENVI_I16: return GDT_Int16;
  case ENVI_U16: return GDT_UInt16;
  case ENVI_I32: return GDT_Int32;
  default: return GDT_Float32;
  }
}

static void read_georef(GDALDatasetH ds, image_meta *meta)
{
  double gt[6];
  if (GDALGetGeoTransform(ds, gt) == CE_None) {
    memcpy(meta->geotransform, gt, sizeof gt);
    meta->has_geotransform = 1;
  }
  const char *wkt = GDALGetProjectionRef(ds);
  if (wkt && *wkt) meta->wkt = strdup(wkt);
}

static int gdal_read(const char *path, mnf_image *img, image_meta *meta, const image_io_options *o, char *err,
                     size_t err_size)
{
  gdal_start();
  CPLErrorReset();
  GDALDatasetH ds = GDALOpen(path, GA_ReadOnly);
  if (!ds) return mnf_fail(err, err_size, "%s: GDAL cannot open it: %s", path, CPLGetLastErrorMsg());
  int W = GDALGetRasterXSize(ds), H = GDALGetRasterYSize(ds), B = GDALGetRasterCount(ds), rc = 0;
  if (B == 0) {
    char **sub = GDALGetMetadata(ds, "SUBDATASETS");
    const char *first = sub ? CSLFetchNameValue(sub, "SUBDATASET_1_NAME") : NULL;
    rc = first ? mnf_fail(err, err_size, "%s: has no bands itself; name one of its arrays, e.g. %s", path, first)
               : mnf_fail(err, err_size, "%s: has no raster bands", path);
  }
  int type = B ? type_from_gdal(GDALGetRasterDataType(GDALGetRasterBand(ds, 1))) : ENVI_F32;
  for (int b = 2; rc == 0 && b <= B; b++)
    if (type_from_gdal(GDALGetRasterDataType(GDALGetRasterBand(ds, b))) != type) type = ENVI_F32;
  if (rc == 0 && mnf_image_alloc(img, W, H, B, type, o->alloc)) rc = mnf_fail(err, err_size, "%s: out of memory", path);
  size_t band_bytes = (size_t)W * H * envi_type_size(type);
  for (int b = 0; rc == 0 && b < B; b++) {
    GDALRasterBandH band = GDALGetRasterBand(ds, b + 1);
    if (GDALRasterIO(band, GF_Read, 0, 0, W, H, (char *)img->data + b * band_bytes, W, H, gdal_from_type(type), 0, 0) !=
        CE_None)
      rc = mnf_fail(err, err_size, "%s: GDAL read error in band %d: %s", path, b + 1, CPLGetLastErrorMsg());
  }
  if (rc == 0) read_georef(ds, meta);
  if (rc) mnf_image_free(img);
  GDALClose(ds);
  return rc;
}

/* The georeferencing of a native ENVI input, as GDAL reads its map info. */
static void envi_georef(const char *hdr_path, image_meta *meta)
{
  char data[4096], err[16];
  if (envi_find_data_file(hdr_path, data, sizeof data, err, sizeof err)) return;
  gdal_start();
  GDALDatasetH ds = GDALOpen(data, GA_ReadOnly);
  if (!ds) return;
  read_georef(ds, meta);
  GDALClose(ds);
}

/* Name number index of an ENVI list "{a, b, c}"; 0 if there is none. */
static int band_name(const char *list, int index, char *out, size_t size)
{
  if (!list || *list != '{') return 0;
  const char *p = list + 1;
  for (int i = 0; i < index; i++) {
    p = strchr(p, ',');
    if (!p) return 0;
    p++;
  }
  while (*p == ' ') p++;
  size_t n = strcspn(p, ",}");
  while (n > 0 && p[n - 1] == ' ') n--;
  if (n == 0 || n >= size) return 0;
  memcpy(out, p, n);
  out[n] = '\0';
  return 1;
}

static int gdal_write_staged(const char *path, const mnf_image *img, const image_meta *meta, staged_files *s,
                             char *err, size_t err_size)
{
  gdal_start();
  int tiff = is_tiff(path);
  char header[4096], data[4096], temp[4200], temp_header[4300];
  if (tiff) snprintf(data, sizeof data, "%s", path);
  else if (envi_output_paths(path, header, data, sizeof data)) return mnf_fail(err, err_size, "%s: path too long", path);
  GDALDriverH driver = GDALGetDriverByName(tiff ? "GTiff" : "ENVI");
  if (!driver) return mnf_fail(err, err_size, "%s: this GDAL has no %s driver", path, tiff ? "GTiff" : "ENVI");
  if (staged_name(s, data, temp, sizeof temp)) return mnf_fail(err, err_size, "%s: cannot write here", data);
  snprintf(temp_header, sizeof temp_header, "%s.hdr", temp);
  CPLErrorReset();
  /* GDAL's ENVI driver would otherwise put the header at the temporary
   * name with its last extension replaced. */
  char *envi_options[] = {(char *)"SUFFIX=ADD", NULL};
  GDALDatasetH ds = GDALCreate(driver, temp, img->samples, img->lines, img->bands, GDT_Float32, tiff ? NULL : envi_options);
  if (!ds) return mnf_fail(err, err_size, "%s: cannot write: %s", data, CPLGetLastErrorMsg());
  int rc = 0;
  if (meta->has_geotransform) rc |= GDALSetGeoTransform(ds, (double *)meta->geotransform) != CE_None;
  if (meta->wkt) rc |= GDALSetProjection(ds, meta->wkt) != CE_None;
  size_t S = mnf_image_pixels(img);
  const char *names = meta->envi.value[ENVI_META_BAND_NAMES];
  for (int b = 0; b < img->bands; b++) {
    GDALRasterBandH band = GDALGetRasterBand(ds, b + 1);
    char name[256];
    if (band_name(names, b, name, sizeof name)) GDALSetDescription(band, name);
    rc |= GDALRasterIO(band, GF_Write, 0, 0, img->samples, img->lines, (float *)img->data + b * S, img->samples,
                       img->lines, GDT_Float32, 0, 0) != CE_None;
  }
  GDALFlushCache(ds);
  rc |= CPLGetLastErrorType() >= CE_Failure;
  GDALClose(ds);
  if (!tiff && rc == 0 && (access(temp_header, F_OK) != 0 || staged_adopt(s, temp_header, header))) rc = 1;
  if (rc) {
    unlink(temp_header);
    return mnf_fail(err, err_size, "%s: GDAL write failed: %s", data, CPLGetLastErrorMsg());
  }
  return 0;
}

#else

int image_io_has_gdal(void) { return 0; }

#endif

int image_io_read(const char *path, mnf_image *img, image_meta *meta, const image_io_options *o, char *err,
                  size_t err_size)
{
  memset(meta, 0, sizeof *meta);
  memset(img, 0, sizeof *img);
  if (!o->use_gdal && ends_with(path, ".hdr")) {
    if (envi_read(path, img, o->alloc, &o->assume, &meta->envi, err, err_size)) return -1;
#ifdef MNF_WITH_GDAL
    envi_georef(path, meta);
#endif
    return 0;
  }
#ifdef MNF_WITH_GDAL
  /* GDAL opens an ENVI image by its data file. */
  char data[4096];
  if (ends_with(path, ".hdr") && envi_find_data_file(path, data, sizeof data, err, err_size)) return -1;
  return gdal_read(ends_with(path, ".hdr") ? data : path, img, meta, o, err, err_size);
#else
  return mnf_fail(err, err_size, "%s: not an ENVI header (.hdr), and this build has no GDAL for other formats", path);
#endif
}

int image_io_write_staged(const char *path, const mnf_image *img, const image_meta *meta, const image_io_options *o,
                          staged_files *s, char *err, size_t err_size)
{
  /* Native ENVI keeps the input's map info verbatim; an input whose
   * georeferencing GDAL alone read goes out through GDAL to keep it. */
  int georef_from_gdal_only = meta->has_geotransform && !meta->envi.value[ENVI_META_MAP_INFO];
  if (!is_tiff(path) && !o->use_gdal && !georef_from_gdal_only)
    return envi_write_staged(path, img, ENVI_BSQ, envi_host_byte_order(), &meta->envi, s, err, err_size);
#ifdef MNF_WITH_GDAL
  return gdal_write_staged(path, img, meta, s, err, err_size);
#else
  return mnf_fail(err, err_size, "%s: writing GeoTIFF needs GDAL, which this build lacks", path);
#endif
}

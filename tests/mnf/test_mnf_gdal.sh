#!/bin/sh
# mnf through GDAL (issue 11): the formats users get their data in, made
# here by the test from one synthetic ENVI scene: GeoTIFF (gdal_translate),
# a NetCDF4 cube (ncgen, as EMIT ships: one 3-D variable), and the same
# file read as HDF5 (a NetCDF4 file is HDF5; GDAL's HDF5 driver, as for
# PRISMA and DESIS). Every reading must give the same eigenvalues; GeoTIFF
# and ENVI written through GDAL keep the georeferencing. Exits 77 (skipped)
# when this build has no GDAL or the tools are missing.
#   test_mnf_gdal.sh BIN_DIR
set -u
bin=$1
for tool in gdal_translate gdalinfo ncgen od; do
  command -v $tool > /dev/null || { echo "SKIP: no $tool (gdal-bin, netcdf-bin)"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {
  what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $what"; fi
}
cd "$work" || exit 1
"$bin/mnf-synth" scene.hdr --size 40x30x6 --type int16 --map-info --seed 2 > /dev/null
gdal_translate -q -of GTiff scene scene.tif
if "$bin/mnf" scene.tif -o probe.hdr 2>&1 | grep -q "no GDAL"; then echo "SKIP: mnf built without GDAL"; exit 77; fi
{ echo "netcdf cube { dimensions: band = 6 ; y = 30 ; x = 40 ; variables: short radiance(band, y, x) ; data: radiance = "
  od -An -v -t d2 -w2 scene | tr -d ' ' | paste -sd, -
  echo "; }"; } > cube.cdl
ncgen -k nc4 -o cube.nc cube.cdl
gdal_translate -q -of netCDF -co FORMAT=NC4 scene perband.nc

eigen() { "$bin/mnf" "$@" --impl serial 2> err.txt | grep eigenvalues; }
want=$(eigen scene.hdr -o native.hdr)
check "native ENVI runs" test -n "$want"
check "ENVI through GDAL reads the same" test "$(eigen scene.hdr -o viagdal.hdr --gdal)" = "$want"
check "GeoTIFF reads the same" test "$(eigen scene.tif -o fromtif.tif)" = "$want"
check "NetCDF4 reads the same" test "$(eigen cube.nc -o fromnc.hdr)" = "$want"
check "HDF5 reads the same" test "$(eigen 'HDF5:"cube.nc"://radiance' -o fromh5.hdr)" = "$want"

# Georeferencing kept: 20 m pixels from (500000, 4000000), UTM zone 11.
gdalinfo fromtif.tif > info.txt
check "GeoTIFF out keeps the origin" grep -q 'Origin = (500000.0*,4000000.0*)' info.txt
check "GeoTIFF out keeps the pixel size" grep -q 'Pixel Size = (20.0*,-20.0*)' info.txt
check "GeoTIFF out keeps the projection" grep -q 'UTM zone 11N' info.txt
check "GeoTIFF out names the bands" grep -q 'Description = MNF band 1' info.txt
"$bin/mnf" scene.hdr -o fromenvi.tif --impl serial > /dev/null
check "GeoTIFF from native ENVI keeps the origin" sh -c "gdalinfo fromenvi.tif | grep -q 'Origin = (500000.0*,4000000.0*)'"
"$bin/mnf" scene.tif -o tif2envi.hdr --impl serial > /dev/null
check "ENVI written through GDAL has the map info" grep -q "^map info = {UTM, 1, 1, 500000, 4000000, 20, 20, 11, North" tif2envi.hdr
check "ENVI written through GDAL: no header left at a temporary name" test -z "$(ls | grep '\.tmp')"
# The pixels written through GDAL are the native writer's, bit for bit.
gdal_translate -q -of ENVI -co INTERLEAVE=BSQ fromenvi.tif back
check "GeoTIFF pixels equal the native ENVI output" cmp -s back native
check "ENVI through GDAL equals native ENVI" cmp -s viagdal native

# A NetCDF of one variable per band has no cube: the error names an array.
"$bin/mnf" perband.nc -o x.hdr > /dev/null 2> err.txt
check "a file of many arrays: an error naming one" grep -q 'has no bands itself; name one of its arrays, e.g. NETCDF:"perband.nc":Band1' err.txt
check "a file GDAL cannot open: one line" sh -c "'$bin/mnf' nothing.tif -o x.hdr 2>&1 >/dev/null | grep -c . | grep -qx 1"
echo "$passed passed, $failed failed"
test "$failed" -eq 0

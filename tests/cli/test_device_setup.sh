#!/usr/bin/env bash
# Every script that configures the project on a lent GPU machine sets up
# the same way (scripts/device-prefix.sh): on a machine without LAPACKE and
# json-c it unpacks .devdeps into a private prefix and gives CMake both. Here
# the machine is made bare by pointing the header check at an empty folder,
# and .devdeps is a set of .deb files packed from this machine's own
# packages (the lent machine gets the same packages from
# scripts/fetch-device-deps.sh). Each script runs up to its configure step
# (DEVICE_SETUP_ONLY: the cmake command line is written, nothing built);
# then one configure with those flags must find LAPACKE and json-c in the
# prefix, not in /usr. Skipped (77) where a package to pack is missing, or
# without nvcc (every device script configures the CUDA parts).
#   test_device_setup.sh SOURCE_DIR SCRATCH_DIR
set -uo pipefail
source_dir=${1:?usage: test_device_setup.sh SOURCE_DIR SCRATCH_DIR}
scratch=${2:?usage: test_device_setup.sh SOURCE_DIR SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch/empty-include" "$scratch/devdeps"
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}
skip() { echo "skipped: $*"; exit 77; }

command -v dpkg-deb >/dev/null || skip "no dpkg-deb"
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
[ -n "$nvcc" ] || skip "no nvcc: the device scripts configure the CUDA parts"

# .devdeps from the installed packages fetch-device-deps.sh names.
packages=$(sed -n '/^pkgs=(/,/)/p' "$source_dir/scripts/fetch-device-deps.sh" | tr -d '()' | sed 's/pkgs=//')
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || skip "package $p is not installed"
  stage=$scratch/stage/$p
  mkdir -p "$stage/DEBIAN"
  dpkg-query -L "$p" | while read -r f; do
    if [ -L "$f" ] || [ -f "$f" ]; then cp -P --parents "$f" "$stage"; fi
  done
  printf 'Package: %s\nVersion: 0\nArchitecture: amd64\nMaintainer: test\nDescription: %s, packed for the test\n' \
    "$p" "$p" >"$stage/DEBIAN/control"
  dpkg-deb --build -Znone "$stage" "$scratch/devdeps/${p}_0_amd64.deb" >/dev/null || skip "dpkg-deb failed on $p"
done

export DEVICE_SYSTEM_INCLUDE=$scratch/empty-include DEVICE_DEBS=$scratch/devdeps
cd "$source_dir" || exit 1
# name <tab> command line: each device script as its README or header runs it
scripts="gpu-check	scripts/gpu-check.sh $scratch/build-gpu-check
mnf	sh mnf/run_h100.sh $scratch/out-mnf
benchmarks	sh benchmarks/run_device.sh test-setup
matmul	sh casestudies/matmul/run_device.sh
lab	sh casestudies/lab/run_device.sh"
while IFS=$'\t' read -r name command; do
  prefix=$scratch/prefix-$name
  # shellcheck disable=SC2086  # the command line is words
  DEVICE_PREFIX=$prefix DEVICE_SETUP_ONLY=$scratch/$name.cmake GPU_BUILD=$scratch/build-$name OUT=$scratch/out-$name \
    timeout 120 $command >"$scratch/$name.log" 2>&1
  rc=$?
  expect "$name: its set-up exits 0 (got $rc; $scratch/$name.log)" [ $rc -eq 0 ]
  expect "$name: it reached its configure step" [ -s "$scratch/$name.cmake" ]
  expect "$name: LAPACKE and json-c unpacked" test -f "$prefix/usr/include/lapacke.h" -a \
    -f "$prefix/usr/include/json-c/json.h"
  expect "$name: json-c from the prefix" grep -qF -- "-Djson-c_DIR=$prefix/usr/lib/x86_64-linux-gnu/cmake/json-c" \
    "$scratch/$name.cmake"
  expect "$name: LAPACKE from the prefix" grep -qF -- "-DLAPACKE_INCLUDE_DIR=$prefix/usr/include" "$scratch/$name.cmake"
done <<<"$scripts"

# The flags work: a configure with them finds both in the prefix.
prefix=$scratch/prefix-gpu-check
DEVICE_PREFIX=$prefix bash -c '. scripts/device-prefix.sh >/dev/null
  cmake -S . -B "$1" -DWITH_ADVISOR=OFF $device_cmake_flags' _ "$scratch/configured" >"$scratch/configure.log" 2>&1
rc=$?
expect "a configure with the prefix's flags succeeds (got $rc; $scratch/configure.log)" [ $rc -eq 0 ]
cache=$scratch/configured/CMakeCache.txt
expect "CMake took json-c from the prefix" grep -q "^json-c_DIR:.*=$prefix/" "$cache"
expect "CMake took LAPACKE from the prefix" grep -q "^LAPACKE_LIBRARY:.*=$prefix/" "$cache"

# Without .devdeps the set-up says what to do.
out=$(DEVICE_DEBS=$scratch/none DEVICE_PREFIX=$scratch/unused bash -c '. scripts/device-prefix.sh' 2>&1)
expect "without .devdeps it names fetch-device-deps.sh" grep -qF "run scripts/fetch-device-deps.sh" <<<"$out"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

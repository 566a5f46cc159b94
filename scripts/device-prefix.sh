# shellcheck shell=sh
# Sourced (". scripts/device-prefix.sh", from the repository root) by every
# script that configures the project on a lent GPU machine, which has no
# package registry: where the LAPACKE or the json-c headers are missing, the
# .deb files that scripts/fetch-device-deps.sh put in .devdeps are unpacked
# into a private prefix, and
#   device_cmake_flags    holds the CMake flags that point at it (words);
#   LD_LIBRARY_PATH       is exported with its libraries.
# Where both are installed it does nothing (device_cmake_flags is empty).
# Where one is missing and .devdeps is not there, it says what to do, and
# the configure that follows fails on the missing package.
# For tests/cli/test_device_setup.sh: DEVICE_SYSTEM_INCLUDE (default
# /usr/include) is where the headers are looked for, DEVICE_DEBS (default
# .devdeps) where the .deb files are, DEVICE_PREFIX (default
# /tmp/warpmem-deps) where they are unpacked.
device_cmake_flags=""
device_include=${DEVICE_SYSTEM_INCLUDE:-/usr/include}
device_debs=${DEVICE_DEBS:-.devdeps}
device_prefix=${DEVICE_PREFIX:-/tmp/warpmem-deps}
if [ ! -e "$device_include/lapacke.h" ] || [ ! -e "$device_include/json-c/json.h" ]; then
  if ls "$device_debs"/*.deb >/dev/null 2>&1; then
    mkdir -p "$device_prefix"
    for device_deb in "$device_debs"/*.deb; do dpkg -x "$device_deb" "$device_prefix"; done
    device_lib=$device_prefix/usr/lib/x86_64-linux-gnu
    device_cmake_flags="-DCMAKE_PREFIX_PATH=$device_prefix/usr -Djson-c_DIR=$device_lib/cmake/json-c"
    device_cmake_flags="$device_cmake_flags -DLAPACKE_INCLUDE_DIR=$device_prefix/usr/include"
    device_cmake_flags="$device_cmake_flags -DOpenBLAS_INCLUDE_DIR=$device_prefix/usr/include/x86_64-linux-gnu/openblas-pthread"
    device_cmake_flags="$device_cmake_flags -DLAPACKE_LIBRARY=$device_lib/liblapacke.so"
    device_cmake_flags="$device_cmake_flags -DLAPACK_LIBRARY=$device_lib/openblas-pthread/liblapack.so.3"
    device_cmake_flags="$device_cmake_flags -DOpenBLAS_LIBRARY=$device_lib/openblas-pthread/libopenblas.so.0"
    LD_LIBRARY_PATH=$device_lib/openblas-pthread:$device_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
    echo "device-prefix: LAPACKE/OpenBLAS and json-c from $device_debs unpacked into $device_prefix"
  else
    echo "device-prefix: no LAPACKE or json-c headers in $device_include and no .deb files in $device_debs:" \
         "run scripts/fetch-device-deps.sh where Debian's registry is reachable, and carry .devdeps" >&2
  fi
fi

# device_configure CMAKE_ARGS...: cmake with those arguments and
# device_cmake_flags. With DEVICE_SETUP_ONLY=FILE in the environment it
# writes that command line to FILE instead and ends the script (exit 0):
# how tests/cli/test_device_setup.sh sees every device script's set-up
# without a GPU.
device_configure() {
  if [ -n "${DEVICE_SETUP_ONLY:-}" ]; then
    # shellcheck disable=SC2086  # the flags are words
    echo cmake "$@" $device_cmake_flags >"$DEVICE_SETUP_ONLY"
    exit 0
  fi
  # shellcheck disable=SC2086
  cmake "$@" $device_cmake_flags
}

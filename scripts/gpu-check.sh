#!/usr/bin/env bash
# On a machine with a GPU: configure, build, run ALL tests (the `gpu` label
# included) and print a summary table last. Fails if any test fails, or if a
# GPU test was skipped although this machine has a GPU.
#
#   scripts/gpu-check.sh [BUILD_DIR]        (default build-gpu)
#
# On the lent GPU machine, which has no package registry: carry .devdeps
# (made by scripts/fetch-device-deps.sh) and it is unpacked into a private
# prefix when LAPACKE is missing; warplint is built only if libclang exists.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
log_dir=${OUT:-$build}
mkdir -p "$build" "$log_dir"
flags=(-DCMAKE_BUILD_TYPE=Release)

if [ ! -e /usr/include/lapacke.h ] && [ -d .devdeps ]; then
  prefix=/tmp/warpmem-deps
  mkdir -p $prefix
  for f in .devdeps/*.deb; do dpkg -x "$f" $prefix; done
  lib=$prefix/usr/lib/x86_64-linux-gnu
  flags+=(-DCMAKE_PREFIX_PATH=$prefix/usr
          -DLAPACKE_INCLUDE_DIR=$prefix/usr/include
          -DOpenBLAS_INCLUDE_DIR=$prefix/usr/include/x86_64-linux-gnu/openblas-pthread
          -DLAPACKE_LIBRARY=$lib/liblapacke.so
          -DLAPACK_LIBRARY=$lib/openblas-pthread/liblapack.so.3
          -DOpenBLAS_LIBRARY=$lib/openblas-pthread/libopenblas.so.0)
  export LD_LIBRARY_PATH=$lib/openblas-pthread:$lib:${LD_LIBRARY_PATH:-}
  echo "gpu-check: LAPACKE/OpenBLAS from .devdeps unpacked into $prefix"
fi
if ! ls /usr/lib/llvm-1[7-9]/include/clang-c/Index.h /usr/lib/llvm-2*/include/clang-c/Index.h >/dev/null 2>&1; then
  flags+=(-DWITH_ADVISOR=OFF)
  echo "gpu-check: no libclang here: building without warplint (its tests run in CI)"
fi

cmake -S . -B "$build" "${flags[@]}" >"$log_dir/configure.log" 2>&1 ||
  { cat "$log_dir/configure.log"; echo "gpu-check: configure failed"; exit 1; }
cmake --build "$build" -j "$(nproc)" >"$log_dir/build.log" 2>&1 ||
  { tail -50 "$log_dir/build.log"; echo "gpu-check: build failed"; exit 1; }

"$build/bin/gpu-info"
ctest --test-dir "$build" --output-on-failure -j 1 2>&1 | tee "$log_dir/ctest.log"
ctest_rc=${PIPESTATUS[0]}

# Summary table: one row per test, from ctest's own result lines.
echo
printf '%-36s %-10s %10s\n' TEST RESULT SECONDS
sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) \.*[* ]*\([A-Za-z][A-Za-z ]*[a-z]\) *\([0-9.]*\) sec$/\1 \2 \3/p' \
  "$log_dir/ctest.log" | while read -r name result secs; do
  printf '%-36s %-10s %10s\n' "$name" "$result" "$secs"
done
skipped=$(grep -c '(Skipped)' "$log_dir/ctest.log" || true)
if "$build/bin/gpu-info" --probe && [ "$skipped" -gt 0 ]; then
  echo "gpu-check: $skipped test(s) skipped although a GPU is present"
  exit 1
fi
exit $ctest_rc

#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the build needs, when they are missing.
# Idempotent: installed packages are left alone. Prints what it does.
#
#   cmake, make, gcc        the build
#   libclang-22-dev         warplint's parser (the libclang C API; 22 parses the
#                           CUDA 13 headers, 19 does not)
#   clang-22, llvm-22-dev   warplint's device model: clang 22 compiles each
#                           file's device code, the LLVM C API reads it
#   liblapacke-dev,
#   libopenblas-dev         the CPU side of the MNF study
#   gnuplot-nox             plots of benchmark and case-study results
#   libgdal-dev, gdal-bin,
#   netcdf-bin, clang,
#   libclang-rt-dev         the MNF tool: GDAL I/O and the tools that make
#                           its test files; clang with libFuzzer for the header fuzz test
#   pre-commit              the test of warplint's pre-commit hook
#
# The CUDA toolkit is not a Debian package we can rely on (Debian's
# nvidia-cuda-toolkit is old and in non-free): it is checked, not installed.
set -euo pipefail

packages=(cmake make gcc libclang-22-dev clang-22 llvm-22-dev liblapacke-dev libopenblas-dev gnuplot-nox)
# mnf: GDAL (optional in CMake) + gdal_translate and ncgen for its tests; libFuzzer (clang).
packages+=(libgdal-dev gdal-bin netcdf-bin clang libclang-rt-dev)
packages+=(pre-commit)
packages+=(chromium libpng-dev)  # test_warplint_browser: the HTML report in headless Chromium, libpng reads its screenshot
packages+=(libjson-c-dev)  # common/: JSON reading and writing (json_reader.c, json_writer.c)
packages+=(python3-pip)  # test_warplint_sarif_schema: pip installs pydantic-sarif (and pydantic 2) from PyPI

missing=()
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "install-deps: $p already installed"
  else
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if ! command -v apt-get >/dev/null; then
    echo "install-deps: missing ${missing[*]}, and apt-get is not available: install them by hand" >&2
    exit 1
  fi
  sudo=()
  if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# test_warplint_sarif_schema validates warplint's SARIF with pydantic-sarif
# (a model generated from the SARIF 2.1.0 schema), from PyPI: no Debian
# package has it. Where pip refuses a system Python (PEP 668), it is told to
# install anyway: the package is a single pure-Python module.
if ! python3 -c 'import pydantic_sarif.model' 2>/dev/null; then
  echo "install-deps: installing pydantic-sarif (pip)"
  python3 -m pip install -q pydantic-sarif 2>/dev/null ||
    python3 -m pip install -q --break-system-packages pydantic-sarif ||
    echo "install-deps: pydantic-sarif could not be installed: test_warplint_sarif_schema will be skipped" >&2
else
  echo "install-deps: pydantic-sarif already installed"
fi

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: CUDA toolkit found ($( (command -v nvcc || echo /usr/local/cuda/bin/nvcc) ))"
else
  echo "install-deps: no CUDA toolkit (nvcc) found: only the advisor (warplint) will be built." \
       "Install the CUDA toolkit from NVIDIA for the benchmarks, case studies and MNF tool."
fi

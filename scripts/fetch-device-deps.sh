#!/usr/bin/env bash
# Run HERE (a machine with Debian's registry) before a GPU run: downloads the
# .deb files of LAPACKE, OpenBLAS and json-c into .devdeps/ (ignored by git),
# which the lent GPU machine cannot fetch itself. scripts/gpu-check.sh unpacks
# them into a private prefix there when the system has no LAPACKE or no json-c
# headers. libclang is not carried (libLLVM alone exceeds what a run may
# carry), so on the GPU machine warplint is not built; its tests need no GPU
# and run in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .devdeps
cd .devdeps
pkgs=(liblapacke liblapacke-dev libopenblas0 libopenblas0-pthread libopenblas-dev
      libopenblas-pthread-dev liblapack3 liblapack-dev libblas3 libblas-dev libgfortran5
      libjson-c5 libjson-c-dev)
have=1
for p in "${pkgs[@]}"; do ls "${p}"_*.deb >/dev/null 2>&1 || have=0; done
if [ $have = 1 ]; then echo "fetch-device-deps: .devdeps is complete"; exit 0; fi
apt-get download "${pkgs[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true
ls -1

#!/bin/sh
# Fuzzes the ENVI header parser for a bounded time with libFuzzer (clang
# -fsanitize=fuzzer,address,undefined), starting from the committed corpus
# (tests/mnf/fuzz_corpus/envi_header); inputs it finds go to a temporary
# folder, not into the repository. Fails on any crash, leak or sanitizer
# report; exits 77 (skipped) when clang with libFuzzer is not installed.
#   fuzz_envi_header.sh SOURCE_DIR WORK_DIR [SECONDS]
set -u
src=$1 work=$2 seconds=${3:-30}
clang=$(command -v clang || command -v clang-19 || command -v clang-14 || true)
if [ -z "$clang" ]; then echo "SKIP: no clang for libFuzzer"; exit 77; fi
mkdir -p "$work"
bin=$work/fuzz_envi_header
if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I "$src/mnf" \
    "$src/tests/mnf/fuzz_envi_header.c" "$src/mnf/envi.c" "$src/mnf/staged.c" -o "$bin" 2> "$work/fuzz_build.log"; then
  if grep -qi "fuzzer" "$work/fuzz_build.log"; then echo "SKIP: clang without libFuzzer"; cat "$work/fuzz_build.log"; exit 77; fi
  cat "$work/fuzz_build.log"; exit 1
fi
new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
cd "$work" || exit 1
"$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$new" "$src/tests/mnf/fuzz_corpus/envi_header" > "$work/fuzz.log" 2>&1
rc=$?
tail -n 12 "$work/fuzz.log"
if [ $rc -ne 0 ]; then echo "FAILED: the fuzzer found a problem (crash input in $work)"; exit 1; fi
echo "fuzz_envi_header: no crash in $seconds s"

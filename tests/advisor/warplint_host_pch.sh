#!/usr/bin/env bash
# The precompiled header of libclang's host-side parse (advisor/host_pch.c):
# a run with an empty cache makes one, the next uses it (it is not written
# again), and both report what a run without a cache reports, with the
# default headers (a CUDA toolkit's where one is installed) and the
# stand-ins; a user's -D gets a header of its own; a damaged header is
# parsed around, with the same findings, and made again.
#   warplint_host_pch.sh WARPLINT SCRATCH_DIR
set -uo pipefail
warplint=${1:?usage: warplint_host_pch.sh WARPLINT SCRATCH_DIR}
scratch=${2:?usage: warplint_host_pch.sh WARPLINT SCRATCH_DIR}
fixtures=$(cd "$(dirname "$0")" && pwd)/fixtures
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
export WARPLINT_CACHE=$scratch/cache
# kernels are modelled from their syntax (the host side's parse, which the
# header serves): the device side's compile does not use it
model="--model syntax"
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}
# launches (S_4), a strided access (G_3) and a transpose tile (S_1)
cp "$fixtures/launch_shape_positive.cu" "$fixtures/g3_transpose.cu" .
lint() { "$warplint" check --format=json $model launch_shape_positive.cu g3_transpose.cu "$@" 2>&1; }
headers() { ls cache/host-*.pch 2>/dev/null | wc -l; }
stamp() { stat -c '%i %Y %s' cache/host-*.pch 2>/dev/null; }

for mode in --shim default; do
  flag=--shim
  [ "$mode" = default ] && flag=
  rm -rf cache
  WARPLINT_CACHE=/dev/null/none lint $flag >plain.json
  lint $flag >first.json
  expect "$mode: the first run makes one header" [ "$(headers)" = 1 ]
  expect "$mode: with the findings of a run without one" cmp -s plain.json first.json
  before=$(stamp)
  lint $flag >second.json
  expect "$mode: the next run uses it (not written again)" [ "$(stamp)" = "$before" ]
  expect "$mode: with the same findings" cmp -s plain.json second.json
done
for rule in S_4 G_3 S_1; do expect "the files draw $rule" grep -q "\"rule\": \"$rule\"" plain.json; done

# the default headers' header is in the cache; the files use no macro
lint >first.json
lint -- -DWARPLINT_TEST_MACRO=1 >defined.json
expect "a user's -D gets a header of its own" [ "$(headers)" = 2 ]
expect "with the same findings" cmp -s first.json defined.json

rm -rf cache
lint >first.json
for h in cache/host-*.pch; do printf 'not a precompiled header\n' >"$h"; done
lint >damaged.json
expect "a damaged header is parsed around, with the same findings" cmp -s first.json damaged.json
expect "and made again" [ "$(stat -c %s cache/host-*.pch)" -gt 1000 ]

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

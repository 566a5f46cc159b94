#!/bin/sh
# The mnf and mnf-synth programs end to end on the CPU: a scene in, components
# and a report out; bad input and an unwritable output give one line, a
# non-zero exit and no files. Usage: test_mnf_cli.sh BIN_DIR
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { # check DESCRIPTION COMMAND...: counts a pass when COMMAND succeeds
  what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $what"; fi
}

"$bin/mnf-synth" "$work/scene.hdr" --size 41x33x16 --type uint16 --interleave bip --byte-order 1 --seed 5
check "mnf-synth writes the header" test -f "$work/scene.hdr"
"$bin/mnf" "$work/scene.hdr" -o "$work/out.hdr" --components 4 --noise diff --impl cpu --report "$work/r.json" >/dev/null
check "mnf exits 0" test $? -eq 0
check "components header" grep -q "bands = 4" "$work/out.hdr"
check "float32 output" grep -q "data type = 4" "$work/out.hdr"
check "output size" test "$(wc -c < "$work/out")" -eq $((41 * 33 * 4 * 4))
check "report has eigenvalues" grep -q '"eigenvalues"' "$work/r.json"
check "report says whether the image was streamed" grep -q '"streamed"' "$work/r.json"

# expect_error_of PROGRAM DESCRIPTION WANTED-TEXT ARGS...: non-zero exit, one line naming the problem
expect_error_of() {
  program=$1 what=$2 want=$3; shift 3
  "$bin/$program" "$@" >/dev/null 2>"$work/err"
  rc=$?
  check "$what: non-zero exit" test $rc -ne 0
  check "$what: one line" test "$(wc -l < "$work/err")" -eq 1
  check "$what: says '$want'" grep -q "$want" "$work/err"
}
expect_error() { expect_error_of mnf "$@"; }
expect_error "missing input" "cannot open header" "$work/none.hdr" -o "$work/x.hdr"
printf 'ENVI\nsamples = 2\nlines = 9\nbands = 3\ndata type = 2\n' > "$work/small.hdr"
head -c 108 /dev/urandom > "$work/small"
expect_error "too small" "at least 3x3" "$work/small.hdr" -o "$work/x.hdr"
expect_error "unwritable output" "no/such/dir/x" "$work/scene.hdr" -o "$work/no/such/dir/x.hdr"
expect_error "unknown option" "unknown --impl" "$work/scene.hdr" -o "$work/x.hdr" --impl quantum
# The benchmarks check their arguments before they look for a GPU.
expect_error_of mnf-bench "bench: bad --serial-full" "serial-full 0..3" --serial-full 9
expect_error_of mnf-bench "bench: unknown option" "usage: mnf-bench" --fast 1
expect_error_of mnf-eig-bench "eig-bench: unknown option" "usage: mnf-eig-bench" --fast
check "nothing half-written" test -z "$(ls "$work" | grep -e '^x' -e '\.tmp\.')"

echo "$passed passed, $failed failed"
test "$failed" -eq 0

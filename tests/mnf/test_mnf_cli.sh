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
  check "$what: says '$want'" grep -q -e "$want" "$work/err"
}
expect_error() { expect_error_of mnf "$@"; }
expect_error "missing input" "cannot open header" "$work/none.hdr" -o "$work/x.hdr"
printf 'ENVI\nsamples = 2\nlines = 9\nbands = 3\ndata type = 2\ninterleave = bsq\nbyte order = 0\n' > "$work/small.hdr"
head -c 108 /dev/urandom > "$work/small"
expect_error "too small" "at least 3x3" "$work/small.hdr" -o "$work/x.hdr"
expect_error "unwritable output" "no/such/dir/x" "$work/scene.hdr" -o "$work/no/such/dir/x.hdr"
expect_error "unknown option" "unknown --impl" "$work/scene.hdr" -o "$work/x.hdr" --impl quantum
# Memory follows the image: a serial run on a 98 KB scene stays far below
# the 300 MB that loading cuBLAS and cuSOLVER alone took (mnf now leaves
# them to mnf-gpu). Peak resident size of the child, by getrusage.
"$bin/mnf-synth" "$work/tiny.hdr" --size 32x32x48 --type int16 --seed 3 >/dev/null
peak_kb=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin/mnf" "$work/tiny.hdr" -o "$work/tiny_out.hdr" --impl serial)
echo "mnf --impl serial on a 98 KB image: peak resident size ${peak_kb:-?} KB"
check "a 98 KB image runs in under 120 MB (${peak_kb:-?} KB)" test "${peak_kb:-999999}" -lt 120000
expect_error "no -o" "^mnf: -o OUTPUT is missing" "$work/scene.hdr"
check "no -o: exit 2" sh -c "'$bin/mnf' '$work/scene.hdr' 2>/dev/null; test \$? -eq 2"
expect_error "no input" "^mnf: the INPUT image is missing" -o "$work/x.hdr"
# The benchmarks check their arguments before they look for a GPU.
expect_error_of mnf-bench "bench: bad --serial-full" "serial-full 0..3" --serial-full 9
expect_error_of mnf-bench "bench: unknown option" "usage: mnf-bench" --fast 1
expect_error_of mnf-eig-bench "eig-bench: unknown option" "usage: mnf-eig-bench" --fast
check "nothing half-written" test -z "$(ls "$work" | grep -e '^x' -e '\.tmp\.')"

# ---- issue 11: conventions, apply/inverse/denoise, bad input ----
"$bin/mnf-synth" "$work/f.hdr" --size 40x30x12 --type float32 --kappa 1e6 --map-info --seed 9
sum_inputs() { cat "$work/f.hdr" "$work/f" | cksum; }
before=$(sum_inputs)
"$bin/mnf" "$work/f.hdr" -o "$work/z.hdr" --components 5 --stats "$work/f.stats" --report "$work/z.json" > "$work/out.txt"
check "mnf prints the eigenvalues as lambda" grep -q "eigenvalues (lambda" "$work/out.txt"
check "components keep the map info" grep -q "^map info = {UTM" "$work/z.hdr"
check "components keep the coordinate system" grep -q "^coordinate system string = {PROJCS" "$work/z.hdr"
check "components are named MNF band k" grep -q "^band names = {MNF band 1, MNF band 2" "$work/z.hdr"
check "components have no wavelengths" test -z "$(grep '^wavelength' "$work/z.hdr")"
check "the statistics file has its magic line" test "$(head -n 1 "$work/f.stats")" = "MNF statistics 1"
"$bin/mnf" apply "$work/f.stats" "$work/f.hdr" -o "$work/a.hdr" --components 5 > /dev/null
check "apply writes the components asked for" grep -q "^bands = 5" "$work/a.hdr"
"$bin/mnf" inverse "$work/f.stats" "$work/a.hdr" -o "$work/inv.hdr" > /dev/null
check "inverse writes the original bands" grep -q "^bands = 12" "$work/inv.hdr"
check "inverse keeps the wavelengths" grep -q "^wavelength = {400.00" "$work/inv.hdr"
"$bin/mnf" "$work/f.hdr" -o "$work/d.hdr" --denoise 4 > /dev/null
check "denoise writes float32 in the original bands" grep -q "^data type = 4" "$work/d.hdr"
check "denoise keeps the wavelengths and units" grep -q "^wavelength units = Nanometers" "$work/d.hdr"
check "denoise output size" test "$(wc -c < "$work/d")" -eq $((40 * 30 * 12 * 4))

# Outputs that are, or alias, an input: refused before anything is read.
expect_error "output names the input header" "would overwrite the input" "$work/f.hdr" -o "$work/f.hdr"
expect_error "output's data file is the input's" "would overwrite the input" "$work/f.hdr" -o "$work/f"
ln "$work/f.hdr" "$work/hard.hdr"
expect_error "output is a hard link of the input" "would overwrite" "$work/f.hdr" -o "$work/hard.hdr"
ln -s "$work/f" "$work/link"
expect_error "output's data is a symbolic link to the input's" "would overwrite" "$work/f.hdr" -o "$work/link.hdr"
expect_error "report over the input" "would overwrite" "$work/f.hdr" -o "$work/x.hdr" --report "$work/f"
expect_error "report over the output" "would overwrite the output" "$work/f.hdr" -o "$work/x.hdr" --report "$work/x.hdr"
expect_error "apply's output over its statistics" "would overwrite the statistics" apply "$work/f.stats" "$work/f.hdr" -o "$work/f.stats"
check "inputs untouched" test "$(sum_inputs)" = "$before"

# The image, the report and the statistics are written all or nothing.
expect_error "report cannot be written" "no/dir/r.json" "$work/f.hdr" -o "$work/x.hdr" --report "$work/no/dir/r.json"
expect_error "statistics cannot be written" "no/dir/s" "$work/f.hdr" -o "$work/x.hdr" --stats "$work/no/dir/s"
check "no image after a failed report" test ! -e "$work/x.hdr" -a ! -e "$work/x"

expect_error "--components above the bands" "--components 13: the image has 12 bands" "$work/f.hdr" -o "$work/x.hdr" --components 13
expect_error "--denoise above the bands" "--denoise 20" "$work/f.hdr" -o "$work/x.hdr" --denoise 20

# NaN and Inf are named, with the first one's band and pixel.
cp "$work/f" "$work/nan"
sed 's/^description.*/description = {with a NaN}/' "$work/f.hdr" > "$work/nan.hdr"
printf '\000\000\300\177' | dd of="$work/nan" bs=1 seek=$(( (1 * 30 * 40 + 6 * 40 + 4) * 4 )) conv=notrunc 2>/dev/null
expect_error "a NaN" "1 NaN or Inf value; the first, NaN, in band 2 at sample 5, line 7" "$work/nan.hdr" -o "$work/x.hdr"
"$bin/mnf" "$work/nan.hdr" -o "$work/nanout.hdr" --ignore-nonfinite > /dev/null
check "--ignore-nonfinite runs" test -s "$work/nanout"
expect_error "apply refuses a NaN too" "the first, NaN, in band 2" apply "$work/f.stats" "$work/nan.hdr" -o "$work/x.hdr"

# A header without interleave or byte order is an error naming the field, unless assumed.
grep -v '^interleave' "$work/f.hdr" > "$work/nol.hdr"; cp "$work/f" "$work/nol"
expect_error "no interleave" "no 'interleave'" "$work/nol.hdr" -o "$work/x.hdr"
"$bin/mnf" "$work/nol.hdr" -o "$work/nolout.hdr" --assume-interleave bsq > /dev/null
check "--assume-interleave reads it" test -s "$work/nolout"
grep -v '^byte order' "$work/f.hdr" > "$work/nob.hdr"; cp "$work/f" "$work/nob"
expect_error "no byte order" "no 'byte order'" "$work/nob.hdr" -o "$work/x.hdr"
# The same on CUDA-MNF where there is a GPU (skipped, and said so, where not).
if "$bin/mnf" "$work/f.hdr" -o "$work/gd.hdr" --denoise 4 --impl gpu > /dev/null 2> "$work/err"; then
  check "denoise on the GPU: the bands back" grep -q "^bands = 12" "$work/gd.hdr"
  "$bin/mnf" apply "$work/f.stats" "$work/f.hdr" -o "$work/ga.hdr" --components 5 --impl gpu > /dev/null
  check "apply on the GPU: 5 components" test "$(wc -c < "$work/ga")" -eq $((40 * 30 * 5 * 4))
  "$bin/mnf" inverse "$work/f.stats" "$work/ga.hdr" -o "$work/gi.hdr" --impl gpu > /dev/null
  check "inverse on the GPU: the bands back" test "$(wc -c < "$work/gi")" -eq $((40 * 30 * 12 * 4))
else
  check "no GPU: the one reason given" grep -q "no usable GPU" "$work/err"
  echo "note: no usable GPU here: apply, inverse and denoise on CUDA-MNF not run"
fi
check "after all this, nothing half-written" test -z "$(ls "$work" | grep -e '^x' -e '\.tmp\.')"

echo "$passed passed, $failed failed"
test "$failed" -eq 0

#!/bin/sh
# mnf/demo.sh BUILD_DIR [OUT_DIR]: generates a small synthetic hyperspectral
# scene and runs the MNF rotation on it: with --impl gpu (and the serial
# version for comparison) where a GPU is usable, with --impl cpu otherwise.
# The scene, the component images and the JSON reports are kept in OUT_DIR;
# without one they go to a temporary folder removed on exit. Takes a few
# seconds.
set -eu
build=${1:?usage: mnf/demo.sh BUILD_DIR [OUT_DIR]}
bin=$build/bin
if [ $# -ge 2 ]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

echo "== synthetic scene: 320 x 240 pixels, 96 bands, int16, BIL, 5 endmembers"
"$bin/mnf-synth" "$work/scene.hdr" --size 320x240x96 --type int16 --interleave bil --seed 7

run() {
  "$bin/mnf" "$work/scene.hdr" -o "$work/mnf_$1.hdr" --components 10 --noise mean3 --impl "$1" \
    --report "$work/report_$1.json"
}

if run gpu 2>"$work/err"; then
  run serial
else
  if grep -q "no usable GPU" "$work/err"; then
    echo "(no usable GPU here: running the CPU implementation)"
    run cpu
  else
    cat "$work/err" >&2
    exit 1
  fi
fi
rm -f "$work/err"
images=$(ls "$work" | grep -c '^mnf_.*\.hdr$')
if [ $# -ge 2 ]; then
  echo "== output: $images ENVI float32 component image(s) and JSON report(s) in $work"
else
  echo "== output: $images ENVI float32 component image(s) and JSON report(s), removed on exit"
fi

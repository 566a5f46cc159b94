#!/usr/bin/env bash
# The link between the progression and the advisor: runs `warplint check` on
# every version and on the unpadded counter-example, and either records the
# output in warplint.txt (--record) or checks that it still matches the record
# and says what the lesson claims:
#   - 01_naive draws S_5 for B (each element reused by the block's 16 rows,
#     eight warps) and not for A (a row of A is read by the 16 lanes of one
#     row, one warp: a broadcast request, which no staging makes cheaper);
#   - no tiled version (02 onward) draws S_5;
#   - extra/transposed_unpadded.cu draws S_1 (the bank conflict padding removes);
#   - 13_large_tile is clean in its own file; versions 15-21 (with the kernel
#     of 16-18, 20 and 21) draw only G_3, and only on the edge paths of odd
#     shapes: load_first's K remainder, load4's unaligned path, store_c.
#
#   warplint_check.sh WARPLINT BUILD_DIR [--record]
# BUILD_DIR holds compile_commands.json (the include paths of the kernels).
set -uo pipefail
warplint=${1:?usage: warplint_check.sh WARPLINT BUILD_DIR [--record]}
build=${2:?usage: warplint_check.sh WARPLINT BUILD_DIR [--record]}
mode=${3:-check}
cd "$(dirname "$0")/../.."   # paths in the output stay relative to the repo
record=casestudies/matmul/warplint.txt
out=$(mktemp)
trap 'rm -f "$out" "$out.new"' EXIT

# sgemm_kernel.cuh holds the kernel of versions 16-18 (their files only
# launch it); it has no compile command of its own, so its include paths
# are given.
for f in casestudies/matmul/[0-9][0-9]_*.cu casestudies/matmul/extra/*.cu \
         casestudies/matmul/sgemm_kernel.cuh; do
  echo "== $f"
  case $f in
    *.cuh) "$warplint" check "$f" -- -Icommon -Icasestudies/matmul ;;
    *) "$warplint" check -p "$build" "$f" ;;
  esac
  rc=$?
  if [ $rc -ge 2 ]; then echo "warplint_check: warplint failed on $f (exit $rc)" >&2; exit 1; fi
done >"$out" 2>&1

if [ "$mode" = --record ]; then
  cp "$out" "$out.new" && mv "$out.new" "$record"
  echo "warplint_check: recorded $record"
  exit 0
fi

failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failed=$((failed + 1)); fi
}


expect "01_naive draws S_5 for B" grep -qE "01_naive.cu:.*'B'.*\[S_5\]" "$out"
expect "01_naive draws no S_5 for A (a broadcast within one warp)" bash -c "! grep -qE \"01_naive.cu:.*'A'.*\\[S_5\\]\" '$out'"
expect "no tiled version draws S_5" bash -c "! grep -E '/(0[2-9]|1[0-9])_[a-z0-9_]+\.cu:.*\[S_5\]' '$out'"
expect "the unpadded transposed tile draws S_1" grep -qE "extra/transposed_unpadded.cu:.*\[S_1\]" "$out"
expect "13_large_tile is clean" bash -c "! grep -qE '13_large_tile.cu:[0-9]+:[0-9]+: warning' '$out'"
expect "versions 15-21 and their kernel draw only G_3 on the edge paths" bash -c "! awk '/^== /{v = \$2 ~ /(1[5-9]|2[01])_|sgemm_kernel/} v && /: warning: / && (!/\[G_3\]\$/ || !/(sgemm_kernel\.cuh:14[89]|matmul_device\.cuh:(12|4[1-4])):/)' '$out' | grep -q ."
expect "versions 15-21 draw G_3 on load_first's K remainder" grep -qE "sgemm_kernel\.cuh:148:[0-9]+: warning: .*\[G_3\]" "$out"
expect "the output matches casestudies/matmul/warplint.txt (re-record with --record)" diff -u "$record" "$out"
echo "$((8 - failed)) passed, $failed failed"
[ $failed = 0 ]

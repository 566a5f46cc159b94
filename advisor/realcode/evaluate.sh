#!/bin/sh
# warplint over every file of the real-code corpus (layout.sh, files.sh), one
# process per file, beside nvcc's verdict on the same file (nvcc.sh):
#   advisor/realcode/evaluate.sh BUILD_DIR toolkit|shim [JOBS]
# (ONLY=REGEX in the environment: only the files whose line of files.sh matches;
# CORPUS=NAME: the corpus of advisor/realcode/NAME/, results under
# .realcode/NAME/ instead of .realcode/, see corpus.sh)
# toolkit: the CUDA toolkit's headers (warplint's default where one is
# installed); shim: the stand-in headers (--shim), as on a machine without
# one. Writes .realcode/eval-MODE/:
#   results.tsv   path, nvcc status, warplint status, seconds, outcome
#                 (clean: no parse error; tolerated: parse errors outside the
#                 analysed kernels; skipped; crash; hang), kernels analysed,
#                 kernels skipped, findings
#   findings.tsv  path, line, column, rule, message
#   out/...       each file's full output
# and prints the summary table of REALCODE.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/corpus.sh"
build=$(cd "${1:?usage: evaluate.sh BUILD_DIR toolkit|shim [JOBS]}" && pwd)
mode=${2:?usage: evaluate.sh BUILD_DIR toolkit|shim [JOBS]}
jobs=${3:-2}
case $mode in toolkit) headers="" ;; shim) headers="--shim" ;; *) echo "evaluate: mode is toolkit or shim" >&2; exit 2 ;; esac
cd "$root"
[ -s "$data/nvcc.tsv" ] || { echo "evaluate: run advisor/realcode/nvcc.sh first" >&2; exit 1; }
dest=$data/eval-$mode
rm -rf "$dest"
mkdir -p "$dest/out"

"$here/files.sh" | grep -E "${ONLY:-.}" | while IFS='	' read -r name path flags; do printf '%s\t%s\n' "$path" "$flags"; done |
  tr '\n' '\0' | xargs -0 -r -P "$jobs" -n 1 sh -c '
  warplint=$0 headers=$1 dest=$2 record=$3
  path=$(printf "%s" "$record" | cut -f1); flags=$(printf "%s" "$record" | cut -f2)
  out=$dest/out/$(printf "%s" "${path#.realcode/}" | tr / _).txt
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  timeout 300 "$warplint" check $headers "$path" -- $flags > "$out" 2>&1 && rc=0 || rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  printf "%s\t%s\t%.2f\n" "$path" "$rc" "$secs" > "$out.status"
' "$build/bin/warplint" "$headers" "$dest"

# One line per file, joined with nvcc's verdict.
for status in "$dest"/out/*.status; do
  out=${status%.status}
  IFS='	' read -r path rc secs < "$status"
  nvcc_rc=$(awk -F'\t' -v p="$path" '$1 == p { print $2; exit }' "$data/nvcc.tsv")
  summary=$(grep '^warplint: ' "$out" | tail -1 || true)
  kernels=$(echo "$summary" | sed -n 's/.*analysed (\([0-9]*\) kernel.*/\1/p')
  skipped_kernels=$(echo "$summary" | sed -n 's/.*, \([0-9]*\) kernels\{0,1\} skipped.*/\1/p')
  findings=$(grep -cE ': warning: .*\[[A-Z]_[0-9]\]$' "$out" || true)
  if [ "$rc" = 124 ]; then outcome=hang
  elif [ "$rc" -ge 128 ] || [ -z "$summary" ]; then outcome=crash
  elif [ "$rc" = 2 ]; then outcome=skipped
  elif grep -q "note: parse error outside the analysed kernels\|note: kernel .* skipped\|note: clang's error where nvcc" "$out"; then outcome=tolerated
  else outcome=clean
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "${nvcc_rc:-?}" "$rc" "$secs" "$outcome" "${kernels:-0}" \
    "${skipped_kernels:-0}" "$findings"
  grep -E ': warning: .*\[[A-Z]_[0-9]\]$' "$out" |
    sed -n 's/^\([^:]*\):\([0-9]*\):\([0-9]*\): warning: \(.*\) \[\([A-Z]_[0-9]\)\]$/\1\t\2\t\3\t\5\t\4/p' >> "$dest/findings.tsv" || true
done | LC_ALL=C sort > "$dest/results.tsv"
touch "$dest/findings.tsv"

"$here/summary.sh" "$mode"

#!/bin/sh
# Shim coverage: does every corpus file that nvcc accepts (nvcc.sh's
# .realcode/nvcc.tsv, exit status 0) parse with warplint's stand-in headers?
# Writes .realcode/shim.tsv, one line per file:
#   <path> TAB <error lines> TAB <first error>
# and prints the parse rate and the most frequent error messages (file and
# position stripped, one count per file), so that the stand-ins are extended
# in order of how many files each gap costs.
#   advisor/realcode/shim_coverage.sh [JOBS]   (default 2)
# WARPLINT names the binary (default build/bin/warplint); REALCODE_ROOT the
# checkout holding .realcode/ (default this one); SHIM_TSV the output.
# CORPUS=NAME: the corpus of advisor/realcode/NAME/ (corpus.sh), output
# .realcode/NAME/shim.tsv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${REALCODE_ROOT:-$(cd "$here/../.." && pwd)}
. "$here/corpus.sh"
warplint=${WARPLINT:-$root/build/bin/warplint}
cd "$root"
# A sysroot that is / without /usr/local, so that CUDA headers installed
# there (some toolkits link them into /usr/local/include) cannot stand in
# for the stand-ins: what a machine without a toolkit sees.
sysroot=$(mktemp -d)
trap 'rm -rf "$sysroot"' EXIT
mkdir "$sysroot/usr"
for d in lib lib64 usr/include usr/lib usr/lib64; do [ ! -e "/$d" ] || ln -s "/$d" "$sysroot/$d"; done
out=${SHIM_TSV:-$data/shim.tsv}
"$root/advisor/realcode/files.sh" | awk -F'\t' 'NR == FNR { if ($2 == 0) ok[$1] = 1; next }
                                $2 in ok { printf "%s\t%s\n", $2, $3 }' "$data/nvcc.tsv" - |
  tr '\n' '\0' | xargs -0 -r -P "${1:-2}" -n 1 sh -c '
  path=$(printf "%s" "$2" | cut -f1); flags=$(printf "%s" "$2" | cut -f2)
  # shellcheck disable=SC2086
  res=$(timeout 120 "$0" check "$path" -- --sysroot="$1" $flags 2>&1); rc=$?
  err=$(printf "%s\n" "$res" | grep -E ": (fatal )?error: " | grep -v "file skipped")
  [ "$rc" -lt 124 ] || err="$path: error: warplint exit status $rc (124: hang; over 128: crash)"
  n=$(printf "%s" "$err" | grep -c . || true)
  printf "%s\t%s\t%s\n" "$path" "$n" "$(printf "%s\n" "$err" | head -1 | tr "\t" " " | cut -c1-300)"
  [ -z "$err" ] || printf "%s\n" "$err" | sed "s|^[^ ]*: \(fatal \)\{0,1\}error: ||" | sort -u | sed "s|^|#ERR\t|"
' "$warplint" "$sysroot" > "$out.tmp"
grep '^#ERR' "$out.tmp" | cut -f2 | sort | uniq -c | sort -rn | head -"${TOP:-40}"
grep -v '^#ERR' "$out.tmp" | LC_ALL=C sort > "$out"
rm -f "$out.tmp"
awk -F'\t' '{ n++; clean += $2 == 0 } END {
  printf "shim: %d nvcc-accepted files, %d parse with no error (%.1f%%)\n", n, clean, n ? 100 * clean / n : 0 }' "$out"

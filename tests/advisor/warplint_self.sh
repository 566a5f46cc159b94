#!/usr/bin/env bash
# warplint on the project itself: every .cu file of the build's
# compile_commands.json must parse with the shim and its stand-in headers.
# Findings (exit 1) are fine; a file that does not parse (exit 2) fails.
#   warplint_self.sh WARPLINT BUILD_DIR SOURCE_DIR [PART]
# PART splits the files so that CTest can run the parts side by side:
# "rules" (rules/), "casestudies" (casestudies/, but for the matmul versions
# and extra/, which test_matmul_warplint checks file by file, a parse error
# failing it too), "rest" (every other file) or "all" (the default, every
# file). The files are named relative to SOURCE_DIR, as the demo names
# them, so that their device code is compiled once per test run
# (WARPLINT_DEVICE_CACHE, set by tests/CMakeLists.txt).
set -uo pipefail
usage="usage: warplint_self.sh WARPLINT BUILD_DIR SOURCE_DIR [rules|casestudies|rest|all]"
warplint=${1:?$usage}
build=${2:?$usage}
source_dir=${3:?$usage}
part=${4:-all}
db="$build/compile_commands.json"
if [ ! -f "$db" ]; then echo "FAILED: $db not found"; exit 1; fi
cd "$source_dir" || exit 1
source_dir=$(pwd -P)
all=$(grep -oE '"file": "[^"]*\.cu"' "$db" | sed -E 's/^"file": "(.*)"$/\1/' | sort -u)
case $part in
  rules) pattern='^rules/' ;;
  casestudies) pattern='^casestudies/' skip='^casestudies/matmul/([0-9][0-9]_[^/]*|extra/[^/]*)\.cu$' ;;
  rest) pattern='^(rules|casestudies)/' ;;
  all) pattern='' ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
files=()
while IFS= read -r f; do
  rel=${f#"$source_dir"/}
  if [ -n "$pattern" ]; then
    if [ "$part" = rest ]; then [[ $rel =~ $pattern ]] && continue
    else [[ $rel =~ $pattern ]] || continue
    fi
    [[ -n ${skip:-} && $rel =~ $skip ]] && continue
  fi
  files+=("$rel")
done <<<"$all"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ((${#files[@]})); then
  "$warplint" check -j "$(nproc 2>/dev/null || echo 2)" -p "$build" "${files[@]}" >"$out" 2>&1
  rc=$?
else
  rc=0
fi
echo "warplint_self ($part): ${#files[@]} of $(grep -c . <<<"$all") .cu files in $db, exit status $rc"
# Findings per rule, for the log.
grep -oE '\[[A-Z]_[0-9]\]$' "$out" | sort | uniq -c
if [ "$rc" -ge 2 ] || grep -q ': error: ' "$out"; then
  grep ': error: ' "$out" | head -40
  echo "FAILED: warplint could not parse the whole project"
  exit 1
fi
if [ "${#files[@]}" -lt 1 ]; then echo "FAILED: no .cu file ($part) in $db"; exit 1; fi
echo "ok: every .cu file parses"

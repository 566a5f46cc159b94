#!/usr/bin/env bash
# warplint on the project itself: every .cu file of the build's
# compile_commands.json must parse with the shim and its stand-in headers.
# Findings (exit 1) are fine; a file that does not parse (exit 2) fails.
#   warplint_self.sh WARPLINT BUILD_DIR
set -uo pipefail
warplint=${1:?usage: warplint_self.sh WARPLINT BUILD_DIR}
build=${2:?usage: warplint_self.sh WARPLINT BUILD_DIR}
db="$build/compile_commands.json"
if [ ! -f "$db" ]; then echo "FAILED: $db not found"; exit 1; fi
files=$(grep -cE '"file": ".*\.cu"' "$db")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$warplint" check -j "$(nproc 2>/dev/null || echo 2)" -p "$build" >"$out" 2>&1
rc=$?
echo "warplint_self: $files .cu files in $db, exit status $rc"
# Findings per rule, for the log.
grep -oE '\[[A-Z]_[0-9]\]$' "$out" | sort | uniq -c
if [ "$rc" -ge 2 ] || grep -q ': error: ' "$out"; then
  grep ': error: ' "$out" | head -40
  echo "FAILED: warplint could not parse the whole project"
  exit 1
fi
if [ "$files" -lt 1 ]; then echo "FAILED: no .cu file in $db"; exit 1; fi
echo "ok: every .cu file parses"

#!/usr/bin/env bash
# Every fix-it compiles. Applies warplint's fix-its (--fix) to a copy of each
# fixture and rule example that draws fix-its, then checks the result: it
# still parses (warplint with the stand-in headers and --model syntax:
# libclang's syntax and semantic checks, without compiling the device code
# again, which nvcc does below) and, where a CUDA toolkit exists, nvcc compiles it (a copy
# nvcc rejects fails the test when nvcc accepts the original). One warplint
# run fixes every copy and one checks every fixed copy; the nvcc runs go two
# at a time.
#
# Which files draw fix-its comes from the stand-ins' JSON reports that
# test_warplint_fixtures and test_warplint_rule_examples keep in REPORTS
# (this test runs after them), when a report is newer than warplint, the
# profile and every file of its folder; else this test runs warplint on the
# originals itself. Those reports come from the same analysis that --fix
# applies (--fix writes a file only when its findings carry fix-its), so a
# file they give no fix-it is not copied: compiling its device code again
# under a new name would cost minutes and could change nothing. That --fix
# leaves such a file byte for byte as it was is still checked, on a few of
# them run with the others; so is every file with a local #include (its copy
# here does not find the header, and may be analysed differently).
#   warplint_fixits.sh WARPLINT SCRATCH_DIR [REPORTS]
set -uo pipefail
warplint=${1:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR [REPORTS]}
scratch=${2:?usage: warplint_fixits.sh WARPLINT SCRATCH_DIR [REPORTS]}
reports=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
profile=$root/tests/advisor/profiles/synthetic-sm90.json
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
rm -rf "$scratch" && mkdir -p "$scratch"
failed=0

# report NAME FOLDER: the stand-ins' JSON report on FOLDER's .cu files, kept
# by the test that checks them, or made here when missing or older than
# what it depends on.
report() {
  local kept=${reports:+$reports/$1.json} folder=$2
  if [ -n "$kept" ] && [ -s "$kept" ] && [ "$kept" -nt "$warplint" ] && [ "$kept" -nt "$profile" ] &&
     [ -z "$(find "$folder" -newer "$kept" -print -quit)" ]; then
    echo "$kept"
    return
  fi
  "$warplint" check --shim --format=json -j 2 --gpu "$profile" "$folder"/*.cu >"$scratch/$1.json" 2>"$scratch/$1.err"
  echo "$scratch/$1.json"
}
fixtures_report=$(report fixtures "$root/tests/advisor/fixtures")
examples_report=$(report rule_examples "$root/rules/examples")
echo "reports: $fixtures_report $examples_report"

# Per original: "fix" (its findings carry fix-its), "ok" (analysed, none), or
# "?" (not wholly in the report: treated as one with fix-its).
declare -A kind
while read -r k f; do kind[$f]=$k; done < <(python3 - "$fixtures_report" "$examples_report" <<'PY'
import json, sys
for path in sys.argv[1:]:
    try:
        doc = json.load(open(path))
    except Exception as e:
        print("report unreadable:", path, e, file=sys.stderr)
        continue
    fixed = {f["file"] for f in doc.get("findings", []) if f.get("fixes")}
    fixed |= {x["file"] for f in doc.get("findings", []) for x in f.get("fixes") or []}
    for f in doc.get("files", []):
        whole = f.get("status") == "analysed" and not f.get("kernels_skipped")
        print("fix" if f["file"] in fixed else "ok" if whole else "?", f["file"])
PY
)

declare -A original   # copy -> the file it was copied from
copies=() controls=()
for f in "$root"/tests/advisor/fixtures/*.cu "$root"/rules/examples/*.cu; do
  copy=$scratch/$(basename "$(dirname "$f")")_$(basename "$f")
  k=${kind[$f]:-?}
  if [ "$k" = ok ] && grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f"; then k=local; fi
  if [ "$k" = ok ]; then
    # a few files without fix-its go through --fix too: they must come back unchanged
    [ ${#controls[@]} -lt 3 ] && [ "$(wc -c <"$f")" -lt 1500 ] || continue
    controls+=("$copy")
  fi
  cp "$f" "$copy"
  original[$copy]=$f
  copies+=("$copy")
done
echo "${#copies[@]} copies fixed (${#controls[@]} of them without fix-its, to come back unchanged)"

"$warplint" check --shim --fix -j 2 --gpu "$profile" "${copies[@]}" >"$scratch/fix.log" 2>&1
if [ $? -ge 2 ]; then
  echo "FAILED: warplint --fix:"; grep -E ': error: ' "$scratch/fix.log" | head -10
  failed=$((failed + 1))
fi
fixed=()
for copy in "${copies[@]}"; do cmp -s "${original[$copy]}" "$copy" || fixed+=("$copy"); done
for copy in "${controls[@]}"; do
  cmp -s "${original[$copy]}" "$copy" && continue
  echo "FAILED: --fix changed ${original[$copy]}, whose report has no fix-it"
  failed=$((failed + 1))
done

# The fixed copies still parse.
if ((${#fixed[@]})); then
  "$warplint" check --shim --model syntax -j 2 --gpu "$profile" "${fixed[@]}" >"$scratch/check.log" 2>&1
  rc=$?
  broken=$(grep -E 'error:|parse error' "$scratch/check.log" | sed 's/:.*//' | sort -u)
  for copy in $broken; do
    echo "FAILED: ${original[$copy]:-$copy} no longer parses after its fix-its:"; grep -F "$copy" "$scratch/check.log" | head -5
    failed=$((failed + 1))
  done
  if [ $rc -ge 2 ] && [ -z "$broken" ]; then echo "FAILED: warplint exited $rc on the fixed copies"; failed=$((failed + 1)); fi
fi

# nvcc compiles each fixed copy's device side (-cubin: EDG's front end on the
# whole file as the device pass sees it, host functions and launches too,
# then cicc and ptxas; 0.6 s of CPU where -c, adding the host pass and gcc,
# takes 1.4), or else the original fails too.
compiled=0
if [ -n "$nvcc" ] && ((${#fixed[@]})); then
  printf '%s\0' "${fixed[@]}" |
    xargs -0 -n 1 -P 2 sh -c '"$0" -arch=sm_90 -cubin -o /dev/null "$1" >"$1.log" 2>&1; echo "$? $1"' "$nvcc" \
    >"$scratch/nvcc.results"
  while read -r rc copy; do
    if [ "$rc" = 0 ]; then compiled=$((compiled + 1)); continue; fi
    if "$nvcc" -arch=sm_90 -cubin -o /dev/null "${original[$copy]}" >/dev/null 2>&1; then
      echo "FAILED: nvcc rejects ${original[$copy]} after its fix-its:"; head -5 "$copy.log"
      failed=$((failed + 1))
    fi
  done <"$scratch/nvcc.results"
fi
for copy in "${fixed[@]}"; do echo "ok: $(basename "${original[$copy]}"): fix-its applied"; done
echo "warplint_fixits: ${#fixed[@]} files fixed, $compiled compiled by nvcc, $failed failed"
[ "${#fixed[@]}" -ge 3 ] || { echo "FAILED: fewer than 3 files drew fix-its"; exit 1; }
[ "$failed" -eq 0 ]

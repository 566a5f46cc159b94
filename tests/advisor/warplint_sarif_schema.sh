#!/usr/bin/env bash
# warplint's SARIF against the SARIF 2.1.0 schema: the report of the
# fixtures of every checked memory space (findings with fix-its and notes),
# and of a file with a skipped kernel and file notes,
# is validated by pydantic-sarif, whose model is generated from the OASIS
# schema (sarif-schema-2.1.0.json) and forbids properties the schema does
# not name. Then what code scanning needs from it: fixes (artifactChanges
# with replacements) and the notes as related locations and Markdown.
# Skipped (77) without pydantic-sarif, except under CI=true, where that
# fails: scripts/install-deps.sh installs it.
#   warplint_sarif_schema.sh WARPLINT SCRATCH_DIR
set -uo pipefail
warplint=${1:?usage: warplint_sarif_schema.sh WARPLINT SCRATCH_DIR}
scratch=${2:?usage: warplint_sarif_schema.sh WARPLINT SCRATCH_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! python3 -c 'import pydantic_sarif.model' 2>/dev/null; then
  echo "pydantic-sarif is not installed (scripts/install-deps.sh installs it)"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi
rm -rf "$scratch" && mkdir -p "$scratch"
# A kernel that does not parse beside one that does, under an include that
# is missing: a skipped kernel and file notes in the same report.
cat >"$scratch/tolerant.cu" <<'CU'
#include "no_such_helper.h"
__global__ void strided(float *a, int n) { a[threadIdx.x * n] = 1.0f; }
__global__ void broken(float *a) { a[threadIdx.x] = missing_value; }
CU
# The fixtures named as test_warplint_fixtures names them (absolute paths,
# from the same working folder: CTest's, this test's build folder), so that
# their device code comes from that test's run (WARPLINT_DEVICE_CACHE).
fixtures=$root/tests/advisor/fixtures
"$warplint" check --shim --format=sarif -j 2 --gpu "$root/tests/advisor/profiles/synthetic-sm90.json" \
  "$fixtures"/{s1,s5,c3,g3,t4,l}_positive.cu "$fixtures"/*negative*.cu "$scratch/tolerant.cu" \
  >"$scratch/report.sarif" 2>"$scratch/stderr.txt"
rc=$?
[ $rc -le 1 ] || { echo "FAILED: warplint exited $rc"; head -5 "$scratch/stderr.txt"; exit 1; }
python3 - "$scratch/report.sarif" <<'PY'
import json, sys
from pydantic_sarif.model import StaticAnalysisResultsFormatSarifVersion210JsonSchema as Sarif
doc = json.load(open(sys.argv[1]))
passed = failed = 0
def expect(what, ok):
    global passed, failed
    if ok: passed += 1
    else:
        failed += 1
        print("FAILED:", what)
try:
    Sarif.model_validate(doc)
    expect("valid SARIF 2.1.0", True)
except Exception as e:  # the validator's own words name the path and the problem
    expect("valid SARIF 2.1.0: %s" % str(e)[:2000], False)
results = doc["runs"][0]["results"]
with_fix = [r for r in results if r.get("fixes")]
with_notes = [r for r in results if r.get("relatedLocations")]
expect("results with fixes (%d of %d)" % (len(with_fix), len(results)), len(with_fix) >= 3)
expect("results with related locations (%d)" % len(with_notes), len(with_notes) >= 3)
for r in with_fix:
    for change in r["fixes"][0]["artifactChanges"]:
        expect("the change names the result's file",
               change["artifactLocation"]["uri"] == r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for rep in change["replacements"]:
            region = rep["deletedRegion"]
            expect("a replacement's region starts where it ends or before",
                   (region["startLine"], region["startColumn"]) <= (region["endLine"], region["endColumn"]))
            expect("a replacement inserts text", "text" in rep["insertedContent"])
for r in with_notes:
    expect("each note is in the Markdown message too",
           all(n["message"]["text"] in r["message"].get("markdown", "") for n in r["relatedLocations"]))
# The [32][32] tile's padding: 32 -> 33 in s1_positive.cu.
pads = [rep for r in with_fix if r["ruleId"] == "S_1"
        for c in r["fixes"][0]["artifactChanges"] for rep in c["replacements"]
        if rep["insertedContent"]["text"] == "33"]
expect("the S_1 padding fix-it (32 -> 33)", len(pads) >= 1)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY

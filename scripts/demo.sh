#!/usr/bin/env bash
# The main job on bundled defaults, run by `make demo`:
#   0. the build of what the steps run, its compiler output (ptxas resource
#      reports included) in a log (matmul's only where step 1 finds a GPU);
#   1. the device this machine has (or that it has none);
#   2. warplint on the bundled example kernels, when warplint is built;
#   3. the MNF tool on a small synthetic scene (GPU and serial with a GPU, CPU without);
#   4. where a GPU is present, the matrix-multiply progression at 1024 and 2048.
# Each step runs only if its program was built; a missing one is named. The
# results stay in BUILD/demo/, and a summary ends the run: what ran, what it
# found, where the results are.
#   scripts/demo.sh [BUILD_DIR [JOBS]]
# DEMO_BUILD, when set, is run by bash instead of `cmake --build BUILD -j JOBS`
# (the test of this script gives a stand-in).
set -uo pipefail
build=${1:-build}
jobs=${2:-2}
bin=$build/bin
out=$build/demo
status=0
ran=()      # one line per step for the summary: what ran and what it found
mkdir -p "$out" || exit 1

step() { printf '\n== %s\n' "$*"; }

# Only what the steps below run: the full build (every test, benchmark and
# rule example) is `make test`'s. Targets this configuration lacks (no CUDA:
# no gpu-info, mnf or matmul) are left out of the list. matmul, most of the
# kernels, is built later and only where the device step finds a GPU.
demo_targets() {
  local have t
  have=$(cmake --build "$build" --target help 2>/dev/null)
  for t in "$@"; do
    grep -qE "^\.\.\. $t( |$)" <<<"$have" && printf '%s ' "$t"
  done
}

# The build's own "[ 40%] Building ..." lines as one line that keeps being
# rewritten on a terminal; elsewhere (a log, CI) a line each time the
# percentage passes another tenth, so that the build never looks hung.
show_progress() {
  awk -v tty="$([ -t 1 ] && echo 1 || echo 0)" '
    /^\[ *[0-9]+%\]/ {
      pct = $0; sub(/^\[ */, "", pct); sub(/%.*/, "", pct); pct += 0
      what = $0; sub(/^\[ *[0-9]+%\] /, "", what)
      if (/Built target/) built++
      if (tty) { printf "\r  [%3d%%] %d targets built  %-60.60s", pct, built, what; fflush() }
      else if (int(pct / 10) > shown) { shown = int(pct / 10); printf "  [%3d%%] %d targets built\n", pct, built; fflush() }
    }
    END { if (tty) printf "\r%-90s\r", ""; fflush() }'
}

step "build (compiler output in $out/build.log)"
if [ -z "${DEMO_BUILD:-}" ]; then
  targets=$(demo_targets warplint gpu-info mnf mnf-gpu mnf-synth)
  echo "building ${targets:-everything}"
fi
if [ -n "${DEMO_BUILD:-}" ]; then
  bash -c "$DEMO_BUILD"
else
  # shellcheck disable=SC2086  # the target names are words
  cmake --build "$build" -j "$jobs" ${targets:+--target $targets}
fi 2>&1 | tee "$out/build.log" | show_progress
if [ "${PIPESTATUS[0]}" -ne 0 ]; then
  tail -n 20 "$out/build.log"
  echo "demo: the build failed; its whole output is in $out/build.log" >&2
  exit 1
fi
reports=$(grep -c '^ptxas info *: Used' "$out/build.log")
compiled=$(grep -cE '^\[ *[0-9]+%\] Building ' "$out/build.log")
if [ "$reports" -gt 0 ]; then
  ran+=("build: $reports kernels compiled; their ptxas resource reports (registers, spills, shared memory) are in $out/build.log")
elif [ "$compiled" -gt 0 ]; then
  ran+=("build: $compiled files compiled; the compiler's output is in $out/build.log")
else
  ran+=("build: up to date, nothing recompiled")
fi
echo "${ran[-1]}"

step "device"
gpu=no
if [ -x "$bin/gpu-info" ]; then
  "$bin/gpu-info" | tee "$out/device.txt"
  "$bin/gpu-info" --probe >/dev/null 2>&1 && gpu=yes
  ran+=("device: $(head -n 1 "$out/device.txt")")
else
  echo "(built without CUDA: no GPU programs)"
  ran+=("device: not probed (built without CUDA)")
fi

step "warplint on the bundled example kernels"
if [ -x "$bin/warplint" ]; then
  # The bad example of every rule, then the matrix-multiply progression
  # (its include paths come from the build's compile_commands.json).
  "$bin/warplint" check -j "$jobs" -p "$build" rules/examples/*_bad.cu casestudies/matmul/[0-9]*.cu \
    >"$out/warplint.txt" 2>&1
  rc=$?
  # 1 means findings, which is what the bad examples are for; 2 is an error.
  [ $rc -ge 2 ] && status=$rc
  counted=$(grep '^warplint: [0-9]* files\? analysed' "$out/warplint.txt" | tail -n 1)
  by_rule=$(grep -o '\[[A-Z]_[0-9]\]$' "$out/warplint.txt" | tr -d '[]' | sort | uniq -c |
            awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')
  echo "${counted:-warplint printed no summary (exit $rc)}"
  echo "findings by rule: ${by_rule:-none}"
  echo "(each finding with its line, cost and fix: $out/warplint.txt)"
  ran+=("warplint: ${counted#warplint: }; by rule: ${by_rule:-none}")
else
  echo "(warplint is not built yet)"
  ran+=("warplint: not built")
fi

step "MNF case study on a synthetic hyperspectral scene"
if [ -x "$bin/mnf" ]; then
  mnf/demo.sh "$build" "$out/mnf" 2>&1 | tee "$out/mnf.txt"
  [ "${PIPESTATUS[0]}" -ne 0 ] && status=1
  wrote=$(grep -o 'wrote [0-9]* components ([^)]*) in [0-9.]* ms' "$out/mnf.txt" | paste -sd ';' | sed 's/;/; /g')
  ran+=("mnf: ${wrote:-failed (see $out/mnf.txt)}")
else
  echo "(built without CUDA: mnf is not built)"
  ran+=("mnf: not built (no CUDA)")
fi

step "matrix-multiply case study"
if [ "$gpu" = yes ] && [ -z "${DEMO_BUILD:-}" ]; then
  echo "building matmul (compiler output in $out/build_matmul.log)"
  cmake --build "$build" -j "$jobs" --target matmul 2>&1 | tee "$out/build_matmul.log" | show_progress
  [ "${PIPESTATUS[0]}" -ne 0 ] && { tail -n 20 "$out/build_matmul.log"; echo "demo: building matmul failed" >&2; exit 1; }
fi
if [ "$gpu" = yes ]; then
  "$bin/matmul" --sizes 1024,2048 --json "$out/matmul.jsonl" | tee "$out/matmul.md"
  [ "${PIPESTATUS[0]}" -ne 0 ] && status=1
  ran+=("matmul: $(grep -c '| ok |$' "$out/matmul.md") runs correct, $(grep -c '| FAIL |$' "$out/matmul.md") wrong" \
        "(tables: $out/matmul.md, result lines: $out/matmul.jsonl)")
else
  echo "(no usable GPU here: the matrix-multiply progression needs one; its H100 results are in casestudies/matmul/RESULTS.md)"
  ran+=("matmul: skipped, no usable GPU (H100 results: casestudies/matmul/RESULTS.md)")
fi

step "summary"
for line in "${ran[@]}"; do echo "- $line"; done
echo "results: $out/ (build.log, warplint.txt, mnf/, and with a GPU matmul.md)"
[ $status -eq 0 ] || echo "demo: a step failed (exit $status); see above"
exit $status

#!/usr/bin/env bash
# The HTML report in a real browser (headless Chromium): the page renders
# (the screenshot is not blank), every finding's drawings are in the DOM
# the browser built, the console stays silent (no script error, no blocked
# fetch: the page's Content-Security-Policy forbids any), and it prints.
# Two controls first prove that the checks can fail: a blank page must be
# judged blank and a page with a script error must be caught.
#
#   warplint_browser.sh WARPLINT PNG_CHECK SCRATCH_DIR
#
# Without chromium (or without png_check, built only where libpng is) the
# test fails under CI=true and is skipped (exit 77) elsewhere: it never
# passes without running. scripts/install-deps.sh installs both.
set -uo pipefail
warplint=${1:?usage: warplint_browser.sh WARPLINT PNG_CHECK SCRATCH_DIR}
png_check=${2:?usage: warplint_browser.sh WARPLINT PNG_CHECK SCRATCH_DIR}
scratch=${3:?usage: warplint_browser.sh WARPLINT PNG_CHECK SCRATCH_DIR}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

missing() {
  if [ -n "${CI:-}" ] && [ "${CI}" != false ]; then
    echo "FAILED: $1 (CI=true: the browser test must run; scripts/install-deps.sh installs it)"
    exit 1
  fi
  echo "skipped: $1 (under CI=true this fails)"
  exit 77
}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || missing "chromium not found"
[ -x "$png_check" ] || missing "png_check not built (libpng missing at configure time)"

rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failed=$((failed + 1)); fi
}

# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start;
# the pages are the test's own local files. A profile of its own keeps the
# user's untouched.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --user-data-dir="$scratch/chromium-profile" "$@"
}
# The page's console: Chromium logs each message as "...:CONSOLE..." on
# stderr with --enable-logging=stderr.
render_dom() {  # render_dom PAGE DOM_OUT LOG_OUT
  chrome --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$2" 2>"$3"
}
console_silent() { ! grep -q ':CONSOLE' "$1"; }

# Controls: the checks below must be able to fail.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$scratch/blank.html"
printf '<!DOCTYPE html><html><body><p>x</p><script>no_such_function();</script></body></html>\n' \
  >"$scratch/error.html"
chrome --window-size=1280,1024 --screenshot="$scratch/blank.png" "file://$scratch/blank.html" >/dev/null 2>&1
"$png_check" "$scratch/blank.png" >/dev/null
expect "control: a blank page is judged blank" test $? = 1
render_dom "$scratch/error.html" "$scratch/error.dom" "$scratch/error.log"
expect "control: a script error shows in the console log" grep -q ':CONSOLE' "$scratch/error.log"

# The report: every drawn space (shared 4 and 8 bytes, global, constant,
# local), symbolic warps, a clean file, and source text that tries to inject
# markup and script.
inject="$scratch/inject <b>'&\".cu"
cat >"$inject" <<'EOF'
// </code></div></article><script>alert("injected")</script><img src=x onerror=alert(2)>
__global__ void inject(float *out, const float *in) {
  __shared__ float tile[32][32];  // <style>body{display:none}</style>
  tile[threadIdx.x][0] = in[threadIdx.x];  /* "><script>alert(3)</script> */
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}
EOF
fixtures="$source_dir/tests/advisor/fixtures"
inputs=("$fixtures/s1_positive.cu" "$fixtures/c3_positive.cu" "$fixtures/g3_positive.cu" "$fixtures/l_positive.cu"
        "$fixtures/pointers_positive.cu" "$fixtures/s5_positive.cu" "$fixtures/s1_negative.cu" "$inject")
page="$scratch/report.html"
"$warplint" check --shim --format=html -o "$page" "${inputs[@]}" 2>"$scratch/warplint.err"
expect "warplint wrote the page (exit 1: findings)" test $? = 1 -a -s "$page"
findings=$("$warplint" check --shim "${inputs[@]}" 2>/dev/null | grep -cE ': (warning|note): .* \[[A-Z]_[0-9]\]$')
echo "warplint_browser: $findings findings in the text output"

render_dom "$page" "$scratch/report.dom" "$scratch/report.log"
grep ':CONSOLE' "$scratch/report.log"
expect "the console has no message" console_silent "$scratch/report.log"
articles=$(grep -o '<article class="finding' "$scratch/report.dom" | wc -l)
figures=$(grep -o '<figure class="drawing' "$scratch/report.dom" | wc -l)
svgs_dom=$(grep -o '<svg class="warp"' "$scratch/report.dom" | wc -l)
svgs_page=$(grep -o '<svg class="warp"' "$page" | wc -l)
echo "warplint_browser: DOM: $articles findings, $figures drawings ($svgs_dom of them SVG; the page has $svgs_page)"
expect "every finding is in the DOM" test "$articles" = "$findings" -a "$findings" -gt 0
expect "each finding has its two drawings (as written, after the fix)" test "$figures" = $((2 * findings))
expect "every SVG drawing of the page is in the DOM" test "$svgs_dom" = "$svgs_page" -a "$svgs_dom" -gt 0
for i in $(seq 0 $((findings - 1))); do
  grep -q "<article class=\"finding[a-z ]*\" id=\"f$i\"" "$scratch/report.dom" || { echo "finding f$i missing"; failed=$((failed + 1)); }
done
expect "the injected markup stays text (no script, img or style element)" \
  bash -c "! grep -qiE '<(script|img|style>body)' '$scratch/report.dom'"

chrome --window-size=1400,2000 --screenshot="$scratch/report.png" "file://$page" >/dev/null 2>&1
"$png_check" "$scratch/report.png"
expect "the screenshot is not blank" test $? = 0
chrome --no-pdf-header-footer --print-to-pdf="$scratch/report.pdf" "file://$page" >/dev/null 2>&1
pages=$(grep -ac '/Type /Page\b' "$scratch/report.pdf" 2>/dev/null)
echo "warplint_browser: printed to $pages PDF pages"
expect "the page prints" test "${pages:-0}" -ge 2

echo "warplint_browser: $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# Prints the Markdown tables of RESULTS.md from a runner's result lines, so
# that every number there comes from the data file. With a second file (a
# run on another lease), first the table of issue 14's targets: the entry
# point (ENTRY, default 20_padded_rows) against cuBLAS FP32 in each run,
# and the plan it chose, at the eight sizes of the issue.
# usage: [ENTRY=NAME] results_tables.sh RESULTS.jsonl [OTHER_RUN.jsonl]    (needs jq)
set -eu
in=$1
entry=${ENTRY:-20_padded_rows}
if [ $# -ge 2 ]; then
  echo "### Version $entry against the targets, two leases"
  echo
  echo "| size | target | cuBLAS FP32 GFLOP/s (A / B) | plan (A / B) | $entry GFLOP/s (A / B) | % of cuBLAS (A / B) | met |"
  echo "|---|---:|---:|---|---:|---:|---|"
  jq -rn --arg entry "$entry" --slurpfile runa "$in" --slurpfile runb "$2" '
    def key: "\(.params.M)x\(.params.N)x\(.params.K)";
    ["1024x1024x1024", "2048x2048x2048", "4096x4096x4096", "8192x8192x8192", "1000x1000x1000",
     "4095x4097x1023", "8192x1024x4096", "333x4099x2049"] as $targets |
    ($runa | map(select(.name == $entry and (key as $k | $targets | index([$k]))))) as $a |
    ($runb | map(select(.name == $entry))) as $b |
    ($runa | map(select(.name == "cublas_fp32"))) as $ca |
    ($runb | map(select(.name == "cublas_fp32"))) as $cb |
    $a[] | key as $k |
    ($b | map(select(key == $k))[0]) as $rb |
    ($ca | map(select(key == $k))[0]) as $cra |
    ($cb | map(select(key == $k))[0]) as $crb |
    (if ($k == "4096x4096x4096" or $k == "8192x8192x8192") then 97 else 90 end) as $t |
    "| \($k) | \($t)% | \($cra.gflops | round) / \($crb.gflops | round) | \(.params.plan) / \($rb.params.plan) | \(.gflops | round) / \($rb.gflops | round) | \(.ratio_to_cublas * 10000 | round / 100) / \($rb.ratio_to_cublas * 10000 | round / 100) | \(if (.ratio_to_cublas * 100 >= $t and $rb.ratio_to_cublas * 100 >= $t) then "yes" else "no" end) |"
  '
  echo
fi
echo "### 4096 x 4096 x 4096"
echo
echo "| version | arith | regs | smem B | local B | median ms (min-max) | GFLOP/s | % cuBLAS FP32 | % FP32 peak | rel. error |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
jq -r 'select(.params.M == 4096 and .params.N == 4096 and .params.K == 4096)
  | "| \(.name) | \(.params.arith) | \(.params.registers // "-") | \(.params.shared_bytes // "-") | \(.params.local_bytes // "-") | \(.median * 1000 | round / 1000) (\(.min * 1000 | round / 1000)-\(.max * 1000 | round / 1000)) | \(.gflops | round) | \(.ratio_to_cublas * 1000 | round / 10) | \(.fraction_of_peak * 1000 | round / 10) | \(if .rel_err == null then "reference" else (.rel_err * 1e7 | round / 1e7 | tostring) end) |"' "$in"
echo
echo "### All sizes: GFLOP/s (% of cuBLAS FP32 in the same run)"
echo
jq -rs '
  (reduce .[] as $r ([]; if index(["\($r.params.M)x\($r.params.N)x\($r.params.K)"]) then . else . + ["\($r.params.M)x\($r.params.N)x\($r.params.K)"] end)) as $sizes |
  (reduce .[] as $r ([]; if index([$r.name]) then . else . + [$r.name] end)) as $names |
  ("| version | " + ($sizes | join(" | ")) + " |"),
  ("|---|" + ($sizes | map("---:") | join("|")) + "|"),
  ($names[] as $n |
    "| \($n) | " + ([$sizes[] as $s | (map(select(.name == $n and "\(.params.M)x\(.params.N)x\(.params.K)" == $s))[0]
      | if . == null then "-" else "\(.gflops | round) (\(.ratio_to_cublas * 100 | round))" end)] | join(" | ")) + " |")
' "$in"

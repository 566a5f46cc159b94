#!/bin/bash
# The truth harness's device step: every program of a manifest under
# Nsight Compute's source counters (the first launch of each kernel, at
# most 64 kernels a program; the program is stopped once every kernel
# function its binary holds was profiled, and a program still running at
# its time limit gets SIGINT, on which ncu saves what it profiled), then
# one row per executed memory
# instruction's source line (ncu_lines.py). Run from the repository root
# on a machine with a GPU and ncu.
#
# usage: advisor/truth/run_device.sh MANIFEST OUTDIR [JOBS] [DEADLINE_S]
#   MANIFEST  TSV: codebase, program, binary (path from the repository
#             root; it runs in its own folder), arguments; '#' comments
#   OUTDIR    receives truth-lines.tsv.gz, truth-kernels.tsv.gz,
#             truth-pcs.tsv.gz, status.tsv, env.txt, logs.tar.gz
#   JOBS      programs at once (default 6); DEADLINE_S: no program starts
#             after this many seconds, and none runs past it (default 420)
# environment: TRUTH_PER_PROGRAM (seconds, default 90)
set -u
if [ $# -lt 2 ] || [ ! -f "$1" ]; then
  echo "run_device.sh: error: usage: run_device.sh MANIFEST OUTDIR [JOBS] [DEADLINE_S]" >&2; exit 2
fi
command -v ncu > /dev/null || { echo "run_device.sh: error: ncu not found" >&2; exit 2; }
nvidia-smi -L > /dev/null 2>&1 || { echo "run_device.sh: error: no GPU" >&2; exit 2; }
manifest=$(readlink -f "$1"); out=$(readlink -f "$2"); jobs=${3:-6}; deadline=${4:-420}
here=$(cd "$(dirname "$0")" && pwd)
pyd=$(dirname "$(ls /opt/nvidia/nsight-compute/*/extras/python/ncu_report.py 2>/dev/null | tail -1)")
[ -f "$pyd/ncu_report.py" ] || pyd=$(dirname "$(find / -name ncu_report.py -not -path '/proc/*' 2>/dev/null | head -1)")
export PYTHONPATH=$pyd
mkdir -p "$out/work/rep" "$out/work/log" "$out/work/lines" "$out/work/k" "$out/work/pc"
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  ncu --version | tail -1; nvcc --version 2>/dev/null | tail -1; echo "root $(pwd)"; } > "$out/env.txt"
export TRUTH_START=$(date +%s) TRUTH_DEADLINE=$deadline TRUTH_W=$out/work TRUTH_HERE=$here
export TRUTH_PER=${TRUTH_PER_PROGRAM:-90} TRUTH_ROOT=$(pwd)
# the spelling of --kill's value this ncu takes (empty: never stop a program early)
TRUTH_KILL=
for v in on yes 1; do
  if ncu --kill "$v" --launch-count 1 --metrics gpu__time_duration.sum -o /tmp/truth-kill-test -f true > /tmp/truth-kill.log 2>&1 \
     && ! grep -qi 'invalid\|unrecognised\|unrecognized' /tmp/truth-kill.log; then TRUTH_KILL=$v; break; fi
done
export TRUTH_KILL
echo "ncu --kill value: ${TRUTH_KILL:-none}" >> "$out/env.txt"
one() {
  IFS=$'\t' read -r cb prog bin args <<< "$1"
  local now left t s e rc n st tag
  tag="$cb.$prog"
  now=$(date +%s); left=$(( TRUTH_START + TRUTH_DEADLINE - now ))
  if [ "$left" -le 10 ]; then printf '%s\t%s\tdeadline\t-\t0\t0\n' "$cb" "$prog" >> "$TRUTH_W/status.tsv"; return; fi
  t=$(( left < TRUTH_PER ? left : TRUTH_PER ))
  # stop the program once every kernel function of the binary was profiled
  local nk kill=()
  nk=$(cuobjdump -sass "$TRUTH_ROOT/$bin" 2>/dev/null | grep -c 'Function :')
  if [ -n "$TRUTH_KILL" ] && [ "${nk:-0}" -gt 0 ] && [ "$nk" -le 64 ]; then
    kill=(--launch-count "$nk" --kill "$TRUTH_KILL")
  else
    kill=(--launch-count 64)
  fi
  s=$(date +%s%N)
  # shellcheck disable=SC2086  # the arguments are words of the manifest
  (cd "$TRUTH_ROOT/$(dirname "$bin")" && timeout -s INT -k 10 "$t" ncu --section SourceCounters \
      --metrics idc__requests.sum,smsp__inst_executed_op_ldc.sum,launch__block_size,launch__grid_size,launch__registers_per_thread \
      --kernel-name-base demangled --kernel-id :::1 "${kill[@]}" -f -o "$TRUTH_W/rep/$tag" \
      "./$(basename "$bin")" $args) > "$TRUTH_W/log/$tag.log" 2>&1
  rc=$?
  e=$(date +%s%N)
  n=$(grep -c '==PROF== Profiling' "$TRUTH_W/log/$tag.log")
  st=ok
  [ -f "$TRUTH_W/rep/$tag.ncu-rep" ] || st=noreport
  if [ $st = ok ]; then
    python3 "$TRUTH_HERE/ncu_lines.py" --no-header --codebase "$cb" --program "$prog" \
      --kernels "$TRUTH_W/k/$tag.tsv" --pcs "$TRUTH_W/pc/$tag.tsv" "$TRUTH_W/rep/$tag.ncu-rep" \
      > "$TRUTH_W/lines/$tag.tsv" 2>> "$TRUTH_W/log/$tag.log" || st=extract-failed
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cb" "$prog" "$st" "$rc" "$n" "$(( (e - s) / 1000000 ))" >> "$TRUTH_W/status.tsv"
}
export -f one
grep -v -e "^#" -e "^$" "$manifest" | cut -f1-4 | xargs -d '\n' -P "$jobs" -I{} bash -c 'one "$1"' _ {}
hdr() { python3 -c "import sys; sys.path.insert(0, '$here'); import ncu_lines as n; print('\t'.join(getattr(n, '$1')))"; }
{ hdr HEADER; cat "$out"/work/lines/*.tsv 2>/dev/null; } | gzip -9 > "$out/truth-lines.tsv.gz.part" && mv "$out/truth-lines.tsv.gz.part" "$out/truth-lines.tsv.gz"
{ hdr KERNEL_HEADER; cat "$out"/work/k/*.tsv 2>/dev/null; } | gzip -9 > "$out/truth-kernels.tsv.gz.part" && mv "$out/truth-kernels.tsv.gz.part" "$out/truth-kernels.tsv.gz"
{ hdr PC_HEADER; cat "$out"/work/pc/*.tsv 2>/dev/null; } | gzip -9 > "$out/truth-pcs.tsv.gz.part" && mv "$out/truth-pcs.tsv.gz.part" "$out/truth-pcs.tsv.gz"
{ printf 'codebase\tprogram\tstatus\tncu_rc\tkernels_profiled\tms\n'; sort "$out/work/status.tsv"; } > "$out/status.tsv"
tar czf "$out/logs.tar.gz" -C "$out/work" log
rm -rf "$out/work"
awk -F'\t' 'NR > 1 { s[$3]++; k += $5 } END { for (x in s) printf "%s %d\n", x, s[x]; printf "kernels profiled %d\n", k }' "$out/status.tsv"

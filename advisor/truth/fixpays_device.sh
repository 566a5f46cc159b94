#!/bin/bash
# "Does the fix pay?" (issue 20, part 4), the device step: for each pair of
# binaries (the program as it is, and with one rule's warplint fix-its
# applied), run both once to compare their output, then time the fixed
# kernels with Nsight Compute (gpu__time_duration.sum of each launch,
# caches flushed before each, clocks as found), before and after
# alternating, ROUNDS rounds of LAUNCHES launches each (the program is
# stopped after them). Outputs are compared first, all programs at once;
# the times one program at a time. Run from the
# repository root on a machine with a GPU and ncu.
#
# usage: advisor/truth/fixpays_device.sh PAIRS OUTDIR [ROUNDS] [LAUNCHES]
#   PAIRS   TSV: rule, code base, program, kernel names (comma-separated),
#           binary before, binary after, arguments
#   OUTDIR  receives fixpays-launches.tsv (every timed launch) and
#           fixpays-outputs.tsv (whether the outputs agree), logs.tar.gz
set -u
if [ $# -lt 2 ] || [ ! -f "$1" ]; then
  echo "fixpays_device.sh: error: usage: fixpays_device.sh PAIRS OUTDIR [ROUNDS] [LAUNCHES]" >&2; exit 2
fi
command -v ncu > /dev/null || { echo "fixpays_device.sh: error: ncu not found" >&2; exit 2; }
pairs=$(readlink -f "$1"); out=$(readlink -f "$2"); rounds=${3:-3}; launches=${4:-5}
root=$(pwd)
mkdir -p "$out/log"
launches_f="$out/fixpays-launches.tsv.part"; outputs_f="$out/fixpays-outputs.tsv.part"
printf 'rule\tcodebase\tprogram\tvariant\tround\tkernel\tduration_ns\n' > "$launches_f"
printf 'rule\tcodebase\tprogram\tbefore_rc\tafter_rc\toutput\n' > "$outputs_f"
# digits of lines that report times or rates are not output
filt() { sed -E '/[Tt]ime|[Ee]lapsed|GB\/s|GFLOP|[Tt]hroughput|[Bb]andwidth|[[:digit:]] *(ms|us|sec|s)\b/s/[0-9.e+-]+/N/g' "$1"; }
kill=()
# (the spelling this ncu accepts, tried on a program that launches nothing:
# without a program every spelling fails, and each timed run would go on
# to the program's end under ncu)
for v in on yes 1; do
  if ncu --kill "$v" --launch-count 1 --metrics gpu__time_duration.sum true > /dev/null 2>&1; then
    kill=(--kill "$v"); break
  fi
done
echo "fixpays: ncu ${kill[*]:-without --kill (no spelling accepted)}" >&2
# 1. outputs, all programs at once (their times are not measured here)
compare() {
  IFS=$'\t' read -r rule cb prog kernels before after args <<< "$1"
  local tag="$rule.$cb.$prog" brc arc same
  # shellcheck disable=SC2086
  (cd "$FP_ROOT/$(dirname "$before")" && timeout 300 "./$(basename "$before")" $args) > "$FP_OUT/log/$tag.before.out" 2>&1; brc=$?
  # shellcheck disable=SC2086
  (cd "$FP_ROOT/$(dirname "$after")" && timeout 300 "./$(basename "$after")" $args) > "$FP_OUT/log/$tag.after.out" 2>&1; arc=$?
  if [ $brc -ne 0 ] || [ $arc -ne 0 ]; then same=failed
  elif diff <(filt "$FP_OUT/log/$tag.before.out") <(filt "$FP_OUT/log/$tag.after.out") > "$FP_OUT/log/$tag.diff"; then same=same
  else same=different; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rule" "$cb" "$prog" "$brc" "$arc" "$same" >> "$FP_OUTPUTS"
}
export -f compare filt
export FP_ROOT=$root FP_OUT=$out FP_OUTPUTS=$outputs_f
# (FIXPAYS_SKIP_COMPARE=1: already compared, by an earlier call)
[ "${FIXPAYS_SKIP_COMPARE:-0}" = 1 ] ||
  grep -v -e '^#' -e '^$' "$pairs" | xargs -d '\n' -P 4 -I{} bash -c 'compare "$1"' _ {}
# 2. times: before and after alternating, one program at a time
grep -v -e '^#' -e '^$' "$pairs" | while IFS=$'\t' read -r rule cb prog kernels before after args; do
  tag="$rule.$cb.$prog"
  kre="regex:^($(echo "$kernels" | tr ',' '|'))$"
  for r in $(seq 1 "$rounds"); do
    for v in before after; do
      b=$before; [ $v = after ] && b=$after
      # shellcheck disable=SC2086
      (cd "$root/$(dirname "$b")" && timeout 120 ncu --metrics gpu__time_duration.sum --cache-control all \
          --clock-control none -k "$kre" --launch-count "$launches" "${kill[@]}" --csv --page raw \
          "./$(basename "$b")" $args) > "$out/log/$tag.$v.$r.csv" 2>&1 < /dev/null
      python3 - "$out/log/$tag.$v.$r.csv" "$rule" "$cb" "$prog" "$v" "$r" >> "$launches_f" <<'PY'
import csv, sys
f, rule, cb, prog, v, r = sys.argv[1:]
rows = [l for l in open(f, errors="replace") if l.startswith('"')]
rd = list(csv.reader(rows))
if rd:
    h = rd[0]
    if "Kernel Name" in h and "gpu__time_duration.sum" in h:
        ki, ti = h.index("Kernel Name"), h.index("gpu__time_duration.sum")
        for row in rd[2:]:
            try:
                print("\t".join([rule, cb, prog, v, r, row[ki].split("(")[0].split("<")[0].split()[-1], "%d" % float(row[ti].replace(",", ""))]))
            except (ValueError, IndexError):
                pass
PY
    done
  done
done
mv "$launches_f" "$out/fixpays-launches.tsv"; mv "$outputs_f" "$out/fixpays-outputs.tsv"
tar czf "$out/fixpays-logs.tar.gz" -C "$out" log && rm -rf "$out/log"
cat "$out/fixpays-outputs.tsv"

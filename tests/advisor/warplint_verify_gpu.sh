#!/bin/sh
# warplint verify on a GPU (label gpu): verify/verify_kernels.cu and the
# lab's starting kernels (casestudies/lab/exercises, run by
# advisor/truth/drivers/lab_driver.cu), built with -lineinfo and run under
# Nsight Compute. Each exercise's guideline finding must carry what was
# measured on its line; the coalescing and bank-conflict ones (G_3, S_1)
# must measure at least 25% excess. Exits 77 (skipped) without a GPU, ncu
# or nvcc. The rule examples (rules/examples) have no host code to run and
# are not part of this test.
# usage: warplint_verify_gpu.sh WARPLINT SOURCE_DIR SCRATCH
set -u
wl=$1; root=$2; scratch=$3
command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }
command -v "${WARPLINT_NCU:-ncu}" > /dev/null 2>&1 || { echo "skipped: no ncu"; exit 77; }
command -v nvcc > /dev/null 2>&1 || { echo "skipped: no nvcc"; exit 77; }
rm -rf "$scratch"; mkdir -p "$scratch"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
# check JSON RULE LINE MIN_EXCESS: the finding of RULE on LINE was measured (and with at least MIN_EXCESS %)
check() {
  python3 - "$@" <<'PY'
import json, sys
path, rule, line, least = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
fs = [f for f in json.load(open(path))["findings"] if f["rule"] == rule and f["line"] == line]
if not fs:
    sys.exit("no %s finding on line %d" % (rule, line))
m = fs[0].get("measured") or {}
if m.get("state") != "measured":
    sys.exit("%s line %d: %s" % (rule, line, m))
if least > 0 and m.get("excess_percent", 0) < least:
    sys.exit("%s line %d: only %.1f%% excess" % (rule, line, m["excess_percent"]))
print("%s line %d: %s" % (rule, line, m))
PY
}
cp "$root/tests/advisor/verify/verify_kernels.cu" "$scratch/"
if nvcc -O3 -arch="$arch" -lineinfo -o "$scratch/verify_kernels" "$scratch/verify_kernels.cu" 2> "$scratch/nvcc.log"; then
  (cd "$scratch" && "$wl" verify --format=json verify_kernels.cu -- ./verify_kernels > v.json 2> v.err); rc=$?
  [ $rc -eq 1 ] && ok || bad "verify_kernels: exit $rc $(cat "$scratch/v.err")"
  check "$scratch/v.json" G_3 10 25 && ok || bad "verify_kernels G_3"
  check "$scratch/v.json" S_1 17 25 && ok || bad "verify_kernels S_1"
  check "$scratch/v.json" G_2 21 0 && ok || bad "verify_kernels G_2"
else bad "nvcc verify_kernels: $(tail -3 "$scratch/nvcc.log")"; fi
lab=$root/casestudies/lab
# the exercises include lab_kernels.h: their -I comes from a compilation
# database (verify's `--` is the program's)
{
  printf '['
  sep=
  for ex in 1_transpose 2_rowsum 3_mix 6_reduce 7_particles; do
    printf '%s{"directory": "%s", "file": "%s/exercises/%s.cu", "arguments": ["nvcc", "-I%s", "-c", "%s/exercises/%s.cu"]}' \
      "$sep" "$lab" "$lab" "$ex" "$lab" "$lab" "$ex"
    sep=,
  done
  printf ']\n'
} > "$scratch/compile_commands.json"
# exercise, rule, line of its guideline finding, least excess (%)
for spec in "1_transpose G_3 0 25" "2_rowsum S_1 0 25" "6_reduce S_1 0 25" "7_particles G_3 0 25" "3_mix C_3 0 0"; do
  set -- $spec
  ex=$1; rule=$2; least=$4; n=${ex%%_*}
  exe=$scratch/lab_$ex
  if ! nvcc -O3 -std=c++17 -arch="$arch" -lineinfo -DLAB_EX="$n" -I "$lab" "$root/advisor/truth/drivers/lab_driver.cu" \
       "$lab/exercises/$ex.cu" -o "$exe" 2> "$scratch/nvcc_$ex.log"; then
    bad "nvcc $ex: $(tail -3 "$scratch/nvcc_$ex.log")"; continue
  fi
  "$wl" verify -p "$scratch" --format=json "$lab/exercises/$ex.cu" -- "$exe" > "$scratch/$ex.json" 2> "$scratch/$ex.err"
  line=$(python3 -c "import json,sys; fs=[f for f in json.load(open('$scratch/$ex.json'))['findings'] if f['rule']=='$rule']; print(fs[0]['line'] if fs else 0)" 2>/dev/null)
  if [ "${line:-0}" -eq 0 ]; then bad "$ex: no $rule finding"; continue; fi
  check "$scratch/$ex.json" "$rule" "$line" "$least" && ok || bad "$ex $rule line $line"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

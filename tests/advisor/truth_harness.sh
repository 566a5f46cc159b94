#!/bin/sh
# The truth harness (advisor/truth) without a GPU: the committed truth table
# is whole (its columns, >= 300 kernels, >= 3 code bases, excess = units -
# ideal on every row), bad input gives one error line and exit 2, and
# score.py scores a stand-in warplint (truth/fake_warplint.sh) as the
# mapping says: a G_3 warning on a line the H100 measured 78% excess is
# "both", an S_1 warning on a line it measured clean is "static only", and
# the lab's other measured conflicts are "hardware only".
# usage: truth_harness.sh SOURCE_DIR SCRATCH
set -u
root=$1; scratch=$2
t=$root/advisor/truth
rm -rf "$scratch"; mkdir -p "$scratch"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
command -v python3 > /dev/null || { echo "FAIL: python3 not found"; echo "0 passed, 1 failed"; exit 1; }
# 1. the table
python3 - "$t/data" > "$scratch/table.txt" 2>&1 <<'PY'
import gzip, sys
d = sys.argv[1]
with gzip.open(d + "/truth-lines.tsv.gz", "rt") as f:
    hdr = f.readline().rstrip("\n").split("\t")
    assert hdr == ["codebase", "program", "kernel", "file", "line", "space", "ops", "widths", "inst_executed",
                   "units_kind", "units", "ideal", "excess"], hdr
    n = 0
    for line in f:
        c = line.rstrip("\n").split("\t")
        assert len(c) == 13, c
        assert int(c[10]) - int(c[11]) == int(c[12]), c
        assert int(c[8]) > 0, c
        n += 1
with gzip.open(d + "/truth-kernels.tsv.gz", "rt") as f:
    f.readline()
    ks = {tuple(l.split("\t")[:2] + [l.split("\t")[3]]) for l in f}
bases = {k[0] for k in ks}
assert len(ks) >= 300, len(ks)
assert len(bases) >= 3, bases
print("table ok: %d rows, %d kernels, %s" % (n, len(ks), sorted(bases)))
PY
grep -q '^table ok' "$scratch/table.txt" && ok || bad "table: $(cat "$scratch/table.txt")"
# 2. bad input: one line, exit 2
python3 "$t/score.py" /nonexistent/warplint > "$scratch/o" 2> "$scratch/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e")" -eq 1 ] && ok || bad "score.py missing warplint: rc=$rc $(cat "$scratch/e")"
python3 "$t/score.py" "$root/tests/advisor/truth/fake_warplint.sh" --bogus > "$scratch/o" 2> "$scratch/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e")" -eq 1 ] && ok || bad "score.py bad option: rc=$rc"
PYTHONPATH=/nonexistent python3 "$t/ncu_lines.py" /nonexistent.ncu-rep > "$scratch/o" 2> "$scratch/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e")" -eq 1 ] && ok || bad "ncu_lines.py without ncu_report: rc=$rc"
"$t/run_device.sh" /nonexistent.tsv "$scratch/out" > "$scratch/o" 2> "$scratch/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e")" -eq 1 ] && ok || bad "run_device.sh bad manifest: rc=$rc"
"$t/fixpays_device.sh" /nonexistent.tsv "$scratch/out" > "$scratch/o" 2> "$scratch/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e")" -eq 1 ] && ok || bad "fixpays_device.sh bad pairs: rc=$rc"
# 3. scoring a stand-in warplint on the lab's programs (results go to a scratch label)
label=test-$$
python3 "$t/score.py" "$root/tests/advisor/truth/fake_warplint.sh" --only warpmem --label "$label" --out "$scratch/results" > "$scratch/score.txt" 2>&1; rc=$?
res=$scratch/results/$label
[ $rc -eq 0 ] && ok || bad "score.py: rc=$rc $(tail -3 "$scratch/score.txt")"
awk -F'\t' '$1=="G_3" && $2=="both" && $4=="casestudies/lab/exercises/1_transpose.cu" && $5==21' "$res/lines.tsv" | grep -q . \
  && ok || bad "G_3 on the transpose's line 21 is not 'both'"
awk -F'\t' '$1=="S_1" && $2=="static-only" && $4=="casestudies/lab/exercises/2_rowsum.cu" && $5==29' "$res/lines.tsv" | grep -q . \
  && ok || bad "S_1 on rowsum's line 29 is not 'static only'"
awk -F'\t' '$1=="S_1" && $2=="hw-only" && $4=="casestudies/lab/exercises/2_rowsum.cu" && $5==32' "$res/lines.tsv" | grep -q . \
  && ok || bad "S_1 on rowsum's line 32 is not 'hardware only'"
grep -q '^| G_3 | ' "$res/summary.md" && ! ls "$res"/.*.tmp > /dev/null 2>&1 && ok || bad "summary.md"
rm -rf "$res"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

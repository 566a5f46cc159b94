#!/bin/sh
# warplint verify without a GPU: with no ncu, and with ncu but no GPU, one
# error line and exit 2; with a stand-in ncu (verify/fake_ncu.sh, which
# replays what Nsight Compute exported for verify/verify_kernels.cu on an
# H100) every finding carries what was measured on its line, in text, JSON,
# SARIF and HTML, and the lines the counters flag that no check explains
# become notes.
# usage: warplint_verify.sh WARPLINT SCRATCH
set -u
wl=$1; scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"; mkdir -p "$scratch/bin" "$scratch/nogpu"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
src=$scratch/verify_kernels.cu
cp "$here/verify/verify_kernels.cu" "$src"
# the stand-ins: ncu, and nvidia-smi that finds one GPU
ln -s "$here/verify/fake_ncu.sh" "$scratch/bin/ncu"
printf '#!/bin/sh\necho "GPU 0: stand-in"\n' > "$scratch/bin/nvidia-smi"; chmod +x "$scratch/bin/nvidia-smi"
ln -s "$here/verify/fake_ncu.sh" "$scratch/nogpu/ncu"
export VERIFY_TEST_FILE="$src"

# 1. no ncu: one line, exit 2
WARPLINT_NCU=/nonexistent/ncu "$wl" verify "$src" -- /bin/true > "$scratch/o1" 2> "$scratch/e1"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e1")" -eq 1 ] && grep -q 'error: verify needs Nsight Compute' "$scratch/e1" && [ ! -s "$scratch/o1" ] \
  && ok || bad "no ncu: rc=$rc $(cat "$scratch/e1")"
# 2. ncu but no GPU (no nvidia-smi that finds one): one line, exit 2
PATH="$scratch/nogpu:/nonexistent" "$wl" verify "$src" -- /bin/true > "$scratch/o2" 2> "$scratch/e2"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e2")" -eq 1 ] && grep -q 'needs an NVIDIA GPU' "$scratch/e2" \
  && ok || bad "no GPU: rc=$rc $(cat "$scratch/e2")"
# 3. no program after --: one line, exit 2
PATH="$scratch/bin:$PATH" "$wl" verify "$src" > "$scratch/o3" 2> "$scratch/e3"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e3")" -eq 1 ] && grep -q 'needs a program' "$scratch/e3" \
  && ok || bad "no program: rc=$rc $(cat "$scratch/e3")"
# 4. the program fails (ncu writes no report): one line, exit 2
PATH="$scratch/bin:$PATH" "$wl" verify "$src" -- /bin/false > "$scratch/o4" 2> "$scratch/e4"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$scratch/e4")" -eq 1 ] && grep -q 'error: verify:' "$scratch/e4" \
  && ok || bad "failing program: rc=$rc $(cat "$scratch/e4")"
# 5. JSON: each finding's measurement
PATH="$scratch/bin:$PATH" "$wl" verify --format=json "$src" -- /bin/true > "$scratch/v.json" 2> "$scratch/e5"; rc=$?
[ $rc -eq 1 ] && ok || bad "verify json: rc=$rc $(cat "$scratch/e5")"
python3 - "$scratch/v.json" > "$scratch/j.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fs = {(f["rule"], f["line"], f["array"]): f for f in d["findings"]}
def m(rule, line, array):
    return fs[(rule, line, array)]["measured"]
g3 = m("G_3", 10, "out")
# the naive transpose's line 10: 4,718,592 sectors, 1,048,576 ideal (ncu: 78% excess)
assert g3["state"] == "measured" and g3["unit"] == "sectors", g3
assert g3["total"] == 4718592 and g3["ideal"] == 1048576, g3
assert round(g3["excess_percent"]) == 78, g3
assert round(g3["kernel_share_percent"]) == 100, g3
s1 = m("S_1", 17, "tile")
assert s1["unit"] == "wavefronts" and s1["total"] == 4194304 and s1["ideal"] == 131072, s1
assert round(s1["excess_percent"]) == 97, s1
g2 = m("G_2", 21, "in")
assert g2["state"] == "measured" and g2["excess_percent"] == 0, g2
assert any(n.startswith("measured: 78% of this line's sectors are excess") for n in fs[("G_3", 10, "out")]["notes"])
# C_3 reads constant memory: no global sectors on line 25's LDC, the line's global load and store are coalesced
assert m("C_3", 25, "c_tab")["state"] == "measured"
print("json ok")
PY
grep -q 'json ok' "$scratch/j.txt" && ok || bad "json: $(cat "$scratch/j.txt")"
# 6. a finding on a line that never ran: not executed (the measurement without line 10)
grep -v '^"10",' "$here/verify/probe_source.csv" > "$scratch/probe_source.csv"
mkdir -p "$scratch/bin2"; cp "$here/verify/fake_ncu.sh" "$scratch/bin2/ncu"; cp "$scratch/probe_source.csv" "$scratch/bin2/"
cp "$scratch/bin/nvidia-smi" "$scratch/bin2/"
PATH="$scratch/bin2:$PATH" "$wl" verify --format=json "$src" -- /bin/true > "$scratch/ne.json" 2>/dev/null
python3 -c "
import json,sys; d=json.load(open('$scratch/ne.json'))
f=[f for f in d['findings'] if f['line']==10][0]
assert f['measured']['state']=='not executed', f['measured']; print('ne ok')" > "$scratch/ne.txt" 2>&1
grep -q 'ne ok' "$scratch/ne.txt" && ok || bad "not executed: $(cat "$scratch/ne.txt")"
# 7. text: the measured note under each finding; unexplained lines as notes
PATH="$scratch/bin:$PATH" "$wl" verify "$src" -- /bin/true > "$scratch/v.txt" 2>&1
grep -q "verify_kernels.cu:10:.*note: measured: 78% of this line's sectors are excess" "$scratch/v.txt" \
  && ok || bad "text note: $(grep -n measured "$scratch/v.txt" | head -3)"
# line 15 (the tile's store) and 17 are flagged or explained; every "not explained" note names a kernel
if grep -q 'not explained by any check' "$scratch/v.txt"; then
  grep 'not explained by any check' "$scratch/v.txt" | grep -qv "in kernel '" && bad "unexplained note without kernel" || ok
else ok; fi
# 8. SARIF: result properties
PATH="$scratch/bin:$PATH" "$wl" verify --format=sarif "$src" -- /bin/true > "$scratch/v.sarif" 2>/dev/null
python3 -c "
import json; d=json.load(open('$scratch/v.sarif'))
r=[r for r in d['runs'][0]['results'] if r['ruleId']=='G_3'][0]
assert r['properties']['measured']['state']=='measured'; print('sarif ok')" > "$scratch/s.txt" 2>&1
grep -q 'sarif ok' "$scratch/s.txt" && ok || bad "sarif: $(cat "$scratch/s.txt")"
# 9. HTML: measured beside predicted in the drawing's caption
PATH="$scratch/bin:$PATH" "$wl" verify --format=html -o "$scratch/v.html" "$src" -- /bin/true 2>/dev/null
grep -q '<b class="measured">measured: 97% of this line' "$scratch/v.html" && ok || bad "html caption"
# 10. check itself is unchanged: no measured field
"$wl" check --format=json "$src" > "$scratch/c.json" 2>/dev/null
grep -q '"state":' "$scratch/c.json" && bad "check has measured fields" || ok
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

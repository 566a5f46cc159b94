#!/usr/bin/env bash
# warplint finds its profiles and rule examples from where its executable
# is: installed by `cmake --install BUILD --prefix DIR`, and in a build
# folder moved elsewhere (here: its bin/warplint and share/ copied side by
# side). A lone binary with no data beside it finds none, which shows that
# no source-tree path is compiled in.
#   warplint_install.sh CMAKE BUILD_DIR SOURCE_DIR SCRATCH_DIR
set -uo pipefail
cmake=${1:?usage: warplint_install.sh CMAKE BUILD_DIR SOURCE_DIR SCRATCH_DIR}
build=${2:?usage: warplint_install.sh CMAKE BUILD_DIR SOURCE_DIR SCRATCH_DIR}
source_dir=${3:?usage: warplint_install.sh CMAKE BUILD_DIR SOURCE_DIR SCRATCH_DIR}
scratch=${4:?usage: warplint_install.sh CMAKE BUILD_DIR SOURCE_DIR SCRATCH_DIR}
fixture=$source_dir/tests/advisor/fixtures/s1_positive.cu
rm -rf "$scratch"
mkdir -p "$scratch"
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}
lacks() { ! grep -qF -- "$1" <<<"$2"; }  # lacks TEXT OUTPUT

# A tree with bin/warplint: its data folder, explain's values and examples,
# and check's measured estimates come from ROOT/share/warplint.
check_tree() {  # check_tree LABEL ROOT
  local label=$1 root=$2 out
  out=$("$root/bin/warplint" --version)
  expect "$label: --version names its profile folder" grep -qxF "profiles: $root/share/warplint/profiles" <<<"$out"
  out=$("$root/bin/warplint" explain S_1 2>&1)
  expect "$label: explain S_1 shows the H100 profile's values" \
    grep -qE '^  bank_conflict\.way_32 +[0-9.]+ cycles' <<<"$out"
  expect "$label: explain S_1 prints the bad example" grep -qE 'tile\[threadIdx.x\]\[threadIdx.y\];$' <<<"$out"
  expect "$label: ... without the tests' markers" lacks '// expect:' "$out"
  expect "$label: every example found" lacks 'not found at' "$out"
  out=$("$root/bin/warplint" check --shim "$fixture" 2>&1)
  expect "$label: check quotes the measured cost" grep -qE '\[S_1\]$' <<<"$out"
  expect "$label: ... from the profile beside it" grep -qF 'measured on h100-sxm: 32-way' <<<"$out"
}

"$cmake" --install "$build" --prefix "$scratch/prefix" >"$scratch/install.log" 2>&1
expect "cmake --install succeeds" [ $? -eq 0 ]
expect "the profiles are installed" [ -f "$scratch/prefix/share/warplint/profiles/k20c-paper.json" ]
expect "the rule examples are installed" [ -f "$scratch/prefix/share/warplint/rules/examples/S_1_bad.cu" ]
check_tree installed "$scratch/prefix"

mkdir -p "$scratch/moved/bin"
cp "$build/bin/warplint" "$scratch/moved/bin/"
cp -r "$build/share" "$scratch/moved/share"
check_tree "moved build" "$scratch/moved"

mkdir -p "$scratch/alone/bin"
cp "$build/bin/warplint" "$scratch/alone/bin/"
out=$("$scratch/alone/bin/warplint" check --shim "$fixture" 2>&1)
expect "a lone binary says where it looked for profiles" \
  grep -qF "cannot open data folder $scratch/alone/share/warplint/profiles" <<<"$out"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

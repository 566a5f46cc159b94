#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) as a project uses it:
# `pre-commit try-repo` on this repository, in a scratch git repository,
# runs warplint on the staged .cu files only; a staged strided kernel fails
# the commit with warplint's finding, a staged clean one passes. Skipped
# (77) where pre-commit is not installed (scripts/install-deps.sh installs it).
#   warplint_precommit.sh BIN_DIR SOURCE_DIR SCRATCH_DIR
set -uo pipefail
bin=${1:?usage: warplint_precommit.sh BIN_DIR SOURCE_DIR SCRATCH_DIR}
source_dir=${2:?usage: warplint_precommit.sh BIN_DIR SOURCE_DIR SCRATCH_DIR}
scratch=${3:?usage: warplint_precommit.sh BIN_DIR SOURCE_DIR SCRATCH_DIR}
if ! command -v pre-commit >/dev/null; then
  echo "pre-commit is not installed: skipped"
  exit 77
fi
rm -rf "$scratch"
mkdir -p "$scratch/project"
export PATH="$bin:$PATH" PRE_COMMIT_HOME="$scratch/cache"
git() { command git -c user.name=warplint -c user.email=warplint@test "$@"; }
passed=0 failed=0
expect() {  # expect DESCRIPTION COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAILED: $1"; failed=$((failed + 1)); fi
}
lacks() { ! grep -qF -- "$1" <<<"$2"; }  # lacks TEXT OUTPUT

cd "$scratch/project" || exit 1
git init -q
printf '__global__ void strided(float *a, int n) { a[threadIdx.x * n] = 1.0f; }\n' >staged.cu
printf '__global__ void left(float *a) { a[threadIdx.x * 2] = 1.0f; }\n' >unstaged.cu
printf 'int host_only;\n' >host.c
git add staged.cu host.c
out=$(pre-commit try-repo "$source_dir" warplint 2>&1)
rc=$?
expect "a staged strided kernel fails the hook (exit $rc)" [ $rc -ne 0 ]
expect "with warplint's finding" grep -qE '^staged.cu:1:[0-9]+: warning: .*\[G_3\]$' <<<"$out"
expect "only .cu files are checked" lacks host.c "$out"
expect "only staged files are checked" lacks unstaged.cu "$out"

git rm -q --cached staged.cu
printf '__global__ void clean(float *a) { a[threadIdx.x] = 1.0f; }\n' >clean.cu
git add clean.cu
out=$(pre-commit try-repo "$source_dir" warplint 2>&1)
rc=$?
expect "a staged clean kernel passes (exit $rc)" [ $rc -eq 0 ]
expect "pre-commit says so" grep -qE '^warplint .*Passed$' <<<"$out"

[ $failed -eq 0 ] || echo "$out"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# Every program the build makes answers --help and -h with its usage on
# stdout and exit status 0, and an unknown option with exit status 2 and
# nothing on stdout. No GPU is visible (CUDA_VISIBLE_DEVICES is empty): a GPU
# program must answer before it looks for one. warplint's and mnf's
# subcommands too. Test executables (test_*, fuzz_*) are not programs.
#   test_help.sh BIN_DIR
set -uo pipefail
bin=${1:?usage: test_help.sh BIN_DIR}
export CUDA_VISIBLE_DEVICES=
err=$(mktemp)
trap 'rm -f "$err"' EXIT
passed=0 failed=0

fail() { echo "FAILED: $*"; failed=$((failed + 1)); }

# expect_help PROGRAM ARGS...: the usage on stdout, nothing on stderr, exit 0.
expect_help() {
  local out rc
  out=$(timeout 60 "$@" 2>"$err")
  rc=$?
  if [ $rc -ne 0 ]; then fail "$* exited $rc: $(head -c 300 "$err")"
  elif ! grep -q "usage" <<<"$out"; then fail "$* printed no usage on stdout"
  elif [ -s "$err" ]; then fail "$* wrote to stderr: $(head -c 300 "$err")"
  else passed=$((passed + 1)); fi
}

# expect_usage_error PROGRAM ARGS...: exit 2, nothing on stdout.
expect_usage_error() {
  local out rc
  out=$(timeout 60 "$@" 2>"$err")
  rc=$?
  if [ $rc -ne 2 ]; then fail "$* exited $rc, not 2"
  elif [ -n "$out" ]; then fail "$* printed on stdout: $(head -c 300 <<<"$out")"
  else passed=$((passed + 1)); fi
}

programs=0
for path in "$bin"/*; do
  name=$(basename "$path")
  case $name in test_* | fuzz_*) continue ;; esac
  [ -f "$path" ] && [ -x "$path" ] || continue
  programs=$((programs + 1))
  expect_help "$path" --help
  expect_help "$path" -h
  expect_usage_error "$path" --no-such-option
done
[ $programs -gt 0 ] || fail "no program in $bin"

if [ -x "$bin/warplint" ]; then
  for command in check arrays explain rules; do
    expect_help "$bin/warplint" $command --help
    expect_help "$bin/warplint" $command -h
    expect_usage_error "$bin/warplint" $command --no-such-option
  done
fi
if [ -x "$bin/mnf" ]; then
  for command in apply inverse; do
    expect_help "$bin/mnf" $command --help
    expect_help "$bin/mnf" $command -h
  done
fi

echo "$programs programs; $passed passed, $failed failed"
[ $failed -eq 0 ]

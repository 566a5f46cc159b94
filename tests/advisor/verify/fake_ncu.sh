#!/bin/sh
# A stand-in for Nsight Compute in warplint verify's CPU test: profiling
# (-o REPORT PROGRAM...) runs the program and writes REPORT.ncu-rep;
# --import prints probe_source.csv (real ncu output) with its path set to
# $VERIFY_TEST_FILE. FAKE_NCU_FAIL=1 makes profiling write no report.
here=$(dirname "$(readlink -f "$0")")
case " $* " in
  *" --import "*) sed "s|@FILE@|$VERIFY_TEST_FILE|" "$here/probe_source.csv"; exit 0 ;;
esac
out=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --section|--kernel-name-base|--kernel-id|--launch-count|--metrics) shift 2 ;;
    -f) shift ;;
    *) break ;;
  esac
done
"$@" > /dev/null 2>&1 || exit 1
[ -n "${FAKE_NCU_FAIL:-}" ] && exit 0
: > "$out.ncu-rep"

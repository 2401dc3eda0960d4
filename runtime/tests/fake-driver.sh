#!/usr/bin/env bash
# Usage: fake-driver.sh <tileopt-run> <sample-artifact-dir> <fake-driver-dir>
# Runs tileopt-run end to end over the stand-in libcuda.so.1 of
# fake-driver/FakeCuda.cpp: the sample artifact must pass, and a copy whose
# `cols` argument is bound to the wrong dim must fail (rows half computed,
# the rest left as NaN poison).
set -euo pipefail
tileopt_run=$1 sample=$2
export LD_LIBRARY_PATH=$3${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

output=$("$tileopt_run" "$sample" --iters 2 --warmup 1)
echo "$output"
grep -q "^check      PASS$" <<<"$output"

broken=$(mktemp -d)
trap 'rm -rf "$broken"' EXIT
sed 's/"dim": 1/"dim": 0/' "$sample/manifest.json" >"$broken/manifest.json"
cp "$sample"/*.cubin "$broken/"
status=0
output=$("$tileopt_run" "$broken" --iters 0) || status=$?
echo "$output"
if [ $status -ne 1 ] || ! grep -q "^check      FAIL$" <<<"$output"; then
  echo "expected the broken artifact to fail the check (exit 1), got exit $status"
  exit 1
fi

#!/usr/bin/env bash
# Usage: no-gpu.sh <tileopt-run> <artifact-dir>
# Checks that tileopt-run, on a machine without a CUDA driver or GPU, says so
# plainly and exits 77. Exits 77 itself (ctest: skipped) when the artifact
# actually ran, i.e. on a GPU machine.
set -u
output=$("$1" "$2" --iters 1 --warmup 0 2>&1)
status=$?
echo "$output"
if [ $status -eq 77 ] && grep -q "no CUDA driver or GPU found" <<<"$output"; then
  exit 0
fi
if [ $status -eq 0 ]; then
  echo "a GPU is present: this test is for machines without one"
  exit 77
fi
echo "expected exit 77 and \"no CUDA driver or GPU found\", got exit $status"
exit 1

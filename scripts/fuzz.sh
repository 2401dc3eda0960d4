#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [--minutes N | --cpu-minutes N] [--seed S] [--out DIR]
#
# The long fuzzing run (issue 28; docs/reliability.md says what it covers
# and what it found). Two fuzzers, one after the other, under nice -n 15:
#   1. test/fuzz/fuzz.py for N minutes (default 60): mutated .mlir files of
#      examples/ and test/ through tileopt-opt and tileopt-compile, mutated
#      artifacts through tileopt-run over the stand-in CUDA driver; with
#      --cpu-minutes, until the tools have used N minutes of CPU time
#      instead (on a shared machine that takes longer; at most 4N minutes);
#   2. where clang++-22 with libFuzzer is installed (Debian: clang-22,
#      libclang-rt-22-dev), the runtime's manifest reader under libFuzzer,
#      ASan and UBSan (runtime/tests/fuzz/ManifestFuzzer.cpp) for N/4
#      minutes, its corpus kept in DIR/manifest-corpus.
# Crashes land in DIR (default fuzz-out/), each with the command that
# reproduces it; the exit status is 1 when there is a new one. Uses the
# build in $TILEOPT_BUILD_DIR (default build/) as it is: build tileopt-opt,
# tileopt-compile, tileopt-run and tileopt_fake_cuda first.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEOPT_BUILD_DIR:-$root/build}
minutes=60 seed=1 out=fuzz-out cpu_seconds=0
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --cpu-minutes) cpu_seconds=$(($2 * 60)); minutes=$(($2 * 4)); shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--minutes N | --cpu-minutes N] [--seed S] [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
status=0

echo "== fuzz.py, seed $seed, $minutes min ($(date -u +%FT%TZ), $(git -C "$root" rev-parse --short HEAD))"
TILEOPT_BUILD_DIR=$build nice -n 15 python3 "$root/test/fuzz/fuzz.py" \
  --seed "$seed" --seconds "$((minutes * 60))" --tool-cpu-seconds "$cpu_seconds" \
  --out "$out" || status=1

if command -v clang++-22 >/dev/null; then
  fuzzer=$out/manifest-fuzzer
  echo "== libFuzzer on the manifest reader, $((minutes / 4)) min"
  if nice -n 15 clang++-22 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined \
      -fno-sanitize-recover=undefined -I"$root/runtime/include" -I"$root/runtime/src" \
      "$root/runtime/src/Json.cpp" "$root/runtime/src/Manifest.cpp" \
      "$root/runtime/tests/fuzz/ManifestFuzzer.cpp" -o "$fuzzer" 2>"$out/manifest-fuzzer-build.log"; then
    mkdir -p "$out/manifest-corpus"
    (cd "$out" && nice -n 15 ./manifest-fuzzer -seed="$seed" -max_total_time=$((minutes * 15)) \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 manifest-corpus \
      "$root/runtime/tests/fuzz/corpus") || status=1
  else
    echo "clang++-22 cannot build a libFuzzer target (libclang-rt-22-dev missing?): skipped"
  fi
fi
exit $status

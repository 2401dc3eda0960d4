#!/usr/bin/env bash
# The whole GPU run, on the GPU machine (CUDA toolkit, CMake, Python + torch;
# no LLVM/MLIR). Expects the artifacts of scripts/prepare-device-run.sh in
# build/device-artifacts (or $TILEOPT_DEVICE_ARTIFACTS). Builds the runtime,
# runs its tests, checks and times every artifact with tileopt-run (full
# size: against its built-in CPU reference), checks the small variants
# against the tile interpreter's outputs (inputs.tensors and
# expected.tensors, written by the prepare script), runs compute-sanitizer
# memcheck, racecheck and synccheck on them, then benchmarks against torch in one
# process (bench/tile/bench.py). Logs go to $OUT (or ./device-logs).
#
#   scripts/device-run.sh [--no-compile] [--cuda-graph] [--kernel-times] [--profile]
#                         [name...]
#
# Names pick artifacts (examples, or bench/tile/gemm-sweep.sh variants):
# only those are checked and timed; the interpreter check and the sanitizers
# run on their -small twins, tileopt-run's full-size CPU check on the four
# examples alone, and the code generator checks are left out unless the
# name checks is among them (bench/tile/checks.py). --no-compile
# leaves torch.compile out of the peers; --cuda-graph times both sides
# replayed from CUDA graphs (bench/tile/bench.py); --kernel-times runs each
# named artifact under ncu and prints every launch's GPU time
# (kernel-times-NAME.csv), twice: with ncu's default cache flush before
# each kernel (cold), and without (warm L2, as in the benchmark's graph
# replays, whose inputs stay in the 50 MB L2); --profile runs each named
# artifact once under ncu's full set of sections and writes, per artifact,
# the report (profile-NAME.ncu-rep), its details page and its SASS source
# page with per-instruction stall samples (profile-NAME-details.csv,
# profile-NAME-source.csv). A name candidates-WORKLOAD
# times the superoptimizer's candidates of a workload instead
# (bench/superopt/time_candidates.py; scripts/rank-candidates.sh) and writes
# their times to $OUT/candidates-WORKLOAD.times.json.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
artifacts=${TILEOPT_DEVICE_ARTIFACTS:-$root/build/device-artifacts}
logs=${OUT:-$root/device-logs}
mkdir -p "$logs"
rt_build=/tmp/tileopt-runtime
failed=0
step() { echo; echo "== $*"; }
bench_flags=()
kernel_times=0
profile=0
run_checks=0
names=()
candidate_sets=()
for arg in "$@"; do
  case $arg in
    --no-compile|--cuda-graph) bench_flags+=("$arg") ;;
    --kernel-times) kernel_times=1 ;;
    --profile) profile=1 ;;
    candidates-*) candidate_sets+=("$arg") ;;
    checks) run_checks=1 ;;
    *) names+=("$arg") ;;
  esac
done
examples=(softmax rms_norm elementwise gemm gemm-wgmma)
# No names at all: every example, and the code generator checks.
everything=$(( ${#names[@]} + ${#candidate_sets[@]} + run_checks == 0 ))
[ $everything -eq 1 ] && run_checks=1
[ $everything -eq 1 ] && selected=("${examples[@]}") || selected=("${names[@]}")

step "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

step "build the runtime"
cmake -G Ninja -S "$root/runtime" -B "$rt_build" -DCMAKE_BUILD_TYPE=Release \
  > "$logs/runtime-build.log" 2>&1 &&
  cmake --build "$rt_build" -j "$(nproc)" >> "$logs/runtime-build.log" 2>&1 ||
  { echo "runtime build failed (see runtime-build.log)"; exit 1; }
ctest --test-dir "$rt_build" --output-on-failure > "$logs/runtime-ctest.log" 2>&1 ||
  failed=1
tail -n 3 "$logs/runtime-ctest.log"

for example in "${selected[@]}"; do
  if [[ " ${examples[*]} " == *" $example "* ]]; then
    step "tileopt-run $example"
    "$rt_build/bin/tileopt-run" "$artifacts/$example" --iters 100 --warmup 10 \
      2>&1 | tee "$logs/run-$example.log" || failed=1
  fi
  small=$artifacts/$example-small
  [ -d "$small" ] || continue
  # Named explicitly, so that missing files are an error, not a fallback to
  # the built-in reference.
  step "tileopt-run $example-small against the tile interpreter"
  "$rt_build/bin/tileopt-run" "$small" --inputs "$small/inputs.tensors" \
    --expected "$small/expected.tensors" --iters 10 --warmup 2 \
    2>&1 | tee "$logs/run-$example-small.log" || failed=1
  for tool in memcheck racecheck synccheck; do
    step "compute-sanitizer $tool $example-small"
    compute-sanitizer --tool $tool --error-exitcode 3 \
      "$rt_build/bin/tileopt-run" "$small" --iters 1 --warmup 0 \
      > "$logs/sanitizer-$tool-$example.log" 2>&1
    status=$?
    tail -n 2 "$logs/sanitizer-$tool-$example.log"
    [ $status -eq 0 ] || failed=1
  done
done

if [ $kernel_times -eq 1 ]; then
  for example in "${selected[@]}"; do
    for cache in all none; do
      label=$([ $cache = all ] && echo cold || echo warm)
      step "kernel times of $example (ncu, L2 $label)"
      csv=$logs/kernel-times-$example-$label.csv
      ncu --csv --cache-control $cache --metrics gpu__time_duration.sum \
        "$rt_build/bin/tileopt-run" "$artifacts/$example" --iters 1 --warmup 0 \
        > "$csv" 2> "${csv%.csv}.err" || failed=1
      # One row per launch: "ID","PID",...,"Kernel Name",...,"Metric Value".
      # tileopt-run runs the launch sequence twice (its check, then the
      # timed iteration): the second half of the rows is the timed one.
      python3 - "$csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))
        if r.get("Metric Name") == "gpu__time_duration.sum"]
total = 0.0
for r in rows[len(rows) // 2:]:
    value = float(r["Metric Value"].replace(",", ""))
    us = value / 1e3 if r["Metric Unit"] == "ns" else value if r["Metric Unit"] == "us" else value * 1e3
    total += us
    print(f"  {r['Kernel Name']:<28} grid {r.get('Grid Size', '?'):<14} {us:9.2f} us")
print(f"  {'total':<43} {total:9.2f} us")
PY
    done
  done
fi

if [ $profile -eq 1 ]; then
  for example in "${selected[@]}"; do
    step "profile of $example (ncu --set full)"
    report=$logs/profile-$example
    ncu --set full --clock-control none -f -o "$report" \
      "$rt_build/bin/tileopt-run" "$artifacts/$example" --iters 1 --warmup 0 \
      > "$report.log" 2>&1 || { failed=1; tail -n 5 "$report.log"; continue; }
    ncu -i "$report.ncu-rep" --page details --csv > "$report-details.csv" &&
      ncu -i "$report.ncu-rep" --page source --print-source sass --csv \
        > "$report-source.csv" || failed=1
    ls -la "$report"*
  done
fi

if [ $run_checks -eq 1 ]; then
  step "code generator checks against torch"
  PYTHONPATH="$root/python" TILEOPT_RUNTIME_LIB="$rt_build/lib/libtileopt_runtime.so" \
    python3 "$root/bench/tile/checks.py" "$artifacts/checks" 2>&1 | tee "$logs/checks.log" ||
    failed=1
fi

for set in "${candidate_sets[@]}"; do
  step "time the candidates: $set"
  PYTHONPATH="$root/python" TILEOPT_RUNTIME_LIB="$rt_build/lib/libtileopt_runtime.so" \
    python3 "$root/bench/superopt/time_candidates.py" "$artifacts/$set" \
    --out "$logs/$set.times.json" 2>&1 | tee "$logs/$set.log" || failed=1
done

if [ ${#selected[@]} -gt 0 ]; then
  step "benchmark against torch"
  PYTHONPATH="$root/python" TILEOPT_RUNTIME_LIB="$rt_build/lib/libtileopt_runtime.so" \
    python3 "$root/bench/tile/bench.py" "$artifacts" "${bench_flags[@]}" "${selected[@]}" \
    2>&1 | tee "$logs/bench.log" || failed=1
fi
echo
echo "== $([ $failed -eq 0 ] && echo "all passed" || echo "FAILED (see above)")"
exit $failed

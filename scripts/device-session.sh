#!/usr/bin/env bash
# One GPU session, on the GPU machine (CUDA toolkit, CMake, torch; no
# LLVM/MLIR), over what the build machine compiled and carried:
#   build/examples/gated_mlp.art   scripts/run-example.sh (the README's
#                                  main command) -> run against PyTorch
#   build/device-artifacts         scripts/prepare-device-run.sh NAMES ->
#                                  scripts/device-run.sh --cuda-graph NAMES
#   build/device-dsl               bench/tile_dsl/prepare.py -> the tile DSL's
#                                  kernels autotuned, against torch, Triton
#                                  and cuTile
#   build/device-mamba2            bench/mamba2/prepare.py -> the Mamba-2
#                                  SSD's stages autotuned, checked against
#                                  float64 and timed against PyTorch
#                                  (bench/mamba2/run.py)
#   build/lib/libtileopt_runtime.so  the runtime built on the build machine
#                                  (it loads the CUDA driver when it runs):
#                                  used instead of building runtime/ here
#   build/device-corpus            test/corpus/gpu.py prepare -> the TOSA
#                                  corpus's artifacts against upstream
#                                  MLIR's results, and their times; with
#                                  --sanitize also all of them under
#                                  compute-sanitizer memcheck, racecheck and
#                                  synccheck
#   build/device-random            test/corpus/gpu.py prepare --random ->
#                                  random programs (test/random) against
#                                  upstream MLIR's results
#   build-device-py                the Python package's GPU tests and
#                                  measurements
#                                  (scripts/python-device-session.sh, run
#                                  from here; docs/python.md)
#   .whl                           Python wheels the machine lacks (cuTile:
#                                  cuda-tile, nvidia-cuda-tileiras)
# Each part whose input is missing is skipped with a note. Logs under $OUT.
#
#   scripts/device-session.sh [--sanitize] [device-run NAMES...]
set -uo pipefail
sanitize=0
if [[ ${1:-} == --sanitize ]]; then
  sanitize=1
  shift
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
logs=${OUT:-$root/device-logs}
mkdir -p "$logs"
failed=0

if [[ -d build/examples/gated_mlp.art ]]; then
  scripts/run-example.sh --run-only build/examples/gated_mlp.art --cuda-graph \
    2>&1 | tee "$logs/run-example.log" || failed=1
else
  echo "skipped run-example: build/examples/gated_mlp.art not carried"
fi

if [[ $# -gt 0 && -d build/device-artifacts ]]; then
  OUT=$logs scripts/device-run.sh --cuda-graph --no-compile "$@" \
    > "$logs/device-run.log" 2>&1 || failed=1
  tail -25 "$logs/device-run.log"
fi

if compgen -G ".whl/*.whl" > /dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl > "$logs/wheels.log" 2>&1 &&
    # tileiras, cuTile's compiler, is looked up on PATH.
    export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH} PATH=/tmp/site/nvidia/cu13/bin:$PATH ||
    tail -5 "$logs/wheels.log"
fi

rt=/tmp/tileopt-runtime
runtime=$rt/lib/libtileopt_runtime.so
if [[ -f build/lib/libtileopt_runtime.so ]]; then
  runtime=$root/build/lib/libtileopt_runtime.so
elif [[ -d build/device-dsl || -d build/device-corpus || -d build/device-mamba2 ||
        -d build/device-random ]]; then
  { cmake -G Ninja -S runtime -B "$rt" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$rt" -j 16; } > "$logs/runtime-build.log" 2>&1 ||
    { tail -20 "$logs/runtime-build.log"; exit 1; }
fi
export TILEOPT_RUNTIME_LIB=$runtime
export PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1

# The cheap parts first, the sanitizers (minutes each) last, so that a run
# cut short by its time limit has the rest.
if [[ -d build/device-random ]]; then
  python3 test/corpus/gpu.py run build/device-random --check-only > "$logs/random.log" 2>&1 ||
    failed=1
  grep -E "MISMATCH|ERROR" "$logs/random.log" | head -20
  tail -n 1 "$logs/random.log"
else
  echo "skipped the random programs: build/device-random not carried"
fi

if [[ -d build/device-corpus ]]; then
  python3 test/corpus/gpu.py run build/device-corpus 2>&1 |
    tee "$logs/corpus.log" || failed=1
else
  echo "skipped the corpus: build/device-corpus not carried"
fi

if [[ -d build-device-py ]]; then
  # Its own process: it installs the package and sets its own runtime.
  (unset TILEOPT_RUNTIME_LIB; OUT=$logs scripts/python-device-session.sh) || failed=1
else
  echo "skipped the Python package: build-device-py not carried"
fi

if [[ $sanitize == 1 && -d build/device-corpus ]]; then
  # Every kernel the corpus's artifacts launch (torch's own too), once: the
  # full-size workloads' too, where they were prepared (--full).
  for tool in memcheck synccheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 3 \
      python3 test/corpus/gpu.py run build/device-corpus --check-only \
      > "$logs/sanitizer-$tool-corpus.log" 2>&1 || failed=1
    echo "compute-sanitizer $tool over the corpus: $(tail -n 1 "$logs/sanitizer-$tool-corpus.log")"
  done
fi

if [[ -d build/device-dsl ]]; then
  python3 bench/tile_dsl/gpu_check.py build/device-dsl 2>&1 |
    tee "$logs/tile-dsl.log" || failed=1
else
  echo "skipped the tile DSL check: build/device-dsl not carried"
fi

if [[ -d build/device-mamba2 ]]; then
  OUT=$logs python3 bench/mamba2/run.py build/device-mamba2 2>&1 |
    tee "$logs/mamba2.log" || failed=1
else
  echo "skipped Mamba-2: build/device-mamba2 not carried"
fi
exit $failed

#!/usr/bin/env bash
# The Python package on the GPU machine (CUDA toolkit, CMake, torch; no
# LLVM/MLIR), over what the build machine compiled into the cache and
# carried in build-device-py/ (docs/python.md, "On a GPU machine"):
#   1. TILEOPT_RUNTIME_ONLY=1 pip install . offline (scikit-build-core's
#      wheels in build-device-py/wheels): the runtime and the package;
#      without the wheels, the runtime library the build machine built
#      and carried (build-device-py/libtileopt_runtime.so)
#   2. python/examples/decoder_block.py and bench/python/call_overhead.py
#   3. python/tests/test_gpu.py and test_examples.py ($TILEOPT_GPU_TESTS
#      names others) against torch
# The compiled graphs are loaded from build-device-py/cache. Logs under
# $OUT (default device-logs/).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
logs=${OUT:-$root/device-logs}
mkdir -p "$logs"
failed=0
export TILEOPT_CACHE_DIR=$root/build-device-py/cache
export TILEOPT_TEST_CACHE_DIR=$TILEOPT_CACHE_DIR
package=/tmp/tileopt-package

if [[ ! -d build-device-py/wheels ]]; then
  echo "no wheels carried: the runtime carried from the build machine runs"
  runtime=$root/build-device-py/libtileopt_runtime.so
elif TILEOPT_RUNTIME_ONLY=1 python3 -m pip install --no-index \
     --find-links build-device-py/wheels --target "$package" \
     -Cbuild-dir=/tmp/tileopt-wheel-build -Cbuild.tool-args=-j16 . \
     > "$logs/pip-install.log" 2>&1; then
  (cd /tmp && PYTHONPATH=$package python3 -c "import tileopt, tileopt.runtime as r
print('installed:', tileopt.__file__, r._load_library()._name)") 2>&1 |
    tee "$logs/installed.log" || failed=1
  runtime=$package/tileopt/lib/libtileopt_runtime.so
else
  tail -5 "$logs/pip-install.log"
  echo "the runtime-only install failed: the runtime carried from the build machine runs"
  failed=1
  runtime=$root/build-device-py/libtileopt_runtime.so
fi
# The checkout's package (the tests put python/ first) with that runtime.
export TILEOPT_RUNTIME_LIB=$runtime

export PYTHONUNBUFFERED=1
python3 python/examples/decoder_block.py --time-budget 20 --search-threads 2 2>&1 |
  tee "$logs/decoder-block.log" | grep -v Warning || failed=1
python3 bench/python/call_overhead.py 2>&1 | tee "$logs/call-overhead.log" || failed=1
read -ra tests <<< "${TILEOPT_GPU_TESTS:-python/tests/test_gpu.py python/tests/test_examples.py}"
python3 -m pytest -q -rs -p no:cacheprovider "${tests[@]}" 2>&1 |
  tee "$logs/pytest-gpu.log" | tail -15 || failed=1
exit $failed

#!/usr/bin/env bash
# For the GPU machine (CUDA toolkit, CMake, Python + torch; no LLVM needed):
# builds the runtime alone, runs its tests, runs tileopt-run on the sample
# artifact (a hand-written sm_90 row softmax), and, when torch is present,
# launches the same artifact through the Python binding next to torch.
#   runtime/tests/gpu/run.sh            # build dir: runtime/build
#   BUILD_DIR=/tmp/rt JOBS=4 runtime/tests/gpu/run.sh
set -euo pipefail
runtime_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-$runtime_dir/build}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

echo "== configure and build ($build_dir)"
cmake "${generator[@]}" -S "$runtime_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}"

# Each step runs even when an earlier one fails; the exit status says whether
# all passed.
failed=0
echo "== ctest (the no-GPU tests report themselves skipped here)"
ctest --test-dir "$build_dir" --output-on-failure || failed=1

sample="$build_dir/tests/gpu/row_softmax"
echo "== tileopt-run $sample"
"$build_dir/bin/tileopt-run" "$sample" --iters 100 --warmup 10 || failed=1

if python3 -c "import torch" 2>/dev/null; then
  echo "== Python binding on torch tensors"
  PYTHONPATH="$runtime_dir/../python" \
  TILEOPT_RUNTIME_LIB="$build_dir/lib/libtileopt_runtime.so" \
    python3 "$runtime_dir/tests/gpu/torch_softmax.py" "$sample" || failed=1
else
  echo "== torch not found: Python binding not tried"
fi
echo "== $([ $failed -eq 0 ] && echo "all passed" || echo "FAILED (see above)")"
exit $failed

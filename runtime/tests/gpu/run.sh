#!/usr/bin/env bash
# For the GPU machine (CUDA toolkit, CMake, Python + torch; no LLVM needed):
# builds the runtime alone, runs its tests, runs tileopt-run on the sample
# artifact (a hand-written sm_90 row softmax), and, when torch is present,
# launches the same artifact through the Python binding next to torch.
#   runtime/tests/gpu/run.sh            # build dir: runtime/build
#   BUILD_DIR=/tmp/rt runtime/tests/gpu/run.sh
set -euo pipefail
runtime_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-$runtime_dir/build}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

echo "== configure and build ($build_dir)"
cmake "${generator[@]}" -S "$runtime_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" -j "$(nproc)"

echo "== ctest (the no-GPU tests report themselves skipped here)"
ctest --test-dir "$build_dir" --output-on-failure

sample="$build_dir/tests/gpu/row_softmax"
echo "== tileopt-run $sample"
"$build_dir/bin/tileopt-run" "$sample" --iters 100 --warmup 10

if python3 -c "import torch" 2>/dev/null; then
  echo "== Python binding on torch tensors"
  PYTHONPATH="$runtime_dir/../python" \
  TILEOPT_RUNTIME_LIB="$build_dir/lib/libtileopt_runtime.so" \
    python3 "$runtime_dir/tests/gpu/torch_softmax.py" "$sample"
else
  echo "== torch not found: Python binding not tried"
fi

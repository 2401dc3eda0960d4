#!/usr/bin/env bash
# On the build machine (LLVM/MLIR here, no GPU): compiles the tile examples
# into artifacts for scripts/device-run.sh, under build/device-artifacts (git
# ignored; carry it to the GPU machine). Besides the benchmark shapes it makes
# small variants (256 rows) for compute-sanitizer, which is slow on big grids.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure_and_build tileopt-compile
out="$BUILD_DIR/device-artifacts"
rm -rf "$out" && mkdir -p "$out"
for example in softmax rms_norm elementwise gemm; do
  src="$TILEOPT_ROOT/examples/tile/$example.mlir"
  "$BUILD_DIR/bin/tileopt-compile" "$src" -o "$out/$example"
  small="$out/$example.small.mlir"
  sed -e 's/8192x8192x/256x8192x/g' -e 's/grid \[8192, 1, 1\]/grid [256, 1, 1]/' \
      -e 's/grid \[2048, 8, 1\]/grid [64, 8, 1]/' \
      -e 's/4096x4096x/512x512x/g' -e 's/grid \[32, 32, 1\]/grid [4, 4, 1]/' \
      -e 's/%steps = arith.constant [0-9]* : index/%steps = arith.constant 8 : index/' \
      "$src" > "$small"
  "$BUILD_DIR/bin/tileopt-compile" "$small" -o "$out/$example-small"
  rm "$small"
done
for check in "$TILEOPT_ROOT"/bench/tile/checks/*.mlir; do
  "$BUILD_DIR/bin/tileopt-compile" "$check" -o "$out/checks/$(basename "$check" .mlir)"
done
log "artifacts in $out"

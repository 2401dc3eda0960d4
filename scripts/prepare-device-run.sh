#!/usr/bin/env bash
# On the build machine (LLVM/MLIR here, no GPU): compiles the tile examples
# into artifacts for scripts/device-run.sh, under build/device-artifacts (git
# ignored; carry it to the GPU machine). Besides the benchmark shapes it makes
# small variants (256 rows, or 512^3 for the GEMM) for compute-sanitizer,
# which is slow on big grids. Usage:
#   scripts/prepare-device-run.sh [example...]   (default: all, and the
#                                                 code generator checks)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure_and_build tileopt-compile
out="$BUILD_DIR/device-artifacts"
examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  examples=(softmax rms_norm elementwise gemm gemm-wgmma)
  rm -rf "$out"
fi
mkdir -p "$out"
for example in "${examples[@]}"; do
  src="$TILEOPT_ROOT/examples/tile/$example.mlir"
  rm -rf "$out/$example" "$out/$example-small"
  # An example may name its own tileopt-compile flags (the target chip, say)
  # on a line `// tileopt-compile: FLAGS`.
  read -r -a flags <<<"$(sed -n 's|^// tileopt-compile: ||p' "$src")"
  "$BUILD_DIR/bin/tileopt-compile" "$src" -o "$out/$example" "${flags[@]}"
  small="$out/$example.small.mlir"
  if grep -q 4096x4096x "$src"; then
    # The GEMM shrinks from 4096^3 to 512^3: its grid and K steps by 8.
    perl -pe 's/4096x4096x/512x512x/g;
              s/grid \[(\d+), (\d+), 1\]/"grid [" . $1 \/ 8 . ", " . $2 \/ 8 . ", 1]"/e;
              s/(%steps = arith.constant )(\d+)/$1 . $2 \/ 8/e' "$src" > "$small"
  else
    sed -e 's/8192x8192x/256x8192x/g' -e 's/grid \[8192, 1, 1\]/grid [256, 1, 1]/' \
        -e 's/grid \[2048, 8, 1\]/grid [64, 8, 1]/' "$src" > "$small"
  fi
  "$BUILD_DIR/bin/tileopt-compile" "$small" -o "$out/$example-small" "${flags[@]}"
  rm "$small"
done
if [ $# -eq 0 ]; then
  for check in "$TILEOPT_ROOT"/bench/tile/checks/*.mlir; do
    "$BUILD_DIR/bin/tileopt-compile" "$check" -o "$out/checks/$(basename "$check" .mlir)"
  done
fi
log "artifacts in $out"

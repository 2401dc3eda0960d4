#!/usr/bin/env bash
# On the build machine (LLVM/MLIR here, no GPU): compiles the tile examples
# into artifacts for scripts/device-run.sh, under build/device-artifacts (git
# ignored; carry it to the GPU machine; $TILEOPT_DEVICE_ARTIFACTS moves it).
# Besides the benchmark shapes it makes small variants (64 rows, or 512^3 for
# the GEMM) for compute-sanitizer, which is slow on big grids, and for a
# check against the tile interpreter: each gets seeded random inputs and the
# interpreter's outputs on them (scripts/interp-reference.py: inputs.tensors
# and expected.tensors in the artifact), which tileopt-run checks every
# output element against. They are kept small so that the interpreter takes
# seconds and the files a few MB. A name ugraph-NAME compiles the µGraph
# examples/ugraph/NAME.mlir through tileopt-lower-ugraph (bench/tile/bench.py
# checks it against torch in float64 and times it against torch's peers), and
# its small variant examples/ugraph/small/NAME.mlir, if there is one, with
# the interpreter's reference. A name candidates-WORKLOAD searches
# examples/linalg/WORKLOAD.mlir and compiles every ranked candidate
# (scripts/rank-candidates.sh search), for the device run to time them. The
# name checks compiles the code generator checks (bench/tile/checks/*.mlir)
# alone.
# Usage:
#   scripts/prepare-device-run.sh [example...]   (default: all tile
#                                                 examples, and the code
#                                                 generator checks)
#   scripts/prepare-device-run.sh ugraph-gated_mlp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure_and_build tileopt-compile tileopt-interp tileopt-opt
out=${TILEOPT_DEVICE_ARTIFACTS:-$BUILD_DIR/device-artifacts}
examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  examples=(softmax rms_norm elementwise gemm gemm-wgmma)
  rm -rf "$out"
fi
mkdir -p "$out"
compile_checks=$(( $# == 0 ))
for example in "${examples[@]}"; do
  if [[ $example == checks ]]; then
    compile_checks=1
    continue
  fi
  if [[ $example == candidates-* ]]; then
    "$TILEOPT_ROOT/scripts/rank-candidates.sh" search "${example#candidates-}" \
      "$out/$example"
    continue
  fi
  if [[ $example == ugraph-* ]]; then
    rm -rf "$out/$example" "$out/$example-small"
    for variant in "" small/; do
      src="$TILEOPT_ROOT/examples/ugraph/$variant${example#ugraph-}.mlir"
      artifact="$out/$example${variant:+-small}"
      [ -f "$src" ] || continue
      "$BUILD_DIR/bin/tileopt-opt" "$src" --tileopt-lower-ugraph -o "$artifact.mlir"
      "$BUILD_DIR/bin/tileopt-compile" "$artifact.mlir" -o "$artifact"
      # Positive inputs, as for the GEMM: a µGraph rounds its intermediate
      # tiles to f16 (the GPU does exactly that; the interpreter's float64
      # reference does not), and in a cancelling sum of such rounded terms
      # (exp(S - m) @ V with V of both signs) the relative error of one
      # element means nothing. A µGraph may add flags on a line
      # `// interp-reference: FLAGS` (mla_decode scales its inputs down).
      if [ -n "$variant" ]; then
        read -r -a reference_flags <<<"$(sed -n 's|^// interp-reference: ||p' "$src")"
        "$TILEOPT_ROOT/scripts/interp-reference.py" "$artifact.mlir" "$artifact" \
          --interp "$BUILD_DIR/bin/tileopt-interp" --positive "${reference_flags[@]}"
      fi
      rm "$artifact.mlir"
    done
    continue
  fi
  src="$TILEOPT_ROOT/examples/tile/$example.mlir"
  rm -rf "$out/$example" "$out/$example-small"
  # An example may name its own tileopt-compile flags (the target chip, say)
  # on a line `// tileopt-compile: FLAGS`.
  read -r -a flags <<<"$(sed -n 's|^// tileopt-compile: ||p' "$src")"
  "$BUILD_DIR/bin/tileopt-compile" "$src" -o "$out/$example" "${flags[@]}"
  small="$out/$example.small.mlir"
  reference_flags=()
  if grep -q 4096x4096x "$src"; then
    # The GEMM shrinks from 4096^3 to 512^3: its grid and K steps by 8. Its
    # inputs are positive, so that no output is a cancelling sum.
    reference_flags=(--positive)
    perl -pe 's/4096x4096x/512x512x/g;
              s/grid \[(\d+), (\d+), 1\]/"grid [" . $1 \/ 8 . ", " . $2 \/ 8 . ", 1]"/e;
              s/(%steps = arith.constant )(\d+)/$1 . $2 \/ 8/e' "$src" > "$small"
  else
    sed -e 's/8192x8192x/64x8192x/g' -e 's/grid \[8192, 1, 1\]/grid [64, 1, 1]/' \
        -e 's/grid \[2048, 8, 1\]/grid [16, 8, 1]/' "$src" > "$small"
  fi
  "$BUILD_DIR/bin/tileopt-compile" "$small" -o "$out/$example-small" "${flags[@]}"
  "$TILEOPT_ROOT/scripts/interp-reference.py" "$small" "$out/$example-small" \
    --interp "$BUILD_DIR/bin/tileopt-interp" "${reference_flags[@]}"
  rm "$small"
done
if [ $compile_checks -eq 1 ]; then
  for check in "$TILEOPT_ROOT"/bench/tile/checks/*.mlir; do
    "$BUILD_DIR/bin/tileopt-compile" "$check" -o "$out/checks/$(basename "$check" .mlir)"
  done
fi
log "artifacts in $out"

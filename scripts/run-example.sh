#!/usr/bin/env bash
# Installs what is missing, builds, and runs TileOpt's main job on the bundled
# example µGraph: rms_norm(X) @ W as one fused kernel, with its elementwise
# epilogue fused into a thread graph. Extra arguments go to tileopt-opt.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure_and_build tileopt-opt
log "tileopt-opt examples/ugraph/rmsnorm_linear.mlir --tileopt-fuse-thread-graphs"
"$BUILD_DIR/bin/tileopt-opt" "$TILEOPT_ROOT/examples/ugraph/rmsnorm_linear.mlir" \
  --tileopt-fuse-thread-graphs "$@"

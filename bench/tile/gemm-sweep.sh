#!/usr/bin/env bash
# On the build machine: compiles tile-size, pipeline-depth and shared-memory
# layout variants of the 4096^3 bf16 GEMM (examples/tile/gemm.mlir) into
# build/device-artifacts/gemm-<variant>, each with a 512^3 -small twin for
# compute-sanitizer and the check against the tile interpreter (its inputs and
# expected outputs, as scripts/prepare-device-run.sh writes them). On the GPU machine, `scripts/device-run.sh` with the
# variant names times them against torch.matmul. Usage:
#   bench/tile/gemm-sweep.sh [variant...]   (default: all below)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"

# name: BM BN BK latency warps swizzle chip copy group [size small-size].
# Latency 1 takes the register path, whose rows are always padded; the
# ragged sizes leave partial tiles at every edge (zero-filled by cp.async or
# TMA). On sm_90a tile.mma runs on wgmma (K and N steps of 64 or more);
# copy `tma` puts `allow_tma` on both loads, which then come by TMA on
# wgmma. Group 1 is a 2-D grid, block (i, j) computing tile (i, j); group G
# a 1-D grid in which consecutive blocks sweep G tile rows before moving to
# the next tile column (Triton's grouped order: G rows of A and the columns
# of B that the blocks running at once share stay in L2).
declare -A VARIANTS=(
  [128x128x32-l3-ragged]="128 128 32 3 4 true sm_90 cp.async 1 4088 504"
  [128x128x64-pad]="128 128 64 1 4 false sm_90 cp.async 1"
  [128x128x32-l3]="128 128 32 3 4 true sm_90 cp.async 1"
  [128x128x32-l3-pad]="128 128 32 3 4 false sm_90 cp.async 1"
  [128x128x32-l4]="128 128 32 4 4 true sm_90 cp.async 1"
  [128x128x64-l2]="128 128 64 2 4 true sm_90 cp.async 1"
  [128x128x64-l3]="128 128 64 3 4 true sm_90 cp.async 1"
  [128x128x64-l3-pad]="128 128 64 3 4 false sm_90 cp.async 1"
  [128x256x32-l3]="128 256 32 3 8 true sm_90 cp.async 1"
  [128x256x32-l4]="128 256 32 4 8 true sm_90 cp.async 1"
  [wgmma-128x128x64-l3]="128 128 64 3 4 true sm_90a cp.async 1"
  [wgmma-128x128x64-l4]="128 128 64 4 4 true sm_90a cp.async 1"
  [wgmma-128x256x64-l3]="128 256 64 3 8 true sm_90a cp.async 1"
  [wgmma-128x256x64-l4]="128 256 64 4 8 true sm_90a cp.async 1"
  [wgmma-128x128x64-l3-ragged]="128 128 64 3 4 true sm_90a cp.async 1 4088 504"
  [tma-128x128x64-l3]="128 128 64 3 4 true sm_90a tma 1"
  [tma-128x128x64-l4]="128 128 64 4 4 true sm_90a tma 1"
  [tma-128x256x64-l3]="128 256 64 3 8 true sm_90a tma 1"
  [tma-128x256x64-l4]="128 256 64 4 8 true sm_90a tma 1"
  [tma-128x128x64-l3-ragged]="128 128 64 3 4 true sm_90a tma 1 4088 504"
  [tma-256x128x64-l4]="256 128 64 4 8 true sm_90a tma 1"
  [tma-128x128x64-l3-g8]="128 128 64 3 4 true sm_90a tma 8"
  [tma-128x256x64-l4-g8]="128 256 64 4 8 true sm_90a tma 8"
  [tma-128x256x128-l2]="128 256 128 2 8 true sm_90a tma 1"
  [tma-128x128x128-l3]="128 128 128 3 4 true sm_90a tma 1"
  [tma-128x128x128-l2]="128 128 128 2 4 true sm_90a tma 1"
  [tma-128x128x64-l2]="128 128 64 2 4 true sm_90a tma 1"
  [tma-128x128x64-l3-w8]="128 128 64 3 8 true sm_90a tma 1"
)

# The GEMM C = A @ B at size $1 with $2 x $3 tiles of C, K steps of $4 and
# latency hint $5 on both loads, which allow TMA if $6 is `tma`, in block
# order group $7.
gemm() {
  local n=$1 bm=$2 bn=$3 bk=$4 hints="latency $5" group=$7
  [ "$6" = tma ] && hints="$hints allow_tma"
  local rows=$(((n + bm - 1) / bm)) cols=$(((n + bn - 1) / bn))
  local grid="$rows, $cols, 1" order="  %i = tile.block_id x
  %j = tile.block_id y"
  if [ "$group" -gt 1 ]; then
    # Block p: group g = p / (G * cols) of G tile rows (fewer in the last),
    # row g * G + p % H, column (p % (G * cols)) / H, H = min(G, rows left).
    grid="$((rows * cols)), 1, 1"
    order="  %pid = tile.block_id x
  %gsize = arith.constant $group : index
  %rows = arith.constant $rows : index
  %per_group = arith.constant $((group * cols)) : index
  %g = arith.divsi %pid, %per_group : index
  %first = arith.muli %g, %gsize : index
  %left = arith.subi %rows, %first : index
  %height = arith.minsi %left, %gsize : index
  %in_group = arith.remsi %pid, %per_group : index
  %row_in_group = arith.remsi %in_group, %height : index
  %i = arith.addi %first, %row_in_group : index
  %j = arith.divsi %in_group, %height : index"
  fi

  cat <<MLIR
tile.kernel @gemm(%a: !tile.view<${n}x${n}xbf16>, %b: !tile.view<${n}x${n}xbf16>,
                  %c: !tile.view<${n}x${n}xbf16>) {
$order
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant $(((n + bk - 1) / bk)) : index
  %zero = arith.constant dense<0.0> : tensor<${bm}x${bn}xf32>
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%sum = %zero)
      -> (tensor<${bm}x${bn}xf32>) {
    %ta = tile.load %a[%i, %k] $hints : !tile.view<${n}x${n}xbf16> -> tensor<${bm}x${bk}xbf16>
    %tb = tile.load %b[%k, %j] $hints : !tile.view<${n}x${n}xbf16> -> tensor<${bk}x${bn}xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<${bm}x${bk}xbf16>, tensor<${bk}x${bn}xbf16>, tensor<${bm}x${bn}xf32>
    scf.yield %next : tensor<${bm}x${bn}xf32>
  }
  %out = arith.truncf %acc : tensor<${bm}x${bn}xf32> to tensor<${bm}x${bn}xbf16>
  tile.store %out, %c[%i, %j] : tensor<${bm}x${bn}xbf16>, !tile.view<${n}x${n}xbf16>
  tile.return
}

func.func @main(%a: memref<${n}x${n}xbf16> {tileopt.name = "a"},
                %b: memref<${n}x${n}xbf16> {tileopt.name = "b"},
                %c: memref<${n}x${n}xbf16> {tileopt.name = "c", tileopt.output})
    attributes {tileopt.reference = "gemm"} {
  tile.launch @gemm grid [$grid] (%a, %b, %c)
      : memref<${n}x${n}xbf16>, memref<${n}x${n}xbf16>, memref<${n}x${n}xbf16>
  return
}
MLIR
}

configure_and_build tileopt-compile tileopt-interp
out="$BUILD_DIR/device-artifacts"
mkdir -p "$out"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=("${!VARIANTS[@]}")
for name in "${names[@]}"; do
  read -r bm bn bk latency warps swizzle chip copy group size small <<<"${VARIANTS[$name]}"
  for n in "${size:-4096}" "${small:-512}"; do
    dir="$out/gemm-$name"
    [ "$n" = "${small:-512}" ] && dir="$dir-small"
    gemm "$n" "$bm" "$bn" "$bk" "$latency" "$copy" "$group" > "$out/variant.mlir"
    "$BUILD_DIR/bin/tileopt-compile" "$out/variant.mlir" -o "$dir" \
      --num-warps="$warps" --swizzle-staging="$swizzle" --chip="$chip"
    [ "$n" = "${small:-512}" ] &&
      "$TILEOPT_ROOT/scripts/interp-reference.py" "$out/variant.mlir" "$dir" \
        --interp "$BUILD_DIR/bin/tileopt-interp" --positive
  done
  rm "$out/variant.mlir"
  log "gemm-$name"
done

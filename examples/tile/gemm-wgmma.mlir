// tileopt-compile: --chip=sm_90a --num-warps=8
// bf16 GEMM, C = A @ B at 4096^3 with an f32 accumulator, for sm_90a: the
// same program as gemm.mlir with 128 x 256 tiles of C and K steps of 64, so
// that a row of either operand tile is a whole 128-byte line. Compiled for
// sm_90a on 8 warps (the first line gives tileopt-compile's flags to
// scripts/prepare-device-run.sh), tile.mma runs on wgmma: each of the two
// warpgroups of the block multiplies 64 rows of the tile as one m64n256k16
// per k16 step, both operands read by descriptor from four
// 128-byte-swizzled stages (192 KiB of dynamic shared memory), which TMA
// fills (`allow_tma`; without it, cp.async does).
tile.kernel @gemm(%a: !tile.view<4096x4096xbf16>, %b: !tile.view<4096x4096xbf16>,
                  %c: !tile.view<4096x4096xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%sum = %zero)
      -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%i, %k] latency 4 allow_tma : !tile.view<4096x4096xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] latency 4 allow_tma : !tile.view<4096x4096xbf16> -> tensor<64x256xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %next : tensor<128x256xf32>
  }
  %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
  tile.store %out, %c[%i, %j] : tensor<128x256xbf16>, !tile.view<4096x4096xbf16>
  tile.return
}

func.func @main(%a: memref<4096x4096xbf16> {tileopt.name = "a"},
                %b: memref<4096x4096xbf16> {tileopt.name = "b"},
                %c: memref<4096x4096xbf16> {tileopt.name = "c", tileopt.output})
    attributes {tileopt.reference = "gemm"} {
  tile.launch @gemm grid [32, 16, 1] (%a, %b, %c)
      : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xbf16>
  return
}

// Predefined kernels that unittests/Conversion/TKToTileTest.cpp lowers
// (through the block graphs of their tilings) and runs against their tile
// programs.

func.func @matmul(%a: tensor<64x256xf16>, %b: tensor<256x256xf16>) -> tensor<64x256xf16> {
  %0 = tk.matmul %a, %b : tensor<64x256xf16>, tensor<256x256xf16> -> tensor<64x256xf16>
  return %0 : tensor<64x256xf16>
}

func.func @batched_matmul(%a: tensor<2x32x64xbf16>, %b: tensor<2x64x48xbf16>) -> tensor<2x32x48xbf16> {
  %0 = tk.matmul %a, %b : tensor<2x32x64xbf16>, tensor<2x64x48xbf16> -> tensor<2x32x48xbf16>
  return %0 : tensor<2x32x48xbf16>
}

func.func @unary(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = tk.unary exp %x : tensor<16x64xf16>
  %1 = tk.unary silu %0 : tensor<16x64xf16>
  %2 = tk.unary gelu %x : tensor<16x64xf16>
  %3 = tk.unary relu %2 : tensor<16x64xf16>
  %4 = tk.unary square %x : tensor<16x64xf16>
  %5 = tk.unary add_scalar(1.000000e-01) %4 : tensor<16x64xf16>
  %6 = tk.unary sqrt %5 : tensor<16x64xf16>
  %7 = tk.unary rsqrt %5 : tensor<16x64xf16>
  %8 = tk.unary neg %x : tensor<16x64xf16>
  %9 = tk.unary mul_scalar(3.000000e-01) %8 : tensor<16x64xf16>
  %10 = tk.binary add %1, %3 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %11 = tk.binary sub %6, %7 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %12 = tk.binary mul %10, %11 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %13 = tk.binary add %12, %9 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  return %13 : tensor<16x64xf16>
}

// Broadcasting in every way the tiling reads it: a size-1 dim, a lower
// rank, a batch of 4 along z; divisors and the base of pow positive.
func.func @broadcast(%a: tensor<4x16x64xf32>, %b: tensor<16x1xf32>, %c: tensor<64xf32>, %d: tensor<4x1x64xf32>) -> tensor<4x16x64xf32> {
  %0 = tk.binary sub %a, %b : tensor<4x16x64xf32>, tensor<16x1xf32> -> tensor<4x16x64xf32>
  %ec = tk.unary exp %c : tensor<64xf32>
  %1 = tk.binary div %0, %ec : tensor<4x16x64xf32>, tensor<64xf32> -> tensor<4x16x64xf32>
  %2 = tk.unary exp %d : tensor<4x1x64xf32>
  %3 = tk.binary pow %2, %1 : tensor<4x1x64xf32>, tensor<4x16x64xf32> -> tensor<4x16x64xf32>
  return %3 : tensor<4x16x64xf32>
}

func.func @reductions(%x: tensor<2x8x2048xf16>, %y: tensor<256x32xf32>, %z: tensor<16x64xf16>)
    -> (tensor<2x8x1xf16>, tensor<1x32xf32>, tensor<16x1xf16>, tensor<2x1x2048xf16>) {
  %0 = tk.reduce sum %x dim 2 : tensor<2x8x2048xf16> -> tensor<2x8x1xf16>
  %1 = tk.reduce max %y dim 0 : tensor<256x32xf32> -> tensor<1x32xf32>
  %2 = tk.reduce mean %z dim 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %3 = tk.reduce mean %x dim 1 : tensor<2x8x2048xf16> -> tensor<2x1x2048xf16>
  return %0, %1, %2, %3 : tensor<2x8x1xf16>, tensor<1x32xf32>, tensor<16x1xf16>, tensor<2x1x2048xf16>
}

// 7 rows, 100 columns and a K of 24, each held whole by one tile and
// padded to a power of two (and to what mma.sync needs); 96 rows, whose
// power-of-two tile of 32 mma takes, stay in 3 tiles.
func.func @odd_matmul(%a: tensor<7x24xf16>, %b: tensor<24x100xf16>, %c: tensor<96x64xf16>, %d: tensor<64x64xf16>) -> (tensor<7x100xf16>, tensor<96x64xf16>) {
  %0 = tk.matmul %a, %b : tensor<7x24xf16>, tensor<24x100xf16> -> tensor<7x100xf16>
  %1 = tk.matmul %c, %d : tensor<96x64xf16>, tensor<64x64xf16> -> tensor<96x64xf16>
  return %0, %1 : tensor<7x100xf16>, tensor<96x64xf16>
}

// Rows of 100, 1536 and 768 are normalized padded to 128, 2048 and 1024:
// the padding holds zeros, and the mean divides by the row's own length. A
// block takes as many rows as fit padded (4 of 768, 16 rows in all).
func.func @rms_norm(%x: tensor<32x256xf16>, %y: tensor<2x8x64xf32>, %z: tensor<8x100xf32>, %w: tensor<7x1536xf16>, %v: tensor<16x768xf32>) -> (tensor<32x256xf16>, tensor<2x8x64xf32>, tensor<8x100xf32>, tensor<7x1536xf16>, tensor<16x768xf32>) {
  %0 = tk.rms_norm %x {epsilon = 1.0e-05 : f32} : tensor<32x256xf16>
  %1 = tk.rms_norm %y {epsilon = 1.0e-06 : f32} : tensor<2x8x64xf32>
  %2 = tk.rms_norm %z {epsilon = 1.0e-05 : f32} : tensor<8x100xf32>
  %3 = tk.rms_norm %w {epsilon = 1.0e-05 : f32} : tensor<7x1536xf16>
  %4 = tk.rms_norm %v {epsilon = 1.0e-05 : f32} : tensor<16x768xf32>
  return %0, %1, %2, %3, %4 : tensor<32x256xf16>, tensor<2x8x64xf32>, tensor<8x100xf32>, tensor<7x1536xf16>, tensor<16x768xf32>
}

// test/Superopt/attention.mlir as imported: seven kernels, the tensors
// between them intermediate buffers.
func.func @attention(%q: tensor<2x64x32xf16>, %k: tensor<2x32x512xf16>, %v: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %0 = tk.matmul %q, %k : tensor<2x64x32xf16>, tensor<2x32x512xf16> -> tensor<2x64x512xf16>
  %1 = tk.reduce max %0 dim 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %2 = tk.binary sub %0, %1 : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %3 = tk.unary exp %2 : tensor<2x64x512xf16>
  %4 = tk.reduce sum %3 dim 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %5 = tk.binary div %3, %4 : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %6 = tk.matmul %5, %v : tensor<2x64x512xf16>, tensor<2x512x32xf16> -> tensor<2x64x32xf16>
  return %6 : tensor<2x64x32xf16>
}

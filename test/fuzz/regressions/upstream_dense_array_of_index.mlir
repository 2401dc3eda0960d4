// status: upstream
// target: opt
// symptom: segmentation fault in upstream MLIR's parser (Parser::parseDenseArrayAttr -> Type::getIntOrFloatBitWidth on index)
// Found by test/fuzz/fuzz.py --seed 2 (an element type of tosa.transpose's
// perms mutated to index), minimized by hand. The stock mlir-opt of LLVM
// 22.1.8 crashes on it too (`func.func @f() attributes {a = array<index: 1>}`):
// a bug of upstream MLIR, not TileOpt's; kept so that a new LLVM that fixes
// it shows up here (the test then passes and strict xfail fails: mark it
// fixed).
func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %y = tosa.transpose %x {perms = array<index: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

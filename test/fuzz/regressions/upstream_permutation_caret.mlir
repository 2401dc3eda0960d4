// status: upstream
// target: opt
// symptom: segmentation fault in upstream MLIR's parser (linalg.transpose's permutation written `=^[...]`: Attribute::getContext on a null attribute in NamedAttrList::set)
// Found by test/fuzz/fuzz.py --seed 3 (a character of a linalg seed
// replaced by `^`), minimized by hand. The stock mlir-opt of LLVM 22.1.8
// crashes on it too: a bug of upstream MLIR, not TileOpt's.
func.func @f(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%y : tensor<3x2xf32>) permutation =^[1, 0]
  return %t : tensor<3x2xf32>
}

//===- DimRelations.cpp - Which dims an op's operands and results share ---===//

#include "TileOpt/Dialect/Common/DimRelations.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"

using namespace mlir;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

void mlir::tileopt::equateBroadcastDims(Value operand, Value result,
                                        EquateDims equate, int64_t unrelated) {
  ArrayRef<int64_t> in = shapeOf(operand), out = shapeOf(result);
  assert(in.size() <= out.size() && "an operand of higher rank than the "
                                    "result it broadcasts to");
  int64_t offset = static_cast<int64_t>(out.size() - in.size());
  for (int64_t d = 0, e = static_cast<int64_t>(in.size()) - unrelated; d < e;
       ++d)
    if (in[d] == out[offset + d])
      equate(operand, d, result, offset + d);
}

void mlir::tileopt::equateMatmulDims(Value lhs, Value rhs, Value result,
                                     EquateDims equate) {
  int64_t ra = shapeOf(lhs).size(), rb = shapeOf(rhs).size(),
          rc = shapeOf(result).size();
  equateBroadcastDims(lhs, result, equate, /*unrelated=*/2);
  equateBroadcastDims(rhs, result, equate, /*unrelated=*/2);
  equate(lhs, ra - 2, result, rc - 2);
  equate(lhs, ra - 1, rhs, rb - 2);
  equate(rhs, rb - 1, result, rc - 1);
}

//===- TBInterfaces.td - Block graph interfaces ------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TB_TBINTERFACES_TD
#define TILEOPT_DIALECT_TB_TBINTERFACES_TD

include "mlir/IR/OpBase.td"

def TB_BlockGraphOpInterface : OpInterface<"BlockGraphOpInterface"> {
  let cppNamespace = "::mlir::tileopt::tb";
  let description = [{
    An op whose single-block region is a block graph, run by every thread
    block of a grid for a number of for-loop iterations. The block-graph ops
    ask it for the launch shape they are checked against, so the tb dialect
    does not depend on the op that holds its graphs (today `tk.fused`).
  }];
  let methods = [
    InterfaceMethod<"The grid: number of blocks along x, y and z.",
      "::llvm::ArrayRef<int64_t>", "getGridDims">,
    InterfaceMethod<"Threads per block along x, y and z.",
      "::llvm::ArrayRef<int64_t>", "getBlockDims">,
    InterfaceMethod<"Number of for-loop iterations every block runs.",
      "int64_t", "getForloopRange">,
    InterfaceMethod<"The block graph.", "::mlir::Block &", "getBlockGraph",
      (ins), [{ return $_op->getRegion(0).front(); }]>
  ];
}

#endif // TILEOPT_DIALECT_TB_TBINTERFACES_TD

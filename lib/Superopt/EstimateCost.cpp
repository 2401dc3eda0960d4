//===- EstimateCost.cpp - The tileopt-estimate-cost pass ------------------===//
#include "TileOpt/Superopt/Passes.h"

#include "TileOpt/Superopt/CostModel.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_ESTIMATECOST
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

struct EstimateCostPass
    : public tileopt::impl::EstimateCostBase<EstimateCostPass> {
  void runOnOperation() override {
    markAllAnalysesPreserved();
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    GpuTarget target = GpuTarget::h200();
    FailureOr<ProgramCost> cost = estimateCost(func, target);
    if (failed(cost))
      return signalPassFailure();
    for (const KernelCost &kernel : cost->kernels) {
      std::string line;
      llvm::raw_string_ostream os(line);
      kernel.print(os);
      kernel.op->emitRemark("estimated on ")
          << target.name << ": " << StringRef(line).ltrim();
    }
    func.emitRemark("estimated on ")
        << target.name << ": "
        << llvm::formatv("{0:F3}", cost->seconds * 1e6).str() << " us in "
        << cost->kernels.size() << " kernel(s)";
  }
};

} // namespace

//===- FuseThreadGraphs.cpp - Elementwise chains into th.graph ------------===//
#include "TileOpt/Transforms/Passes.h"

#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_FUSETHREADGRAPHS
#include "TileOpt/Transforms/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

bool isElementwise(Operation *op) {
  return isa_and_nonnull<tb::UnaryOp, tb::BinaryOp>(op);
}

/// Emits the scalar form of the elementwise tb op `op`, reading its operands
/// through `scalars`.
Value buildScalar(OpBuilder &b, Operation *op, const IRMapping &scalars) {
  if (auto unary = dyn_cast<tb::UnaryOp>(op)) {
    std::optional<APFloat> scalar;
    if (FloatAttr attr = unary.getScalarAttr())
      scalar = attr.getValue();
    return buildUnary(b, op->getLoc(), unary.getKind(),
                      scalars.lookup(unary.getInput()), scalar);
  }
  auto binary = cast<tb::BinaryOp>(op);
  return buildBinary(b, op->getLoc(), binary.getKind(),
                     scalars.lookup(binary.getLhs()),
                     scalars.lookup(binary.getRhs()));
}

/// Replaces `chain` (in program order; the last op is the only one used
/// outside the chain) by one th.graph.
void fuseChain(ArrayRef<Operation *> chain) {
  Operation *root = chain.back();
  llvm::SmallPtrSet<Operation *, 8> members(chain.begin(), chain.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : chain)
    for (Value operand : op->getOperands())
      if (!members.contains(operand.getDefiningOp()))
        inputs.insert(operand);

  OpBuilder b(root);
  auto graph = th::GraphOp::create(b, root->getLoc(), root->getResultTypes(),
                                   inputs.getArrayRef());
  Block *body = b.createBlock(&graph.getBody());
  IRMapping scalars;
  for (Value input : inputs)
    scalars.map(input, body->addArgument(
                           cast<ShapedType>(input.getType()).getElementType(),
                           input.getLoc()));
  for (Operation *op : chain)
    scalars.map(op->getResult(0), buildScalar(b, op, scalars));
  th::YieldOp::create(b, root->getLoc(), scalars.lookup(root->getResult(0)));

  root->getResult(0).replaceAllUsesWith(graph.getResult(0));
  for (Operation *op : llvm::reverse(chain))
    op->erase();
}

void fuseInBlockGraph(Block &block) {
  llvm::EquivalenceClasses<Operation *> chains;
  for (Operation &op : block) {
    if (!isElementwise(&op))
      continue;
    chains.insert(&op);
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (isElementwise(producer) &&
          llvm::all_of(producer->getUsers(),
                       [&](Operation *user) { return user == &op; }))
        chains.unionSets(producer, &op);
    }
  }
  llvm::MapVector<Operation *, SmallVector<Operation *>> byLeader;
  for (Operation &op : block)
    if (isElementwise(&op))
      byLeader[chains.getLeaderValue(&op)].push_back(&op);
  for (auto &[leader, chain] : byLeader)
    if (chain.size() > 1)
      fuseChain(chain);
}

struct FuseThreadGraphsPass
    : public tileopt::impl::FuseThreadGraphsBase<FuseThreadGraphsPass> {
  void runOnOperation() override {
    getOperation()->walk([](tb::BlockGraphOpInterface graph) {
      fuseInBlockGraph(graph.getBlockGraph());
    });
  }
};

} // namespace

//===- LinalgToTK.cpp - Import linalg on tensors as a kernel graph --------===//
//
// A linalg structured op is a loop nest: each operand is read through an
// indexing map from the loops to its dims, and the payload says what one
// iteration computes. The importer reads every operand as a tensor over the
// op's loops (one dim per loop, in loop order, size 1 where the operand does
// not vary), so that the payload becomes a graph of tk elementwise ops under
// numpy broadcasting; reductions and contractions add tk.reduce and
// tk.matmul; a final transpose/reshape brings the result to the layout of the
// op's init. Each op is analysed completely before anything is built, so a
// refused op stays untouched and its reason reaches the user as a warning.
//
//===----------------------------------------------------------------------===//
#include "StructuredFallback.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"


#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_IMPORTLINALG
#include "TileOpt/Conversion/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Front ends write constants in the program's precision (1/sqrt(2) in fp16
/// is 0.70703125) or with a few digits, so the constants of the silu and
/// gelu idioms are compared with fp16's resolution.
bool isNear(double value, double expected) {
  return std::abs(value - expected) <= 1e-3 * std::max(1.0, std::abs(expected));
}

/// The value of a float scalar constant.
std::optional<double> scalarConstant(Value value) {
  FloatAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

/// The value of a tensor that holds one float everywhere: a splat constant
/// or a linalg.fill of a constant.
std::optional<double> splatConstant(Value tensor) {
  DenseElementsAttr attr;
  if (matchPattern(tensor, m_Constant(&attr)) && attr.isSplat() &&
      isa<FloatType>(attr.getElementType()))
    return attr.getSplatValue<APFloat>().convertToDouble();
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return scalarConstant(fill.getInputs()[0]);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Tensors over an iteration space
//===----------------------------------------------------------------------===//

/// The values of an integer tensor constant (tosa.const ids and masks) as
/// f32, which holds every integer up to 2^24 exactly: tk tensors are floats,
/// so a tk.map reads them so and compares them as floats. Null where a value
/// is out of that range, or `tensor` is no integer constant.
DenseElementsAttr integerConstantAsFloat(Value tensor) {
  DenseIntElementsAttr attr;
  if (!matchPattern(tensor, m_Constant(&attr)))
    return {};
  bool isBool = attr.getElementType().isInteger(1);
  SmallVector<float> values;
  values.reserve(attr.getNumElements());
  for (const APInt &value : attr.getValues<APInt>()) {
    int64_t v = isBool ? value.getZExtValue() : value.getSExtValue();
    if (std::abs(v) > (int64_t(1) << 24))
      return {};
    values.push_back(static_cast<float>(v));
  }
  auto type = RankedTensorType::get(attr.getType().getShape(),
                                    Float32Type::get(tensor.getContext()));
  return DenseElementsAttr::get(type, ArrayRef<float>(values));
}

/// The float comparison that computes `predicate` on integers held exactly
/// as floats; none for the unsigned ones, which differ on negative values.
std::optional<arith::CmpFPredicate>
floatPredicateOf(arith::CmpIPredicate predicate) {
  using I = arith::CmpIPredicate;
  using F = arith::CmpFPredicate;
  switch (predicate) {
  case I::eq: return F::OEQ;
  case I::ne: return F::ONE;
  case I::slt: return F::OLT;
  case I::sle: return F::OLE;
  case I::sgt: return F::OGT;
  case I::sge: return F::OGE;
  default: return std::nullopt;
  }
}

/// The loop of a size-1 operand dim indexed by the constant 0: a broadcast
/// the way TOSA and torch-mlir write it, `(d0, d1) -> (0, d1)`.
constexpr int64_t kUnitDim = -1;

/// Reads `map` as the loop each dim of a tensor of `shape` follows.
FailureOr<SmallVector<int64_t>>
loopsOfDims(AffineMap map, ArrayRef<int64_t> shape, llvm::raw_ostream &why) {
  SmallVector<int64_t> loops;
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
      if (llvm::is_contained(loops, loop.getPosition())) {
        why << "indexing map " << map << " reads loop d" << loop.getPosition()
            << " in two dims (a diagonal)";
        return failure();
      }
      loops.push_back(loop.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant && constant.getValue() == 0 && shape[dim] == 1) {
      loops.push_back(kUnitDim);
      continue;
    }
    why << "indexing map " << map << " indexes dim " << dim << " (size "
        << shape[dim] << ") by " << expr
        << "; tk takes maps that pick loops, with 0 for size-1 dims";
    return failure();
  }
  return loops;
}

Value reshapeTo(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return tk::ReshapeOp::create(b, loc, type.clone(shape), value);
}

/// Rearranges `value`, whose dim i follows loop `loops[i]`, so that its dims
/// follow `order`, and gives it `shape`. Dims whose loop is not in `order`
/// must have size 1. Emits a tk.transpose only where dims of size > 1 change
/// order, and a tk.reshape only where the shape changes: the reshape adds and
/// drops size-1 dims and merges or splits neighbouring dims.
Value rearrange(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> loops, ArrayRef<int64_t> order,
                ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> perm;
  for (int64_t loop : order)
    if (const auto *it = llvm::find(loops, loop); it != loops.end())
      perm.push_back(it - loops.begin());
  for (int64_t dim = 0, e = loops.size(); dim < e; ++dim)
    if (!llvm::is_contained(perm, dim))
      perm.push_back(dim);
  SmallVector<int64_t> moved = llvm::filter_to_vector(
      perm, [&](int64_t dim) { return type.getDimSize(dim) != 1; });
  if (!llvm::is_sorted(moved)) {
    SmallVector<int64_t> permuted = llvm::map_to_vector(
        perm, [&](int64_t dim) { return type.getDimSize(dim); });
    value = tk::TransposeOp::create(b, loc, type.clone(permuted), value, perm);
  }
  return reshapeTo(b, loc, value, shape);
}

/// Why `type` is not a tensor a kernel graph can hold with `elementType`.
LogicalResult checkTensor(Type type, Type elementType, StringRef what,
                          llvm::raw_ostream &why) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    why << what << " has type " << type
        << "; tk takes ranked tensors of static shape";
    return failure();
  }
  if (tensor.getElementType() != elementType) {
    why << what << " has element type " << tensor.getElementType()
        << " but the result has " << elementType
        << "; tk ops compute in one element type";
    return failure();
  }
  return success();
}

/// The result of `op`, checked to be a static float tensor.
FailureOr<RankedTensorType> checkResult(Operation *op, llvm::raw_ostream &why) {
  if (op->getNumResults() != 1) {
    why << "has " << op->getNumResults() << " results; tk ops have one";
    return failure();
  }
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !isa<FloatType>(type.getElementType())) {
    why << "the result has type " << op->getResult(0).getType()
        << "; tk computes on float tensors";
    return failure();
  }
  if (failed(checkTensor(type, type.getElementType(), "the result", why)))
    return failure();
  return type;
}

//===----------------------------------------------------------------------===//
// Payloads as kernel-graph computations
//===----------------------------------------------------------------------===//

/// One value of a payload, as a tensor over the op's loops.
struct Expr {
  enum class Kind { Operand, Constant, Unary, Binary, Map };
  Kind kind;
  /// The element type of the value (none for a constant, which takes the
  /// type of what it meets).
  Type type;
  /// Operand: the tensor read and the loop each of its dims follows; for an
  /// integer constant, its values as floats, which are read instead.
  Value tensor;
  SmallVector<int64_t> loops;
  DenseElementsAttr floatValues;
  /// Constant: its value; Unary mul_scalar, add_scalar: the scalar.
  double constant = 0;
  UnaryKind unary = UnaryKind::exp;
  BinaryKind binary = BinaryKind::add;
  /// Unary, Binary, Map: the operands, as indices of other nodes.
  SmallVector<unsigned, 2> args;
  /// Map: the payload ops a tk.map repeats, in order, and the value it
  /// yields; `mapArgs[i]` is the payload value `args[i]` computes, bound to
  /// the region's argument i.
  SmallVector<Operation *> mapOps;
  Value mapResult;
  SmallVector<Value, 2> mapArgs;
  /// Map: payload values that stand for others (a non-float operand for
  /// the value its producer's payload computes), and values that are
  /// constants.
  SmallVector<std::pair<Value, Value>> mapAliases;
  SmallVector<std::pair<Value, double>> mapConstants;
  /// The loops of size > 1 the value varies along.
  llvm::SmallBitVector varies;
};

/// The payload of a structured op as a DAG of tk operators over the op's
/// operands. `add` analyses a payload value and everything it needs,
/// failing with the reason; `emit` builds the tk ops of a node.
class PayloadGraph {
public:
  PayloadGraph(linalg::LinalgOp op, Type elementType)
      : op(op), elementType(elementType), loopSizes(op.getStaticLoopRanges()) {}

  FailureOr<unsigned> add(Value value, llvm::raw_ostream &why);

  const Expr &operator[](unsigned node) const { return nodes[node]; }
  ArrayRef<int64_t> getLoopSizes() const { return loopSizes; }

  /// The loops of size > 1 that `node` does not vary along.
  SmallVector<int64_t> missingLoops(unsigned node) const {
    return llvm::filter_to_vector(
        llvm::seq<int64_t>(loopSizes.size()), [&](int64_t loop) {
          return loopSizes[loop] > 1 && !nodes[node].varies.test(loop);
        });
  }

  /// A tensor with one dim per loop, in loop order, of size 1 along the
  /// loops the node does not vary along.
  Value emit(OpBuilder &b, Location loc, unsigned node);
  Value emitMap(OpBuilder &b, Location loc, const Expr &expr);

private:
  std::optional<double> constantOf(Value value);
  bool isConstant(Value value, double expected) {
    std::optional<double> c = constantOf(value);
    return c && isNear(*c, expected);
  }
  Value matchOnePlusExpNeg(Value value);
  Value matchSigmoid(Value value);
  Value matchSilu(Value value);
  Value matchGelu(Value value);

  FailureOr<unsigned> addOperand(OpOperand &operand, llvm::raw_ostream &why);
  /// `tensor` read through `map` from the op's loops; `number` names the
  /// operand in diagnostics.
  FailureOr<unsigned> addTensorRead(Value tensor, AffineMap map,
                                    unsigned number, llvm::raw_ostream &why);
  LogicalResult absorbProducer(Expr &expr, Value alias, Value tensor,
                               AffineMap map, unsigned number,
                               llvm::raw_ostream &why);
  /// addMap's absorption of a payload op into the map being built.
  std::function<LogicalResult(Operation *)> absorbOps;
  FailureOr<unsigned> addBinary(Operation *payloadOp, llvm::raw_ostream &why);
  FailureOr<unsigned> addMap(Operation *root, llvm::raw_ostream &why);
  unsigned addNode(Expr expr) {
    if (expr.varies.empty())
      expr.varies.resize(loopSizes.size());
    for (unsigned arg : expr.args) {
      expr.varies |= nodes[arg].varies;
      if (!expr.type)
        expr.type = nodes[arg].type;
    }
    nodes.push_back(std::move(expr));
    return nodes.size() - 1;
  }
  unsigned addConstant(double value) {
    Expr expr{Expr::Kind::Constant};
    expr.constant = value;
    return addNode(std::move(expr));
  }
  unsigned addUnary(UnaryKind kind, unsigned arg, double scalar = 0) {
    Expr expr{Expr::Kind::Unary};
    expr.unary = kind;
    expr.constant = scalar;
    expr.args = {arg};
    return addNode(std::move(expr));
  }
  unsigned addBinaryNode(BinaryKind kind, unsigned lhs, unsigned rhs) {
    Expr expr{Expr::Kind::Binary};
    expr.binary = kind;
    expr.args = {lhs, rhs};
    return addNode(std::move(expr));
  }
  std::optional<double> nodeConstant(unsigned node) const {
    if (nodes[node].kind != Expr::Kind::Constant)
      return std::nullopt;
    return nodes[node].constant;
  }

  linalg::LinalgOp op;
  Type elementType;
  SmallVector<int64_t> loopSizes;
  SmallVector<Expr, 0> nodes;
  DenseMap<Value, unsigned> nodeOf;
  DenseMap<unsigned, Value> emitted;
};

/// If `producer` only moves data (a copy, broadcast or transpose: all loops
/// parallel, payload `yield %in`, result map a permutation), the operand it
/// reads.
OpOperand *movedOperand(linalg::LinalgOp producer) {
  if (!producer || !producer.hasPureTensorSemantics() ||
      !producer.isAllParallelLoops() || producer.getNumDpsInputs() != 1 ||
      producer.getNumDpsInits() != 1 ||
      !llvm::hasSingleElement(producer.getBlock()->getOperations()))
    return nullptr;
  OpOperand *input = producer.getDpsInputOperand(0);
  auto yield = cast<linalg::YieldOp>(producer.getBlock()->getTerminator());
  if (yield.getOperand(0) != producer.getMatchingBlockArgument(input) ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isPermutation())
    return nullptr;
  return input;
}

std::optional<double> PayloadGraph::constantOf(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBlock())
    return scalarConstant(value);
  OpOperand *operand = op.getMatchingOpOperand(arg);
  if (op.isDpsInit(operand))
    return std::nullopt;
  if (isa<ShapedType>(operand->get().getType()))
    return splatConstant(operand->get());
  return scalarConstant(operand->get());
}

/// x, if `value` is 1 + exp(-x).
Value PayloadGraph::matchOnePlusExpNeg(Value value) {
  auto add = value.getDefiningOp<arith::AddFOp>();
  if (!add)
    return {};
  Value other = isConstant(add.getLhs(), 1.0)   ? add.getRhs()
                : isConstant(add.getRhs(), 1.0) ? add.getLhs()
                                                : Value();
  auto exp = other ? other.getDefiningOp<math::ExpOp>() : nullptr;
  auto neg = exp ? exp.getOperand().getDefiningOp<arith::NegFOp>() : nullptr;
  return neg ? neg.getOperand() : Value();
}

/// x, if `value` is sigmoid(x) = 1 / (1 + exp(-x)).
Value PayloadGraph::matchSigmoid(Value value) {
  auto div = value.getDefiningOp<arith::DivFOp>();
  if (!div || !isConstant(div.getLhs(), 1.0))
    return {};
  return matchOnePlusExpNeg(div.getRhs());
}

/// x, if `value` is silu(x), written x * sigmoid(x) or x / (1 + exp(-x)).
Value PayloadGraph::matchSilu(Value value) {
  if (auto div = value.getDefiningOp<arith::DivFOp>()) {
    Value x = matchOnePlusExpNeg(div.getRhs());
    return x == div.getLhs() ? x : Value();
  }
  auto mul = value.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return {};
  if (Value x = matchSigmoid(mul.getRhs()); x && x == mul.getLhs())
    return x;
  if (Value x = matchSigmoid(mul.getLhs()); x && x == mul.getRhs())
    return x;
  return {};
}

/// x, if `value` is gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), the exact
/// form tk's gelu computes, with the product in any order and association.
Value PayloadGraph::matchGelu(Value value) {
  SmallVector<Value, 3> factors;
  std::function<void(Value)> collect = [&](Value v) {
    if (auto mul = v.getDefiningOp<arith::MulFOp>()) {
      collect(mul.getLhs());
      collect(mul.getRhs());
    } else {
      factors.push_back(v);
    }
  };
  collect(value);
  if (factors.size() != 3)
    return {};
  for (auto [i, factor] : llvm::enumerate(factors)) {
    auto add = factor.getDefiningOp<arith::AddFOp>();
    if (!add)
      continue;
    Value erfArg = isConstant(add.getLhs(), 1.0)   ? add.getRhs()
                   : isConstant(add.getRhs(), 1.0) ? add.getLhs()
                                                   : Value();
    auto erf = erfArg ? erfArg.getDefiningOp<math::ErfOp>() : nullptr;
    if (!erf)
      continue;
    Value x;
    Value scaled = erf.getOperand();
    if (auto mul = scaled.getDefiningOp<arith::MulFOp>()) {
      if (isConstant(mul.getRhs(), llvm::numbers::inv_sqrt2))
        x = mul.getLhs();
      else if (isConstant(mul.getLhs(), llvm::numbers::inv_sqrt2))
        x = mul.getRhs();
    } else if (auto div = scaled.getDefiningOp<arith::DivFOp>()) {
      if (isConstant(div.getRhs(), llvm::numbers::sqrt2))
        x = div.getLhs();
    }
    if (!x)
      continue;
    Value a = factors[(i + 1) % 3], b = factors[(i + 2) % 3];
    if ((a == x && isConstant(b, 0.5)) || (b == x && isConstant(a, 0.5)))
      return x;
  }
  return {};
}

FailureOr<unsigned> PayloadGraph::addOperand(OpOperand &operand,
                                             llvm::raw_ostream &why) {
  // Read through producers that only move data, so that a broadcast or a
  // transpose feeding an elementwise op becomes part of its indexing map.
  Value tensor = operand.get();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  while (OpOperand *moved =
             movedOperand(tensor.getDefiningOp<linalg::LinalgOp>())) {
    auto producer = cast<linalg::LinalgOp>(moved->getOwner());
    AffineMap resultToLoops = inversePermutation(
        producer.getMatchingIndexingMap(producer.getDpsInitOperand(0)));
    map = producer.getMatchingIndexingMap(moved).compose(
        resultToLoops.compose(map));
    tensor = moved->get();
  }
  return addTensorRead(tensor, map, operand.getOperandNumber(), why);
}

FailureOr<unsigned> PayloadGraph::addTensorRead(Value tensor, AffineMap map,
                                                unsigned number,
                                                llvm::raw_ostream &why) {
  if (!isa<ShapedType>(tensor.getType())) {
    if (std::optional<double> c = scalarConstant(tensor))
      return addConstant(*c);
    why << "scalar operand #" << number
        << " is not a constant; tk has no scalar inputs";
    return failure();
  }
  if (std::optional<double> c = splatConstant(tensor))
    return addConstant(*c);
  // Operands of other float types than the result's reach it through
  // casts, which a tk.map computes.
  std::string what = "operand #" + std::to_string(number);
  auto operandType = dyn_cast<RankedTensorType>(tensor.getType());
  if (failed(checkTensor(tensor.getType(),
                         operandType && isa<FloatType>(
                                            operandType.getElementType())
                             ? operandType.getElementType()
                             : elementType,
                         what, why)))
    return failure();
  auto shape = cast<RankedTensorType>(tensor.getType()).getShape();
  FailureOr<SmallVector<int64_t>> loops = loopsOfDims(map, shape, why);
  if (failed(loops))
    return failure();
  // One tensor read the same way twice (tosa.mul %x, %x gives a generic
  // of two operands) is one value: x * x is then a square.
  for (auto [i, node] : llvm::enumerate(nodes))
    if (node.kind == Expr::Kind::Operand && node.tensor == tensor &&
        node.loops == *loops)
      return static_cast<unsigned>(i);
  Expr expr{Expr::Kind::Operand};
  expr.type = cast<RankedTensorType>(tensor.getType()).getElementType();
  expr.tensor = tensor;
  expr.loops = *loops;
  expr.varies.resize(loopSizes.size());
  for (int64_t loop : *loops)
    if (loop != kUnitDim && loopSizes[loop] > 1)
      expr.varies.set(loop);
  return addNode(std::move(expr));
}

FailureOr<unsigned> PayloadGraph::add(Value value, llvm::raw_ostream &why) {
  if (auto it = nodeOf.find(value); it != nodeOf.end())
    return it->second;
  FailureOr<unsigned> node = [&]() -> FailureOr<unsigned> {
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == op.getBlock()) {
      OpOperand *operand = op.getMatchingOpOperand(arg);
      if (op.isDpsInit(operand)) {
        why << "the payload reads the init (outs) operand; tk ops have no "
               "destination to read";
        return failure();
      }
      return addOperand(*operand, why);
    }
    if (std::optional<double> c = scalarConstant(value))
      return addConstant(*c);
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != op.getBlock()) {
      why << "the payload uses a value defined outside it that is not a "
             "constant";
      return failure();
    }
    // Idioms first: their pieces (erf, 1 + ...) have no tk operator.
    std::optional<UnaryKind> idiom;
    Value x;
    if ((x = matchSilu(value)))
      idiom = UnaryKind::silu;
    else if ((x = matchSigmoid(value)))
      idiom = UnaryKind::sigmoid;
    else if ((x = matchGelu(value)))
      idiom = UnaryKind::gelu;
    else if (auto div = dyn_cast<arith::DivFOp>(def);
             div && isConstant(div.getLhs(), 1.0))
      if (auto sqrt = div.getRhs().getDefiningOp<math::SqrtOp>()) {
        x = sqrt.getOperand();
        idiom = UnaryKind::rsqrt;
      }
    if (idiom) {
      FailureOr<unsigned> arg = add(x, why);
      if (failed(arg))
        return failure();
      return addUnary(*idiom, *arg);
    }
    if (def->getNumOperands() == 2 && isa<FloatType>(def->getOperand(0).getType()))
      return addBinary(def, why);
    std::optional<UnaryKind> kind =
        llvm::TypeSwitch<Operation *, std::optional<UnaryKind>>(def)
            .Case([](arith::NegFOp) { return UnaryKind::neg; })
            .Case([](math::ExpOp) { return UnaryKind::exp; })
            .Case([](math::SqrtOp) { return UnaryKind::sqrt; })
            .Case([](math::RsqrtOp) { return UnaryKind::rsqrt; })
            .Default([](Operation *) { return std::nullopt; });
    // What has no tk operator is scalar code a tk.map repeats.
    if (!kind || def->getNumOperands() != 1)
      return addMap(def, why);
    FailureOr<unsigned> arg = add(def->getOperand(0), why);
    if (failed(arg))
      return failure();
    if (nodeConstant(*arg)) {
      why << "the payload applies '" << def->getName()
          << "' to a constant; fold constants first (--canonicalize)";
      return failure();
    }
    return addUnary(*kind, *arg);
  }();
  if (succeeded(node))
    nodeOf[value] = *node;
  return node;
}

FailureOr<unsigned> PayloadGraph::addBinary(Operation *payloadOp,
                                            llvm::raw_ostream &why) {
  std::optional<BinaryKind> kind =
      llvm::TypeSwitch<Operation *, std::optional<BinaryKind>>(payloadOp)
          .Case([](arith::AddFOp) { return BinaryKind::add; })
          .Case([](arith::SubFOp) { return BinaryKind::sub; })
          .Case([](arith::MulFOp) { return BinaryKind::mul; })
          .Case([](arith::DivFOp) { return BinaryKind::div; })
          .Case([](math::PowFOp) { return BinaryKind::pow; })
          .Default([](Operation *) { return std::nullopt; });
  bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(payloadOp);
  if (!kind && !isMax)
    return addMap(payloadOp, why);
  FailureOr<unsigned> lhs = add(payloadOp->getOperand(0), why);
  if (failed(lhs))
    return failure();
  FailureOr<unsigned> rhs = add(payloadOp->getOperand(1), why);
  if (failed(rhs))
    return failure();
  std::optional<double> lc = nodeConstant(*lhs), rc = nodeConstant(*rhs);
  if (lc && rc) {
    why << "the payload applies '" << payloadOp->getName()
        << "' to two constants; fold constants first (--canonicalize)";
    return failure();
  }
  if (isMax) {
    // maximum(x, 0) is relu; any other maximum is scalar code.
    if (rc && *rc == 0.0)
      return addUnary(UnaryKind::relu, *lhs);
    if (lc && *lc == 0.0)
      return addUnary(UnaryKind::relu, *rhs);
    return addMap(payloadOp, why);
  }
  // Fold a constant operand into the unary operator that takes it. A
  // constant no operator takes stays a binary operand (emitted as a splat).
  switch (*kind) {
  case BinaryKind::mul:
    if (*lhs == *rhs)
      return addUnary(UnaryKind::square, *lhs);
    if (rc)
      return *rc == 1.0 ? *lhs : addUnary(UnaryKind::mul_scalar, *lhs, *rc);
    if (lc)
      return *lc == 1.0 ? *rhs : addUnary(UnaryKind::mul_scalar, *rhs, *lc);
    break;
  case BinaryKind::div:
    if (rc)
      return *rc == 1.0 ? *lhs
                        : addUnary(UnaryKind::mul_scalar, *lhs, 1.0 / *rc);
    break;
  case BinaryKind::add:
    if (rc)
      return *rc == 0.0 ? *lhs : addUnary(UnaryKind::add_scalar, *lhs, *rc);
    if (lc)
      return *lc == 0.0 ? *rhs : addUnary(UnaryKind::add_scalar, *rhs, *lc);
    break;
  case BinaryKind::sub:
    if (rc)
      return *rc == 0.0 ? *lhs : addUnary(UnaryKind::add_scalar, *lhs, -*rc);
    if (lc && *lc == 0.0)
      return addUnary(UnaryKind::neg, *rhs);
    if (lc)
      return addUnary(UnaryKind::add_scalar,
                      addUnary(UnaryKind::neg, *rhs), *lc);
    break;
  case BinaryKind::pow:
    if (rc && *rc == 1.0)
      return *lhs;
    if (rc && *rc == 2.0)
      return addUnary(UnaryKind::square, *lhs);
    if (rc && *rc == 0.5)
      return addUnary(UnaryKind::sqrt, *lhs);
    if (rc && *rc == -0.5)
      return addUnary(UnaryKind::rsqrt, *lhs);
    break;
  }
  // A constant no operator takes (c / x, pow(x, 3)) stays in scalar code.
  if (lc || rc)
    return addMap(payloadOp, why);
  return addBinaryNode(*kind, *lhs, *rhs);
}

/// `root` and the non-float values it computes from (a select's
/// comparison), as the scalar code of a tk.map. Its float operands are the
/// map's arguments, imported as nodes of their own (so the operators tk
/// has stay visible to the search); constants are repeated in the region.
FailureOr<unsigned> PayloadGraph::addMap(Operation *root,
                                         llvm::raw_ostream &why) {
  Type resultType = root->getResult(0).getType();
  if (root->getNumResults() != 1 || !isa<FloatType>(resultType)) {
    why << "the payload op '" << root->getName()
        << "' does not compute one float";
    return failure();
  }
  Expr expr{Expr::Kind::Map};
  expr.type = resultType;
  expr.mapResult = root->getResult(0);
  llvm::SmallPtrSet<Operation *, 8> absorbed;
  std::function<LogicalResult(Operation *)> absorb =
      [&](Operation *scalarOp) -> LogicalResult {
    if (!absorbed.insert(scalarOp).second)
      return success();
    if (isa<linalg::IndexOp>(scalarOp)) {
      why << "the payload reads the iteration index (linalg.index); tk ops "
             "do not depend on where an element is";
      return failure();
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(
            scalarOp->getDialect())) {
      why << "the payload op '" << scalarOp->getName()
          << "' is not arith or math";
      return failure();
    }
    for (Value operand : scalarOp->getOperands()) {
      auto bound = [&](auto &pairs) {
        return llvm::any_of(pairs,
                            [&](auto &pair) { return pair.first == operand; });
      };
      if (constantOf(operand) || llvm::is_contained(expr.mapArgs, operand) ||
          bound(expr.mapAliases) || bound(expr.mapConstants))
        continue;
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == op.getBlock() &&
          !isa<FloatType>(operand.getType())) {
        OpOperand *input = op.getMatchingOpOperand(arg);
        if (op.isDpsInit(input)) {
          why << "the payload reads the init (outs) operand; tk ops have no "
                 "destination to read";
          return failure();
        }
        if (failed(absorbProducer(expr, arg, input->get(),
                                  op.getMatchingIndexingMap(input),
                                  input->getOperandNumber(), why)))
          return failure();
        continue;
      }
      if (isa<FloatType>(operand.getType())) {
        FailureOr<unsigned> arg = add(operand, why);
        if (failed(arg))
          return failure();
        expr.args.push_back(*arg);
        expr.mapArgs.push_back(operand);
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() != op.getBlock() &&
          !matchPattern(operand, m_Constant())) {
        why << "the payload uses a value defined outside it that is not a "
               "constant";
        return failure();
      }
      if (!def) {
        why << "operand #"
            << op.getMatchingOpOperand(cast<BlockArgument>(operand))
                   ->getOperandNumber()
            << " has element type " << operand.getType()
            << "; tk computes on float tensors";
        return failure();
      }
      if (failed(absorb(def)))
        return failure();
    }
    // Integers reach a map only as constants held exactly in floats, so
    // they may be compared (as floats) but not computed with. Checked after
    // the operands, whose own reasons (an integer tensor, linalg.index) say
    // more.
    IntegerAttr integer;
    if (matchPattern(scalarOp, m_Constant(&integer)) &&
        integer.getValue().getSignificantBits() > 25) {
      why << "the integer constant " << integer.getValue()
          << " is not held exactly by an f32";
      return failure();
    }
    auto cmpi = dyn_cast<arith::CmpIOp>(scalarOp);
    if (cmpi ? !floatPredicateOf(cmpi.getPredicate())
             : llvm::any_of(scalarOp->getOperandTypes(), [](Type type) {
                 return type.isIntOrIndex() && !type.isInteger(1);
               })) {
      why << "the payload op '" << scalarOp->getName()
          << "' computes on integers; tk computes on floats (integer "
             "constants are only compared, signed or for equality)";
      return failure();
    }
    expr.mapOps.push_back(scalarOp);
    return success();
  };
  absorbOps = absorb;
  if (failed(absorb(root)))
    return failure();
  if (expr.args.empty()) {
    why << "the payload computes a constant; fold constants first "
           "(--canonicalize)";
    return failure();
  }
  return addNode(std::move(expr));
}

/// A non-float operand (a comparison's i1 tensor, from tosa.greater) read
/// through `map`: the all-parallel op that produces it is computed inside
/// the map instead, its operands read through the composed maps, so that
/// the i1 tensor never has to exist (tk tensors are floats).
LogicalResult PayloadGraph::absorbProducer(Expr &expr, Value alias,
                                           Value tensor, AffineMap map,
                                           unsigned number,
                                           llvm::raw_ostream &why) {
  if (DenseElementsAttr values = integerConstantAsFloat(tensor)) {
    auto shape = cast<RankedTensorType>(tensor.getType()).getShape();
    FailureOr<SmallVector<int64_t>> loops = loopsOfDims(map, shape, why);
    if (failed(loops))
      return failure();
    Expr read{Expr::Kind::Operand};
    read.type = values.getElementType();
    read.tensor = tensor;
    read.loops = *loops;
    read.floatValues = values;
    read.varies.resize(loopSizes.size());
    for (int64_t loop : *loops)
      if (loop != kUnitDim && loopSizes[loop] > 1)
        read.varies.set(loop);
    expr.args.push_back(addNode(std::move(read)));
    expr.mapArgs.push_back(alias);
    return success();
  }
  auto producer = tensor.getDefiningOp<linalg::LinalgOp>();
  if (!producer || !producer.hasPureTensorSemantics() ||
      !producer.isAllParallelLoops() || producer.getNumDpsInits() != 1 ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isPermutation() ||
      !producer.getMatchingBlockArgument(producer.getDpsInitOperand(0))
           .use_empty()) {
    why << "operand #" << number << " has element type "
        << cast<ShapedType>(tensor.getType()).getElementType()
        << "; tk computes on float tensors";
    return failure();
  }
  AffineMap resultToLoops = inversePermutation(
      producer.getMatchingIndexingMap(producer.getDpsInitOperand(0)));
  for (OpOperand *input : producer.getDpsInputOperands()) {
    BlockArgument arg = producer.getMatchingBlockArgument(input);
    if (arg.use_empty())
      continue;
    AffineMap composed = producer.getMatchingIndexingMap(input).compose(
        resultToLoops.compose(map));
    if (!isa<FloatType>(arg.getType())) {
      if (failed(absorbProducer(expr, arg, input->get(), composed, number,
                                why)))
        return failure();
      continue;
    }
    if (std::optional<double> c = splatConstant(input->get())) {
      expr.mapConstants.push_back({arg, *c});
      continue;
    }
    FailureOr<unsigned> read = addTensorRead(input->get(), composed, number, why);
    if (failed(read))
      return failure();
    expr.args.push_back(*read);
    expr.mapArgs.push_back(arg);
  }
  Value yielded = producer.getBlock()->getTerminator()->getOperand(0);
  if (Operation *def = yielded.getDefiningOp();
      def && def->getBlock() == producer.getBlock() &&
      failed(absorbOps(def)))
    return failure();
  expr.mapAliases.push_back({alias, yielded});
  return success();
}

Value PayloadGraph::emitMap(OpBuilder &b, Location loc, const Expr &expr) {
  SmallVector<Value> inputs = llvm::map_to_vector(
      expr.args, [&](unsigned arg) { return emit(b, loc, arg); });
  SmallVector<int64_t> shape(loopSizes.size(), 1);
  for (Value input : inputs)
    for (auto [d, size] :
         llvm::enumerate(cast<RankedTensorType>(input.getType()).getShape()))
      shape[d] = std::max(shape[d], size);
  auto map = tk::MapOp::create(b, loc, RankedTensorType::get(shape, expr.type),
                               inputs);
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&map.getBody());
  IRMapping mapping;
  for (auto [value, input] : llvm::zip(expr.mapArgs, inputs)) {
    Type elementType = cast<RankedTensorType>(input.getType()).getElementType();
    Value arg = body->addArgument(elementType, loc);
    // An integer constant read as floats: an i1 is true where nonzero; a
    // wider integer stays a float, which the comparisons below compare.
    if (value.getType().isInteger(1) && isa<FloatType>(elementType))
      arg = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::UNE, arg,
          arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0)));
    mapping.map(value, arg);
  }
  for (auto [value, c] : expr.mapConstants)
    mapping.map(value, arith::ConstantOp::create(
                           b, loc, b.getFloatAttr(value.getType(), c)));
  auto resolveAliases = [&] {
    for (auto [alias, source] : expr.mapAliases)
      if (!mapping.contains(alias) && mapping.contains(source))
        mapping.map(alias, mapping.lookup(source));
  };
  for (Operation *scalarOp : expr.mapOps) {
    resolveAliases();
    for (Value operand : scalarOp->getOperands())
      if (!mapping.contains(operand))
        if (std::optional<double> c = constantOf(operand))
          mapping.map(operand, arith::ConstantOp::create(
                                   b, loc, b.getFloatAttr(operand.getType(), *c)));
    // An integer scalar constant is held as an f32, like the integer
    // tensors it is compared with.
    IntegerAttr integer;
    if (matchPattern(scalarOp->getResult(0), m_Constant(&integer)) &&
        !integer.getType().isInteger(1)) {
      mapping.map(scalarOp->getResult(0),
                  arith::ConstantOp::create(
                      b, loc,
                      b.getF32FloatAttr(integer.getValue().getSExtValue())));
      continue;
    }
    if (auto cmpi = dyn_cast<arith::CmpIOp>(scalarOp)) {
      mapping.map(cmpi.getResult(),
                  arith::CmpFOp::create(b, loc,
                                        *floatPredicateOf(cmpi.getPredicate()),
                                        mapping.lookup(cmpi.getLhs()),
                                        mapping.lookup(cmpi.getRhs())));
      continue;
    }
    b.clone(*scalarOp, mapping);
  }
  resolveAliases();
  tk::YieldOp::create(b, loc, mapping.lookup(expr.mapResult));
  return map;
}

Value PayloadGraph::emit(OpBuilder &b, Location loc, unsigned node) {
  if (Value value = emitted.lookup(node))
    return value;
  const Expr &expr = nodes[node];
  int64_t rank = loopSizes.size();
  Value result;
  switch (expr.kind) {
  case Expr::Kind::Operand: {
    SmallVector<int64_t> shape(rank, 1);
    for (int64_t loop : expr.loops)
      if (loop != kUnitDim)
        shape[loop] = loopSizes[loop];
    Value tensor =
        expr.floatValues
            ? arith::ConstantOp::create(b, loc, expr.floatValues).getResult()
            : expr.tensor;
    result = rearrange(b, loc, tensor, expr.loops,
                       llvm::to_vector(llvm::seq<int64_t>(rank)), shape);
    break;
  }
  case Expr::Kind::Constant: {
    auto type = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                      expr.type ? expr.type : elementType);
    result = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getFloatAttr(elementType, expr.constant)));
    break;
  }
  case Expr::Kind::Unary: {
    Value input = emit(b, loc, expr.args[0]);
    FloatAttr scalar = expr.unary == UnaryKind::mul_scalar ||
                               expr.unary == UnaryKind::add_scalar
                           ? b.getF32FloatAttr(expr.constant)
                           : FloatAttr();
    result =
        tk::UnaryOp::create(b, loc, input.getType(), expr.unary, input, scalar);
    break;
  }
  case Expr::Kind::Binary: {
    Value lhs = emit(b, loc, expr.args[0]);
    Value rhs = emit(b, loc, expr.args[1]);
    // Both are tensors over the loops, of size 1 or the loop's size.
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    SmallVector<int64_t> shape = llvm::map_to_vector(
        llvm::zip(lhsType.getShape(), rhsType.getShape()), [](auto dims) {
          return std::max(std::get<0>(dims), std::get<1>(dims));
        });
    result = tk::BinaryOp::create(b, loc, lhsType.clone(shape), expr.binary,
                                  lhs, rhs);
    break;
  }
  case Expr::Kind::Map:
    result = emitMap(b, loc, expr);
    break;
  }
  emitted[node] = result;
  return result;
}

//===----------------------------------------------------------------------===//
// Structured ops
//===----------------------------------------------------------------------===//

/// What every structured op must be for tk: on tensors, one static float
/// result, static loop ranges.
FailureOr<RankedTensorType> checkStructured(linalg::LinalgOp op,
                                            llvm::raw_ostream &why) {
  if (!op.hasPureTensorSemantics()) {
    why << "works on buffers; tk imports linalg on tensors";
    return failure();
  }
  if (op.getNumDpsInits() != 1) {
    why << "has " << op.getNumDpsInits() << " inits; tk ops have one result";
    return failure();
  }
  FailureOr<RankedTensorType> type = checkResult(op, why);
  if (failed(type))
    return failure();
  if (ShapedType::isDynamicShape(op.getStaticLoopRanges())) {
    why << "has dynamic loop ranges; tk shapes are static";
    return failure();
  }
  return type;
}

/// The loops of `op`'s result dims; loops of size > 1 that are not among
/// them must be reduced.
FailureOr<SmallVector<int64_t>> resultLoops(linalg::LinalgOp op,
                                            RankedTensorType resultType,
                                            llvm::raw_ostream &why) {
  OpOperand *init = op.getDpsInitOperand(0);
  FailureOr<SmallVector<int64_t>> loops =
      loopsOfDims(op.getMatchingIndexingMap(init), resultType.getShape(), why);
  if (failed(loops))
    return failure();
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel && sizes[loop] > 1 &&
        !llvm::is_contained(*loops, loop)) {
      why << "parallel loop d" << loop << " does not index the result";
      return failure();
    }
  return loops;
}

/// `tensor` with elements of `to`: a tk.map of one arith.extf or truncf.
Value castElements(OpBuilder &b, Location loc, Value tensor, Type to) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type from = type.getElementType();
  if (from == to)
    return tensor;
  auto map =
      tk::MapOp::create(b, loc, type.clone(to), ValueRange{tensor});
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&map.getBody());
  Value x = body->addArgument(from, loc);
  Value converted =
      cast<FloatType>(to).getWidth() > cast<FloatType>(from).getWidth()
          ? arith::ExtFOp::create(b, loc, to, x).getResult()
          : arith::TruncFOp::create(b, loc, to, x).getResult();
  tk::YieldOp::create(b, loc, converted);
  return map;
}

/// linalg.matmul, linalg.batch_matmul, linalg.contract and contraction
/// generics, with any indexing maps: loops are batch, m, n or k dims
/// (inferContractionDims); the operands are brought to [batch..., M, K] and
/// [batch..., K, N], with the m, n and k loops each merged into one dim.
LogicalResult importContraction(linalg::LinalgOp op, RankedTensorType type,
                                PatternRewriter &rewriter) {
  std::string why;
  llvm::raw_string_ostream os(why);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.empty())
    return rewriter.notifyMatchFailure(op, "cannot tell its m, n and k loops");
  SmallVector<SmallVector<int64_t>> operandLoops;
  for (OpOperand *input : op.getDpsInputOperands()) {
    // fp16 operands of an fp32 product (an fp16 front end's matmul with
    // fp32 accumulation) are cast to the result's type first, as linalg
    // defines it.
    std::string what = "operand #" + std::to_string(input->getOperandNumber());
    auto inputType = dyn_cast<RankedTensorType>(input->get().getType());
    Type operandElements = inputType && isa<FloatType>(
                                            inputType.getElementType())
                               ? inputType.getElementType()
                               : type.getElementType();
    if (failed(checkTensor(input->get().getType(), operandElements, what, os)))
      return rewriter.notifyMatchFailure(op, why);
    FailureOr<SmallVector<int64_t>> loops = loopsOfDims(
        op.getMatchingIndexingMap(input),
        cast<RankedTensorType>(input->get().getType()).getShape(), os);
    if (failed(loops))
      return rewriter.notifyMatchFailure(op, why);
    operandLoops.push_back(std::move(*loops));
  }
  FailureOr<SmallVector<int64_t>> outLoops = resultLoops(op, type, os);
  if (failed(outLoops))
    return rewriter.notifyMatchFailure(op, why);
  std::optional<double> init = splatConstant(op.getDpsInitOperand(0)->get());
  if (!init || *init != 0.0)
    return rewriter.notifyMatchFailure(
        op, "accumulates into an init that is not zero; tk.matmul does not "
            "accumulate (write the addition as its own op)");

  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  auto asLoops = [](ArrayRef<unsigned> loops) {
    return SmallVector<int64_t>(loops.begin(), loops.end());
  };
  auto sizesOf = [&](ArrayRef<int64_t> loops) {
    return llvm::map_to_vector(loops,
                               [&](int64_t loop) { return sizes[loop]; });
  };
  auto product = [&](ArrayRef<unsigned> loops) {
    int64_t n = 1;
    for (unsigned loop : loops)
      n *= sizes[loop];
    return n;
  };
  // n loops that the result places before all its m loops are batch loops
  // of the product that the lhs broadcasts over (numpy.matmul): mla's
  // K[h, s, d] = sum_r C[s, r] Wk[h, r, d] is one tk.matmul of C with Wk,
  // not C times the heads merged into Wk's columns.
  auto position = [&](unsigned loop) {
    return llvm::find(*outLoops, static_cast<int64_t>(loop)) -
           outLoops->begin();
  };
  SmallVector<unsigned> nLoops = llvm::to_vector(dims->n),
                        batchLoops = llvm::to_vector(dims->batch);
  if (!dims->m.empty()) {
    int64_t firstM = outLoops->size();
    for (unsigned loop : dims->m)
      firstM = std::min<int64_t>(firstM, position(loop));
    SmallVector<unsigned> leading = llvm::filter_to_vector(
        dims->n, [&](unsigned loop) { return position(loop) < firstM; });
    if (leading.size() < nLoops.size()) {
      llvm::erase_if(nLoops, [&](unsigned loop) {
        return llvm::is_contained(leading, loop);
      });
      batchLoops.append(leading);
    }
  }
  llvm::sort(batchLoops,
             [&](unsigned x, unsigned y) { return position(x) < position(y); });
  SmallVector<int64_t> batch = asLoops(batchLoops);
  SmallVector<int64_t> batchSizes = sizesOf(batch);
  int64_t m = product(dims->m), n = product(nLoops), k = product(dims->k);
  auto operand = [&](unsigned i, ArrayRef<unsigned> rows,
                     ArrayRef<unsigned> cols, int64_t numRows,
                     int64_t numCols) {
    // A batch loop the operand lacks is a dim of 1; leading ones are left
    // out, as numpy.matmul allows.
    SmallVector<int64_t> own = llvm::filter_to_vector(batch, [&](int64_t loop) {
      return llvm::is_contained(operandLoops[i], loop);
    });
    SmallVector<int64_t> shape;
    for (int64_t loop : batch)
      if (!shape.empty() || llvm::is_contained(own, loop))
        shape.push_back(llvm::is_contained(own, loop) ? sizes[loop] : 1);
    shape.append({numRows, numCols});
    SmallVector<int64_t> order = llvm::to_vector(
        llvm::concat<const int64_t>(own, asLoops(rows), asLoops(cols)));
    Value cast = castElements(rewriter, op.getLoc(),
                              op.getDpsInputOperand(i)->get(),
                              type.getElementType());
    return rearrange(rewriter, op.getLoc(), cast, operandLoops[i], order,
                     shape);
  };
  Value lhs = operand(0, dims->m, dims->k, m, k);
  Value rhs = operand(1, dims->k, nLoops, k, n);
  SmallVector<int64_t> productShape(batchSizes);
  productShape.append({m, n});
  Value result = tk::MatmulOp::create(rewriter, op.getLoc(),
                                      type.clone(productShape), lhs, rhs);
  SmallVector<int64_t> productLoops = llvm::to_vector(
      llvm::concat<const int64_t>(batch, asLoops(dims->m), asLoops(nLoops)));
  result = reshapeTo(rewriter, op.getLoc(), result, sizesOf(productLoops));
  result = rearrange(rewriter, op.getLoc(), result, productLoops, *outLoops,
                     type.getShape());
  rewriter.replaceOp(op, result);
  return success();
}

/// The reduction an op's payload combines with, and the value it combines
/// into the accumulator.
struct Combiner {
  ReduceKind kind;
  Value contribution;
};

FailureOr<Combiner> matchCombiner(linalg::LinalgOp op, llvm::raw_ostream &why) {
  BlockArgument acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  Operation *combine = yielded.getDefiningOp();
  std::optional<ReduceKind> kind;
  if (isa_and_nonnull<arith::AddFOp>(combine))
    kind = ReduceKind::sum;
  else if (isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(combine))
    kind = ReduceKind::max;
  if (!kind) {
    why << "the reduction combines with "
        << (combine ? "'" + combine->getName().getStringRef().str() + "'"
                    : std::string("no op"))
        << "; tk reduces with sum (arith.addf) or max (arith.maximumf, "
           "arith.maxnumf)";
    return failure();
  }
  if (!acc.hasOneUse() ||
      (combine->getOperand(0) != acc && combine->getOperand(1) != acc)) {
    why << "the payload uses the accumulator other than as one operand of "
           "the combiner";
    return failure();
  }
  Value contribution = combine->getOperand(0) == acc ? combine->getOperand(1)
                                                     : combine->getOperand(0);
  return Combiner{*kind, contribution};
}

/// The init of a reduction must be the neutral element of its combiner,
/// since tk.reduce starts from nothing: 0 for a sum; for a max -inf or the
/// lowest finite value (max(x, lowest) = x for every x but -inf).
LogicalResult checkNeutralInit(linalg::LinalgOp op, ReduceKind kind,
                               Type elementType, llvm::raw_ostream &why) {
  std::optional<double> init = splatConstant(op.getDpsInitOperand(0)->get());
  if (kind == ReduceKind::sum) {
    if (init && *init == 0.0)
      return success();
    why << "the init of a sum must be a fill with 0";
  } else {
    const llvm::fltSemantics &semantics =
        cast<FloatType>(elementType).getFloatSemantics();
    double lowest = llvm::APFloat::getLargest(semantics, /*Negative=*/true)
                        .convertToDouble();
    if (init && *init <= lowest)
      return success();
    why << "the init of a max must be a fill with -inf or " << lowest;
  }
  if (init)
    why << ", got " << *init;
  return failure();
}

/// All-parallel ops (elementwise, broadcasts into an elementwise op,
/// transposes, copies) and reductions: the payload as a graph of tk ops,
/// then one tk.reduce per reduced loop.
LogicalResult importPayload(linalg::LinalgOp op, RankedTensorType type,
                            PatternRewriter &rewriter) {
  std::string why;
  llvm::raw_string_ostream os(why);
  PayloadGraph graph(op, type.getElementType());
  std::optional<Combiner> combiner;
  Value root = op.getBlock()->getTerminator()->getOperand(0);
  if (!op.isAllParallelLoops()) {
    FailureOr<Combiner> matched = matchCombiner(op, os);
    if (failed(matched))
      return rewriter.notifyMatchFailure(op, why);
    combiner = *matched;
    root = combiner->contribution;
  }
  FailureOr<unsigned> node = graph.add(root, os);
  if (failed(node) ||
      (combiner &&
       failed(checkNeutralInit(op, combiner->kind, type.getElementType(), os))))
    return rewriter.notifyMatchFailure(op, why);
  if (graph[*node].kind == Expr::Kind::Constant)
    return rewriter.notifyMatchFailure(
        op, "computes a constant; tk has no op that fills a tensor");
  FailureOr<SmallVector<int64_t>> outLoops = resultLoops(op, type, os);
  if (failed(outLoops))
    return rewriter.notifyMatchFailure(op, why);
  // A loop no operand varies along is a broadcast: a tk.map that yields its
  // operand makes it (tosa.tile repeating keys for grouped heads). A sum
  // along such a loop would be a multiple, which is not imported.
  SmallVector<int64_t> missing = graph.missingLoops(*node);
  if (!missing.empty() && combiner)
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "the reduction reads no operand that varies along loop d"
           << missing.front();
    });

  Location loc = op.getLoc();
  Value result = graph.emit(rewriter, loc, *node);
  if (!missing.empty())
    result = tk::createIdentityMap(rewriter, loc, result, graph.getLoopSizes());
  if (combiner) {
    auto iterators = op.getIteratorTypesArray();
    for (auto [loop, size] : llvm::enumerate(graph.getLoopSizes())) {
      if (iterators[loop] != utils::IteratorType::reduction || size == 1)
        continue;
      auto inType = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape(inType.getShape());
      shape[loop] = 1;
      result = tk::ReduceOp::create(rewriter, loc, inType.clone(shape),
                                    combiner->kind, result, loop);
    }
  }
  SmallVector<int64_t> loops =
      llvm::to_vector(llvm::seq<int64_t>(op.getNumLoops()));
  result = rearrange(rewriter, loc, result, loops, *outLoops, type.getShape());
  rewriter.replaceOp(op, result);
  return success();
}

/// Every linalg structured op goes through this one pattern, so that an op
/// that cannot be imported gets one reason.
struct ImportStructuredOp : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    FailureOr<RankedTensorType> type = checkStructured(op, os);
    if (failed(type))
      return rewriter.notifyMatchFailure(op, why);
    if (linalg::isaContractionOpInterface(op))
      return importContraction(op, *type, rewriter);
    return importPayload(op, *type, rewriter);
  }
};

/// linalg.softmax as tk computes it: exp(x - max(x)) / sum(exp(x - max(x))),
/// the kept reduced dim broadcasting back.
struct ImportSoftmax : public OpRewritePattern<linalg::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    FailureOr<RankedTensorType> type = checkResult(op, os);
    if (failed(type) ||
        failed(checkTensor(op.getInput().getType(), type->getElementType(),
                           "the input", os)))
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    int64_t dim = op.getDimension();
    SmallVector<int64_t> reducedShape(type->getShape());
    reducedShape[dim] = 1;
    RankedTensorType reduced = type->clone(reducedShape);
    Value x = op.getInput();
    Value max =
        tk::ReduceOp::create(rewriter, loc, reduced, ReduceKind::max, x, dim);
    Value shifted =
        tk::BinaryOp::create(rewriter, loc, *type, BinaryKind::sub, x, max);
    Value exp = tk::UnaryOp::create(rewriter, loc, *type, UnaryKind::exp,
                                    shifted, FloatAttr());
    Value sum =
        tk::ReduceOp::create(rewriter, loc, reduced, ReduceKind::sum, exp, dim);
    rewriter.replaceOpWithNewOp<tk::BinaryOp>(op, *type, BinaryKind::div, exp,
                                              sum);
    return success();
  }
};

/// tensor.expand_shape and tensor.collapse_shape of static shapes only
/// regroup the dims of a row-major tensor: a tk.reshape.
template <typename ReshapeOp>
struct ImportReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    auto type = cast<RankedTensorType>(op.getType());
    if (failed(checkTensor(op.getSrc().getType(), type.getElementType(),
                           "the source", os)) ||
        failed(checkTensor(type, type.getElementType(), "the result", os)))
      return rewriter.notifyMatchFailure(op, why);
    rewriter.replaceOpWithNewOp<tk::ReshapeOp>(op, type, op.getSrc());
    return success();
  }
};

/// Whether a slice has static offsets, sizes and unit strides.
static bool isStaticUnitStrided(OffsetSizeAndStrideOpInterface slice,
                                llvm::raw_ostream &why) {
  if (!slice.hasUnitStride() ||
      llvm::any_of(slice.getMixedOffsets(), llvm::IsaPred<Value>) ||
      llvm::any_of(slice.getMixedSizes(), llvm::IsaPred<Value>)) {
    why << "slices with dynamic offsets or sizes, or strides other than 1, "
           "have no tk form";
    return false;
  }
  return true;
}

/// tensor.extract_slice (tosa.slice) with static offsets and unit strides:
/// along each dim it narrows, a tk.split into the part before, the slice
/// and the part after, of which it keeps the slice; a reshape drops the
/// dims a rank-reducing slice drops.
struct ImportExtractSlice : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    RankedTensorType source = op.getSourceType();
    if (failed(checkTensor(source, source.getElementType(), "the source", os)) ||
        !isa<FloatType>(source.getElementType()) ||
        !isStaticUnitStrided(op, os))
      return rewriter.notifyMatchFailure(
          op, why.empty() ? "the source is not a float tensor" : why);
    Value value = op.getSource();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    for (int64_t dim = 0; dim < source.getRank(); ++dim) {
      int64_t extent = source.getDimSize(dim);
      if (sizes[dim] == extent)
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<Type> parts;
      auto part = [&](int64_t size) {
        SmallVector<int64_t> shape(type.getShape());
        shape[dim] = size;
        parts.push_back(type.clone(shape));
      };
      if (offsets[dim] > 0)
        part(offsets[dim]);
      part(sizes[dim]);
      if (offsets[dim] + sizes[dim] < extent)
        part(extent - offsets[dim] - sizes[dim]);
      auto split =
          tk::SplitOp::create(rewriter, op.getLoc(), parts, value, dim);
      value = split.getResult(offsets[dim] > 0 ? 1 : 0);
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), value,
                                     op.getResultType().getShape()));
    return success();
  }
};

/// tensor.concat (torch-mlir's cat): tk.concat.
struct ImportConcat : public OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    RankedTensorType type = op.getResultType();
    if (!isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "not a float tensor");
    for (Value input : op.getInputs())
      if (failed(checkTensor(input.getType(), type.getElementType(),
                             "an input", os)))
        return rewriter.notifyMatchFailure(op, why);
    rewriter.replaceOpWithNewOp<tk::ConcatOp>(op, type, op.getInputs(),
                                              op.getDim());
    return success();
  }
};

/// tosa.concat's lowering: tensor.insert_slice after tensor.insert_slice
/// into a tensor.empty, each along one dim and together filling it. The
/// last insert of such a chain is a tk.concat of the inserted parts in
/// the order of their offsets.
struct ImportInsertSliceChain
    : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    RankedTensorType type = op.getResultType();
    if (!isa<FloatType>(type.getElementType()) ||
        failed(checkTensor(type, type.getElementType(), "the result", os)))
      return rewriter.notifyMatchFailure(op, why.empty() ? "not a float tensor"
                                                         : why);
    if (llvm::any_of(op->getUsers(), [&](Operation *user) {
          auto insert = dyn_cast<tensor::InsertSliceOp>(user);
          return insert && insert.getDest() == op.getResult();
        }))
      return rewriter.notifyMatchFailure(
          op, "not the last insert of a chain (that one is imported)");
    // The chain, from this insert back to the empty tensor it starts from.
    std::optional<int64_t> dim;
    SmallVector<std::pair<int64_t, Value>> parts;
    tensor::InsertSliceOp insert = op;
    while (insert) {
      if (!isStaticUnitStrided(insert, os) ||
          insert.getSourceType().getRank() != type.getRank())
        return rewriter.notifyMatchFailure(
            op, why.empty() ? "an insert drops dims" : why);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (insert.getStaticSizes()[d] == type.getDimSize(d))
          continue;
        if (dim && *dim != d)
          return rewriter.notifyMatchFailure(
              op, "the inserts cover parts along more than one dim; only a "
                  "concatenation along one dim has a tk form");
        dim = d;
      }
      parts.push_back({dim ? insert.getStaticOffsets()[*dim] : 0,
                       insert.getSource()});
      Value dest = insert.getDest();
      if (!dest.hasOneUse())
        return rewriter.notifyMatchFailure(
            op, "a partial result of the inserts has other uses");
      insert = dest.getDefiningOp<tensor::InsertSliceOp>();
      if (!insert && !dest.getDefiningOp<tensor::EmptyOp>())
        return rewriter.notifyMatchFailure(
            op, "the inserts write into a tensor with contents; only a "
                "concatenation into an empty tensor has a tk form");
    }
    if (!dim)
      return rewriter.notifyMatchFailure(op, "an insert of the whole tensor");
    llvm::sort(parts, [](auto &a, auto &b) { return a.first < b.first; });
    int64_t covered = 0;
    for (auto [offset, part] : parts) {
      if (offset != covered)
        return rewriter.notifyMatchFailure(
            op, "the inserts leave a gap or overlap; only a concatenation "
                "that fills the tensor has a tk form");
      covered += cast<RankedTensorType>(part.getType()).getDimSize(*dim);
    }
    if (covered != type.getDimSize(*dim))
      return rewriter.notifyMatchFailure(op, "the inserts do not fill the tensor");
    SmallVector<Value> inputs =
        llvm::map_to_vector(parts, [](auto &part) { return part.second; });
    rewriter.replaceOpWithNewOp<tk::ConcatOp>(op, type, inputs, *dim);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Kernel-graph idioms
//===----------------------------------------------------------------------===//

/// Each op is imported on its own, aligned with its loops and brought back
/// to its result layout; between two ops that leaves reshape pairs.
struct FoldReshapeChain : public OpRewritePattern<tk::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInput().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    auto inner = op.getInput().getDefiningOp<tk::ReshapeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a reshape");
    rewriter.replaceOpWithNewOp<tk::ReshapeOp>(op, op.getType(),
                                               inner.getInput());
    return success();
  }
};

/// A transpose of a transpose is one transpose, or none.
struct FoldTransposeChain : public OpRewritePattern<tk::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<tk::TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    ArrayRef<int64_t> outer = op.getPermutation();
    SmallVector<int64_t> perm = llvm::map_to_vector(
        outer, [&](int64_t dim) { return inner.getPermutation()[dim]; });
    if (llvm::equal(perm, llvm::seq<int64_t>(perm.size())))
      rewriter.replaceOp(op, inner.getInput());
    else
      rewriter.replaceOpWithNewOp<tk::TransposeOp>(op, op.getType(),
                                                   inner.getInput(), perm);
    return success();
  }
};

/// `value` without the reshapes it was produced through.
Value skipReshapes(Value value) {
  while (auto reshape = value.getDefiningOp<tk::ReshapeOp>())
    value = reshape.getInput();
  return value;
}

/// The sum `value` is produced by, through reshapes (collected in
/// `reshapes`, the last first), when nothing else reads the sum or any of
/// those reshapes: what a fold of the sum may rewrite. Null otherwise.
tk::ReduceOp soleSum(Value value,
                     SmallVectorImpl<tk::ReshapeOp> *reshapes = nullptr) {
  while (auto reshape = value.getDefiningOp<tk::ReshapeOp>()) {
    if (!reshape->hasOneUse())
      return nullptr;
    if (reshapes)
      reshapes->push_back(reshape);
    value = reshape.getInput();
  }
  auto sum = value.getDefiningOp<tk::ReduceOp>();
  if (!sum || sum.getKind() != ReduceKind::sum || !sum->hasOneUse())
    return nullptr;
  return sum;
}

/// Whether `factor` is 1/n as the program wrote it: rounded to its element
/// type, or to f32 (a division by n becomes a mul_scalar, whose factor is an
/// f32). A near miss is a different program, so the match is exact.
bool isInverse(const APFloat &factor, int64_t n, FloatType elementType) {
  for (const llvm::fltSemantics *semantics :
       {&elementType.getFloatSemantics(), &APFloat::IEEEsingle()}) {
    bool lost;
    APFloat inverse(1.0 / static_cast<double>(n)), written = factor;
    inverse.convert(*semantics, APFloat::rmNearestTiesToEven, &lost);
    written.convert(*semantics, APFloat::rmNearestTiesToEven, &lost);
    if (written.compare(inverse) == APFloat::cmpEqual)
      return true;
  }
  return false;
}

/// The one scalar op of a map of one operand whose body is that op of the
/// operand, yielded: an extf or a truncf, a cast the map stands for.
template <typename CastOp> CastOp soleCast(tk::MapOp map) {
  if (map.getInputs().size() != 1)
    return nullptr;
  Block &body = map.getBody().front();
  auto cast = dyn_cast<CastOp>(&body.front());
  if (!cast || cast.getIn() != body.getArgument(0) ||
      &*std::next(body.begin()) != body.getTerminator() ||
      body.getTerminator()->getOperand(0) != cast.getResult())
    return nullptr;
  return cast;
}

/// truncf(sum(extf(x))) of f16 or bf16 x is tk's sum of x: upstream's
/// tosa-to-linalg accumulates a bf16 reduce_sum in f32 between two casts,
/// which is what tk.reduce sum of a 16-bit type does (its kernels and the
/// interpreter accumulate in f32). Folded, the program keeps one element
/// type, which the search needs, and a scaled sum can become a mean.
struct FoldWidenedSum : public OpRewritePattern<tk::MapOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::MapOp op,
                                PatternRewriter &rewriter) const override {
    if (!soleCast<arith::TruncFOp>(op))
      return rewriter.notifyMatchFailure(op, "not a truncf map");
    SmallVector<tk::ReshapeOp> reshapes;
    tk::ReduceOp sum = soleSum(op.getInputs().front(), &reshapes);
    if (!sum)
      return rewriter.notifyMatchFailure(
          op, "not the only use of a sum, through reshapes nothing else reads");
    auto widen = sum.getInput().getDefiningOp<tk::MapOp>();
    if (!widen || !widen->hasOneUse() || !soleCast<arith::ExtFOp>(widen))
      return rewriter.notifyMatchFailure(op, "the sum is not of an extf map");
    Value narrow = widen.getInputs().front();
    Type element = cast<RankedTensorType>(narrow.getType()).getElementType();
    if (element != cast<RankedTensorType>(op.getType()).getElementType())
      return rewriter.notifyMatchFailure(op, "truncf to another type");
    Value result = tk::ReduceOp::create(
        rewriter, sum.getLoc(),
        cast<RankedTensorType>(sum.getType()).clone(element), ReduceKind::sum,
        narrow, sum.getDim());
    for (tk::ReshapeOp reshape : llvm::reverse(reshapes))
      result = tk::ReshapeOp::create(
          rewriter, reshape.getLoc(),
          cast<RankedTensorType>(reshape.getType()).clone(element), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// mul_scalar(1/n) of a sum over a dim of size n is a mean (front ends
/// divide the sum themselves; tk has a mean the search can fuse).
struct FoldScaledSumIntoMean : public OpRewritePattern<tk::UnaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::UnaryOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != UnaryKind::mul_scalar)
      return rewriter.notifyMatchFailure(op, "not a mul_scalar");
    tk::ReduceOp sum = soleSum(op.getInput());
    if (!sum)
      return rewriter.notifyMatchFailure(
          op, "not the only use of a sum, through reshapes nothing else reads");
    int64_t n = cast<RankedTensorType>(sum.getInput().getType())
                    .getDimSize(sum.getDim());
    auto elementType =
        cast<FloatType>(cast<RankedTensorType>(op.getType()).getElementType());
    if (!isInverse(op.getScalarAttr().getValue(), n, elementType))
      return rewriter.notifyMatchFailure(op, "the factor is not 1/n");
    rewriter.modifyOpInPlace(sum, [&] { sum.setKind(ReduceKind::mean); });
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// x * rsqrt(mean(x^2) + eps), or x / sqrt(mean(x^2) + eps), is tk.rms_norm:
/// over the last dim of x as it is, over another dim (a key normalized
/// over its head dim, stored transposed) between transposes that move that
/// dim last and back. The reshapes between the ops (from the import of each
/// linalg op) only add or drop size-1 dims; the reduced tensor must reach
/// the product in the shape the reduction gave it, so that it broadcasts
/// along the reduced dim of x.
struct RecogniseRmsNorm : public OpRewritePattern<tk::BinaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::BinaryOp op,
                                PatternRewriter &rewriter) const override {
    BinaryKind kind = op.getKind();
    if (kind != BinaryKind::mul && kind != BinaryKind::div)
      return rewriter.notifyMatchFailure(op, "not a mul or div");
    UnaryKind root =
        kind == BinaryKind::mul ? UnaryKind::rsqrt : UnaryKind::sqrt;
    SmallVector<std::pair<Value, Value>, 2> candidates = {
        {op.getLhs(), op.getRhs()}};
    if (kind == BinaryKind::mul)
      candidates.push_back({op.getRhs(), op.getLhs()});
    for (auto [x, scale] : candidates) {
      if (x.getType() != op.getType())
        continue;
      std::optional<std::pair<int64_t, double>> norm =
          matchInverseRms(x, scale, root);
      if (!norm)
        continue;
      auto [dim, eps] = *norm;
      auto type = cast<RankedTensorType>(x.getType());
      int64_t rank = type.getRank();
      Location loc = op.getLoc();
      FloatAttr epsilon = rewriter.getF32FloatAttr(eps);
      if (dim == rank - 1) {
        rewriter.replaceOpWithNewOp<tk::RmsNormOp>(op, type, x, epsilon);
        return success();
      }
      // The dim moved last, the others in their order; and back.
      SmallVector<int64_t> toLast, back(rank);
      for (int64_t i = 0; i < rank; ++i)
        if (i != dim)
          toLast.push_back(i);
      toLast.push_back(dim);
      for (int64_t i = 0; i < rank; ++i)
        back[toLast[i]] = i;
      SmallVector<int64_t> shape = llvm::map_to_vector(
          toLast, [&](int64_t i) { return type.getDimSize(i); });
      auto rowsType = type.clone(shape);
      Value rows = tk::TransposeOp::create(rewriter, loc, rowsType, x, toLast);
      Value normalized =
          tk::RmsNormOp::create(rewriter, loc, rowsType, rows, epsilon);
      rewriter.replaceOpWithNewOp<tk::TransposeOp>(op, type, normalized, back);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not x and 1/rms(x)");
  }

  /// The reduced dim and epsilon, if `scale` is root(mean(x^2) + epsilon)
  /// over a dim of x, in the shape the mean gave it.
  static std::optional<std::pair<int64_t, double>>
  matchInverseRms(Value x, Value scale, UnaryKind rootKind) {
    auto root = skipReshapes(scale).getDefiningOp<tk::UnaryOp>();
    if (!root || root.getKind() != rootKind)
      return std::nullopt;
    Value meanValue = skipReshapes(root.getInput());
    double eps = 0.0;
    if (auto add = meanValue.getDefiningOp<tk::UnaryOp>();
        add && add.getKind() == UnaryKind::add_scalar) {
      eps = add.getScalar()->convertToDouble();
      if (eps < 0)
        return std::nullopt;
      meanValue = skipReshapes(add.getInput());
    } else if (auto add = meanValue.getDefiningOp<tk::BinaryOp>();
               add && add.getKind() == BinaryKind::add) {
      std::optional<double> c = splatConstant(add.getRhs());
      Value other = add.getLhs();
      if (!c) {
        c = splatConstant(add.getLhs());
        other = add.getRhs();
      }
      if (!c || *c < 0 || other.getType() != add.getType())
        return std::nullopt;
      eps = *c;
      meanValue = skipReshapes(other);
    }
    auto mean = meanValue.getDefiningOp<tk::ReduceOp>();
    if (!mean || mean.getKind() != ReduceKind::mean ||
        mean.getType() != scale.getType())
      return std::nullopt;
    auto square = mean.getInput().getDefiningOp<tk::UnaryOp>();
    if (!square || square.getKind() != UnaryKind::square ||
        square.getInput() != x)
      return std::nullopt;
    return std::make_pair(static_cast<int64_t>(mean.getDim()), eps);
  }
};

/// x * sigmoid(x) is silu(x): TOSA and torch write a SiLU as a sigmoid and
/// a product, in two ops.
struct RecogniseSilu : public OpRewritePattern<tk::BinaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::BinaryOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != BinaryKind::mul)
      return rewriter.notifyMatchFailure(op, "not a mul");
    for (auto [x, gate] : {std::pair(op.getLhs(), op.getRhs()),
                           std::pair(op.getRhs(), op.getLhs())}) {
      auto sigmoid = gate.getDefiningOp<tk::UnaryOp>();
      if (!sigmoid || sigmoid.getKind() != UnaryKind::sigmoid ||
          sigmoid.getInput() != x || x.getType() != op.getType())
        continue;
      rewriter.replaceOpWithNewOp<tk::UnaryOp>(op, op.getType(),
                                               UnaryKind::silu, x,
                                               FloatAttr());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not x * sigmoid(x)");
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Collects the reasons patterns give through notifyMatchFailure.
struct MatchFailureCollector : public RewriterBase::Listener {
  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    Diagnostic diag(loc, DiagnosticSeverity::Remark);
    reasonCallback(diag);
    reasons.push_back(diag.str());
  }
  SmallVector<std::string> reasons;
};

struct ImportLinalgPass
    : public tileopt::impl::ImportLinalgBase<ImportLinalgPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet imports(context);
    imports.add<ImportStructuredOp, ImportSoftmax,
                ImportReshape<tensor::ExpandShapeOp>,
                ImportReshape<tensor::CollapseShapeOp>, ImportExtractSlice,
                ImportConcat, ImportInsertSliceChain>(context);
    importPatterns = FrozenRewritePatternSet(std::move(imports));
    RewritePatternSet idioms(context);
    idioms.add<FoldReshapeChain, FoldTransposeChain, FoldWidenedSum,
               FoldScaledSumIntoMean, RecogniseRmsNorm, RecogniseSilu>(context);
    idiomPatterns = FrozenRewritePatternSet(std::move(idioms));
    return success();
  }

  void runOnOperation() override {
    // An op the patterns refuse is not an error: the pass imports what it
    // can and reports the rest, so convergence is not checked either. No
    // folding, constant hoisting or region simplification: what is not
    // imported stays exactly as it was (dead ops are still erased).
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), importPatterns, config);
    (void)applyPatternsGreedily(getOperation(), idiomPatterns, config);
    structureLeftovers();
    hoistConstants();
    reportConstants();
  }

  /// Makes each tensor constant that tk ops read an argument of the
  /// function, appended after the others, whose `tileopt.constant`
  /// attribute holds its values: tk ops take tensors, not constants, and
  /// the artifact holds such a buffer's contents itself (manifest role
  /// `constant`), so callers still pass only the original arguments.
  void hoistConstants() {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<arith::ConstantOp> constants;
    func.walk([&](arith::ConstantOp constant) {
      if (isa<DenseElementsAttr>(constant.getValue()) &&
          llvm::any_of(constant->getUsers(), [](Operation *user) {
            return isa_and_nonnull<tk::TKDialect>(user->getDialect());
          }))
        constants.push_back(constant);
    });
    // One argument per distinct value (attributes are uniqued).
    llvm::DenseMap<Attribute, BlockArgument> arguments;
    Builder b(func.getContext());
    for (arith::ConstantOp constant : constants) {
      auto values = cast<DenseElementsAttr>(constant.getValue());
      BlockArgument &arg = arguments[values];
      if (!arg) {
        unsigned index = func.getNumArguments();
        NamedAttribute attrs[] = {
            b.getNamedAttr(TileOptDialect::ConstantAttrHelper::getNameStr(),
                           values),
            b.getNamedAttr(TileOptDialect::NameAttrHelper::getNameStr(),
                           b.getStringAttr("constant" +
                                           Twine(arguments.size() - 1)))};
        if (failed(func.insertArgument(index, values.getType(),
                                       b.getDictionaryAttr(attrs),
                                       constant.getLoc()))) {
          constant.emitError("cannot make this constant an argument of ")
              << func.getSymName();
          return signalPassFailure();
        }
        arg = func.getArgument(index);
      }
      constant.getResult().replaceAllUsesWith(arg);
      constant.erase();
    }
  }

  /// Whether `op`'s result reaches the kernel graph or the return.
  static bool reachesGraph(Operation *op) {
    return llvm::any_of(op->getUsers(), [](Operation *user) {
      return isa<func::ReturnOp>(user) ||
             isa_and_nonnull<tk::TKDialect>(user->getDialect());
    });
  }

  /// Every op the patterns did not import becomes a tk.structured, a kernel
  /// of its own (StructuredFallback.h), with a remark that says why the
  /// patterns refused it; what cannot become one gets a warning, as it keeps
  /// the function from being a kernel graph. Fills, empty tensors and
  /// constants count only where they reach the kernel graph or the return:
  /// feeding an op that is itself reported, they are rebuilt with it or
  /// would only repeat its warning.
  void structureLeftovers() {
    SmallVector<Operation *> leftovers;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation() || op->hasTrait<OpTrait::IsTerminator>())
        return WalkResult::advance();
      if (isa_and_nonnull<tk::TKDialect>(op->getDialect()) ||
          matchPattern(op, m_Constant()))
        return WalkResult::skip();
      if (!isa<tensor::EmptyOp, linalg::FillOp>(op) || reachesGraph(op))
        leftovers.push_back(op);
      return WalkResult::skip();
    });

    PatternApplicator applicator(importPatterns);
    applicator.applyDefaultCostModel();
    IRRewriter rewriter(&getContext());
    for (Operation *op : leftovers) {
      MatchFailureCollector collector;
      PatternRewriter patternRewriter(op->getContext());
      patternRewriter.setListener(&collector);
      patternRewriter.setInsertionPoint(op);
      if (succeeded(applicator.matchAndRewrite(op, patternRewriter)))
        continue;
      std::string reasons = collector.reasons.empty()
                                ? "tk has no equivalent op"
                                : llvm::join(collector.reasons, "; ");
      std::string whyNot;
      llvm::raw_string_ostream os(whyNot);
      std::string name = op->getName().getStringRef().str();
      Location loc = op->getLoc();
      if (succeeded(wrapAsStructured(op, rewriter, os))) {
        emitRemark(loc) << "'" << name
                        << "' is a kernel of its own (tk.structured), not "
                           "fused: "
                        << reasons;
        continue;
      }
      op->emitWarning() << "cannot import '" << name << "': " << reasons
                        << "; and no generic kernel computes it: " << whyNot;
    }
  }

  /// Warns at the constants that reach the kernel graph: dense ones are
  /// arguments by now (hoistConstants); other elements attributes, such as
  /// `dense_resource` blobs, are not.
  void reportConstants() {
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa_and_nonnull<tk::TKDialect>(op->getDialect()))
        return WalkResult::skip();
      if (matchPattern(op, m_Constant()) && reachesGraph(op))
        op->emitWarning("constant in the kernel graph: tk has no "
                        "constants, and only dense ones become constant "
                        "arguments (tileopt.constant)");
      return WalkResult::advance();
    });
  }

  FrozenRewritePatternSet importPatterns;
  FrozenRewritePatternSet idiomPatterns;
};

} // namespace

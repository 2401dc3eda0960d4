//===- TileDialect.cpp - Tile dialect, types and traits -------------------===//
#include "TileOpt/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt::tile;
using mlir::tileopt::FragmentLayout;

#include "TileOpt/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"
#include "TileOpt/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "TileOpt/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {

/// Prints layouts as aliases (`#blocked`, `#mma`, `#wgmma`, numbered when a
/// module has several), as Triton prints its encodings: a tile type then
/// reads `tensor<64x64xf32, #mma>`.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    return llvm::TypeSwitch<Attribute, AliasResult>(attr)
        .Case([&](BlockedAttr) {
          os << "blocked";
          return AliasResult::FinalAlias;
        })
        .Case([&](MmaSyncAttr) {
          os << "mma";
          return AliasResult::FinalAlias;
        })
        .Case([&](WgmmaAttr) {
          os << "wgmma";
          return AliasResult::FinalAlias;
        })
        .Default([](Attribute) { return AliasResult::NoAlias; });
  }
};

} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "TileOpt/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TileOpt/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TileOpt/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TensorViewType
//===----------------------------------------------------------------------===//

Type TensorViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<TensorViewType>(loc, parser.getContext(), shape,
                                           elementType);
}

void TensorViewType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << '>';
}

LogicalResult
TensorViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a tensor view has at least one dimension";
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim < 1)
      return emitError() << "tensor view dims must be positive or ?, got "
                         << dim;
  if (!elementType.isIntOrFloat())
    return emitError() << "tensor view elements must be integers or floats, "
                          "got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

LayoutAttrInterface mlir::tileopt::tile::getLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return nullptr;
  return dyn_cast_or_null<LayoutAttrInterface>(tensor.getEncoding());
}

FragmentLayout mlir::tileopt::tile::getFragmentLayout(RankedTensorType tile) {
  LayoutAttrInterface layout = getLayout(tile);
  assert(layout && "a tile without a layout has no fragments");
  return layout.getFragmentLayout(tile.getShape());
}

static bool isPowerOfTwo(int64_t n) { return n > 0 && llvm::isPowerOf2_64(n); }

LogicalResult BlockedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t chunk, int64_t warps) {
  if (warps < 1 || warps > 32)
    return emitError() << "#tile.blocked needs 1-32 warps, got " << warps;
  if (!isPowerOfTwo(chunk) || chunk > 8)
    return emitError() << "#tile.blocked chunks have 1, 2, 4 or 8 elements, "
                          "got "
                       << chunk;
  return success();
}

int64_t BlockedAttr::getNumWarps() const { return getWarps(); }

FragmentLayout BlockedAttr::getFragmentLayout(ArrayRef<int64_t> shape) const {
  return FragmentLayout::blocked(shape, 32 * getWarps(), getChunk());
}

LogicalResult BlockedAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  int64_t elements = ShapedType::getNumElements(shape);
  int64_t threads = 32 * getWarps(), chunk = getChunk();
  int64_t lastDim = shape.empty() ? 1 : shape.back();
  if (lastDim % chunk != 0)
    return emitError() << "#tile.blocked chunks of " << chunk
                       << " elements do not divide the last dim (" << lastDim
                       << ")";
  if (elements < threads) {
    if (chunk != 1)
      return emitError() << "a tile of " << elements
                         << " elements, fewer than the " << threads
                         << " threads, is replicated: its #tile.blocked "
                            "chunk is 1, got "
                         << chunk;
    return success();
  }
  if (elements % (threads * chunk) != 0)
    return emitError() << "a tile of " << elements
                       << " elements does not deal whole chunks of " << chunk
                       << " to " << threads << " threads";
  return success();
}

/// Checks that an accumulator layout (`name`) takes `shape`: a matrix, or a
/// tensor whose leading dims are 1, whose rows divide into `rowMultiple`
/// and columns into `colMultiple`.
static LogicalResult
verifyAccumulatorShape(ArrayRef<int64_t> shape, StringRef name,
                       int64_t rowMultiple, int64_t colMultiple,
                       function_ref<InFlightDiagnostic()> emitError) {
  if (shape.size() < 2 ||
      llvm::any_of(shape.drop_back(2), [](int64_t d) { return d != 1; })) {
    InFlightDiagnostic diag = emitError();
    diag << name << " lays out a matrix (with leading dims of 1 at most), got ";
    llvm::interleave(shape, diag, "x");
    return diag;
  }
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  if (rows % rowMultiple != 0 || cols % colMultiple != 0)
    return emitError() << name << " needs rows a multiple of " << rowMultiple
                       << " and columns of " << colMultiple << ", got " << rows
                       << "x" << cols;
  return success();
}

LogicalResult MmaSyncAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> warps) {
  // Each side bounded before the product, which 2 x 2^62 would overflow
  // (a fuzzed attribute got through, and its layout divided by zero).
  if (warps.size() != 2 || !isPowerOfTwo(warps[0]) || !isPowerOfTwo(warps[1]) ||
      warps[0] > 32 || warps[1] > 32 || warps[0] * warps[1] > 32) {
    InFlightDiagnostic diag = emitError();
    diag << "#tile.mma_sync needs a grid of [rows, columns] warps, powers of "
            "two and 32 in all at most, got [";
    llvm::interleaveComma(warps, diag);
    return diag << "]";
  }
  return success();
}

int64_t MmaSyncAttr::getNumWarps() const { return getWarpsM() * getWarpsN(); }

FragmentLayout MmaSyncAttr::getFragmentLayout(ArrayRef<int64_t> shape) const {
  return FragmentLayout::mmaAccumulator(shape, getWarpsM(), getWarpsN());
}

LogicalResult MmaSyncAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyAccumulatorShape(shape, "#tile.mma_sync", 16 * getWarpsM(),
                                8 * getWarpsN(), emitError);
}

LogicalResult WgmmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t warpgroups) {
  if (warpgroups < 1 || warpgroups > 8)
    return emitError() << "#tile.wgmma needs 1-8 warpgroups, got "
                       << warpgroups;
  return success();
}

int64_t WgmmaAttr::getNumWarps() const { return 4 * getWarpgroups(); }

FragmentLayout WgmmaAttr::getFragmentLayout(ArrayRef<int64_t> shape) const {
  return FragmentLayout::wgmmaAccumulator(shape, 128 * getWarpgroups());
}

LogicalResult
WgmmaAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                          function_ref<InFlightDiagnostic()> emitError) const {
  return verifyAccumulatorShape(shape, "#tile.wgmma", 64 * getWarpgroups(), 8,
                                emitError);
}

//===----------------------------------------------------------------------===//
// MmaPipelineAttr
//===----------------------------------------------------------------------===//

Attribute MmaPipelineAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  FailureOr<MmaCopy> copy = FieldParser<MmaCopy>::parse(parser);
  if (failed(copy))
    return {};
  int64_t stages = 0;
  StagingLayout staging = StagingLayout::padded;
  if (*copy != MmaCopy::none) {
    if (parser.parseComma() || parser.parseKeyword("stages") ||
        parser.parseEqual() || parser.parseInteger(stages) ||
        parser.parseComma() || parser.parseKeyword("staging") ||
        parser.parseEqual())
      return {};
    FailureOr<StagingLayout> layout = FieldParser<StagingLayout>::parse(parser);
    if (failed(layout))
      return {};
    staging = *layout;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MmaPipelineAttr>(loc, parser.getContext(), *copy,
                                            stages, staging);
}

void MmaPipelineAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyMmaCopy(getCopy());
  if (isStaged())
    printer << ", stages = " << getStages()
            << ", staging = " << stringifyStagingLayout(getStaging());
  printer << '>';
}

LogicalResult
MmaPipelineAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        MmaCopy copy, int64_t stages, StagingLayout staging) {
  if (copy == MmaCopy::none) {
    if (stages != 0 || staging != StagingLayout::padded)
      return emitError() << "#tile.mma_pipeline<none> has no stages";
    return success();
  }
  if (stages < 2)
    return emitError() << "a ring of " << stages
                       << " stages prefetches nothing; it needs 2 or more";
  if (copy == MmaCopy::tma && staging != StagingLayout::panels)
    return emitError() << "TMA lands its boxes as 128-byte swizzled panels: "
                          "staging = panels, got "
                       << stringifyStagingLayout(staging);
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

bool mlir::tileopt::tile::canReuseStagedLhs(MmaOp mma) {
  auto hasTensorType = [](Operation *op) {
    auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
    return llvm::any_of(op->getOperandTypes(), isTensor) ||
           llvm::any_of(op->getResultTypes(), isTensor);
  };
  for (Operation *op = mma->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto previous = dyn_cast<MmaOp>(op))
      // The same value, staged the same way: both on wgmma (panels) or both
      // on mma.sync (rows padded or swizzled by their length alone).
      return previous.getLhs() == mma.getLhs() &&
             isa_and_nonnull<WgmmaAttr>(
                 getLayout(previous.getAcc().getType())) ==
                 isa_and_nonnull<WgmmaAttr>(getLayout(mma.getAcc().getType()));
    bool keepsSharedMemory =
        isa<LoadOp>(op) ||
        isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        !hasTensorType(op);
    if (!keepsSharedMemory || op->getNumRegions() > 0)
      return false;
  }
  return false;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == MmaPipelineAttrHelper::getNameStr()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return op->emitError()
             << "'" << name << "' belongs on an scf.for, not on '"
             << op->getName() << "'";
    if (!isa<MmaPipelineAttr>(value))
      return op->emitError()
             << "'" << name << "' must be a #tile.mma_pipeline, got " << value;
    if (loop.getBody()->getOps<MmaOp>().empty())
      return op->emitError()
             << "'" << name << "' needs tile.mma ops in the loop it pipelines";
    return success();
  }
  if (name == LhsStagedAttrHelper::getNameStr()) {
    auto mma = dyn_cast<MmaOp>(op);
    if (!mma)
      return op->emitError()
             << "'" << name << "' belongs on a tile.mma, not on '"
             << op->getName() << "'";
    if (!isa<UnitAttr>(value))
      return op->emitError()
             << "'" << name << "' is a unit attribute, got " << value;
    if (!canReuseStagedLhs(mma))
      return op->emitError()
             << "'" << name
             << "' needs the tile.mma just before it in its block to multiply "
                "the same left operand on the same tensor cores, with only "
                "loads, elementwise ops and scalar ops between them";
    return success();
  }
  return op->emitError() << "'" << name
                         << "' is not an attribute of the tile dialect";
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

LogicalResult mlir::tileopt::tile::verifyPowerOfTwoTiles(Operation *op) {
  auto check = [&](Type type, StringRef role,
                   unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    if (tensor.getEncoding() && !getLayout(tensor))
      return op->emitOpError("tile ")
             << role << " #" << index << " carries the encoding "
             << tensor.getEncoding()
             << ", which is not a tile layout (#tile.blocked, "
                "#tile.mma_sync, #tile.wgmma)";
    for (auto [d, size] : llvm::enumerate(tensor.getShape()))
      if (!llvm::isPowerOf2_64(size))
        return op->emitOpError("tile dim ")
               << size << " (dim " << d << " of " << role << " #" << index
               << ") is not a power of two";
    return success();
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

LogicalResult mlir::tileopt::tile::verifyInKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be inside a tile.kernel");
  return success();
}

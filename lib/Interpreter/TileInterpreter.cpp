//===- TileInterpreter.cpp - Reference semantics of tile programs ---------===//
//
// A tile kernel runs block by block; each block walks the kernel body op by
// op over whole tiles. Float tiles (and float scalars, as rank-0 tensors)
// hold the domain's scalars; integer, index and i1 tiles and scalars hold
// int64_t. Unlike block graphs, tile programs are not compiled first: the
// interpreter is the reference for small launches, not a hot loop.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Interpreter/TileInterpreter.h"

#include "Kernels.h"
#include "ScalarProgram.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;
using namespace mlir::tileopt::interp::detail;

static bool isFloatValue(Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType()));
}

/// The shape of a tile, or {} for a scalar.
static ArrayRef<int64_t> tileShape(Value v) {
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return tensor.getShape();
  return {};
}

namespace {

/// Combines `in` along `dim` with `op` in index order: into `out` (the dim
/// removed) for a reduction, or in place along the dim for a scan.
template <typename T, typename Op>
void combineAlong(const Tensor<T> &in, int64_t dim, bool scan, bool reverse,
                  Op op, Tensor<T> &out) {
  ArrayRef<int64_t> shape = in.getShape();
  int64_t outer = numElements(shape.take_front(dim));
  int64_t inner = numElements(shape.drop_front(dim + 1));
  int64_t extent = shape[dim];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t g) {
        return (o * extent + (reverse ? extent - 1 - g : g)) * inner + i;
      };
      T acc = in[at(0)];
      if (scan)
        out[at(0)] = acc;
      for (int64_t g = 1; g < extent; ++g) {
        acc = op(acc, in[at(g)]);
        if (scan)
          out[at(g)] = acc;
      }
      if (!scan)
        out[o * inner + i] = acc;
    }
}

/// Calls `fn(tileIndex, viewOffset)` for every element of a tile of
/// `shape` at tile-space `indices` of a row-major view of `sizes` that lies
/// inside the view, and `outside(tileIndex)` for the others.
template <typename In, typename Out>
void forEachElement(ArrayRef<int64_t> shape, ArrayRef<int64_t> indices,
                    ArrayRef<int64_t> sizes, In inside, Out outside) {
  SmallVector<int64_t, 4> strides = rowMajorStrides(sizes);
  int64_t rank = shape.size();
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t e = 0, n = numElements(shape); e < n; ++e) {
    int64_t offset = 0;
    bool in = true;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t pos = indices[d] * shape[d] + index[d];
      in &= pos >= 0 && pos < sizes[d];
      offset += pos * strides[d];
    }
    if (in)
      inside(e, offset);
    else
      outside(e);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

template <typename Domain>
class KernelRunner {
  using S = typename Domain::Scalar;
  using F = Tensor<S>;
  using I = Tensor<int64_t>;

public:
  KernelRunner(Domain &d, tile::KernelOp kernel, ArrayRef<int64_t> grid,
               ArrayRef<F *> buffers)
      : d(d), kernel(kernel), grid(grid), buffers(buffers) {}

  LogicalResult run() {
    if (grid.size() != 3 || llvm::any_of(grid, [](int64_t g) { return g < 1; }))
      return kernel.emitOpError("needs a grid of three positive extents");
    Block &body = kernel.getBody().front();
    if (buffers.size() != body.getNumArguments())
      return kernel.emitOpError("takes ")
             << body.getNumArguments() << " arguments, got " << buffers.size()
             << " buffers";
    for (auto [i, arg, buffer] : llvm::enumerate(body.getArguments(), buffers)) {
      auto view = dyn_cast<tile::TensorViewType>(arg.getType());
      if (!view)
        return kernel.emitOpError("argument #")
               << i << " has type " << arg.getType()
               << ": the interpreter binds tensor views only";
      if (!isa<FloatType>(view.getElementType()))
        return kernel.emitOpError("argument #")
               << i << " is a view of " << view.getElementType()
               << ": the interpreter binds float views only";
      ArrayRef<int64_t> sizes = buffer->getShape();
      bool fits = sizes.size() == view.getShape().size() &&
                  llvm::all_of(llvm::zip(view.getShape(), sizes), [](auto p) {
                    auto [dim, size] = p;
                    return ShapedType::isDynamic(dim) || dim == size;
                  });
      if (!fits)
        return kernel.emitOpError("argument #")
               << i << " is " << arg.getType() << " but its buffer has shape ["
               << sizes << "]";
      viewOf[arg] = buffer;
    }
    if (body.getOps<tile::ReduceAcrossBlocksOp>().empty()) {
      for (block[2] = 0; block[2] < grid[2]; ++block[2])
        for (block[1] = 0; block[1] < grid[1]; ++block[1])
          for (block[0] = 0; block[0] < grid[0]; ++block[0])
            if (failed(runBlock(body)))
              return failure();
      return success();
    }
    return runInPhases(body);
  }

private:
  /// A rank-0 tensor: how scalars are held.
  template <typename T>
  static Tensor<T> scalarTensor(T value) {
    Tensor<T> t{ArrayRef<int64_t>()};
    t[0] = value;
    return t;
  }

  /// Runs `body` up to its terminator, which the caller reads.
  LogicalResult runBlock(Block &body) {
    for (Operation &op : body.without_terminator())
      if (failed(execute(op)))
        return failure();
    return success();
  }

  /// The values one block has computed so far.
  struct BlockValues {
    llvm::DenseMap<Value, F> floats;
    llvm::DenseMap<Value, I> ints;
  };

  /// A kernel whose blocks combine tiles (tile.reduce_across_blocks, which
  /// only the kernel body holds) runs in phases: every block runs the ops up
  /// to the next such op, then the op combines their tiles.
  LogicalResult runInPhases(Block &body) {
    SmallVector<std::array<int64_t, 3>> blocks;
    for (int64_t z = 0; z < grid[2]; ++z)
      for (int64_t y = 0; y < grid[1]; ++y)
        for (int64_t x = 0; x < grid[0]; ++x)
          blocks.push_back({x, y, z});
    std::vector<BlockValues> values(blocks.size());
    auto phaseStart = body.begin();
    while (true) {
      auto phaseEnd = std::find_if(phaseStart, body.end(), [](Operation &op) {
        return isa<tile::ReduceAcrossBlocksOp>(op) ||
               op.hasTrait<OpTrait::IsTerminator>();
      });
      for (auto [i, coords] : llvm::enumerate(blocks)) {
        block = coords;
        std::swap(floatValues, values[i].floats);
        std::swap(intValues, values[i].ints);
        for (Operation &op : llvm::make_range(phaseStart, phaseEnd))
          if (failed(execute(op)))
            return failure();
        std::swap(floatValues, values[i].floats);
        std::swap(intValues, values[i].ints);
      }
      auto combine = dyn_cast<tile::ReduceAcrossBlocksOp>(*phaseEnd);
      if (!combine)
        return success();
      combineAcrossBlocks(combine, blocks, values);
      phaseStart = std::next(phaseEnd);
    }
  }

  /// Each block's result: its group's tiles combined in block order, the
  /// group being the blocks that differ from it along the op's grid dim.
  void combineAcrossBlocks(tile::ReduceAcrossBlocksOp op,
                           ArrayRef<std::array<int64_t, 3>> blocks,
                           std::vector<BlockValues> &values) {
    int64_t dim = static_cast<int64_t>(op.getDim());
    auto groupOf = [&](std::array<int64_t, 3> coords) {
      coords[dim] = 0;
      return coords;
    };
    auto run = [&](auto &&tiles) {
      using T =
          std::decay_t<decltype(tiles(values[0]).find(op.getInput())->second)>;
      std::map<std::array<int64_t, 3>, T> totals;
      withCombiner(T(), op.getKind(), [&](auto fn) {
        for (auto [i, coords] : llvm::enumerate(blocks)) {
          const T &tile = tiles(values[i]).find(op.getInput())->second;
          auto [it, first] = totals.try_emplace(groupOf(coords), tile);
          if (first)
            continue;
          for (int64_t e = 0, n = tile.size(); e < n; ++e)
            it->second[e] = fn(it->second[e], tile[e]);
        }
      });
      for (auto [i, coords] : llvm::enumerate(blocks))
        tiles(values[i])[op.getResult()] = totals.at(groupOf(coords));
    };
    if (isFloatValue(op.getInput()))
      run([](BlockValues & v) -> auto & { return v.floats; });
    else
      run([](BlockValues & v) -> auto & { return v.ints; });
  }

  F &floats(Value v) { return floatValues.find(v)->second; }
  I &ints(Value v) { return intValues.find(v)->second; }
  int64_t scalar(Value v) { return ints(v)[0]; }
  // Results are built aside and then moved in: inserting into a map may
  // move the operands a reference points to.
  void set(Value v, F t) { floatValues[v] = std::move(t); }
  void set(Value v, I t) { intValues[v] = std::move(t); }
  /// Binds `to` to `from`'s value (either kind).
  void copyValue(Value from, Value to) {
    if (isFloatValue(from))
      set(to, F(floats(from)));
    else
      set(to, I(ints(from)));
  }

  S padding(std::optional<tile::PaddingMode> mode) {
    switch (mode.value_or(tile::PaddingMode::undetermined)) {
    case tile::PaddingMode::undetermined:
    case tile::PaddingMode::zero:
      return S(0);
    case tile::PaddingMode::neg_zero:
      return -S(0);
    case tile::PaddingMode::nan:
      return std::numeric_limits<S>::quiet_NaN();
    case tile::PaddingMode::pos_inf:
      return std::numeric_limits<S>::infinity();
    case tile::PaddingMode::neg_inf:
      return -std::numeric_limits<S>::infinity();
    }
    llvm_unreachable("unknown padding mode");
  }

  /// Tile-space indices of a load or store.
  SmallVector<int64_t, 4> indicesOf(ValueRange indices) {
    SmallVector<int64_t, 4> out;
    for (Value index : indices)
      out.push_back(scalar(index));
    return out;
  }

  LogicalResult execute(Operation &op) {
    // Float to float here; constants, comparisons, selects and casts,
    // which meet integer tiles, below.
    if (std::optional<ScalarInstr> in = decodeScalarOp(&op);
        in && !llvm::is_contained({ScalarOpcode::Constant,
                                   ScalarOpcode::Compare, ScalarOpcode::Select,
                                   ScalarOpcode::Cast},
                                  in->opcode))
      return floatElementwise(op, *in);
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](arith::ConstantOp c) { return constant(c); })
        .Case([&](tile::BlockIdOp b) {
          set(b, scalarTensor<int64_t>(block[static_cast<int>(b.getDim())]));
          return success();
        })
        .Case([&](tile::NumBlocksOp n) {
          set(n, scalarTensor<int64_t>(grid[static_cast<int>(n.getDim())]));
          return success();
        })
        .Case([&](tile::LoadOp load) {
          const F &buffer = *viewOf.lookup(load.getView());
          F out(tileShape(load));
          S pad = padding(load.getPadding());
          forEachElement(
              out.getShape(), indicesOf(load.getIndices()), buffer.getShape(),
              [&](int64_t e, int64_t at) { out[e] = buffer[at]; },
              [&](int64_t e) { out[e] = pad; });
          set(load, std::move(out));
          return success();
        })
        .Case([&](tile::StoreOp store) {
          F &buffer = *viewOf.lookup(store.getView());
          const F &value = floats(store.getValue());
          forEachElement(
              value.getShape(), indicesOf(store.getIndices()),
              buffer.getShape(),
              [&](int64_t e, int64_t at) { buffer[at] = value[e]; },
              [](int64_t) {});
          return success();
        })
        .Case([&](tile::GatherOp gather) {
          const F &buffer = *viewOf.lookup(gather.getView());
          const I &offsets = ints(gather.getOffsets());
          F out(tileShape(gather));
          for (int64_t e = 0; e < out.size(); ++e) {
            int64_t at = offsets[e];
            out[e] = at >= 0 && at < buffer.size() ? buffer[at] : d.zero();
          }
          set(gather, std::move(out));
          return success();
        })
        .Case([&](tile::ScatterOp scatter) {
          F &buffer = *viewOf.lookup(scatter.getView());
          const F &value = floats(scatter.getValue());
          const I &offsets = ints(scatter.getOffsets());
          for (int64_t e = 0; e < value.size(); ++e)
            if (int64_t at = offsets[e]; at >= 0 && at < buffer.size())
              buffer[at] = value[e];
          return success();
        })
        .Case([&](tile::MmaOp mma) { return matmulAccumulate(mma); })
        .Case([&](tile::ReduceOp r) {
          return combine(r, r.getKind(), r.getInput(), r.getDim(),
                         /*scan=*/false, /*reverse=*/false);
        })
        .Case([&](tile::ScanOp s) {
          return combine(s, s.getKind(), s.getInput(), s.getDim(),
                         /*scan=*/true, s.getReverse());
        })
        .Case([&](tile::BroadcastOp b) {
          return relayout(b.getInput(), b.getResult(), [&](auto &in, auto &out) {
            BroadcastPlan plan(out.getShape(), {SmallVector<int64_t, 4>(
                                                   in.getShape())});
            plan.run([&](int64_t o, const int64_t *i) { out[o] = in[i[0]]; });
          });
        })
        .Case([&](tile::ReshapeOp r) {
          return relayout(r.getInput(), r.getResult(), [](auto &in, auto &out) {
            llvm::copy(in.values(), out.values().begin());
          });
        })
        .Case([&](tile::ConvertLayoutOp c) {
          // Layouts say which thread holds an element, not what it is.
          return relayout(c.getInput(), c.getResult(), [](auto &in, auto &out) {
            llvm::copy(in.values(), out.values().begin());
          });
        })
        .Case([&](tile::PermuteOp p) {
          return relayout(p.getInput(), p.getResult(), [&](auto &in, auto &out) {
            transpose(in, p.getPermutation(), out);
          });
        })
        .Case([&](tile::SplatOp s) {
          return relayout(s.getInput(), s.getResult(), [](auto &in, auto &out) {
            llvm::fill(out.values(), in[0]);
          });
        })
        .Case([&](tile::IotaOp iota) {
          I out(tileShape(iota));
          for (int64_t i = 0; i < out.size(); ++i)
            out[i] = i;
          set(iota, std::move(out));
          return success();
        })
        .Case([&](scf::ForOp loop) { return forLoop(loop); })
        .template Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *cast) {
          // Arithmetic is done in the domain: a conversion between float
          // types changes nothing (docs/interpreter.md).
          copyValue(cast->getOperand(0), cast->getResult(0));
          return success();
        })
        .template Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                       arith::ExtUIOp>([&](Operation *cast) {
          copyValue(cast->getOperand(0), cast->getResult(0));
          return success();
        })
        .template Case<arith::SIToFPOp, arith::UIToFPOp>([&](Operation *cast) {
          const I &in = ints(cast->getOperand(0));
          F out(in.getShape());
          for (int64_t i = 0; i < in.size(); ++i)
            out[i] = static_cast<S>(in[i]);
          set(cast->getResult(0), std::move(out));
          return success();
        })
        .Case([&](arith::CmpFOp cmp) { return compareFloats(cmp); })
        .Case([&](arith::CmpIOp cmp) { return compareInts(cmp); })
        .Case([&](arith::SelectOp select) { return selectOp(select); })
        .template Case<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                       arith::DivSIOp, arith::RemSIOp, arith::MaxSIOp,
                       arith::MinSIOp, arith::AndIOp, arith::OrIOp,
                       arith::XOrIOp>(
            [&](Operation *bin) { return intElementwise(*bin); })
        .Default([](Operation *other) {
          return other->emitOpError(
              "is not supported by the tile interpreter");
        });
  }

  LogicalResult constant(arith::ConstantOp c) {
    Attribute value = c.getValue();
    if (auto f = dyn_cast<FloatAttr>(value)) {
      set(c, scalarTensor<S>(d.constant(f.getValue())));
      return success();
    }
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      set(c, scalarTensor<int64_t>(intOf(i.getValue(), i.getType())));
      return success();
    }
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense)
      return c.emitOpError("has a constant the tile interpreter cannot read");
    if (isFloatValue(c)) {
      F out(tileShape(c));
      for (auto [i, v] : llvm::enumerate(dense.getValues<APFloat>()))
        out[i] = d.constant(v);
      set(c, std::move(out));
    } else {
      I out(tileShape(c));
      for (auto [i, v] : llvm::enumerate(dense.getValues<APInt>()))
        out[i] = intOf(v, dense.getElementType());
      set(c, std::move(out));
    }
    return success();
  }

  /// Integers are signless and read as signed; i1 is 0 or 1.
  static int64_t intOf(const APInt &v, Type type) {
    return type.isInteger(1) ? int64_t(v.getZExtValue()) : v.getSExtValue();
  }

  LogicalResult floatElementwise(Operation &op, const ScalarInstr &in) {
    const F &a = floats(op.getOperand(0));
    const F &b = floats(op.getOperand(op.getNumOperands() - 1));
    F out(a.getShape());
    ScalarProgram::withOperation(d, in, [&](auto fn) {
      for (int64_t i = 0; i < out.size(); ++i)
        out[i] = fn(a[i], b[i], b[i]);
    });
    set(op.getResult(0), std::move(out));
    return success();
  }

  LogicalResult intElementwise(Operation &op) {
    const I &a = ints(op.getOperand(0)), &b = ints(op.getOperand(1));
    I out(a.getShape());
    for (int64_t i = 0; i < out.size(); ++i) {
      int64_t x = a[i], y = b[i];
      if (isa<arith::DivSIOp, arith::RemSIOp>(op) && y == 0)
        return op.emitOpError("divides by zero");
      out[i] = llvm::TypeSwitch<Operation *, int64_t>(&op)
                   .Case([&](arith::AddIOp) { return x + y; })
                   .Case([&](arith::SubIOp) { return x - y; })
                   .Case([&](arith::MulIOp) { return x * y; })
                   .Case([&](arith::DivSIOp) { return x / y; })
                   .Case([&](arith::RemSIOp) { return x % y; })
                   .Case([&](arith::MaxSIOp) { return std::max(x, y); })
                   .Case([&](arith::MinSIOp) { return std::min(x, y); })
                   .Case([&](arith::AndIOp) { return x & y; })
                   .Case([&](arith::OrIOp) { return x | y; })
                   .Case([&](arith::XOrIOp) { return x ^ y; })
                   .Default([](Operation *) -> int64_t {
                     llvm_unreachable("not an integer op");
                   });
    }
    set(op.getResult(0), std::move(out));
    return success();
  }

  LogicalResult compareFloats(arith::CmpFOp cmp) {
    const F &a = floats(cmp.getLhs()), &b = floats(cmp.getRhs());
    I out(a.getShape());
    Comparison c =
        decodeComparison(static_cast<unsigned>(cmp.getPredicate()));
    for (int64_t i = 0; i < out.size(); ++i)
      out[i] = d.compare(c, a[i], b[i]) != S(0);
    set(cmp, std::move(out));
    return success();
  }

  LogicalResult compareInts(arith::CmpIOp cmp) {
    const I &a = ints(cmp.getLhs()), &b = ints(cmp.getRhs());
    I out(a.getShape());
    using P = arith::CmpIPredicate;
    for (int64_t i = 0; i < out.size(); ++i) {
      int64_t x = a[i], y = b[i];
      uint64_t ux = x, uy = y;
      switch (cmp.getPredicate()) {
      case P::eq: out[i] = x == y; break;
      case P::ne: out[i] = x != y; break;
      case P::slt: out[i] = x < y; break;
      case P::sle: out[i] = x <= y; break;
      case P::sgt: out[i] = x > y; break;
      case P::sge: out[i] = x >= y; break;
      case P::ult: out[i] = ux < uy; break;
      case P::ule: out[i] = ux <= uy; break;
      case P::ugt: out[i] = ux > uy; break;
      case P::uge: out[i] = ux >= uy; break;
      }
    }
    set(cmp, std::move(out));
    return success();
  }

  /// arith.select with a scalar or an elementwise condition.
  LogicalResult selectOp(arith::SelectOp select) {
    const I &cond = ints(select.getCondition());
    auto pick = [&](const auto &t, const auto &f) {
      std::decay_t<decltype(t)> out(t.getShape());
      for (int64_t i = 0; i < out.size(); ++i)
        out[i] = cond[cond.size() == 1 ? 0 : i] ? t[i] : f[i];
      set(select, std::move(out));
    };
    if (isFloatValue(select))
      pick(floats(select.getTrueValue()), floats(select.getFalseValue()));
    else
      pick(ints(select.getTrueValue()), ints(select.getFalseValue()));
    return success();
  }

  /// A data movement on either kind of value: `move(in, out)` with `out`
  /// of the result's shape.
  template <typename Move>
  LogicalResult relayout(Value input, Value result, Move move) {
    if (isFloatValue(input)) {
      F out(tileShape(result));
      move(floats(input), out);
      set(result, std::move(out));
    } else {
      I out(tileShape(result));
      move(ints(input), out);
      set(result, std::move(out));
    }
    return success();
  }

  /// Calls `body(fn)` with `fn(a, b)` combining two elements of tiles like
  /// `like` by `kind`: by the domain's operations for float tiles, as
  /// int64_t for the others.
  template <typename T, typename Body>
  void withCombiner(const Tensor<T> &like, tile::CombineKind kind, Body body) {
    if constexpr (std::is_same_v<T, int64_t>) {
      switch (kind) {
      case tile::CombineKind::sum:
        return body([](int64_t a, int64_t b) { return a + b; });
      case tile::CombineKind::prod:
        return body([](int64_t a, int64_t b) { return a * b; });
      case tile::CombineKind::max:
        return body([](int64_t a, int64_t b) { return std::max(a, b); });
      case tile::CombineKind::min:
        return body([](int64_t a, int64_t b) { return std::min(a, b); });
      }
    } else {
      switch (kind) {
      case tile::CombineKind::sum:
        return body([&](S a, S b) { return d.add(a, b); });
      case tile::CombineKind::prod:
        return body([&](S a, S b) { return d.mul(a, b); });
      case tile::CombineKind::max:
        return body([&](S a, S b) { return d.maximum(a, b); });
      case tile::CombineKind::min:
        return body([&](S a, S b) { return d.minimum(a, b); });
      }
    }
    llvm_unreachable("unknown combine kind");
  }

  LogicalResult combine(Operation *op, tile::CombineKind kind, Value input,
                        int64_t dim, bool scan, bool reverse) {
    auto run = [&](const auto &in) {
      std::decay_t<decltype(in)> out(tileShape(op->getResult(0)));
      withCombiner(in, kind, [&](auto fn) {
        combineAlong(in, dim, scan, reverse, fn, out);
      });
      set(op->getResult(0), std::move(out));
    };
    if (isFloatValue(input))
      run(floats(input));
    else
      run(ints(input));
    return success();
  }

  /// acc + lhs @ rhs, batched over a leading dim when there is one: each
  /// element is acc plus the dot product summed in order.
  LogicalResult matmulAccumulate(tile::MmaOp mma) {
    if (!isFloatValue(mma.getAcc()))
      return mma.emitOpError("on integers is not supported by the tile "
                             "interpreter (it computes in floating point)");
    const F &a = floats(mma.getLhs()), &b = floats(mma.getRhs()),
            &acc = floats(mma.getAcc());
    ArrayRef<int64_t> sa = a.getShape();
    int64_t rank = sa.size(), m = sa[rank - 2], k = sa[rank - 1],
            n = acc.getShape()[rank - 1];
    // Element (kk, j) of the rhs is at j * columnStride + kk * rowStride:
    // K-major when it is given transposed.
    bool transposed = mma.getRhsTransposed();
    int64_t rowStride = transposed ? 1 : n, columnStride = transposed ? k : 1;
    F out(acc.getShape());
    for (int64_t batch = 0, e = numElements(sa.drop_back(2)); batch < e;
         ++batch)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          int64_t o = (batch * m + i) * n + j;
          out[o] = d.add(acc[o], d.dot(&a[(batch * m + i) * k], 1,
                                       &b[batch * k * n + j * columnStride],
                                       rowStride, k));
        }
    set(mma, std::move(out));
    return success();
  }

  LogicalResult forLoop(scf::ForOp loop) {
    int64_t lower = scalar(loop.getLowerBound());
    int64_t upper = scalar(loop.getUpperBound());
    int64_t step = scalar(loop.getStep());
    if (step <= 0)
      return loop.emitOpError("has step ")
             << step << ": the tile interpreter runs positive steps";
    Block &body = *loop.getBody();
    for (auto [init, arg] :
         llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
      copyValue(init, arg);
    for (int64_t iv = lower; iv < upper; iv += step) {
      set(loop.getInductionVar(), scalarTensor<int64_t>(iv));
      if (failed(runBlock(body)))
        return failure();
      for (auto [yielded, arg] :
           llvm::zip(body.getTerminator()->getOperands(),
                     loop.getRegionIterArgs()))
        copyValue(yielded, arg);
    }
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
      copyValue(arg, result);
    return success();
  }

  Domain &d;
  tile::KernelOp kernel;
  ArrayRef<int64_t> grid;
  ArrayRef<F *> buffers;
  std::array<int64_t, 3> block = {0, 0, 0};
  llvm::DenseMap<Value, F *> viewOf;
  llvm::DenseMap<Value, F> floatValues;
  llvm::DenseMap<Value, I> intValues;
};

} // namespace

template <typename Domain>
LogicalResult interp::interpretKernel(tile::KernelOp kernel,
                                      ArrayRef<int64_t> grid,
                                      ArrayRef<TensorOf<Domain> *> buffers,
                                      Domain &domain) {
  return KernelRunner<Domain>(domain, kernel, grid, buffers).run();
}

bool interp::isTileHost(func::FuncOp func) {
  return !func.getOps<tile::LaunchOp>().empty();
}

SmallVector<SmallVector<int64_t, 4>> HostBuffers::inputShapes() const {
  SmallVector<SmallVector<int64_t, 4>> out;
  for (unsigned i : inputs)
    out.push_back(shapes[i]);
  return out;
}

FailureOr<HostBuffers> interp::getHostBuffers(func::FuncOp host) {
  HostBuffers buffers;
  for (auto [i, type] : llvm::enumerate(host.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape() ||
        !isa<FloatType>(memref.getElementType()))
      return host.emitOpError("argument #")
             << i << " has type " << type
             << ": the tile interpreter takes statically shaped memrefs of "
                "floats";
    buffers.shapes.emplace_back(memref.getShape());
    // Scratch is neither given nor returned: it starts as NaN like outputs.
    if (host.getArgAttr(i, TileOptDialect::ScratchAttrHelper::getNameStr()))
      continue;
    (host.getArgAttr(i, TileOptDialect::OutputAttrHelper::getNameStr())
         ? buffers.outputs
     : isCallerArgument(host, i) ? buffers.inputs
                                 : buffers.constants)
        .push_back(i);
  }
  return buffers;
}

template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
interp::interpretHost(func::FuncOp host, ArrayRef<TensorOf<Domain>> inputs,
                      Domain &domain) {
  using T = TensorOf<Domain>;
  FailureOr<HostBuffers> signature = getHostBuffers(host);
  if (failed(signature))
    return failure();
  if (inputs.size() != signature->inputs.size())
    return host.emitOpError("takes ")
           << signature->inputs.size() << " inputs, got " << inputs.size();
  SmallVector<T> buffers;
  for (ArrayRef<int64_t> shape : signature->shapes) {
    T &buffer = buffers.emplace_back(shape);
    llvm::fill(buffer.values(),
               std::numeric_limits<typename Domain::Scalar>::quiet_NaN());
  }
  for (auto [i, input] : llvm::zip(signature->inputs, inputs)) {
    if (input.getShape() != buffers[i].getShape())
      return host.emitOpError("input for argument #")
             << i << " has shape [" << input.getShape() << "], the argument "
             << "needs [" << buffers[i].getShape() << "]";
    buffers[i] = input;
  }
  for (unsigned i : signature->constants)
    buffers[i] = *constantArgument(host, i, domain);

  for (Operation &op : host.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      break;
    auto launch = dyn_cast<tile::LaunchOp>(op);
    if (!launch)
      return op.emitOpError("is not supported in a host function by the tile "
                            "interpreter (it runs tile.launch ops)");
    auto kernel = SymbolTable::lookupNearestSymbolFrom<tile::KernelOp>(
        launch, launch.getKernelAttr());
    if (!kernel)
      return launch.emitOpError("launches @")
             << launch.getKernel() << ", which is not a tile.kernel";
    SmallVector<T *> bound;
    // A static view of another shape than its buffer's (a reshape that is
    // a view) runs on a reshaped copy, copied back after the kernel.
    std::vector<std::pair<T, T *>> reshaped;
    reshaped.reserve(launch.getArgs().size());
    for (auto [param, arg] :
         llvm::zip(kernel.getArgumentTypes(), launch.getArgs())) {
      auto blockArg = dyn_cast<BlockArgument>(arg);
      if (!blockArg || blockArg.getOwner()->getParentOp() != host)
        return launch.emitOpError("passes a value that is not an argument of "
                                  "the host function: the tile interpreter "
                                  "binds buffers only");
      T *buffer = &buffers[blockArg.getArgNumber()];
      auto view = dyn_cast<tile::TensorViewType>(param);
      if (view && !ShapedType::isDynamicShape(view.getShape()) &&
          view.getShape() != buffer->getShape()) {
        T copy(view.getShape());
        llvm::copy(buffer->values(), copy.values().begin());
        reshaped.emplace_back(std::move(copy), buffer);
        buffer = &reshaped.back().first;
      }
      bound.push_back(buffer);
    }
    if (failed(interpretKernel<Domain>(kernel, launch.getGrid(), bound, domain)))
      return failure();
    for (auto &[copy, buffer] : reshaped)
      llvm::copy(copy.values(), buffer->values().begin());
  }
  SmallVector<T> outputs;
  for (unsigned i : signature->outputs)
    outputs.push_back(std::move(buffers[i]));
  return outputs;
}

template LogicalResult interp::interpretKernel<F64Domain>(
    tile::KernelOp, ArrayRef<int64_t>, ArrayRef<TensorOf<F64Domain> *>,
    F64Domain &);
template LogicalResult interp::interpretKernel<F32Domain>(
    tile::KernelOp, ArrayRef<int64_t>, ArrayRef<TensorOf<F32Domain> *>,
    F32Domain &);
template FailureOr<SmallVector<TensorOf<F64Domain>>>
interp::interpretHost<F64Domain>(func::FuncOp, ArrayRef<TensorOf<F64Domain>>,
                                 F64Domain &);
template FailureOr<SmallVector<TensorOf<F32Domain>>>
interp::interpretHost<F32Domain>(func::FuncOp, ArrayRef<TensorOf<F32Domain>>,
                                 F32Domain &);

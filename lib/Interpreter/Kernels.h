//===- Kernels.h - Tensor operators shared by tk and tb ---------*- C++ -*-===//
//
// tk and tb apply the same operators to device tensors and to shared-memory
// tiles (they share their op kinds and shape rules); the interpreter gives
// them the same code too. Every kernel is generic over the scalar domain and
// writes into a result tensor the caller sized, so the block-graph
// interpreter can reuse storage across blocks and iterations.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_INTERPRETER_KERNELS_H
#define TILEOPT_LIB_INTERPRETER_KERNELS_H

#include "ScalarProgram.h"
#include "TileOpt/Interpreter/Tensor.h"

namespace mlir::tileopt::interp::detail {

/// How the inputs of an elementwise op are read when numpy-broadcast to its
/// output. Built once per op: the block-graph interpreter runs the op for
/// every block and iteration, and recomputing strides each time would cost
/// more than the arithmetic on a reduced instance's small tiles.
class BroadcastPlan {
public:
  BroadcastPlan(ArrayRef<int64_t> outShape,
                ArrayRef<SmallVector<int64_t, 4>> inShapes)
      : outShape(outShape), numInputs(inShapes.size()),
        total(numElements(outShape)) {
    trivial = llvm::all_of(inShapes, [&](const SmallVector<int64_t, 4> &s) {
      return ArrayRef<int64_t>(s) == outShape;
    });
    int64_t rank = outShape.size();
    // strides[k * rank + d]: how far input k's index moves when output dim
    // d does; 0 along broadcast dims.
    strides.assign(numInputs * rank, 0);
    for (auto [k, shape] : llvm::enumerate(inShapes)) {
      SmallVector<int64_t, 4> s = rowMajorStrides(shape);
      int64_t offset = rank - static_cast<int64_t>(shape.size());
      for (auto [d, extent] : llvm::enumerate(shape))
        if (extent != 1)
          strides[k * rank + offset + d] = s[d];
    }
  }

  /// Every input has the output's shape: element o reads element o.
  bool isTrivial() const { return trivial; }

  /// Calls `fn(outFlat, inFlat)` for every output element, with `inFlat[k]`
  /// the flat index of the element of input k it reads.
  template <typename Fn>
  void run(Fn fn) const {
    SmallVector<int64_t, 4> flat(numInputs, 0);
    if (trivial) {
      for (int64_t o = 0; o < total; ++o) {
        std::fill(flat.begin(), flat.end(), o);
        fn(o, flat.data());
      }
      return;
    }
    int64_t rank = outShape.size();
    SmallVector<int64_t, 4> index(rank, 0);
    for (int64_t o = 0; o < total; ++o) {
      fn(o, flat.data());
      for (int64_t d = rank - 1; d >= 0; --d) {
        for (unsigned k = 0; k < numInputs; ++k)
          flat[k] += strides[k * rank + d];
        if (++index[d] < outShape[d])
          break;
        for (unsigned k = 0; k < numInputs; ++k)
          flat[k] -= strides[k * rank + d] * outShape[d];
        index[d] = 0;
      }
    }
  }

private:
  SmallVector<int64_t, 4> outShape;
  unsigned numInputs;
  int64_t total;
  bool trivial;
  SmallVector<int64_t, 16> strides;
};

/// An elementwise computation ready to run: the program, its constants in
/// the domain, the broadcast, and a register file.
template <typename Domain>
struct Elementwise {
  ScalarProgram program;
  SmallVector<typename Domain::Scalar> pool;
  BroadcastPlan plan;
  SmallVector<typename Domain::Scalar, 16> regs;

  /// Runs the program elementwise: one output per program result, all of
  /// the plan's output shape.
  void apply(Domain &d, ArrayRef<const Tensor<typename Domain::Scalar> *> inputs,
             ArrayRef<Tensor<typename Domain::Scalar> *> outputs) {
    using S = typename Domain::Scalar;
    if (plan.isTrivial() && program.isSingleInstruction()) {
      SmallVector<const S *, 2> arrays;
      for (const Tensor<S> *input : inputs)
        arrays.push_back(input->values().data());
      Tensor<S> &out = *outputs.front();
      program.runOnArrays(d, arrays, out.values().data(), out.size());
      return;
    }
    ArrayRef<uint32_t> results = program.getOutputs();
    plan.run([&](int64_t o, const int64_t *in) {
      for (size_t k = 0; k < inputs.size(); ++k)
        regs[k] = (*inputs[k])[in[k]];
      program.run(d, pool.data(), regs.data());
      for (size_t r = 0; r < outputs.size(); ++r)
        (*outputs[r])[o] = regs[results[r]];
    });
  }
};

/// Batched matrix product over the last two dims; the batch dims broadcast
/// as in numpy.matmul.
template <typename Domain>
void matmul(Domain &d, const Tensor<typename Domain::Scalar> &a,
            const Tensor<typename Domain::Scalar> &b,
            Tensor<typename Domain::Scalar> &c) {
  ArrayRef<int64_t> sa = a.getShape(), sb = b.getShape(), sc = c.getShape();
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  // The batch dims broadcast like an elementwise op's operands: the plan
  // gives the matrix of each operand that a matrix of the result reads.
  SmallVector<SmallVector<int64_t, 4>, 2> batchShapes = {
      SmallVector<int64_t, 4>(sa.drop_back(2)),
      SmallVector<int64_t, 4>(sb.drop_back(2))};
  BroadcastPlan plan(sc.drop_back(2), batchShapes);
  plan.run([&](int64_t batch, const int64_t *matrix) {
    const auto *pa = &a[matrix[0] * m * k];
    const auto *pb = &b[matrix[1] * k * n];
    auto *pc = &c[batch * m * n];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        pc[i * n + j] = d.dot(pa + i * k, 1, pb + j, n, k);
  });
}

/// Reduces `dim` of `in` to `to` elements: each is the sum/max/mean of a
/// group of extent/to consecutive elements (Mirage's "reduction to dimx";
/// `to` = 1 reduces the whole dim).
template <typename Domain>
void reduce(Domain &d, ReduceKind kind, const Tensor<typename Domain::Scalar> &in,
            int64_t dim, int64_t to, Tensor<typename Domain::Scalar> &out) {
  ArrayRef<int64_t> shape = in.getShape();
  int64_t outer = numElements(shape.take_front(dim));
  int64_t inner = numElements(shape.drop_front(dim + 1));
  int64_t extent = shape[dim], group = extent / to;
  using S = typename Domain::Scalar;
  // Each output is p[0] combined with p[1], p[2], ... in order, then scaled
  // for a mean. The kind is decided once per call rather than per element,
  // and plain loops replace std::copy: the block-graph interpreter reduces
  // small tiles thousands of times, and a memmove call per row of a few
  // elements costs more than the row.
  auto combine = [&](auto op) {
    if (inner == 1) {
      // The last dim: each output combines a contiguous group, in a
      // register.
      for (int64_t r = 0, e = outer * to; r < e; ++r) {
        const S *p = &in[r * group];
        S acc = p[0];
        for (int64_t g = 1; g < group; ++g)
          acc = op(acc, p[g]);
        out[r] = acc;
      }
      return;
    }
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t t = 0; t < to; ++t) {
        const S *p = &in[(o * extent + t * group) * inner];
        S *acc = &out[(o * to + t) * inner];
        for (int64_t i = 0; i < inner; ++i)
          acc[i] = p[i];
        for (int64_t g = 1; g < group; ++g)
          for (int64_t i = 0; i < inner; ++i)
            acc[i] = op(acc[i], p[g * inner + i]);
      }
  };
  if (kind == ReduceKind::max)
    combine([&](S a, S b) { return d.maximum(a, b); });
  else
    combine([&](S a, S b) { return d.add(a, b); });
  if (kind == ReduceKind::mean) {
    S scale = d.inverseCount(group);
    for (S &x : out.values())
      x = d.mul(x, scale);
  }
}

/// The sum of squares of each row (along the last dim) of `in`.
template <typename Domain>
std::vector<typename Domain::Scalar>
rowSumsOfSquares(Domain &d, const Tensor<typename Domain::Scalar> &in) {
  int64_t n = in.getShape().back(), rows = in.size() / n;
  std::vector<typename Domain::Scalar> sums(rows, d.zero());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < n; ++i)
      sums[r] = d.add(sums[r], d.mul(in[r * n + i], in[r * n + i]));
  return sums;
}

/// Each row of `in` divided by sqrt(sums[row] * scale + epsilon): its rms
/// when `sums` are its sums of squares and `scale` 1 / the row length.
template <typename Domain>
void divideRowsByRms(Domain &d, const Tensor<typename Domain::Scalar> &in,
                     ArrayRef<typename Domain::Scalar> sums,
                     typename Domain::Scalar scale,
                     typename Domain::Scalar epsilon,
                     Tensor<typename Domain::Scalar> &out) {
  int64_t n = in.getShape().back();
  for (auto [r, sum] : llvm::enumerate(sums)) {
    auto rms = d.sqrt(d.add(d.mul(sum, scale), epsilon));
    for (int64_t i = 0; i < n; ++i)
      out[r * n + i] = d.div(in[r * n + i], rms);
  }
}

/// x / sqrt(mean(x^2) + epsilon) over the last dim.
template <typename Domain>
void rmsNorm(Domain &d, const Tensor<typename Domain::Scalar> &in,
             typename Domain::Scalar epsilon,
             Tensor<typename Domain::Scalar> &out) {
  divideRowsByRms(d, in, rowSumsOfSquares(d, in),
                  d.inverseCount(in.getShape().back()), epsilon, out);
}

/// Copies boxes of fixed extents between tensors of fixed shapes: how input
/// iterators read tiles and output savers write them. The strides are
/// computed once; a copy is then a walk over contiguous rows.
class BoxCopy {
public:
  BoxCopy(ArrayRef<int64_t> srcShape, ArrayRef<int64_t> dstShape,
          ArrayRef<int64_t> extents)
      : srcStrides(rowMajorStrides(srcShape)),
        dstStrides(rowMajorStrides(dstShape)), extents(extents) {
    row = extents.empty() ? 1 : extents.back();
    rows = row == 0 ? 0 : numElements(extents) / row;
  }

  /// Flat offset of multi-index `index` in the source / destination.
  int64_t srcOffset(ArrayRef<int64_t> index) const {
    return offset(index, srcStrides);
  }
  int64_t dstOffset(ArrayRef<int64_t> index) const {
    return offset(index, dstStrides);
  }
  int64_t srcStride(int64_t dim) const { return srcStrides[dim]; }
  int64_t dstStride(int64_t dim) const { return dstStrides[dim]; }

  template <typename T>
  void run(const Tensor<T> &src, int64_t s, Tensor<T> &dst, int64_t t) const {
    int64_t rank = extents.size();
    if (rank <= 2) {
      // Most tiles are matrices: one row stride each way, no index to keep.
      // Input iterators copy a tile per block and iteration, so this walk
      // is a large share of interpreting a reduced instance.
      const T *from = src.values().data() + s;
      T *to = dst.values().data() + t;
      int64_t fromStride = rank == 2 ? srcStrides[0] : 0;
      int64_t toStride = rank == 2 ? dstStrides[0] : 0;
      for (int64_t r = 0; r < rows; ++r, from += fromStride, to += toStride)
        for (int64_t i = 0; i < row; ++i)
          to[i] = from[i];
      return;
    }
    SmallVector<int64_t, 4> index(rank, 0);
    for (int64_t r = 0; r < rows; ++r) {
      // Tiles of reduced instances have rows of a few elements: a plain
      // loop beats a call to memmove.
      for (int64_t i = 0; i < row; ++i)
        dst[t + i] = src[s + i];
      for (int64_t dim = rank - 2; dim >= 0; --dim) {
        s += srcStrides[dim];
        t += dstStrides[dim];
        if (++index[dim] < extents[dim])
          break;
        s -= srcStrides[dim] * extents[dim];
        t -= dstStrides[dim] * extents[dim];
        index[dim] = 0;
      }
    }
  }

private:
  static int64_t offset(ArrayRef<int64_t> index, ArrayRef<int64_t> strides) {
    int64_t flat = 0;
    for (auto [i, stride] : llvm::zip(index, strides))
      flat += i * stride;
    return flat;
  }

  SmallVector<int64_t, 4> srcStrides, dstStrides, extents;
  int64_t row, rows;
};

/// Copies the box of `extents` at `srcOffsets` in `src` to `dstOffsets` in
/// `dst`.
template <typename T>
void copyBox(const Tensor<T> &src, ArrayRef<int64_t> srcOffsets, Tensor<T> &dst,
             ArrayRef<int64_t> dstOffsets, ArrayRef<int64_t> extents) {
  BoxCopy copy(src.getShape(), dst.getShape(), extents);
  copy.run(src, copy.srcOffset(srcOffsets), dst, copy.dstOffset(dstOffsets));
}

/// Concatenates `ins` along `dim` into `out`.
template <typename T>
void concatenate(ArrayRef<const Tensor<T> *> ins, int64_t dim, Tensor<T> &out) {
  SmallVector<int64_t, 4> offsets(out.getRank(), 0);
  SmallVector<int64_t, 4> zeros(out.getRank(), 0);
  for (const Tensor<T> *in : ins) {
    copyBox(*in, zeros, out, offsets, in->getShape());
    offsets[dim] += in->getShape()[dim];
  }
}

/// `out` dim i is `in` dim perm[i].
template <typename T>
void transpose(const Tensor<T> &in, ArrayRef<int64_t> perm, Tensor<T> &out) {
  SmallVector<int64_t, 4> inStrides = rowMajorStrides(in.getShape());
  int64_t rank = perm.size();
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t o = 0, e = out.size(); o < e; ++o) {
    int64_t flat = 0;
    for (int64_t i = 0; i < rank; ++i)
      flat += index[i] * inStrides[perm[i]];
    out[o] = in[flat];
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      if (++index[dim] < out.getShape()[dim])
        break;
      index[dim] = 0;
    }
  }
}

} // namespace mlir::tileopt::interp::detail

#endif // TILEOPT_LIB_INTERPRETER_KERNELS_H

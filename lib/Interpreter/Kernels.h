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

/// Calls `fn(outFlat, inFlat)` for every element of `outShape`, with
/// `inFlat[k]` the flat index of the element of input k (of shape
/// `inShapes[k]`, numpy-broadcast to `outShape`) it reads.
template <typename Fn>
void forEachBroadcast(ArrayRef<int64_t> outShape,
                      ArrayRef<SmallVector<int64_t, 4>> inShapes, Fn fn) {
  int64_t total = numElements(outShape);
  size_t n = inShapes.size();
  SmallVector<int64_t, 4> flat(n, 0);
  if (llvm::all_of(inShapes, [&](const SmallVector<int64_t, 4> &s) {
        return ArrayRef<int64_t>(s) == outShape;
      })) {
    for (int64_t o = 0; o < total; ++o) {
      std::fill(flat.begin(), flat.end(), o);
      fn(o, flat.data());
    }
    return;
  }
  int64_t rank = outShape.size();
  // strides[k * rank + d]: how far input k's index moves when output dim d
  // does; 0 along broadcast dims.
  SmallVector<int64_t, 16> strides(n * rank, 0);
  for (auto [k, shape] : llvm::enumerate(inShapes)) {
    SmallVector<int64_t, 4> s = rowMajorStrides(shape);
    int64_t offset = rank - static_cast<int64_t>(shape.size());
    for (auto [d, extent] : llvm::enumerate(shape))
      if (extent != 1)
        strides[k * rank + offset + d] = s[d];
  }
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t o = 0; o < total; ++o) {
    fn(o, flat.data());
    for (int64_t d = rank - 1; d >= 0; --d) {
      for (size_t k = 0; k < n; ++k)
        flat[k] += strides[k * rank + d];
      if (++index[d] < outShape[d])
        break;
      for (size_t k = 0; k < n; ++k)
        flat[k] -= strides[k * rank + d] * outShape[d];
      index[d] = 0;
    }
  }
}

/// Runs `program` elementwise: inputs broadcast to the outputs' shape (all
/// outputs have it), one output per program result.
template <typename Domain>
void applyElementwise(Domain &d, const ScalarProgram &program,
                      ArrayRef<typename Domain::Scalar> pool,
                      ArrayRef<const Tensor<typename Domain::Scalar> *> inputs,
                      ArrayRef<Tensor<typename Domain::Scalar> *> outputs) {
  using S = typename Domain::Scalar;
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (const Tensor<S> *input : inputs)
    shapes.emplace_back(input->getShape());
  SmallVector<S, 16> regs(program.getNumRegisters());
  ArrayRef<uint32_t> results = program.getOutputs();
  forEachBroadcast(outputs.front()->getShape(), shapes,
                   [&](int64_t o, const int64_t *in) {
                     for (size_t k = 0; k < inputs.size(); ++k)
                       regs[k] = (*inputs[k])[in[k]];
                     program.run(d, pool.data(), regs.data());
                     for (size_t r = 0; r < outputs.size(); ++r)
                       (*outputs[r])[o] = regs[results[r]];
                   });
}

/// Batched matrix product over the last two dims.
template <typename Domain>
void matmul(Domain &d, const Tensor<typename Domain::Scalar> &a,
            const Tensor<typename Domain::Scalar> &b,
            Tensor<typename Domain::Scalar> &c) {
  ArrayRef<int64_t> sa = a.getShape(), sb = b.getShape();
  int64_t rank = sa.size(), m = sa[rank - 2], k = sa[rank - 1],
          n = sb[rank - 1];
  int64_t batches = numElements(sa.drop_back(2));
  for (int64_t batch = 0; batch < batches; ++batch) {
    const auto *pa = &a[batch * m * k];
    const auto *pb = &b[batch * k * n];
    auto *pc = &c[batch * m * n];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        auto acc = d.zero();
        for (int64_t l = 0; l < k; ++l)
          acc = d.add(acc, d.mul(pa[i * k + l], pb[l * n + j]));
        pc[i * n + j] = acc;
      }
  }
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
  auto scale = kind == ReduceKind::mean ? d.inverseCount(group) : d.zero();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t t = 0; t < to; ++t)
      for (int64_t i = 0; i < inner; ++i) {
        const auto *p = &in[(o * extent + t * group) * inner + i];
        auto acc = p[0];
        for (int64_t g = 1; g < group; ++g)
          acc = kind == ReduceKind::max ? d.maximum(acc, p[g * inner])
                                        : d.add(acc, p[g * inner]);
        if (kind == ReduceKind::mean)
          acc = d.mul(acc, scale);
        out[(o * to + t) * inner + i] = acc;
      }
}

/// x / sqrt(mean(x^2) + epsilon) over the last dim.
template <typename Domain>
void rmsNorm(Domain &d, const Tensor<typename Domain::Scalar> &in,
             typename Domain::Scalar epsilon,
             Tensor<typename Domain::Scalar> &out) {
  int64_t n = in.getShape().back(), rows = in.size() / n;
  auto scale = d.inverseCount(n);
  for (int64_t r = 0; r < rows; ++r) {
    auto acc = d.zero();
    for (int64_t i = 0; i < n; ++i)
      acc = d.add(acc, d.mul(in[r * n + i], in[r * n + i]));
    auto rms = d.sqrt(d.add(d.mul(acc, scale), epsilon));
    for (int64_t i = 0; i < n; ++i)
      out[r * n + i] = d.div(in[r * n + i], rms);
  }
}

/// Copies the box of `extents` at `srcOffsets` in `src` to `dstOffsets` in
/// `dst`: how input iterators read tiles and output savers write them.
template <typename T>
void copyBox(const Tensor<T> &src, ArrayRef<int64_t> srcOffsets, Tensor<T> &dst,
             ArrayRef<int64_t> dstOffsets, ArrayRef<int64_t> extents) {
  int64_t rank = extents.size();
  SmallVector<int64_t, 4> srcStrides = rowMajorStrides(src.getShape());
  SmallVector<int64_t, 4> dstStrides = rowMajorStrides(dst.getShape());
  int64_t s = 0, t = 0;
  for (int64_t i = 0; i < rank; ++i) {
    s += srcOffsets[i] * srcStrides[i];
    t += dstOffsets[i] * dstStrides[i];
  }
  // Rows along the last dim are contiguous on both sides.
  int64_t row = rank ? extents.back() : 1;
  int64_t rows = numElements(extents) / std::max<int64_t>(row, 1);
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t r = 0; r < rows; ++r) {
    std::copy_n(&src[s], row, &dst[t]);
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

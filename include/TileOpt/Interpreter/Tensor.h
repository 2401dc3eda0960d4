//===- Tensor.h - Values of the reference interpreter -----------*- C++ -*-===//
//
// A dense row-major tensor of scalars of one domain (double, float or a
// finite-field element): the value every tk tensor and tb tile takes in the
// interpreter. It owns its storage and knows nothing about MLIR types, so
// tests, the verifier and the command-line tool can build and read values
// without a context.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_INTERPRETER_TENSOR_H
#define TILEOPT_INTERPRETER_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <vector>

namespace mlir::tileopt::interp {

/// Number of elements of a tensor of `shape` (1 for rank 0).
inline int64_t numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Row-major strides of `shape`.
inline llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

template <typename T>
class Tensor {
public:
  Tensor() = default;
  /// A tensor of `shape` filled with T() (0 in every domain).
  explicit Tensor(llvm::ArrayRef<int64_t> shape)
      : shape(shape.begin(), shape.end()), data(numElements(shape)) {}
  /// Lets `Tensor<double>({3, 7})` name a shape: without it the braces
  /// would also match the copy constructor.
  explicit Tensor(std::initializer_list<int64_t> shape)
      : Tensor(llvm::ArrayRef<int64_t>(shape)) {}

  /// Reshapes to `newShape`, keeping the storage when it is large enough
  /// (the block-graph interpreter reuses one tensor per value across blocks
  /// and iterations). The contents are unspecified afterwards.
  void resize(llvm::ArrayRef<int64_t> newShape) {
    shape.assign(newShape.begin(), newShape.end());
    data.resize(numElements(newShape));
  }

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t size() const { return data.size(); }
  llvm::ArrayRef<T> values() const { return data; }
  llvm::MutableArrayRef<T> values() { return data; }
  T &operator[](int64_t i) { return data[i]; }
  const T &operator[](int64_t i) const { return data[i]; }

  /// The element at multi-index `index`.
  T &at(llvm::ArrayRef<int64_t> index) {
    int64_t flat = 0;
    for (auto [i, d] : llvm::zip(index, shape))
      flat = flat * d + i;
    return data[flat];
  }
  const T &at(llvm::ArrayRef<int64_t> index) const {
    return const_cast<Tensor *>(this)->at(index);
  }

  bool operator==(const Tensor &other) const {
    return shape == other.shape && data == other.data;
  }

private:
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<T> data;
};

} // namespace mlir::tileopt::interp

#endif // TILEOPT_INTERPRETER_TENSOR_H

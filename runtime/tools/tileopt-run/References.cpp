#include "References.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <thread>

namespace tileopt::run {

namespace {

// Runs body(begin, end) over [0, rows) split across the host's cores: a
// gemm reference at 8192^3 would take minutes on one.
void parallelRows(int64_t rows, const std::function<void(int64_t, int64_t)> &body) {
  int64_t workers = std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, rows);
  std::vector<std::thread> threads;
  for (int64_t w = 0; w < workers; ++w)
    threads.emplace_back(body, rows * w / workers, rows * (w + 1) / workers);
  for (auto &t : threads)
    t.join();
}

bool sameShape(const Tensor &in, const Tensor &out, const char *name,
               std::string &error) {
  if (in.shape.empty() || in.shape != out.shape) {
    error = std::string(name) + " needs an input and output of one shape of "
            "rank >= 1, got input " + shapeText(in.shape) + " and output " +
            shapeText(out.shape);
    return false;
  }
  return true;
}

// Softmax over the last dim: y = exp(x - max(x)) / sum(exp(x - max(x))).
bool rowSoftmax(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                double, std::string &error) {
  const Tensor &x = inputs[0];
  Tensor &y = outputs[0];
  if (!sameShape(x, y, "row_softmax", error))
    return false;
  int64_t cols = x.shape.back();
  parallelRows(numElements(x.shape) / cols, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const double *in = &x.values[r * cols];
      double *out = &y.values[r * cols];
      double max = *std::max_element(in, in + cols);
      double sum = 0;
      for (int64_t c = 0; c < cols; ++c)
        sum += out[c] = std::exp(in[c] - max);
      for (int64_t c = 0; c < cols; ++c)
        out[c] /= sum;
    }
  });
  return true;
}

// y = x / sqrt(mean(x^2 over the last dim) + eps).
bool rowRmsNorm(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                double eps, std::string &error) {
  const Tensor &x = inputs[0];
  Tensor &y = outputs[0];
  if (!sameShape(x, y, "row_rms_norm", error))
    return false;
  int64_t cols = x.shape.back();
  parallelRows(numElements(x.shape) / cols, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const double *in = &x.values[r * cols];
      double sumSquares = 0;
      for (int64_t c = 0; c < cols; ++c)
        sumSquares += in[c] * in[c];
      double scale = 1.0 / std::sqrt(sumSquares / cols + eps);
      for (int64_t c = 0; c < cols; ++c)
        y.values[r * cols + c] = in[c] * scale;
    }
  });
  return true;
}

// out = silu(a) * b = a / (1 + exp(-a)) * b, elementwise.
bool siluMul(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
             double, std::string &error) {
  const Tensor &a = inputs[0], &b = inputs[1];
  Tensor &out = outputs[0];
  if (!sameShape(a, out, "silu_mul", error) ||
      !sameShape(b, out, "silu_mul", error))
    return false;
  int64_t n = numElements(a.shape);
  parallelRows(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      out.values[i] = a.values[i] / (1.0 + std::exp(-a.values[i])) * b.values[i];
  });
  return true;
}

// C[M, N] = A[M, K] @ B[K, N].
bool gemm(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
          double, std::string &error) {
  const Tensor &a = inputs[0], &b = inputs[1];
  Tensor &c = outputs[0];
  if (a.shape.size() != 2 || b.shape.size() != 2 || c.shape.size() != 2 ||
      a.shape[1] != b.shape[0] || c.shape[0] != a.shape[0] ||
      c.shape[1] != b.shape[1]) {
    error = "gemm needs A [M, K], B [K, N] and C [M, N], got A " +
            shapeText(a.shape) + ", B " + shapeText(b.shape) + ", C " +
            shapeText(c.shape);
    return false;
  }
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  parallelRows(m, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      double *row = &c.values[i * n];
      std::fill(row, row + n, 0.0);
      for (int64_t p = 0; p < k; ++p) { // i-k-j order: the inner loop vectorizes
        double aip = a.values[i * k + p];
        const double *bp = &b.values[p * n];
        for (int64_t j = 0; j < n; ++j)
          row[j] += aip * bp[j];
      }
    }
  });
  return true;
}

constexpr Reference kReferences[] = {
    {"row_softmax", 1, 1, false, nullptr, rowSoftmax},
    {"row_rms_norm", 1, 1, false, "eps", rowRmsNorm},
    {"silu_mul", 2, 1, false, nullptr, siluMul},
    {"gemm", 2, 1, true, nullptr, gemm},
};

} // namespace

const Reference *findReference(std::string_view name) {
  for (const Reference &r : kReferences)
    if (name == r.name)
      return &r;
  return nullptr;
}

std::string referenceNames() {
  std::string names;
  for (const Reference &r : kReferences)
    names += (names.empty() ? "" : ", ") + std::string(r.name);
  return names;
}

} // namespace tileopt::run

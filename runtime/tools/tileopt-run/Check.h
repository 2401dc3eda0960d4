// The output check of tileopt-run: every element against its expected value,
// with the error metric and tolerances of docs/artifact-format.md. Plain C++
// on host tensors, so its unit tests need no GPU.
#ifndef TILEOPT_RUN_CHECK_H
#define TILEOPT_RUN_CHECK_H

#include "HostBuffer.h"

namespace tileopt::run {

// The largest relative error an output of `dtype` may have.
double tolerance(tileopt_dtype dtype);

// The denominator floor of the relative error.
double errorFloor(tileopt_dtype dtype);

struct OutputCheck {
  int64_t nans = 0;     // NaN elements of the output
  double maxError = 0;  // the largest |got - expected| / max(|expected|, floor)
  int64_t worst = -1;   // where it is (row-major index), -1 without expected
  bool pass = false;
};

// Compares `got` (an output of `dtype`) with `expected`, element by element.
// Without expected values (null) only NaNs are counted, which include the
// 0xFF poison of elements never written. NaN or inf in an error (from an
// expected value that is NaN or inf) makes it the worst and fails the check.
OutputCheck checkOutput(tileopt_dtype dtype, const Tensor &got, const Tensor *expected);

} // namespace tileopt::run

#endif // TILEOPT_RUN_CHECK_H

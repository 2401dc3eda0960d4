#include "Check.h"

#include <algorithm>
#include <cmath>

namespace tileopt::run {

double tolerance(tileopt_dtype dtype) {
  switch (dtype) {
  case TILEOPT_F16:
  case TILEOPT_BF16: return 1e-2;
  case TILEOPT_F32: return 1e-4;
  default: return 1e-8; // f64
  }
}

// f16 keeps only absolute precision below its smallest normal number, so
// relative error is measured against that there.
double errorFloor(tileopt_dtype dtype) {
  return dtype == TILEOPT_F16 ? 0x1.0p-14 : 1e-6;
}

OutputCheck checkOutput(tileopt_dtype dtype, const Tensor &got, const Tensor *expected) {
  OutputCheck check;
  for (size_t i = 0; i < got.values.size(); ++i) {
    double g = got.values[i];
    if (std::isnan(g)) {
      ++check.nans;
      continue;
    }
    if (!expected)
      continue;
    double e = expected->values[i];
    double error = std::fabs(g - e) / std::max(std::fabs(e), errorFloor(dtype));
    // The first NaN error (an expected NaN) stays the worst.
    if (check.worst < 0 || error > check.maxError ||
        (std::isnan(error) && !std::isnan(check.maxError))) {
      check.maxError = error;
      check.worst = static_cast<int64_t>(i);
    }
  }
  check.pass = check.nans == 0 && (!expected || check.maxError <= tolerance(dtype));
  return check;
}

} // namespace tileopt::run

//===- RmsNormOverDim.h - rms_norm over a non-last dim -------- -*- C++ -*-===//
//
// Private to the linalg importer (LinalgToTK.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_LINALGTOTK_RMSNORMOVERDIM_H
#define TILEOPT_CONVERSION_LINALGTOTK_RMSNORMOVERDIM_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tileopt {

/// The kernel-graph idiom `x * rsqrt(mean(x^2) + eps)` (or
/// `x / sqrt(mean(x^2) + eps)`) with the mean over a dim d of x that is not
/// its last, the mean keeping d with size 1 so that it broadcasts along d:
/// tk.rms_norm normalizes the last dim, so this becomes
/// `transpose(rms_norm(transpose(x)))`, the first transpose moving d last
/// and the second moving it back. QK-norm's keys, stored as K^T, are
/// normalized this way, over the head dim of each key column.
void populateRmsNormOverDimPatterns(RewritePatternSet &patterns);

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_LINALGTOTK_RMSNORMOVERDIM_H

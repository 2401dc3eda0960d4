// CPU references that tileopt-run checks an artifact's outputs against,
// named by the manifest's "reference" (docs/artifact-format.md lists them).
// They compute in double from the input values the GPU saw.
#ifndef TILEOPT_RUN_REFERENCES_H
#define TILEOPT_RUN_REFERENCES_H

#include "HostBuffer.h"

#include <string>
#include <string_view>
#include <vector>

namespace tileopt::run {

struct Reference {
  const char *name;
  size_t numInputs;
  size_t numOutputs;
  // Draw inputs from (0, 1] instead of [-1, 1]: for gemm, so that no output
  // is a near-zero sum whose relative error means nothing.
  bool positiveInputs;
  // The manifest's "reference_args" entry it reads, or null.
  const char *argName;
  // Checks that the shapes fit, then fills the values of `outputs` (their
  // shapes are set by the caller). `arg` is the argName entry's value.
  bool (*compute)(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                  double arg, std::string &error);
};

// The reference called `name`, or null.
const Reference *findReference(std::string_view name);
// "row_softmax, row_rms_norm, gemm", for messages.
std::string referenceNames();

} // namespace tileopt::run

#endif // TILEOPT_RUN_REFERENCES_H

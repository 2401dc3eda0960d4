// Tensor files: the inputs an artifact is checked on and the values its
// outputs must have, as scripts/interp-reference.py writes them from the
// tile interpreter (format in docs/artifact-format.md, "Interpreter
// reference files").
#ifndef TILEOPT_RUN_TENSORFILE_H
#define TILEOPT_RUN_TENSORFILE_H

#include "HostBuffer.h"

#include <string>
#include <string_view>
#include <vector>

namespace tileopt::run {

// The file names tileopt-run looks for in an artifact directory.
constexpr const char *kInputsFileName = "inputs.tensors";
constexpr const char *kExpectedFileName = "expected.tensors";

struct NamedTensor {
  std::string name;
  tileopt_dtype dtype; // what the file stores; the values are decoded
  Tensor tensor;
};

// Parses the bytes of a tensor file. On failure returns false with `error`
// saying what is wrong and where (tensor index or name).
bool parseTensorFile(std::string_view bytes, std::vector<NamedTensor> &tensors,
                     std::string &error);

// Reads and parses the file at `path`; errors start with the path.
bool readTensorFile(const std::string &path, std::vector<NamedTensor> &tensors,
                    std::string &error);

// Pairs the buffers of `role`, in manifest order, with `tensors` by name:
// every such buffer needs exactly one tensor of its shape (and, with
// `sameDtype`, of its dtype) and every tensor a buffer. Fills `matched` with
// one tensor per buffer of the role.
bool matchBuffers(const std::vector<tileopt_buffer_info> &buffers, tileopt_role role,
                  bool sameDtype, std::vector<NamedTensor> &tensors,
                  std::vector<Tensor> &matched, std::string &error);

} // namespace tileopt::run

#endif // TILEOPT_RUN_TENSORFILE_H

#include "TensorFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace tileopt::run {

namespace {

constexpr std::string_view kMagic = "tileopt-tensors 1";

std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> words;
  while (!line.empty()) {
    size_t end = line.find(' ');
    if (end != 0)
      words.push_back(line.substr(0, end));
    if (end == std::string_view::npos)
      break;
    line.remove_prefix(end + 1);
  }
  return words;
}

bool parseDtype(std::string_view name, tileopt_dtype &dtype) {
  for (int d = TILEOPT_F16; d <= TILEOPT_I64; ++d) {
    if (name == tileopt_dtype_name(static_cast<tileopt_dtype>(d))) {
      dtype = static_cast<tileopt_dtype>(d);
      return true;
    }
  }
  return false;
}

// A dim: decimal digits only, so "-1" and "8x8" are errors.
bool parseDim(std::string_view word, int64_t &dim) {
  if (word.empty() || word.size() > 18)
    return false;
  dim = 0;
  for (char c : word) {
    if (c < '0' || c > '9')
      return false;
    dim = dim * 10 + (c - '0');
  }
  return true;
}

} // namespace

bool parseTensorFile(std::string_view bytes, std::vector<NamedTensor> &tensors,
                     std::string &error) {
  // A header line ends in '\n'; its tensor's data follows it directly.
  auto nextLine = [&](std::string_view &line) {
    size_t end = bytes.find('\n');
    if (end == std::string_view::npos)
      return false;
    line = bytes.substr(0, end);
    bytes.remove_prefix(end + 1);
    return true;
  };
  std::string_view line;
  if (!nextLine(line) || line != kMagic) {
    error = "not a tensor file: the first line must be \"" +
            std::string(kMagic) + "\"";
    return false;
  }
  tensors.clear();
  std::set<std::string, std::less<>> names;
  while (!bytes.empty()) {
    std::string where = "tensor #" + std::to_string(tensors.size());
    if (!nextLine(line)) {
      error = where + ": the header has no end of line";
      return false;
    }
    std::vector<std::string_view> words = splitWords(line);
    if (words.size() < 3 || words[0] != "tensor") {
      error = where + ": expected \"tensor <name> <dtype> <dims...>\", got \"" +
              std::string(line) + "\"";
      return false;
    }
    NamedTensor t;
    t.name = words[1];
    where += " (" + t.name + ")";
    if (!names.insert(t.name).second) {
      error = where + ": a second tensor of that name";
      return false;
    }
    if (!parseDtype(words[2], t.dtype)) {
      error = where + ": unknown dtype \"" + std::string(words[2]) + "\"";
      return false;
    }
    if (words.size() - 3 > TILEOPT_MAX_RANK) {
      error =
          where + ": more than " + std::to_string(TILEOPT_MAX_RANK) + " dims";
      return false;
    }
    // The element count is kept within what the bytes left can hold, so a
    // huge dim is reported as missing data instead of overflowing.
    uint64_t size = tileopt_dtype_size(t.dtype);
    uint64_t room = bytes.size() / size, count = 1;
    bool fits = true;
    for (size_t i = 3; i < words.size(); ++i) {
      int64_t dim;
      if (!parseDim(words[i], dim) || dim < 1) {
        error = where + ": bad dim \"" + std::string(words[i]) +
                "\" (dims are integers >= 1)";
        return false;
      }
      t.tensor.shape.push_back(dim);
      fits = fits && count <= room / static_cast<uint64_t>(dim);
      count *= fits ? dim : 1;
    }
    if (!fits || count > room) {
      error = where + ": " + shapeText(t.tensor.shape) + " of " +
              std::string(words[2]) + " needs more data than the " +
              std::to_string(bytes.size()) + " bytes left";
      return false;
    }
    t.tensor.values.resize(count);
    auto data = reinterpret_cast<const uint8_t *>(bytes.data());
    for (size_t i = 0; i < t.tensor.values.size(); ++i)
      t.tensor.values[i] = loadElement(data, t.dtype, static_cast<int64_t>(i));
    bytes.remove_prefix(count * size);
    tensors.push_back(std::move(t));
  }
  return true;
}

bool readTensorFile(const std::string &path, std::vector<NamedTensor> &tensors,
                    std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open (" + std::strerror(errno) + ")";
    return false;
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) {
    error = path + ": read error";
    return false;
  }
  if (!parseTensorFile(contents.str(), tensors, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

bool matchBuffers(const std::vector<tileopt_buffer_info> &buffers,
                  tileopt_role role, bool sameDtype,
                  std::vector<NamedTensor> &tensors,
                  std::vector<Tensor> &matched, std::string &error) {
  const char *roleName = role == TILEOPT_INPUT ? "input" : "output";
  for (const NamedTensor &t : tensors) {
    auto named = std::find_if(
        buffers.begin(), buffers.end(),
        [&](const tileopt_buffer_info &b) { return t.name == b.name; });
    if (named == buffers.end() || named->role != role) {
      error = "tensor \"" + t.name + "\" names no " + roleName + " buffer";
      // Constants come from the artifact's own files, never from tensor files.
      if (named != buffers.end() && named->role == TILEOPT_CONSTANT)
        error += " (\"" + t.name +
                 "\" is a constant buffer: the artifact holds its values)";
      return false;
    }
  }
  matched.clear();
  for (const tileopt_buffer_info &info : buffers) {
    if (info.role != role)
      continue;
    auto it =
        std::find_if(tensors.begin(), tensors.end(),
                     [&](const NamedTensor &t) { return t.name == info.name; });
    if (it == tensors.end()) {
      error =
          std::string("no tensor for ") + roleName + " \"" + info.name + "\"";
      return false;
    }
    std::vector<int64_t> shape(info.shape, info.shape + info.rank);
    if (it->tensor.shape != shape) {
      error = "tensor \"" + it->name + "\" is " + shapeText(it->tensor.shape) +
              ", " + roleName + " \"" + info.name + "\" is " + shapeText(shape);
      return false;
    }
    if (sameDtype && it->dtype != info.dtype) {
      error = "tensor \"" + it->name + "\" is " +
              tileopt_dtype_name(it->dtype) + ", " + roleName + " \"" +
              info.name + "\" is " + tileopt_dtype_name(info.dtype);
      return false;
    }
    matched.push_back(std::move(it->tensor));
  }
  return true;
}

} // namespace tileopt::run

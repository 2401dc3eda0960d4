#include "Manifest.h"

#include "Json.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>

namespace tileopt {

namespace {

struct DTypeEntry {
  tileopt_dtype dtype;
  const char *name;
  size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {TILEOPT_F16, "f16", 2}, {TILEOPT_BF16, "bf16", 2}, {TILEOPT_F32, "f32", 4},
    {TILEOPT_F64, "f64", 8}, {TILEOPT_I8, "i8", 1},     {TILEOPT_I32, "i32", 4},
    {TILEOPT_I64, "i64", 8}};
constexpr const char *kDTypeList = "f16, bf16, f32, f64, i8, i32, i64";

struct ParamEntry {
  ParamType type;
  const char *name;
  size_t size;
};
constexpr ParamEntry kParams[] = {{ParamType::Ptr, "ptr", 8},
                                  {ParamType::I32, "i32", 4},
                                  {ParamType::I64, "i64", 8},
                                  {ParamType::F32, "f32", 4}};

// cuLaunchKernel's limit on the bytes of all parameters of one kernel on
// older drivers; plenty for generated kernels.
constexpr size_t kMaxParamBytes = 4096;

// cuTensorMapEncodeTiled's limits: dims of a tiled map, elements of a box
// along one dim.
constexpr size_t kMaxTensorMapRank = 5;
constexpr int64_t kMaxTensorMapBox = 256;

} // namespace

const char *dtypeName(tileopt_dtype dtype) {
  for (const auto &e : kDTypes)
    if (e.dtype == dtype)
      return e.name;
  return "?";
}

size_t dtypeSize(tileopt_dtype dtype) {
  for (const auto &e : kDTypes)
    if (e.dtype == dtype)
      return e.size;
  return 0;
}

const char *paramTypeName(ParamType type) {
  for (const auto &e : kParams)
    if (e.type == type)
      return e.name;
  return "?";
}

size_t paramTypeSize(ParamType type) {
  for (const auto &e : kParams)
    if (e.type == type)
      return e.size;
  return 0;
}

namespace {

using json::Kind;
using json::Value;

std::string join(const std::string &path, const char *key) {
  return path.empty() ? key : path + "." + key;
}

std::string index(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// A short rendering of a value for messages.
std::string describe(const Value &v) {
  switch (v.kind) {
  case Kind::String:
    return "\"" + v.string + "\"";
  case Kind::Number: {
    if (v.isInteger)
      return std::to_string(v.integer);
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v.number);
    return text;
  }
  case Kind::Bool:
    return v.boolean ? "true" : "false";
  default:
    return json::kindName(v.kind);
  }
}

// Walks the JSON tree, filling a Manifest. Each check names the offending
// field by its path, so a compiler writer can find it in the file at once.
class ManifestParser {
public:
  explicit ManifestParser(std::string &error) : error(error) {}

  bool parse(const Value &root, Manifest &m) {
    if (root.kind != Kind::Object)
      return fail("", "expected a JSON object at the top level, got " +
                          std::string(json::kindName(root.kind)));
    // Format and version first: a manifest of another version should be
    // reported as such, not by the first key this version does not know.
    const Value *v;
    if (!member(root, "", "format", Kind::String, v))
      return false;
    if (v->string != "tileopt-artifact")
      return fail("format",
                  "expected \"tileopt-artifact\", got " + describe(*v));
    if (!member(root, "", "version", Kind::Number, v))
      return false;
    if (!v->isInteger || v->integer != TILEOPT_ARTIFACT_VERSION)
      return fail("version", "unsupported version " + describe(*v) +
                                 " (this runtime reads version " +
                                 std::to_string(TILEOPT_ARTIFACT_VERSION) +
                                 ")");
    if (!onlyKeys(root, "",
                  {"format", "version", "source_hash", "target", "buffers",
                   "kernels", "launches", "reference", "reference_args"}))
      return false;
    return sourceHash(root, m) && target(root, m) && buffers(root, m) &&
           kernels(root, m) && launches(root, m) && reference(root, m);
  }

private:
  std::string &error;

  bool fail(const std::string &path, const std::string &what) {
    error = path.empty() ? what : path + ": " + what;
    return false;
  }

  bool onlyKeys(const Value &object, const std::string &path,
                std::initializer_list<const char *> allowed) {
    for (const auto &member : object.object) {
      bool known = false;
      for (const char *key : allowed)
        known = known || member.first == key;
      if (known)
        continue;
      std::string list;
      for (const char *key : allowed)
        list += std::string(list.empty() ? "" : ", ") + key;
      return fail(path.empty() ? member.first : path,
                  path.empty() ? "unknown key (expected one of " + list + ")"
                               : "unknown key \"" + member.first +
                                     "\" (expected one of " + list + ")");
    }
    return true;
  }

  // Finds `key` of kind `kind` in `object`. A missing required key is an
  // error; a missing optional one leaves `out` null.
  bool member(const Value &object, const std::string &path, const char *key,
              Kind kind, const Value *&out, bool required = true) {
    out = object.find(key);
    if (!out)
      return !required || fail(join(path, key), "missing");
    if (out->kind != kind)
      return fail(join(path, key), "expected " +
                                       std::string(json::kindName(kind)) +
                                       ", got " + describe(*out));
    return true;
  }

  bool integer(const Value &v, const std::string &path, int64_t min,
               int64_t max, int64_t &out) {
    if (v.kind != Kind::Number || !v.isInteger || v.integer < min ||
        v.integer > max)
      return fail(path, "expected an integer in [" + std::to_string(min) +
                            ", " + std::to_string(max) + "], got " +
                            describe(v));
    out = v.integer;
    return true;
  }

  bool integerMember(const Value &object, const std::string &path,
                     const char *key, int64_t min, int64_t max, int64_t &out) {
    const Value *v;
    return member(object, path, key, Kind::Number, v) &&
           integer(*v, join(path, key), min, max, out);
  }

  bool nonEmptyString(const Value &object, const std::string &path,
                      const char *key, std::string &out) {
    const Value *v;
    if (!member(object, path, key, Kind::String, v))
      return false;
    if (v->string.empty())
      return fail(join(path, key), "must not be empty");
    out = v->string;
    return true;
  }

  // A [x, y, z] launch dimension with per-component upper bounds.
  bool dims3(const Value &object, const std::string &path, const char *key,
             const std::array<int64_t, 3> &max, std::array<uint32_t, 3> &out) {
    const Value *v;
    if (!member(object, path, key, Kind::Array, v))
      return false;
    std::string p = join(path, key);
    if (v->array.size() != 3)
      return fail(p, "expected 3 integers [x, y, z], got " +
                         std::to_string(v->array.size()));
    for (size_t i = 0; i < 3; ++i) {
      int64_t d;
      if (!integer(v->array[i], index(p, i), 1, max[i], d))
        return false;
      out[i] = static_cast<uint32_t>(d);
    }
    return true;
  }

  bool sourceHash(const Value &root, Manifest &m) {
    if (!nonEmptyString(root, "", "source_hash", m.sourceHash))
      return false;
    bool hex = m.sourceHash.size() == 64;
    for (char c : m.sourceHash)
      hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    return hex || fail("source_hash", "expected 64 lowercase hex digits (a "
                                      "sha256), got \"" +
                                          m.sourceHash + "\"");
  }

  bool target(const Value &root, Manifest &m) {
    const Value *t;
    if (!member(root, "", "target", Kind::Object, t) ||
        !onlyKeys(*t, "target", {"arch"}) ||
        !nonEmptyString(*t, "target", "arch", m.arch))
      return false;
    // sm_<major><minor>[a|f]: sm_90, sm_90a, sm_100a, sm_120f. The prefix
    // first: the digits and the suffix are read after it.
    const std::string &a = m.arch;
    size_t digitsEnd = 3;
    bool prefixed = a.size() >= 3 && a.compare(0, 3, "sm_") == 0;
    while (prefixed && digitsEnd < a.size() && a[digitsEnd] >= '0' &&
           a[digitsEnd] <= '9')
      ++digitsEnd;
    std::string suffix = prefixed ? a.substr(digitsEnd) : "";
    if (!prefixed || digitsEnd - 3 < 2 || digitsEnd - 3 > 3 ||
        !(suffix.empty() || suffix == "a" || suffix == "f"))
      return fail("target.arch", "expected sm_<major><minor> with an optional "
                                 "a or f suffix (e.g. sm_90, sm_90a), got \"" +
                                     a + "\"");
    int number = std::stoi(a.substr(3, digitsEnd - 3));
    m.archMajor = number / 10;
    m.archMinor = number % 10;
    m.archSpecific = !suffix.empty();
    return true;
  }

  bool buffers(const Value &root, Manifest &m) {
    const Value *list;
    if (!member(root, "", "buffers", Kind::Array, list))
      return false;
    std::set<std::string> names;
    bool anyOutput = false;
    for (size_t i = 0; i < list->array.size(); ++i) {
      const Value &b = list->array[i];
      std::string path = index("buffers", i);
      BufferDesc desc;
      if (b.kind != Kind::Object)
        return fail(path, "expected object, got " + describe(b));
      if (!onlyKeys(b, path,
                    {"name", "role", "dtype", "shape", "strides", "data"}) ||
          !nonEmptyString(b, path, "name", desc.name) || !role(b, path, desc) ||
          !dtype(b, path, desc) || !shapeAndStrides(b, path, desc) ||
          !constantData(b, path, desc))
        return false;
      if (!names.insert(desc.name).second)
        return fail(join(path, "name"),
                    "duplicate buffer name \"" + desc.name + "\"");
      anyOutput = anyOutput || desc.role == TILEOPT_OUTPUT;
      m.buffers.push_back(std::move(desc));
    }
    return anyOutput || fail("buffers", "no buffer has role \"output\"");
  }

  bool role(const Value &b, const std::string &path, BufferDesc &desc) {
    const Value *v;
    if (!member(b, path, "role", Kind::String, v))
      return false;
    if (v->string == "input")
      desc.role = TILEOPT_INPUT;
    else if (v->string == "output")
      desc.role = TILEOPT_OUTPUT;
    else if (v->string == "scratch")
      desc.role = TILEOPT_SCRATCH;
    else if (v->string == "constant")
      desc.role = TILEOPT_CONSTANT;
    else
      return fail(join(path, "role"),
                  "unknown role " + describe(*v) +
                      " (expected input, output, scratch or constant)");
    return true;
  }

  // A constant buffer's "data": {"file", "offset", "bytes"}, required on
  // role constant and refused on the others. Its contents are row-major, so
  // its strides must be too.
  bool constantData(const Value &b, const std::string &path, BufferDesc &desc) {
    const Value *data = b.find("data");
    std::string p = join(path, "data");
    bool constant = desc.role == TILEOPT_CONSTANT;
    if (!constant && !data)
      return true;
    if (!constant)
      return fail(p,
                  "only a buffer of role \"constant\" has data, this one is " +
                      describe(*b.find("role")));
    if (!data)
      return fail(p, "missing: a buffer of role \"constant\" needs "
                     "{\"file\", \"offset\", \"bytes\"}");
    int64_t extent = 1;
    std::vector<int64_t> rowMajor(desc.shape.size());
    for (size_t d = desc.shape.size(); d-- > 0;) {
      rowMajor[d] = extent;
      extent *= desc.shape[d];
    }
    if (desc.strides != rowMajor)
      return fail(join(path, "strides"),
                  "a constant buffer is row-major contiguous: expected " +
                      list(rowMajor) + ", got " + list(desc.strides));
    if (data->kind != Kind::Object)
      return fail(p, "expected object, got " + describe(*data));
    int64_t offset, bytes;
    if (!onlyKeys(*data, p, {"file", "offset", "bytes"}) ||
        !nonEmptyString(*data, p, "file", desc.data.file) ||
        !fileInArtifact(desc.data.file, join(p, "file")) ||
        !integerMember(*data, p, "offset", 0, INT64_MAX, offset) ||
        !integerMember(*data, p, "bytes", 0, INT64_MAX, bytes))
      return false;
    if (offset % 16 != 0)
      return fail(join(p, "offset"),
                  std::to_string(offset) + " is not a multiple of 16");
    if (static_cast<uint64_t>(bytes) != desc.sizeBytes)
      return fail(join(p, "bytes"),
                  "expected the buffer's size, " +
                      std::to_string(desc.sizeBytes) + " bytes (" +
                      std::to_string(desc.sizeBytes / dtypeSize(desc.dtype)) +
                      " " + dtypeName(desc.dtype) + "), got " +
                      std::to_string(bytes));
    desc.data.offset = static_cast<uint64_t>(offset);
    return true;
  }

  static std::string list(const std::vector<int64_t> &values) {
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i)
      text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
  }

  bool dtype(const Value &b, const std::string &path, BufferDesc &desc) {
    const Value *v;
    if (!member(b, path, "dtype", Kind::String, v))
      return false;
    for (const auto &e : kDTypes) {
      if (v->string == e.name) {
        desc.dtype = e.dtype;
        return true;
      }
    }
    return fail(join(path, "dtype"), "unknown dtype " + describe(*v) +
                                         " (expected one of " + kDTypeList +
                                         ")");
  }

  bool shapeAndStrides(const Value &b, const std::string &path,
                       BufferDesc &desc) {
    const Value *shape, *strides;
    if (!member(b, path, "shape", Kind::Array, shape) ||
        !member(b, path, "strides", Kind::Array, strides))
      return false;
    if (shape->array.size() > TILEOPT_MAX_RANK)
      return fail(join(path, "shape"), "rank " +
                                           std::to_string(shape->array.size()) +
                                           " exceeds the maximum of " +
                                           std::to_string(TILEOPT_MAX_RANK));
    if (strides->array.size() != shape->array.size())
      return fail(join(path, "strides"),
                  "has " + std::to_string(strides->array.size()) +
                      " entries but shape has " +
                      std::to_string(shape->array.size()));
    // The last element's offset must stay far from overflow; 2^40 elements is
    // beyond any GPU's memory.
    constexpr int64_t kMaxExtent = int64_t(1) << 40;
    unsigned __int128 lastOffset = 0;
    for (size_t i = 0; i < shape->array.size(); ++i) {
      int64_t dim, stride;
      if (!integer(shape->array[i], index(join(path, "shape"), i), 1,
                   kMaxExtent, dim) ||
          !integer(strides->array[i], index(join(path, "strides"), i), 1,
                   kMaxExtent, stride))
        return false;
      desc.shape.push_back(dim);
      desc.strides.push_back(stride);
      lastOffset += static_cast<unsigned __int128>(dim - 1) * stride;
    }
    if (lastOffset >= static_cast<unsigned __int128>(kMaxExtent))
      return fail(path, "spans more than 2^40 elements");
    desc.sizeBytes =
        static_cast<uint64_t>(lastOffset + 1) * dtypeSize(desc.dtype);
    return true;
  }

  bool kernels(const Value &root, Manifest &m) {
    const Value *list;
    if (!member(root, "", "kernels", Kind::Array, list))
      return false;
    if (list->array.empty())
      return fail("kernels", "must not be empty");
    for (size_t i = 0; i < list->array.size(); ++i) {
      const Value &k = list->array[i];
      std::string path = index("kernels", i);
      KernelDesc desc;
      if (k.kind != Kind::Object)
        return fail(path, "expected object, got " + describe(k));
      const Value *gridSync;
      if (!onlyKeys(k, path,
                    {"name", "cubin", "symbol", "block", "shared_memory",
                     "params", "grid_sync"}) ||
          !nonEmptyString(k, path, "name", desc.name) ||
          !cubinPath(k, path, desc) ||
          !nonEmptyString(k, path, "symbol", desc.symbol) ||
          !dims3(k, path, "block", {1024, 1024, 64}, desc.block) ||
          !sharedMemory(k, path, desc) || !params(k, path, desc) ||
          !member(k, path, "grid_sync", Kind::Bool, gridSync,
                  /*required=*/false))
        return false;
      desc.gridSync = gridSync && gridSync->boolean;
      if (uint64_t(desc.block[0]) * desc.block[1] * desc.block[2] > 1024)
        return fail(join(path, "block"), "more than 1024 threads per block");
      m.kernels.push_back(std::move(desc));
    }
    return true;
  }

  bool cubinPath(const Value &k, const std::string &path, KernelDesc &desc) {
    return nonEmptyString(k, path, "cubin", desc.cubin) &&
           fileInArtifact(desc.cubin, join(path, "cubin"));
  }

  // Artifacts are moved between machines as one directory: every file they
  // name (cubins, constants' data) must be inside it: a relative path
  // without a ".." component. `file` is not empty.
  bool fileInArtifact(const std::string &file, const std::string &path) {
    bool inside = file[0] != '/';
    size_t start = 0;
    while (inside && start <= file.size()) {
      size_t end = file.find('/', start);
      if (end == std::string::npos)
        end = file.size();
      inside = file.compare(start, end - start, "..") != 0;
      start = end + 1;
    }
    return inside ||
           fail(path, "must be a path inside the artifact directory, got \"" +
                          file + "\"");
  }

  bool sharedMemory(const Value &k, const std::string &path, KernelDesc &desc) {
    const Value *s;
    std::string p = join(path, "shared_memory");
    int64_t staticBytes, dynamicBytes;
    if (!member(k, path, "shared_memory", Kind::Object, s) ||
        !onlyKeys(*s, p, {"static", "dynamic"}) ||
        !integerMember(*s, p, "static", 0, INT32_MAX, staticBytes) ||
        !integerMember(*s, p, "dynamic", 0, INT32_MAX, dynamicBytes))
      return false;
    desc.staticSharedBytes = static_cast<uint32_t>(staticBytes);
    desc.dynamicSharedBytes = static_cast<uint32_t>(dynamicBytes);
    return true;
  }

  bool params(const Value &k, const std::string &path, KernelDesc &desc) {
    const Value *list;
    if (!member(k, path, "params", Kind::Array, list))
      return false;
    size_t bytes = 0;
    for (size_t i = 0; i < list->array.size(); ++i) {
      const Value &p = list->array[i];
      const ParamEntry *found = nullptr;
      for (const auto &e : kParams)
        if (p.kind == Kind::String && p.string == e.name)
          found = &e;
      if (!found)
        return fail(index(join(path, "params"), i),
                    "unknown param type " + describe(p) +
                        " (expected ptr, i32, i64 or f32)");
      desc.params.push_back(found->type);
      bytes += found->size;
    }
    if (bytes > kMaxParamBytes)
      return fail(join(path, "params"), "take " + std::to_string(bytes) +
                                            " bytes, more than " +
                                            std::to_string(kMaxParamBytes));
    return true;
  }

  bool launches(const Value &root, Manifest &m) {
    const Value *list;
    if (!member(root, "", "launches", Kind::Array, list))
      return false;
    if (list->array.empty())
      return fail("launches", "must not be empty");
    for (size_t i = 0; i < list->array.size(); ++i) {
      const Value &l = list->array[i];
      std::string path = index("launches", i);
      LaunchDesc desc;
      int64_t kernel;
      const Value *args;
      if (l.kind != Kind::Object)
        return fail(path, "expected object, got " + describe(l));
      if (!onlyKeys(l, path, {"kernel", "grid", "args"}) ||
          !integerMember(l, path, "kernel", 0, int64_t(m.kernels.size()) - 1,
                         kernel) ||
          !dims3(l, path, "grid", {INT32_MAX, 65535, 65535}, desc.grid) ||
          !member(l, path, "args", Kind::Array, args))
        return false;
      desc.kernel = static_cast<int32_t>(kernel);
      const KernelDesc &k = m.kernels[kernel];
      if (args->array.size() != k.params.size())
        return fail(join(path, "args"), "kernel \"" + k.name + "\" takes " +
                                            std::to_string(k.params.size()) +
                                            " params but the launch gives " +
                                            std::to_string(args->array.size()) +
                                            " args");
      for (size_t a = 0; a < args->array.size(); ++a) {
        ArgDesc arg;
        if (!argument(args->array[a], index(join(path, "args"), a), m, k, a,
                      arg))
          return false;
        desc.args.push_back(arg);
      }
      m.launches.push_back(std::move(desc));
    }
    return true;
  }

  // One launch argument, bound to param `param` of kernel `k`.
  bool argument(const Value &v, const std::string &path, Manifest &m,
                const KernelDesc &k, size_t param, ArgDesc &out) {
    ParamType type = k.params[param];
    std::string expects = "kernel \"" + k.name + "\" param " +
                          std::to_string(param) + " is " + paramTypeName(type);
    if (v.kind != Kind::Object || v.object.size() < 1)
      return fail(path, "expected an object such as {\"buffer\": 0}, "
                        "{\"buffer\": 0, \"dim\": 1} or {\"i64\": 5}, got " +
                            describe(v));
    if (v.find("tensor_map")) {
      if (type != ParamType::Ptr)
        return fail(path, expects + ", but the argument is a tensor map");
      return onlyKeys(v, path, {"tensor_map"}) &&
             tensorMap(v.object[0].second, join(path, "tensor_map"), m, out);
    }
    if (v.find("buffer")) {
      if (!onlyKeys(v, path, {"buffer", "dim", "stride"}))
        return false;
      int64_t buffer;
      if (!integerMember(v, path, "buffer", 0, int64_t(m.buffers.size()) - 1,
                         buffer))
        return false;
      const BufferDesc &b = m.buffers[buffer];
      const char *field = v.find("dim")      ? "dim"
                          : v.find("stride") ? "stride"
                                             : nullptr;
      if (!field) {
        if (type != ParamType::Ptr)
          return fail(path, expects + ", but the argument is a buffer pointer");
        out = {ArgDesc::Kind::BufferPointer, static_cast<int32_t>(buffer), 0};
        return true;
      }
      if (v.find("dim") && v.find("stride"))
        return fail(path, "give either \"dim\" or \"stride\", not both");
      int64_t d;
      if (!integerMember(v, path, field, 0, int64_t(b.shape.size()) - 1, d))
        return false;
      int64_t value = field[0] == 'd' ? b.shape[d] : b.strides[d];
      if (type == ParamType::I64)
        return constant(value, out);
      if (type == ParamType::I32 && value <= INT32_MAX)
        return constant(static_cast<int32_t>(value), out);
      return fail(path, expects + ", but the argument is buffer \"" + b.name +
                            "\" " + field + " " + std::to_string(d) + " = " +
                            std::to_string(value) +
                            (type == ParamType::I32 ? " (too large for i32)"
                                                    : " (an integer)"));
    }
    if (v.object.size() != 1)
      return fail(path,
                  "a literal argument has exactly one key (i32, i64 or f32)");
    const std::string &key = v.object[0].first;
    const Value &literal = v.object[0].second;
    std::string literalPath = path + "." + key;
    if (key != "i32" && key != "i64" && key != "f32")
      return fail(path,
                  "unknown key \"" + key +
                      "\" (expected buffer, tensor_map, i32, i64 or f32)");
    if (key != paramTypeName(type))
      return fail(path,
                  expects + ", but the argument is an " + key + " literal");
    if (type == ParamType::F32) {
      if (literal.kind != Kind::Number || !std::isfinite(literal.number) ||
          std::fabs(literal.number) > FLT_MAX)
        return fail(literalPath,
                    "expected a finite f32 number, got " + describe(literal));
      return constant(static_cast<float>(literal.number), out);
    }
    int64_t value;
    if (type == ParamType::I32) {
      if (!integer(literal, literalPath, INT32_MIN, INT32_MAX, value))
        return false;
      return constant(static_cast<int32_t>(value), out);
    }
    if (!integer(literal, literalPath, INT64_MIN, INT64_MAX, value))
      return false;
    return constant(value, out);
  }

  // A {"buffer", "box", "swizzle"} tensor map, checked against the rules of
  // cuTensorMapEncodeTiled that the manifest decides (the buffer's address,
  // known at launch, must be 16-byte aligned too), added to m.tensorMaps
  // unless an equal one is there.
  bool tensorMap(const Value &v, const std::string &path, Manifest &m,
                 ArgDesc &out) {
    const Value *box;
    int64_t buffer, swizzle;
    if (v.kind != Kind::Object)
      return fail(path, "expected object, got " + describe(v));
    if (!onlyKeys(v, path, {"buffer", "box", "swizzle"}) ||
        !integerMember(v, path, "buffer", 0, int64_t(m.buffers.size()) - 1,
                       buffer) ||
        !member(v, path, "box", Kind::Array, box) ||
        !integerMember(v, path, "swizzle", 0, 128, swizzle))
      return false;
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
      return fail(join(path, "swizzle"),
                  "expected 0, 32, 64 or 128 bytes, got " +
                      std::to_string(swizzle));
    const BufferDesc &b = m.buffers[buffer];
    TensorMapDesc desc{
        static_cast<int32_t>(buffer), {}, static_cast<int32_t>(swizzle)};
    std::string boxPath = join(path, "box");
    if (b.shape.empty() || b.shape.size() > kMaxTensorMapRank)
      return fail(path, "buffer \"" + b.name + "\" has " +
                            std::to_string(b.shape.size()) +
                            " dims; a tensor map takes 1 to 5");
    if (box->array.size() != b.shape.size())
      return fail(boxPath, "has " + std::to_string(box->array.size()) +
                               " dims, buffer \"" + b.name + "\" " +
                               std::to_string(b.shape.size()));
    for (size_t d = 0; d < box->array.size(); ++d) {
      int64_t size;
      if (!integer(box->array[d], index(boxPath, d), 1, kMaxTensorMapBox, size))
        return false;
      desc.box.push_back(size);
    }
    size_t element = dtypeSize(b.dtype);
    int64_t innerBytes = desc.box.back() * int64_t(element);
    if (innerBytes % 16 != 0 || (swizzle != 0 && innerBytes > swizzle))
      return fail(boxPath, "its inner dim is " + std::to_string(innerBytes) +
                               " bytes; a tensor map needs a multiple of 16" +
                               (swizzle ? ", at most the swizzle's " +
                                              std::to_string(swizzle)
                                        : std::string()));
    if (b.strides.back() != 1)
      return fail(path, "buffer \"" + b.name +
                            "\" is not contiguous in its last dim (stride " +
                            std::to_string(b.strides.back()) + ")");
    for (size_t d = 0; d + 1 < b.strides.size(); ++d)
      if (b.strides[d] * element % 16 != 0)
        return fail(path, "buffer \"" + b.name + "\" stride " +
                              std::to_string(d) + " is " +
                              std::to_string(b.strides[d] * element) +
                              " bytes; a tensor map needs multiples of 16");
    for (size_t t = 0; t < m.tensorMaps.size(); ++t) {
      const TensorMapDesc &seen = m.tensorMaps[t];
      if (seen.buffer == desc.buffer && seen.box == desc.box &&
          seen.swizzle == desc.swizzle) {
        out = {ArgDesc::Kind::TensorMap, -1, 0, static_cast<int32_t>(t)};
        return true;
      }
    }
    out = {ArgDesc::Kind::TensorMap, -1, 0,
           static_cast<int32_t>(m.tensorMaps.size())};
    m.tensorMaps.push_back(std::move(desc));
    return true;
  }

  // Stores the bytes of `value` at the start of the 8-byte slot, where
  // cuLaunchKernel reads a param of that size.
  template <typename T> static bool constant(T value, ArgDesc &out) {
    static_assert(sizeof(T) <= sizeof(out.constant), "param wider than a slot");
    out = {ArgDesc::Kind::Constant, -1, 0};
    std::memcpy(&out.constant, &value, sizeof(T));
    return true;
  }

  bool reference(const Value &root, Manifest &m) {
    const Value *name, *args;
    if (!member(root, "", "reference", Kind::String, name,
                /*required=*/false) ||
        !member(root, "", "reference_args", Kind::Object, args,
                /*required=*/false))
      return false;
    if (name)
      m.reference = name->string;
    if (args && !name)
      return fail("reference_args", "given without a \"reference\"");
    if (!args)
      return true;
    for (const auto &arg : args->object) {
      if (arg.second.kind != Kind::Number)
        return fail("reference_args." + arg.first,
                    "expected number, got " + describe(arg.second));
      m.referenceArgs[arg.first] = arg.second.number;
    }
    return true;
  }
};

} // namespace

bool parseManifest(std::string_view text, Manifest &out, std::string &error) {
  json::Value root;
  std::string jsonError;
  if (!json::parse(text, root, jsonError)) {
    error = "invalid JSON: " + jsonError;
    return false;
  }
  out = Manifest();
  return ManifestParser(error).parse(root, out);
}

} // namespace tileopt

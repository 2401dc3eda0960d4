// tileopt-run: loads a TileOpt artifact on the GPU, feeds it inputs (the
// tile interpreter's, where the artifact carries them, else seeded random
// ones), checks every output element against a CPU reference (the
// interpreter's values, else a built-in one), and times the whole launch
// sequence. docs/artifact-format.md describes the output,
// the error metric and the exit codes.
#include "Check.h"
#include "CudaDriver.h"
#include "HostBuffer.h"
#include "References.h"
#include "TensorFile.h"

#include "tileopt/runtime.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace tileopt::run;
using tileopt::cuda::describeError;
using tileopt::cuda::Driver;

namespace {

constexpr int kExitPass = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitError = 2;
// No usable GPU here: the automake/ctest convention for "skipped".
constexpr int kExitNoGpu = 77;

constexpr const char *kUsage =
    "usage: tileopt-run <artifact-dir> [--iters N] [--warmup N] [--seed S]\n"
    "                   [--inputs FILE --expected FILE]\n"
    "  --iters N        timed runs of the launch sequence (default 100; 0: no "
    "timing)\n"
    "  --warmup N       untimed runs before them (default 10)\n"
    "  --seed S         seed of the random inputs (default 1)\n"
    "  --inputs FILE    the inputs, and the values the outputs must have, as\n"
    "  --expected FILE  tensor files (default: the artifact's inputs.tensors\n"
    "                   and expected.tensors if it has them, else random "
    "inputs\n"
    "                   and the manifest's built-in reference)\n";

struct Options {
  std::string dir;
  long iters = 100;
  long warmup = 10;
  uint64_t seed = 1;
  std::string inputs, expected; // tensor files, "" when not given
};

int fail(const std::string &message) {
  std::fprintf(stderr, "tileopt-run: %s\n", message.c_str());
  return kExitError;
}

bool parseCount(const char *text, long &out) {
  char *end;
  errno = 0;
  out = std::strtol(text, &end, 10);
  return errno == 0 && *text && !*end && out >= 0;
}

bool parseOptions(int argc, char **argv, Options &options, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--iters" || arg == "--warmup") {
      long &target = arg == "--iters" ? options.iters : options.warmup;
      if (!hasValue || !parseCount(argv[++i], target)) {
        error = arg + " needs a non-negative integer";
        return false;
      }
    } else if (arg == "--inputs" || arg == "--expected") {
      std::string &target =
          arg == "--inputs" ? options.inputs : options.expected;
      if (!hasValue || !*argv[i + 1]) {
        error = arg + " needs a file";
        return false;
      }
      target = argv[++i];
    } else if (arg == "--seed") {
      char *end;
      if (!hasValue ||
          (options.seed = std::strtoull(argv[++i], &end, 10), *end)) {
        error = "--seed needs an unsigned integer";
        return false;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option " + arg;
      return false;
    } else if (options.dir.empty()) {
      options.dir = arg;
    } else {
      error = "more than one artifact directory given";
      return false;
    }
  }
  if (options.dir.empty()) {
    error = "no artifact directory given";
    return false;
  }
  if (options.inputs.empty() != options.expected.empty()) {
    error = "--inputs and --expected go together: expected values belong to "
            "their inputs";
    return false;
  }
  return true;
}

// splitmix64: tiny, and the same sequence on every platform (unlike the
// distributions of <random>), so a seed names the same inputs everywhere.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; } // [0, 1)

private:
  uint64_t state;
};

// Fills every element the buffer spans, gaps between strided rows included.
// Values are never zero (a zero input hides many indexing bugs): floats from
// [-1, 1] or (0, 1], integers from [-8, 7] or [1, 8].
void fillRandom(const tileopt_buffer_info &info, std::vector<uint8_t> &bytes,
                bool positive, Random &random) {
  int64_t count = info.size_bytes / tileopt_dtype_size(info.dtype);
  for (int64_t i = 0; i < count; ++i) {
    do {
      double u = random.uniform();
      double value = positive ? 1.0 - u : 2.0 * u - 1.0;
      if (!isFloat(info.dtype))
        value = std::trunc(value * 8.0);
      storeElement(bytes.data(), info.dtype, i, value);
    } while (loadElement(bytes.data(), info.dtype, i) == 0.0);
  }
}

// The multi-index of row-major element `flat`.
std::string indexText(const tileopt_buffer_info &info, int64_t flat) {
  std::vector<int64_t> index(info.rank);
  for (int d = info.rank - 1; d >= 0; --d) {
    index[d] = flat % info.shape[d];
    flat /= info.shape[d];
  }
  return shapeText(index);
}

// Frees device allocations and events however run() returns.
struct DeviceResources {
  const Driver &cu;
  // CUdeviceptr values, one per buffer, as the C ABI takes them: 0 for
  // constant buffers, which the artifact holds.
  std::vector<uint64_t> memory;
  std::vector<CUevent> events;
  ~DeviceResources() {
    for (CUevent e : events)
      cu.cuEventDestroy(e);
    for (CUdeviceptr p : memory)
      if (p)
        cu.cuMemFree(p);
  }
};

struct Buffer {
  tileopt_buffer_info info;
  std::vector<uint8_t> host;
};

// Checks one output against its expected values (null: only for NaN) and
// prints a line; returns whether it passed.
bool reportOutput(const Buffer &out, const Tensor *expected) {
  const tileopt_buffer_info &info = out.info;
  Tensor got = gather(info, out.host);
  OutputCheck check = checkOutput(info.dtype, got, expected);
  std::printf("output     %s %s %s:", info.name, tileopt_dtype_name(info.dtype),
              shapeText(got.shape).c_str());
  if (expected) {
    std::printf(" max_rel_err %.3e (tolerance %.0e)", check.maxError,
                tolerance(info.dtype));
    if (check.worst >= 0)
      std::printf(" at %s: got %.6e, expected %.6e",
                  indexText(info, check.worst).c_str(), got.values[check.worst],
                  expected->values[check.worst]);
    std::printf(",");
  }
  std::printf(" nan %" PRId64 " -> %s\n", check.nans,
              check.pass ? "ok" : "FAIL");
  return check.pass;
}

bool fileExists(const std::string &path) { return std::ifstream(path).good(); }

// The tensor files of the interpreter reference: --inputs and --expected, or
// the artifact's own. Returns false with `error` set when only one of the
// pair is there; `inputs` stays empty when there is none.
bool findReferenceFiles(const Options &options, std::string &inputs,
                        std::string &expected, std::string &error) {
  if (!options.inputs.empty()) {
    inputs = options.inputs;
    expected = options.expected;
    return true;
  }
  std::string inDir = options.dir + "/" + kInputsFileName;
  std::string expectedInDir = options.dir + "/" + kExpectedFileName;
  bool haveInputs = fileExists(inDir), haveExpected = fileExists(expectedInDir);
  if (haveInputs != haveExpected) {
    error = (haveInputs ? inDir : expectedInDir) + " is there but " +
            (haveInputs ? expectedInDir : inDir) + " is not";
    return false;
  }
  if (haveInputs) {
    inputs = inDir;
    expected = expectedInDir;
  }
  return true;
}

// The manifest's built-in reference (null when it names none) and its
// argument, checked against the artifact's buffers.
bool findBuiltinReference(const tileopt_artifact *artifact,
                          const std::vector<tileopt_buffer_info> &buffers,
                          const Reference *&reference, double &arg,
                          std::string &error) {
  std::string name = tileopt_artifact_reference(artifact);
  reference = nullptr;
  if (name.empty())
    return true;
  reference = findReference(name);
  if (!reference) {
    error =
        "unknown reference \"" + name + "\" (known: " + referenceNames() + ")";
    return false;
  }
  size_t numInputs = 0, numOutputs = 0;
  for (const tileopt_buffer_info &b : buffers) {
    numInputs += b.role == TILEOPT_INPUT;
    numOutputs += b.role == TILEOPT_OUTPUT;
    if ((b.role == TILEOPT_INPUT || b.role == TILEOPT_OUTPUT) &&
        !isFloat(b.dtype)) {
      error = name + " needs floating-point buffers, \"" + b.name + "\" is " +
              tileopt_dtype_name(b.dtype);
      return false;
    }
  }
  if (numInputs != reference->numInputs ||
      numOutputs != reference->numOutputs) {
    error = name + " takes " + std::to_string(reference->numInputs) +
            " inputs and " + std::to_string(reference->numOutputs) +
            " outputs, the artifact has " + std::to_string(numInputs) +
            " and " + std::to_string(numOutputs);
    return false;
  }
  if (reference->argName &&
      tileopt_artifact_reference_arg(artifact, reference->argName, &arg) !=
          TILEOPT_OK) {
    error = name + " needs \"reference_args\": {\"" + reference->argName +
            "\": <number>} in the manifest";
    return false;
  }
  return true;
}

int run(const Options &options) {
  tileopt_artifact *loaded = nullptr;
  tileopt_status status = tileopt_artifact_load(options.dir.c_str(), &loaded);
  if (status == TILEOPT_ERROR_NO_DEVICE ||
      status == TILEOPT_ERROR_UNSUPPORTED_DEVICE) {
    std::fprintf(stderr, "tileopt-run: %s\n", tileopt_last_error());
    return kExitNoGpu;
  }
  if (status != TILEOPT_OK)
    return fail(tileopt_last_error());
  std::unique_ptr<tileopt_artifact, void (*)(tileopt_artifact *)> artifact(
      loaded, tileopt_artifact_destroy);
  std::string error;
  const Driver &cu = *tileopt::cuda::driver(error); // loaded by the artifact

  std::vector<Buffer> buffers(tileopt_artifact_num_buffers(artifact.get()));
  std::vector<tileopt_buffer_info> infos(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    tileopt_artifact_buffer(artifact.get(), static_cast<int32_t>(i), &infos[i]);
    buffers[i].info = infos[i];
    // Constant buffers are the artifact's: no host copy, no fill.
    if (infos[i].role != TILEOPT_CONSTANT)
      buffers[i].host.resize(infos[i].size_bytes);
  }

  // The reference: the tile interpreter's values where there are some, else
  // the manifest's built-in one, computed below from random inputs.
  std::string inputsFile, expectedFile;
  if (!findReferenceFiles(options, inputsFile, expectedFile, error))
    return fail(error);
  bool interpreter = !inputsFile.empty();
  std::vector<Tensor> inputs, expected;
  const Reference *builtin = nullptr;
  double builtinArg = NAN;
  if (interpreter) {
    std::vector<NamedTensor> tensors;
    if (!readTensorFile(inputsFile, tensors, error))
      return fail(error);
    // The device gets exactly the values the interpreter read: same dtype.
    if (!matchBuffers(infos, TILEOPT_INPUT, /*sameDtype=*/true, tensors, inputs,
                      error))
      return fail(inputsFile + ": " + error);
    if (!readTensorFile(expectedFile, tensors, error))
      return fail(error);
    if (!matchBuffers(infos, TILEOPT_OUTPUT, /*sameDtype=*/false, tensors,
                      expected, error))
      return fail(expectedFile + ": " + error);
  } else if (!findBuiltinReference(artifact.get(), infos, builtin, builtinArg,
                                   error)) {
    return fail(error);
  }

  // Inputs: the interpreter's, or seeded random values (the random fill
  // also covers any gaps between strided rows). Outputs and scratch: 0xFF
  // bytes, a NaN in every float dtype, so elements a kernel never writes
  // show up as NaN. Constants: nothing, the artifact uploaded them.
  Random random(options.seed);
  size_t inputIndex = 0;
  for (Buffer &b : buffers) {
    if (b.info.role == TILEOPT_INPUT) {
      fillRandom(b.info, b.host, builtin && builtin->positiveInputs, random);
      if (interpreter)
        scatter(b.info, inputs[inputIndex++], b.host);
      else
        inputs.push_back(gather(b.info, b.host));
    } else if (b.info.role != TILEOPT_CONSTANT) {
      std::fill(b.host.begin(), b.host.end(), 0xFF);
    }
    if (builtin && b.info.role == TILEOPT_OUTPUT) {
      Tensor t;
      t.shape.assign(b.info.shape, b.info.shape + b.info.rank);
      t.values.resize(numElements(t.shape));
      expected.push_back(std::move(t));
    }
  }
  if (builtin && !builtin->compute(inputs, expected, builtinArg, error))
    return fail(error);

  DeviceResources device{cu, {}, {}};
  CUresult r;
  size_t numConstants = 0;
  for (Buffer &b : buffers) {
    CUdeviceptr p;
    if (b.info.role == TILEOPT_CONSTANT) {
      device.memory.push_back(0);
      ++numConstants;
      continue;
    }
    if ((r = cu.cuMemAlloc(&p, b.info.size_bytes)) != CUDA_SUCCESS)
      return fail(std::string("buffer \"") + b.info.name +
                  "\": " + describeError(cu, "cuMemAlloc", r));
    device.memory.push_back(p);
    if ((r = cu.cuMemcpyHtoD(p, b.host.data(), b.host.size())) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuMemcpyHtoD", r));
  }
  auto launch = [&]() {
    return tileopt_artifact_launch(artifact.get(), device.memory.data(),
                                   static_cast<int32_t>(device.memory.size()),
                                   nullptr);
  };

  std::printf("artifact   %s: %zu buffers", options.dir.c_str(),
              buffers.size());
  if (numConstants)
    std::printf(" (%zu constant, uploaded by the artifact)", numConstants);
  std::printf("\n");
  if (interpreter)
    std::printf("reference  tile interpreter: inputs %s, expected %s\n",
                inputsFile.c_str(), expectedFile.c_str());
  else if (builtin)
    std::printf(
        "reference  built-in %s, random inputs (seed %" PRIu64
        "): the artifact "
        "has no interpreter reference (scripts/prepare-device-run.sh writes "
        "one "
        "for the -small variants only; the CPU interpreter is too slow at full "
        "size)\n",
        builtin->name, options.seed);
  else
    std::printf("reference  none, random inputs (seed %" PRIu64
                "): outputs checked for "
                "NaN only\n",
                options.seed);
  if (launch() != TILEOPT_OK)
    return fail(tileopt_last_error());
  if ((r = cu.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS)
    return fail("running the artifact: " +
                describeError(cu, "cuStreamSynchronize", r));
  bool pass = true;
  size_t outputIndex = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &b = buffers[i];
    if (b.info.role != TILEOPT_OUTPUT)
      continue;
    if ((r = cu.cuMemcpyDtoH(b.host.data(), device.memory[i], b.host.size())) !=
        CUDA_SUCCESS)
      return fail(describeError(cu, "cuMemcpyDtoH", r));
    pass =
        reportOutput(b, expected.empty() ? nullptr : &expected[outputIndex]) &&
        pass;
    ++outputIndex;
  }
  std::printf("check      %s\n", pass ? "PASS" : "FAIL");

  // Timing: GPU time between events around each run of the launch sequence.
  for (long i = 0; i < options.warmup; ++i)
    if (launch() != TILEOPT_OK)
      return fail(tileopt_last_error());
  device.events.resize(2 * options.iters);
  for (CUevent &e : device.events)
    if ((r = cu.cuEventCreate(&e, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuEventCreate", r));
  for (long i = 0; i < options.iters; ++i) {
    if ((r = cu.cuEventRecord(device.events[2 * i], nullptr)) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuEventRecord", r));
    if (launch() != TILEOPT_OK)
      return fail(tileopt_last_error());
    if ((r = cu.cuEventRecord(device.events[2 * i + 1], nullptr)) !=
        CUDA_SUCCESS)
      return fail(describeError(cu, "cuEventRecord", r));
  }
  if ((r = cu.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS)
    return fail("timing the artifact: " +
                describeError(cu, "cuStreamSynchronize", r));
  if (options.iters > 0) {
    std::vector<double> micros(options.iters);
    for (long i = 0; i < options.iters; ++i) {
      float ms = 0;
      if ((r = cu.cuEventElapsedTime(&ms, device.events[2 * i],
                                     device.events[2 * i + 1])) != CUDA_SUCCESS)
        return fail(describeError(cu, "cuEventElapsedTime", r));
      micros[i] = ms * 1000.0;
    }
    std::sort(micros.begin(), micros.end());
    std::printf(
        "time       median %.2f us, min %.2f us (%ld iters, %ld warmup)\n",
        micros[micros.size() / 2], micros.front(), options.iters,
        options.warmup);
  }
  return pass ? kExitPass : kExitCheckFailed;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::fputs(kUsage, stdout);
      return kExitPass;
    }
  }
  if (!parseOptions(argc, argv, options, error)) {
    std::fprintf(stderr, "tileopt-run: %s\n%s", error.c_str(), kUsage);
    return kExitError;
  }
  return run(options);
}

// tileopt-run: loads a TileOpt artifact on the GPU, feeds it seeded random
// inputs, checks every output element against a CPU reference, and times
// the whole launch sequence. docs/artifact-format.md describes the output,
// the error metric and the exit codes.
#include "CudaDriver.h"
#include "HostBuffer.h"
#include "References.h"

#include "tileopt/runtime.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    "  --iters N   timed runs of the launch sequence (default 100; 0: no timing)\n"
    "  --warmup N  untimed runs before them (default 10)\n"
    "  --seed S    seed of the random inputs (default 1)\n";

struct Options {
  std::string dir;
  long iters = 100;
  long warmup = 10;
  uint64_t seed = 1;
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
    } else if (arg == "--seed") {
      char *end;
      if (!hasValue || (options.seed = std::strtoull(argv[++i], &end, 10), *end)) {
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
  if (options.dir.empty())
    error = "no artifact directory given";
  return !options.dir.empty();
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

double tolerance(tileopt_dtype dtype) {
  switch (dtype) {
  case TILEOPT_F16:
  case TILEOPT_BF16: return 1e-2;
  case TILEOPT_F32: return 1e-4;
  default: return 1e-8; // f64
  }
}

// The denominator floor of the relative error. f16 keeps only absolute
// precision below its smallest normal number, so relative error is measured
// against that there.
double errorFloor(tileopt_dtype dtype) {
  return dtype == TILEOPT_F16 ? 0x1.0p-14 : 1e-6;
}

std::string shapeText(const int64_t *dims, int rank) {
  std::string text = "[";
  for (int i = 0; i < rank; ++i)
    text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

// The multi-index of row-major element `flat`.
std::string indexText(const tileopt_buffer_info &info, int64_t flat) {
  std::vector<int64_t> index(info.rank);
  for (int d = info.rank - 1; d >= 0; --d) {
    index[d] = flat % info.shape[d];
    flat /= info.shape[d];
  }
  return shapeText(index.data(), info.rank);
}

// Frees device allocations and events however run() returns.
struct DeviceResources {
  const Driver &cu;
  std::vector<uint64_t> memory; // CUdeviceptr values, as the C ABI takes them
  std::vector<CUevent> events;
  ~DeviceResources() {
    for (CUevent e : events)
      cu.cuEventDestroy(e);
    for (CUdeviceptr p : memory)
      cu.cuMemFree(p);
  }
};

struct Buffer {
  tileopt_buffer_info info;
  std::vector<uint8_t> host;
};

// Compares one output with its expected values and prints a line; returns
// whether it passed. `expected` is null without a reference: then only NaNs
// (which include the 0xFF poison of elements never written) are counted.
bool checkOutput(const Buffer &out, const Tensor *expected) {
  const tileopt_buffer_info &info = out.info;
  Tensor got = gather(info, out.host);
  int64_t nans = 0, worst = -1;
  double maxError = 0;
  for (size_t i = 0; i < got.values.size(); ++i) {
    double g = got.values[i];
    if (std::isnan(g)) {
      ++nans;
      continue;
    }
    if (!expected)
      continue;
    double e = expected->values[i];
    double error = std::fabs(g - e) / std::max(std::fabs(e), errorFloor(info.dtype));
    if (worst < 0 || !(error <= maxError)) { // also catches inf and NaN errors
      maxError = error;
      worst = static_cast<int64_t>(i);
    }
  }
  bool pass = nans == 0;
  std::printf("output     %s %s %s:", info.name, tileopt_dtype_name(info.dtype),
              shapeText(info.shape, info.rank).c_str());
  if (expected) {
    pass = pass && maxError <= tolerance(info.dtype);
    std::printf(" max_rel_err %.3e (tolerance %.0e)", maxError, tolerance(info.dtype));
    if (worst >= 0)
      std::printf(" at %s: got %.6e, expected %.6e", indexText(info, worst).c_str(),
                  got.values[worst], expected->values[worst]);
    std::printf(",");
  }
  std::printf(" nan %" PRId64 " -> %s\n", nans, pass ? "ok" : "FAIL");
  return pass;
}

int run(const Options &options) {
  tileopt_artifact *loaded = nullptr;
  tileopt_status status = tileopt_artifact_load(options.dir.c_str(), &loaded);
  if (status == TILEOPT_ERROR_NO_DEVICE || status == TILEOPT_ERROR_UNSUPPORTED_DEVICE) {
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
  std::vector<Tensor> inputs, expected;
  for (size_t i = 0; i < buffers.size(); ++i) {
    tileopt_artifact_buffer(artifact.get(), static_cast<int32_t>(i), &buffers[i].info);
    buffers[i].host.resize(buffers[i].info.size_bytes);
  }

  // The reference, and whether the buffers suit it.
  std::string referenceName = tileopt_artifact_reference(artifact.get());
  const Reference *reference = nullptr;
  double referenceArg = NAN;
  if (!referenceName.empty()) {
    reference = findReference(referenceName);
    if (!reference)
      return fail("unknown reference \"" + referenceName + "\" (known: " +
                  referenceNames() + ")");
    size_t numInputs = 0, numOutputs = 0;
    for (const Buffer &b : buffers) {
      numInputs += b.info.role == TILEOPT_INPUT;
      numOutputs += b.info.role == TILEOPT_OUTPUT;
      if (b.info.role != TILEOPT_SCRATCH && !isFloat(b.info.dtype))
        return fail(referenceName + " needs floating-point buffers, \"" +
                    b.info.name + "\" is " + tileopt_dtype_name(b.info.dtype));
    }
    if (numInputs != reference->numInputs || numOutputs != reference->numOutputs)
      return fail(referenceName + " takes " + std::to_string(reference->numInputs) +
                  " inputs and " + std::to_string(reference->numOutputs) +
                  " outputs, the artifact has " + std::to_string(numInputs) +
                  " and " + std::to_string(numOutputs));
    if (reference->argName &&
        tileopt_artifact_reference_arg(artifact.get(), reference->argName,
                                       &referenceArg) != TILEOPT_OK)
      return fail(referenceName + " needs \"reference_args\": {\"" +
                  reference->argName + "\": <number>} in the manifest");
  }

  // Inputs: seeded random values. Outputs and scratch: 0xFF bytes, a NaN in
  // every float dtype, so elements a kernel never writes show up as NaN.
  Random random(options.seed);
  for (Buffer &b : buffers) {
    if (b.info.role == TILEOPT_INPUT) {
      fillRandom(b.info, b.host, reference && reference->positiveInputs, random);
      inputs.push_back(gather(b.info, b.host));
    } else {
      std::fill(b.host.begin(), b.host.end(), 0xFF);
    }
    if (reference && b.info.role == TILEOPT_OUTPUT) {
      Tensor t;
      t.shape.assign(b.info.shape, b.info.shape + b.info.rank);
      t.values.resize(numElements(t.shape));
      expected.push_back(std::move(t));
    }
  }
  if (reference && !reference->compute(inputs, expected, referenceArg, error))
    return fail(error);

  DeviceResources device{cu, {}, {}};
  CUresult r;
  for (Buffer &b : buffers) {
    CUdeviceptr p;
    if ((r = cu.cuMemAlloc(&p, b.info.size_bytes)) != CUDA_SUCCESS)
      return fail(std::string("buffer \"") + b.info.name + "\": " +
                  describeError(cu, "cuMemAlloc", r));
    device.memory.push_back(p);
    if ((r = cu.cuMemcpyHtoD(p, b.host.data(), b.host.size())) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuMemcpyHtoD", r));
  }
  auto launch = [&]() {
    return tileopt_artifact_launch(artifact.get(), device.memory.data(),
                                   static_cast<int32_t>(device.memory.size()), nullptr);
  };

  std::printf("artifact   %s: %zu buffers, reference %s, seed %" PRIu64 "\n",
              options.dir.c_str(), buffers.size(),
              reference ? referenceName.c_str() : "none (outputs checked for NaN only)",
              options.seed);
  if (launch() != TILEOPT_OK)
    return fail(tileopt_last_error());
  if ((r = cu.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS)
    return fail("running the artifact: " + describeError(cu, "cuStreamSynchronize", r));
  bool pass = true;
  size_t outputIndex = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &b = buffers[i];
    if (b.info.role != TILEOPT_OUTPUT)
      continue;
    if ((r = cu.cuMemcpyDtoH(b.host.data(), device.memory[i], b.host.size())) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuMemcpyDtoH", r));
    pass = checkOutput(b, reference ? &expected[outputIndex] : nullptr) && pass;
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
    if ((r = cu.cuEventRecord(device.events[2 * i + 1], nullptr)) != CUDA_SUCCESS)
      return fail(describeError(cu, "cuEventRecord", r));
  }
  if ((r = cu.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS)
    return fail("timing the artifact: " + describeError(cu, "cuStreamSynchronize", r));
  if (options.iters > 0) {
    std::vector<double> micros(options.iters);
    for (long i = 0; i < options.iters; ++i) {
      float ms = 0;
      if ((r = cu.cuEventElapsedTime(&ms, device.events[2 * i], device.events[2 * i + 1])) !=
          CUDA_SUCCESS)
        return fail(describeError(cu, "cuEventElapsedTime", r));
      micros[i] = ms * 1000.0;
    }
    std::sort(micros.begin(), micros.end());
    std::printf("time       median %.2f us, min %.2f us (%ld iters, %ld warmup)\n",
                micros[micros.size() / 2], micros.front(), options.iters, options.warmup);
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

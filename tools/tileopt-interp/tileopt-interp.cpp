//===- tileopt-interp.cpp - Run a kernel graph on the CPU -----------------===//
//
// Runs one function of a .mlir file with the reference interpreter and prints
// its results, on inputs read from a text file or drawn at random (seeded):
//
//   tileopt-interp graph.mlir --function=f --domain=f64 --seed=7
//   tileopt-interp graph.mlir --function=f --inputs=x.txt
//
// The text format (also what it prints, so outputs can be fed back):
//
//   # a comment
//   tensor 2x3
//   1 2 3
//   4 5 6
//
// one `tensor` header per argument, in order, then its values in row-major
// order, any whitespace between them. Arguments (and buffers) whose values
// the program fixes (`tileopt.constant`) take no tensor: they hold those. In the field domain a value is an
// integer (taken mod p and mod q) or `a:b` (the residues mod p and mod q);
// results print as `a:b`, or `a:-` when the residue mod q is undefined.
//
// Tile programs run in f64 or f32. A host function (one that launches
// tile kernels with tile.launch) takes its input buffers from the inputs and
// prints its `tileopt.output` buffers; a kernel given with --kernel runs
// over --grid with one tensor per view argument (the tensor's shape gives
// the view's `?` sizes) and prints them all after the run:
//
//   tileopt-interp softmax.mlir --inputs=x.txt           # @main's launches
//   tileopt-interp gemm.mlir --kernel=gemm --grid=2,3,1 --inputs=abc.txt
//
// With --equivalent-to=g it runs the probabilistic verifier instead and
// prints whether --function and g compute the same function:
//
//   tileopt-interp graphs.mlir --function=fused --equivalent-to=reference
//
// Errors — in the file, the inputs, or while interpreting — are printed as
// diagnostics with their location and the tool exits with status 1.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Interpreter/Interpreter.h"
#include "TileOpt/Interpreter/TileInterpreter.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;

namespace {
namespace cl = llvm::cl;

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                               cl::init("-"));
cl::opt<std::string> functionName(
    "function", cl::desc("the function to run (default: the only one)"));
enum class DomainKind { F64, F32, Field };
cl::opt<DomainKind> domainKind(
    "domain", cl::desc("scalar domain"), cl::init(DomainKind::F64),
    cl::values(clEnumValN(DomainKind::F64, "f64", "IEEE double"),
               clEnumValN(DomainKind::F32, "f32", "IEEE single"),
               clEnumValN(DomainKind::Field, "field",
                          "Z_p x Z_q, exp via a q-th root of unity")));
cl::opt<std::string> inputsFile(
    "inputs", cl::desc("text file with one tensor per argument (default: "
                       "random inputs)"));
cl::opt<uint64_t> seed("seed", cl::desc("seed of the random inputs and of "
                                        "the field's uninterpreted functions"),
                       cl::init(0));
cl::opt<std::string> equivalentTo(
    "equivalent-to",
    cl::desc("instead of running --function, check with the verifier that "
             "it computes the same function as this one"));
cl::opt<bool> noShrink("no-shrink",
                       cl::desc("verify at full size, not on reduced "
                                "instances"));
cl::opt<std::string>
    kernelName("kernel",
               cl::desc("run this tile.kernel over --grid instead of a "
                        "function"));
cl::list<int64_t> gridExtents("grid", cl::desc("the grid of --kernel: x,y,z"),
                              cl::CommaSeparated);
cl::opt<unsigned> precision("precision",
                            cl::desc("significant digits of float outputs"),
                            cl::init(6));

//===----------------------------------------------------------------------===//
// Text format
//===----------------------------------------------------------------------===//

/// Reads one scalar of the domain from `word`.
template <typename Domain>
std::optional<typename Domain::Scalar> parseScalar(Domain &, StringRef word) {
  double value;
  if (word.getAsDouble(value))
    return std::nullopt;
  return static_cast<typename Domain::Scalar>(value);
}

template <>
std::optional<FieldElement> parseScalar(FieldDomain &, StringRef word) {
  auto [p, q] = word.split(':');
  int64_t a, b;
  if (p.getAsInteger(10, a))
    return std::nullopt;
  if (q.empty())
    b = a;
  else if (q.getAsInteger(10, b))
    return std::nullopt;
  auto residue = [](int64_t x, uint64_t m) {
    return uint32_t(((x % int64_t(m)) + int64_t(m)) % int64_t(m));
  };
  return FieldElement{residue(a, FieldDomain::P), residue(b, FieldDomain::Q)};
}

void printScalar(raw_ostream &os, double x) {
  os << llvm::format("%.*g", static_cast<int>(precision), x);
}
void printScalar(raw_ostream &os, FieldElement x) {
  os << x.p << ':';
  if (x.hasQ())
    os << x.q;
  else
    os << '-';
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return s.empty() ? "1" : s;
}

/// Parses the tensors of `buffer` (registered in `sourceMgr` for
/// diagnostics), checking them against the argument shapes.
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
parseTensors(Domain &domain, llvm::SourceMgr &sourceMgr, unsigned bufferId,
             ArrayRef<SmallVector<int64_t, 4>> shapes) {
  StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  auto error = [&](StringRef at, const Twine &message) {
    sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(at.data()),
                           llvm::SourceMgr::DK_Error, message);
    return failure();
  };
  // Words without comments, each a slice of `text` (for locations).
  SmallVector<StringRef> words;
  for (StringRef rest = text; !rest.empty();) {
    StringRef line;
    std::tie(line, rest) = rest.split('\n');
    line = line.split('#').first;
    SmallVector<StringRef> lineWords;
    line.split(lineWords, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef w : lineWords)
      if (!(w = w.trim()).empty())
        words.push_back(w);
  }
  SmallVector<TensorOf<Domain>> tensors;
  size_t pos = 0;
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    if (pos + 1 >= words.size() || words[pos] != "tensor")
      return error(pos < words.size() ? words[pos] : text.take_back(0),
                   "expected `tensor <shape>` for argument #" + Twine(i));
    StringRef header = words[pos + 1];
    SmallVector<StringRef> dims;
    header.split(dims, 'x');
    SmallVector<int64_t, 4> parsed;
    for (StringRef dim : dims)
      if (dim.getAsInteger(10, parsed.emplace_back()))
        return error(header, "bad shape `" + header + "`");
    // A dynamic dim (a `?` of a tile view) takes the size the header gives.
    bool matches =
        parsed.size() == shape.size() &&
        llvm::all_of(llvm::zip(parsed, shape), [](auto p) {
          return std::get<0>(p) == std::get<1>(p) ||
                 (ShapedType::isDynamic(std::get<1>(p)) && std::get<0>(p) >= 0);
        });
    if (!matches)
      return error(header, "argument #" + Twine(i) + " has shape " + header +
                               ", the function takes " +
                               Twine(shapeString(shape)));
    pos += 2;
    TensorOf<Domain> &t = tensors.emplace_back(parsed);
    for (int64_t e = 0; e < t.size(); ++e, ++pos) {
      if (pos >= words.size())
        return error(text.take_back(0), "argument #" + Twine(i) + " needs " +
                                            Twine(t.size()) + " values");
      std::optional<typename Domain::Scalar> v = parseScalar(domain, words[pos]);
      if (!v)
        return error(words[pos], "not a " + Twine(Domain::name) +
                                     " value: `" + words[pos] + "`");
      t[e] = *v;
    }
  }
  if (pos != words.size())
    return error(words[pos], "more values than the function takes");
  return tensors;
}

template <typename T>
void printTensor(raw_ostream &os, const Tensor<T> &t) {
  os << "tensor " << shapeString(t.getShape()) << "\n";
  int64_t row = t.getRank() ? t.getShape().back() : 1;
  for (int64_t i = 0; i < t.size(); ++i) {
    printScalar(os, t[i]);
    os << ((i + 1) % row == 0 ? "\n" : " ");
  }
}

/// The inputs of a run: parsed from --inputs against `shapes`, or drawn at
/// random (which needs static shapes).
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
readInputs(Domain &domain, llvm::SourceMgr &sourceMgr,
           ArrayRef<SmallVector<int64_t, 4>> shapes, Operation *op) {
  if (inputsFile.empty()) {
    SplitMix64 rng(seed);
    SmallVector<TensorOf<Domain>> inputs;
    for (ArrayRef<int64_t> shape : shapes) {
      if (ShapedType::isDynamicShape(shape))
        return op->emitError("argument #")
               << inputs.size() << " has a dynamic size: give it with --inputs";
      TensorOf<Domain> &t = inputs.emplace_back(shape);
      for (auto &value : t.values())
        value = domain.random(rng);
    }
    return inputs;
  }
  std::string message;
  auto buffer = openInputFile(inputsFile, &message);
  if (!buffer) {
    llvm::errs() << "error: " << message << "\n";
    return failure();
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return parseTensors(domain, sourceMgr, id, shapes);
}

/// Prints `results` as `# <what> #i of @<name> (<domain>)` and a tensor each.
template <typename Domain>
void printResults(StringRef what, StringRef name,
                  ArrayRef<TensorOf<Domain>> results) {
  for (auto [i, result] : llvm::enumerate(results)) {
    llvm::outs() << "# " << what << " #" << i << " of @" << name << " ("
                 << Domain::name << ")\n";
    printTensor(llvm::outs(), result);
  }
}

template <typename Domain> Domain makeDomain() {
  if constexpr (std::is_same_v<Domain, FieldDomain>)
    return FieldDomain(seed);
  else
    return Domain();
}

template <typename Domain>
LogicalResult run(func::FuncOp func, llvm::SourceMgr &sourceMgr) {
  Domain domain = makeDomain<Domain>();
  FailureOr<SmallVector<SmallVector<int64_t, 4>>> shapes =
      getArgumentShapes(func);
  if (failed(shapes))
    return failure();
  // Arguments with `tileopt.constant` values are not inputs: the program
  // fixes them, as the artifact does for its constant buffers.
  SmallVector<SmallVector<int64_t, 4>> inputShapes;
  for (auto [i, shape] : llvm::enumerate(*shapes))
    if (isCallerArgument(func, i))
      inputShapes.push_back(shape);
  FailureOr<SmallVector<TensorOf<Domain>>> inputs =
      readInputs(domain, sourceMgr, inputShapes, func);
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<TensorOf<Domain>>> arguments =
      withConstantArguments<Domain>(func, *inputs, domain);
  if (failed(arguments))
    return failure();
  FailureOr<SmallVector<TensorOf<Domain>>> results =
      interpret<Domain>(func, *arguments, domain);
  if (failed(results))
    return failure();
  printResults<Domain>("result", func.getSymName(), *results);
  return success();
}

/// Runs the launches of a host function; prints its output buffers.
template <typename Domain>
LogicalResult runHost(func::FuncOp host, llvm::SourceMgr &sourceMgr) {
  Domain domain;
  FailureOr<HostBuffers> buffers = getHostBuffers(host);
  if (failed(buffers))
    return failure();
  FailureOr<SmallVector<TensorOf<Domain>>> inputs =
      readInputs(domain, sourceMgr, buffers->inputShapes(), host);
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<TensorOf<Domain>>> outputs =
      interpretHost<Domain>(host, *inputs, domain);
  if (failed(outputs))
    return failure();
  printResults<Domain>("output", host.getSymName(), *outputs);
  return success();
}

/// Runs one kernel over --grid; prints every view's buffer afterwards.
template <typename Domain>
LogicalResult runKernel(tile::KernelOp kernel, llvm::SourceMgr &sourceMgr) {
  Domain domain;
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (Type type : kernel.getArgumentTypes()) {
    auto view = dyn_cast<tile::TensorViewType>(type);
    if (!view)
      return kernel.emitOpError("has an argument of type ")
             << type << ": tileopt-interp binds tensor views only";
    shapes.emplace_back(view.getShape());
  }
  FailureOr<SmallVector<TensorOf<Domain>>> buffers =
      readInputs(domain, sourceMgr, shapes, kernel);
  if (failed(buffers))
    return failure();
  SmallVector<TensorOf<Domain> *> bound;
  for (TensorOf<Domain> &buffer : *buffers)
    bound.push_back(&buffer);
  if (gridExtents.size() > 3)
    return kernel.emitError("--grid takes at most three extents");
  SmallVector<int64_t> grid(gridExtents.begin(), gridExtents.end());
  grid.resize(3, 1);
  if (failed(interpretKernel<Domain>(kernel, grid, bound, domain)))
    return failure();
  printResults<Domain>("view", kernel.getSymName(), *buffers);
  return success();
}

/// Calls `run(Domain())` for the --domain of a tile program: f64 or f32.
template <typename Run>
LogicalResult runTile(llvm::SourceMgr &sourceMgr, Run run) {
  switch (domainKind) {
  case DomainKind::F64:
    return run(F64Domain());
  case DomainKind::F32:
    return run(F32Domain());
  case DomainKind::Field:
    break;
  }
  sourceMgr.PrintMessage(llvm::errs(), llvm::SMLoc(), llvm::SourceMgr::DK_Error,
                         "tile programs run in --domain=f64 or f32");
  return failure();
}

LogicalResult checkEquivalence(func::FuncOp a, func::FuncOp b) {
  verifier::VerifierOptions options;
  options.seed = seed;
  options.shrink = !noShrink;
  FailureOr<verifier::VerificationResult> result =
      verifier::checkEquivalence(a, b, options);
  if (failed(result))
    return failure();
  llvm::outs() << "@" << a.getSymName() << " and @" << b.getSymName();
  if (result->equivalent)
    llvm::outs() << " are equivalent: false-accept bound "
                 << llvm::format("%.3g", result->falseAcceptBound) << " after "
                 << result->fieldTrials << " field trial(s) (per trial "
                 << llvm::format("%.3g", result->trialBound) << ")\n";
  else
    llvm::outs() << " are not equivalent: " << result->explanation << "\n";
  return success();
}

FailureOr<func::FuncOp> lookupFunction(ModuleOp module, StringRef name) {
  if (auto func = module.lookupSymbol<func::FuncOp>(name))
    return func;
  return module.emitError("no function named @") << name;
}

/// The function to run: --function, or the module's only function.
FailureOr<func::FuncOp> selectFunction(ModuleOp module) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  if (!functionName.empty())
    return lookupFunction(module, functionName);
  if (funcs.size() != 1)
    return module.emitError("the module has ")
           << funcs.size() << " functions: choose one with --function";
  return funcs.front();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Runs a TileOpt kernel graph on the CPU\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the source; the generic op dump would drown them.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string message;
  auto file = openInputFile(inputFile, &message);
  if (!file) {
    llvm::errs() << "error: " << message << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  if (!kernelName.empty()) {
    auto kernel = module->lookupSymbol<tile::KernelOp>(kernelName);
    if (!kernel) {
      module->emitError("no tile.kernel named @") << kernelName;
      return 1;
    }
    return failed(runTile(sourceMgr,
                          [&](auto domain) {
                            return runKernel<decltype(domain)>(kernel,
                                                               sourceMgr);
                          }))
               ? 1
               : 0;
  }
  FailureOr<func::FuncOp> func = selectFunction(*module);
  if (failed(func))
    return 1;
  if (isTileHost(*func))
    return failed(runTile(sourceMgr,
                          [&](auto domain) {
                            return runHost<decltype(domain)>(*func, sourceMgr);
                          }))
               ? 1
               : 0;
  if (!equivalentTo.empty()) {
    FailureOr<func::FuncOp> other = lookupFunction(*module, equivalentTo);
    return failed(other) || failed(checkEquivalence(*func, *other)) ? 1 : 0;
  }
  LogicalResult result = failure();
  switch (domainKind) {
  case DomainKind::F64:
    result = run<F64Domain>(*func, sourceMgr);
    break;
  case DomainKind::F32:
    result = run<F32Domain>(*func, sourceMgr);
    break;
  case DomainKind::Field:
    result = run<FieldDomain>(*func, sourceMgr);
    break;
  }
  return failed(result) ? 1 : 0;
}

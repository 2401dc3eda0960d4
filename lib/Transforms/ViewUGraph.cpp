//===- ViewUGraph.cpp - µGraphs as Graphviz pictures ----------------------===//
//
// Prints the module as one DOT digraph: a cluster per function, and inside
// it a cluster per block-graph kernel (tk.fused) with the for-loop's ops in
// a cluster of their own (Passes.td says what is drawn and why).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Transforms/Passes.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_VIEWUGRAPH
#include "TileOpt/Transforms/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// `text` as the inside of a DOT string, each line left-justified.
std::string escapeLabel(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\l";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\\l";
}

/// Writes the digraph; nodes are declared in their clusters as the IR is
/// walked, edges collected and written last, outside every cluster, so that
/// an edge never pulls a node into the cluster it is written in.
class UGraphWriter {
public:
  UGraphWriter(raw_ostream &os, AsmState &state) : os(os), state(state) {}

  void write(ModuleOp module) {
    os << "digraph ugraph {\n"
       << "  compound=true;\n"
       << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
    for (auto func : module.getOps<FunctionOpInterface>())
      if (!func.isExternal())
        writeFunction(func);
    for (auto &[from, to] : edges)
      os << "  " << from << " -> " << to << ";\n";
    os << "}\n";
  }

private:
  void writeFunction(FunctionOpInterface func) {
    os << "  subgraph cluster_" << clusters++ << " {\n"
       << "    label=\"func @" << escapeLabel(func.getName()) << "\";\n";
    Block &body = func.getFunctionBody().front();
    for (BlockArgument arg : body.getArguments()) {
      std::string text = valueName(arg) + "\n" + typeText(arg.getType());
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "tileopt.name"))
        text = name.getValue().str() + " = " + text;
      sources[arg] = declare(text, "shape=ellipse", "    ");
    }
    for (Operation &op : body) {
      if (auto kernel = dyn_cast<tb::BlockGraphOpInterface>(op))
        writeKernel(kernel);
      else
        writeOp(op, op.hasTrait<OpTrait::IsTerminator>()
                        ? "style=rounded"
                        : "",
                "    ");
    }
    os << "  }\n";
  }

  /// A block-graph kernel: its region's arguments, its ops, and the ops
  /// of one loop iteration in a cluster inside.
  void writeKernel(tb::BlockGraphOpInterface kernel) {
    Operation *op = kernel.getOperation();
    Block &graph = kernel.getBlockGraph();
    std::string header;
    llvm::raw_string_ostream label(header);
    label << op->getName() << "\ngrid [";
    llvm::interleaveComma(kernel.getGridDims(), label);
    label << "]  block [";
    llvm::interleaveComma(kernel.getBlockDims(), label);
    label << "]  forloop " << kernel.getForloopRange();
    os << "    subgraph cluster_" << clusters++ << " {\n"
       << "      label=\"" << escapeLabel(header) << "\";\n"
       << "      style=rounded; color=blue;\n";
    for (auto [operand, arg] :
         llvm::zip(op->getOperands(), graph.getArguments())) {
      sources[arg] = declare(valueName(arg) + "\n" + typeText(arg.getType()),
                             "shape=ellipse", "      ");
      addEdge(operand, sources[arg]);
    }
    // The ops one loop iteration runs: those reached from an input iterator
    // that walks the loop, up to (not including) the accumulators.
    llvm::SetVector<Operation *> iteration;
    for (Operation &inner : graph) {
      if (auto iterator = dyn_cast<tb::InputIteratorOp>(inner)) {
        if (static_cast<int64_t>(iterator.getFmap()) >= 0)
          iteration.insert(&inner);
        continue;
      }
      if (isa<tb::ForloopAccumOp>(inner))
        continue;
      if (llvm::any_of(inner.getOperands(), [&](Value v) {
            return iteration.contains(v.getDefiningOp());
          }))
        iteration.insert(&inner);
    }
    if (!iteration.empty()) {
      os << "      subgraph cluster_" << clusters++ << " {\n"
         << "        label=\"for-loop body, " << kernel.getForloopRange()
         << " iterations\\l\";\n"
         << "        style=dashed; color=gray40;\n";
      for (Operation *inner : iteration)
        writeOp(*inner, style(*inner), "        ");
      os << "      }\n";
    }
    for (Operation &inner : graph) {
      if (iteration.contains(&inner))
        continue;
      if (auto yield = dyn_cast<tb::YieldOp>(inner)) {
        // The kernel's results are the savers' results it yields.
        for (auto [result, value] :
             llvm::zip(op->getResults(), yield.getValues()))
          sources[result] = sources.lookup(value);
        continue;
      }
      writeOp(inner, style(inner), "      ");
    }
    os << "    }\n";
  }

  static StringRef style(Operation &op) {
    if (isa<tb::InputIteratorOp>(op))
      return "shape=invhouse";
    if (isa<tb::OutputSaverOp>(op))
      return "shape=house";
    if (isa<tb::ForloopAccumOp>(op))
      return "style=filled, fillcolor=lightgoldenrod1";
    return "";
  }

  /// One op as a node labelled with its text: the line up to its types,
  /// then its types; the ops of regions the text leaves out, listed.
  void writeOp(Operation &op, StringRef attributes, StringRef indent) {
    std::string text;
    llvm::raw_string_ostream printed(text);
    op.print(printed, state);
    size_t types = text.rfind(" : ");
    if (types != std::string::npos)
      text.replace(types, 3, "\n  : ");
    for (Region &region : op.getRegions())
      for (Operation &nested : region.getOps())
        text += "\n  | " + nested.getName().getStringRef().str();
    std::string node = declare(text, attributes, indent);
    for (Value operand : op.getOperands())
      addEdge(operand, node);
    for (Value result : op.getResults())
      sources[result] = node;
  }

  std::string declare(StringRef label, StringRef attributes,
                      StringRef indent) {
    std::string node = "n" + std::to_string(nodes++);
    os << indent << node << " [label=\"" << escapeLabel(label) << "\"";
    if (!attributes.empty())
      os << ", " << attributes;
    os << "];\n";
    return node;
  }

  void addEdge(Value from, StringRef to) {
    std::string source = sources.lookup(from);
    if (!source.empty())
      edges.emplace_back(source, to.str());
  }

  std::string valueName(Value value) {
    std::string name;
    llvm::raw_string_ostream out(name);
    value.printAsOperand(out, state);
    return name;
  }

  static std::string typeText(Type type) {
    std::string text;
    llvm::raw_string_ostream out(text);
    type.print(out);
    return text;
  }

  raw_ostream &os;
  AsmState &state;
  DenseMap<Value, std::string> sources; // the node each value comes from
  SmallVector<std::pair<std::string, std::string>> edges;
  unsigned nodes = 0, clusters = 0;
};

struct ViewUGraphPass
    : public tileopt::impl::ViewUGraphBase<ViewUGraphPass> {
  using ViewUGraphBase::ViewUGraphBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    markAllAnalysesPreserved();
    // Regions are drawn, not printed in labels.
    AsmState state(module, OpPrintingFlags().skipRegions());
    if (output.empty()) {
      UGraphWriter(llvm::errs(), state).write(module);
      return;
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      module.emitError() << "tileopt-view-ugraph: " << error;
      return signalPassFailure();
    }
    UGraphWriter(file->os(), state).write(module);
    file->keep();
  }
};

} // namespace

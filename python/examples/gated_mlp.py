"""The gated MLP of BENCHMARKS.md at b=1: silu(X W1) * (X W2)."""
from common import report, search_options
import tileopt as mi
graph = mi.new_kernel_graph("gated_mlp")
X = graph.new_input(dims=(8, 4096), dtype=mi.float16, name="x")
W1 = graph.new_input(dims=(4096, 4096), dtype=mi.float16, name="w1")
W2 = graph.new_input(dims=(4096, 4096), dtype=mi.float16, name="w2")
graph.mark_output(graph.mul(graph.silu(graph.matmul(X, W1)), graph.matmul(X, W2)))
optimized_graph = graph.superoptimize(**search_options())

report(optimized_graph, lambda x, w1, w2: (x @ w1).sigmoid() * (x @ w1) * (x @ w2))

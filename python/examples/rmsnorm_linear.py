"""RMSNorm + linear of BENCHMARKS.md at b=1, with the norm's weight G: rms_norm(X, G) W."""
from common import report, search_options
import tileopt as mi
graph = mi.new_kernel_graph("rmsnorm_linear")
X = graph.new_input(dims=(2, 4096), dtype=mi.float16, name="x")
G = graph.new_input(dims=(4096,), dtype=mi.float16, name="g")
W = graph.new_input(dims=(4096, 6144), dtype=mi.float16, name="w")
graph.mark_output(graph.matmul(graph.rms_norm(X, G, eps=1e-5), W))
optimized_graph = graph.superoptimize(**search_options())

report(optimized_graph, lambda x, g, w:
       (x * (x.pow(2).mean(-1, keepdim=True) + 1e-5).rsqrt() * g) @ w)

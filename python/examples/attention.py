"""Mirage's attention example (shared/REFERENCES.md), as written for Mirage."""
from common import report, search_options
import tileopt as mi
graph = mi.new_kernel_graph()
Q = graph.new_input(dims=(64, 1, 128), dtype=mi.float16)
K = graph.new_input(dims=(64, 128, 4096), dtype=mi.float16)
V = graph.new_input(dims=(64, 4096, 128), dtype=mi.float16)
A = graph.matmul(Q, K)
S = graph.softmax(A)
O = graph.matmul(S, V)
optimized_graph = graph.superoptimize(**search_options())

report(optimized_graph, lambda q, k, v: (q @ k).softmax(-1) @ v)

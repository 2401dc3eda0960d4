"""The host time a CompiledGraph call adds to the launch of its kernels
(issue 26: under 5 us), on a small graph whose kernel is shorter than the
host's work, so the queue never fills:

    python3 bench/python/call_overhead.py            # on a GPU
    python3 bench/python/call_overhead.py --prepare  # compile only, into
                                                     # $TILEOPT_CACHE_DIR

Each way of running the graph is enqueued 100 times, the host's time of
those 100 calls taken without synchronizing (the GPU runs behind), then
the GPU drained; 50 rounds take one such batch of each way in turn, so
that a slower or faster spell of the machine (seen to move a figure by
2 us between runs) falls on all of them alike, and the median per call
of each way's 50 batches is reported:
  launch              the C ABI's own launch (cuLaunchKernel per kernel)
                      on addresses written in place: the floor
  launcher(out=)      CompiledGraph.launcher: the call without its checks,
  launcher            with the outputs given, or allocated
  call(inputs, out=)  a CompiledGraph call: the checks, then the launcher
  call(inputs)        and the outputs allocated
  tileopt::call       the torch.compile backend's custom op around the
                      launcher (the dispatcher, .contiguous())
  torch               torch.relu(x @ w), eager, for scale
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

import tileopt  # noqa: E402


def graph():
    g = tileopt.new_kernel_graph("relu_matmul")
    x = g.new_input((16, 256), tileopt.float16, name="x")
    w = g.new_input((256, 256), tileopt.float16, name="w")
    g.mark_output(g.relu(g.matmul(x, w)))
    return g


def host_us(ways, rounds=50, calls=100):
    """{name: median host us per call} of the functions `ways` names."""
    import torch
    per_call = {name: [] for name in ways}
    for name, call in ways.items():  # warm up
        for _ in range(calls):
            call()
    for _ in range(rounds):
        for name, call in ways.items():
            torch.cuda.synchronize()
            start = time.perf_counter()
            for _ in range(calls):
                call()
            per_call[name].append((time.perf_counter() - start) * 1e6 / calls)
    torch.cuda.synchronize()
    return {name: statistics.median(times) for name, times in per_call.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prepare", action="store_true")
    args = parser.parse_args()
    options = {"time_budget": 5, "search_threads": 1}
    compiled = graph().superoptimize(**options)
    print(compiled, f"{compiled.tile_program.count('tile.launch')} kernel launch(es)")
    if args.prepare:
        return
    import torch
    from tileopt.torch_backend import _Runner, _call_op, _runners
    x = torch.randn(16, 256, dtype=torch.float16, device="cuda")
    w = torch.randn(256, 256, dtype=torch.float16, device="cuda") / 16
    (y,) = compiled(inputs=[x, w])
    error = ((y.float() - torch.relu(x.float() @ w.float())).abs().max()).item()
    launcher = compiled.launcher(x.device)
    launcher([x, w], [y])  # leaves the addresses of x, w, y in launcher.pointers
    stream = launcher._stream()
    _runners["bench"] = _Runner(compiled, interpret=False)
    call_op = _call_op()
    times = host_us({
        "launch": lambda: launcher._launch(stream),
        "launcher(out=)": lambda: launcher([x, w], [y]),
        "launcher": lambda: launcher([x, w]),
        "call(inputs, out=)": lambda: compiled(inputs=[x, w], out=[y]),
        "call(inputs)": lambda: compiled(inputs=[x, w]),
        "tileopt::call": lambda: call_op("bench", [x, w]),
        "torch": lambda: torch.relu(x @ w),
    })
    print(f"host time per call, {torch.cuda.get_device_name()}, torch {torch.__version__} "
          f"(max abs error {error:.1e}):")
    for name, us in times.items():
        print(f"  {name:20s} {us:6.2f} us   (+{us - times['launch']:.2f} over launch)")


if __name__ == "__main__":
    main()

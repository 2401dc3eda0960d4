#!/usr/bin/env python3
"""On the GPU machine: Mamba-2's SSD forward (tileopt.ops) at the
shapes.py shapes, over what prepare.py compiled into DIR. For each shape:

1. every stage tuned (unless --no-tune): each compiled config of its
   tuner timed in CUDA graphs of 10 launches, the fastest cached in
   DIR/cache, where mamba_chunk_scan_combined finds it;
2. the forward checked against the float64 chunked reference (PyTorch, on
   the GPU; outputs poisoned with NaN first): y and the final states;
3. timed in CUDA graphs (median of replays): mamba_chunk_scan_combined,
   each of its five launches alone (the stage breakdown), the PyTorch
   chunked reference in float32 (BENCHMARKS.md's peer), and one eager call
   (events around it, host work included);
4. against the BENCHMARKS.md floor (H200) and the same floor at this
   card's measured copy bandwidth and bf16 matmul rate.

Prints the tables last; writes DIR-independent JSON to $OUT/mamba2.json.

    TILEOPT_RUNTIME_LIB=... PYTHONPATH=python python3 bench/mamba2/run.py [--no-tune] [DIR]
"""
import json
import math
import os
import statistics
import sys
import traceback
from pathlib import Path

args = [a for a in sys.argv[1:] if not a.startswith("--")]
art = Path(args[0] if args else "build/device-mamba2").resolve()
os.environ["TILEOPT_CACHE_DIR"] = str(art / "cache")
sys.path.insert(0, str(Path(__file__).parent))

import torch  # noqa: E402
from shapes import SHAPES, floor_terms  # noqa: E402
from torch_reference import ssd_chunked  # noqa: E402
from tileopt.ops import mamba_chunk_scan_combined, ssd  # noqa: E402

dev = "cuda"
device_name = torch.cuda.get_device_name()


def elapsed_us(fn):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0


def capture(fn, launches):
    """A CUDA graph of `launches` calls of `fn` (warmed up on a side
    stream first, as torch.cuda.graph asks)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(launches):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    return graph


def graph_us(fn, launches=10, reps=20):
    """Microseconds per call of `fn`: the median over `reps` replays of a
    CUDA graph of `launches` calls."""
    graph = capture(fn, launches)
    return statistics.median(elapsed_us(graph.replay) / launches for _ in range(reps))


_graphs = {}


def graph_timer(fn):
    """The autotuner's timer: one replay of a graph of 10 calls of `fn`
    (captured on first use), per call."""
    if fn not in _graphs:
        _graphs[fn] = capture(fn, 10)
    return elapsed_us(_graphs[fn].replay) / 10


def ceilings():
    """This card's device-copy bandwidth (bytes read + written per second)
    and bf16 8192^3 matmul rate, as BENCHMARKS.md measured the H200's."""
    a = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    b = torch.empty_like(a)
    copy = graph_us(lambda: b.copy_(a), launches=5, reps=10)
    m = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    mm = graph_us(lambda: m @ m, launches=5, reps=10)
    del a, b, m
    return 2 * (1 << 30) / copy * 1e6, 2 * 8192 ** 3 / mm * 1e6


def inputs(shape, opts, seed=0):
    bs, L, h, P, N, g, Q = shape
    gen = torch.Generator(device=dev).manual_seed(seed)

    def randn(*s):
        return torch.randn(*s, device=dev, generator=gen)

    return dict(
        x=randn(bs, L, h, P).to(torch.bfloat16),
        dt=torch.rand(bs, L, h, device=dev, generator=gen) * 3 - 2,
        A=-(torch.rand(h, device=dev, generator=gen) * 1.5 + 0.5),
        B=randn(bs, L, g, N).to(torch.bfloat16), C=randn(bs, L, g, N).to(torch.bfloat16),
        D=randn(h) if opts.get("d_kind") else None,
        z=randn(bs, L, h, P).to(torch.bfloat16) if opts.get("has_z") else None,
        dt_bias=torch.rand(h, device=dev, generator=gen) - 0.5 if opts.get("has_dt_bias") else None,
        initial_states=randn(bs, h, P, N) if opts.get("has_initial") else None)


def rel(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max())


def tune(cfg, plan, tensors):
    """Times every compiled config of every stage on `tensors` (filled by
    a run of `plan`); the choices land in the cache. stage -> lines."""
    report = {}
    for stage, tuner in ssd.stage_tuners(cfg).items():
        def launch(artifact):  # on the stream current when called: a graph's, if capturing
            artifact.launch([tensors[b.name].data_ptr() for b in artifact.buffers],
                            torch.cuda.current_stream().cuda_stream)
        result = tuner.tune(cfg.key(), launch, timer=graph_timer, retune=True)
        report[stage] = [(m.config, round(m.median_us, 2), m.stopped_early)
                         for m in sorted(result.measurements, key=lambda m: m.median_us)]
        report[stage] += [(c, "failed: " + msg.splitlines()[0], True) for c, msg in result.failures]
    _graphs.clear()
    return report


copy_bw, mm_rate = ceilings()
print(f"{device_name}: device copy {copy_bw / 1e12:.2f} TB/s, bf16 matmul {mm_rate / 1e12:.0f} "
      f"TFLOP/s", flush=True)


def measure(entry):
    """The row of one shapes.py entry: tuning, errors, times."""
    shape, opts = entry["shape"], entry["opts"]
    Q = shape[-1]
    cfg = ssd.SSDConfig(*shape, "bf16", **opts)
    args_ = inputs(shape, opts)
    row = dict(shape=shape, floor_h200_us=entry["floor_us"])
    if "--no-tune" not in sys.argv:
        default = ssd.Plan(cfg, ssd.default_params(cfg))
        tensors = default.tensors(**args_)
        default.run(tensors, torch.cuda.current_stream().cuda_stream)
        row["tuning"] = tune(cfg, default, tensors)
        del tensors
    plan = ssd.Plan(cfg, device_name=device_name)
    ssd._PLANS.clear()
    row["params"] = {s: {k: v for k, v in p.items() if k != "artifact"}
                     for s, p in plan.params.items()}

    # Checked: every output element written, against float64.
    tensors = plan.tensors(**args_)
    tensors["y"].fill_(math.nan)
    tensors["final_states"].fill_(math.nan)
    plan.run(tensors, torch.cuda.current_stream().cuda_stream)
    flags = dict(dt_softplus=cfg.dt_softplus, dt_limit=cfg.dt_limit)
    y_ref, final_ref = ssd_chunked(chunk_size=Q, **args_, **flags)
    row["error_y"] = rel(tensors["y"], y_ref)
    row["error_final"] = rel(tensors["final_states"], final_ref)
    del y_ref, final_ref

    def call():
        return mamba_chunk_scan_combined(chunk_size=Q, **args_, **flags,
                                         return_final_states=True)

    call()
    row["eager_us"] = statistics.median(elapsed_us(call) for _ in range(20))
    row["tileopt_us"] = graph_us(call)
    row["stages_us"] = {}
    for stage, artifact, names in plan.stages:
        pointers = [tensors[n].data_ptr() for n in names]
        row["stages_us"][stage] = graph_us(
            lambda: artifact.launch(pointers, torch.cuda.current_stream().cuda_stream))
    del tensors
    row["torch_fp32_us"] = graph_us(
        lambda: ssd_chunked(chunk_size=Q, **args_, **flags, dtype=torch.float32),
        launches=1, reps=5)
    moved, flops = floor_terms(shape)
    row["floor_here_us"] = max(moved / copy_bw, flops / mm_rate) * 1e6
    print(f"{shape}: {row['tileopt_us']:.1f} us, errors {row['error_y']:.1e} "
          f"{row['error_final']:.1e}", flush=True)
    return row


results, failed = [], []
for entry in SHAPES:
    try:
        results.append(measure(entry))
    except Exception:  # the other shapes still run; the failure is reported
        traceback.print_exc()
        failed.append(entry["shape"])
    torch.cuda.empty_cache()

if os.environ.get("OUT"):
    Path(os.environ["OUT"], "mamba2.json").write_text(json.dumps(dict(
        device=device_name, copy_bytes_per_s=copy_bw, bf16_flops_per_s=mm_rate,
        results=results), indent=1))

for row in results:
    for stage, lines in row.get("tuning", {}).items():
        print(f"\n{row['shape']} {stage}:")
        for config, us, stopped in lines:
            print(f"  {us!s:>10}  {config}{'  (stopped early)' if stopped else ''}")
print(f"\n{device_name}; us, medians of CUDA graph replays; floor: BENCHMARKS.md's (H200), "
      f"and at this card's {copy_bw / 1e12:.2f} TB/s and {mm_rate / 1e12:.0f} TFLOP/s")
print(f"{'shape (b,L,h,P,N,g,chunk)':32} {'tileopt':>8} {'eager':>8} {'torch32':>8} "
      f"{'floor':>6} {'x floor':>7} {'here':>6} {'x here':>6} {'err y':>8} {'err fin':>8}")
for row in results:
    floor = row["floor_h200_us"]
    ratio = f"{row['tileopt_us'] / floor:7.1f}" if floor else f"{'':7}"
    print(f"{str(row['shape']):32} {row['tileopt_us']:8.1f} {row['eager_us']:8.1f} "
          f"{row['torch_fp32_us']:8.1f} {floor or math.nan:6.1f} {ratio} "
          f"{row['floor_here_us']:6.1f} {row['tileopt_us'] / row['floor_here_us']:6.1f} "
          f"{row['error_y']:8.1e} {row['error_final']:8.1e}")
print(f"\n{'stage (us)':32} " + " ".join(f"{s:>13}" for s in ssd.STAGES) + f" {'sum':>8}")
for row in results:
    stages = row["stages_us"]
    print(f"{str(row['shape']):32} " + " ".join(f"{stages[s]:13.1f}" for s in ssd.STAGES) +
          f" {sum(stages.values()):8.1f}")
for row in results:
    print(f"{row['shape']}: " + "; ".join(
        f"{s} " + ",".join(f"{k}={v}" for k, v in p.items()) for s, p in row["params"].items()))
if failed:
    sys.exit(f"failed: {failed}")

"""Launches the sample artifact (row softmax, bf16) through the Python binding
on torch tensors, checks it against torch.softmax, and times both on the
same stream. Usage: torch_softmax.py <artifact-dir>  (run.sh sets the paths)."""

import sys

import torch

from tileopt.runtime import Artifact


def median_us(fn, iters=100, warmup=10):
    for _ in range(warmup):
        fn()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(iters)]
    for start, stop in events:
        start.record()
        fn()
        stop.record()
    torch.cuda.synchronize()
    times = sorted(start.elapsed_time(stop) * 1000 for start, stop in events)
    return times[len(times) // 2]


def main():
    softmax = Artifact(sys.argv[1])
    x_buffer = softmax.buffers[0]
    torch.manual_seed(0)
    x = torch.rand(x_buffer.shape, device="cuda", dtype=torch.bfloat16) * 2 - 1
    y = torch.full_like(x, float("nan"))
    softmax(x=x, y=y)
    expected = torch.softmax(x.double(), dim=-1)
    rel_err = ((y.double() - expected).abs() / expected.abs().clamp_min(1e-6)).max().item()
    nans = torch.isnan(y).sum().item()
    print(f"binding    max_rel_err {rel_err:.3e} (tolerance 1e-02), nan {nans}")
    print(f"time       tileopt {median_us(lambda: softmax(x=x, y=y)):.2f} us, "
          f"torch.softmax {median_us(lambda: torch.softmax(x, dim=-1)):.2f} us (median)")
    sys.exit(0 if rel_err <= 1e-2 and nans == 0 else 1)


if __name__ == "__main__":
    main()

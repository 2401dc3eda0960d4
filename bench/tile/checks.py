"""Correctness checks of the tile code generator on the GPU: small kernels
(bench/tile/checks/*.mlir) that exercise every reduction regime (also of
mma accumulators), the relayouts through shared memory, iota/splat/select,
and ragged views with padding, each compared element by element with torch
on the same inputs.
Usage: checks.py <artifact-dir>  (scripts/device-run.sh)."""

import sys

import torch

from tileopt.runtime import Artifact


def references(name, t):
    """The expected outputs of check `name`, from its inputs `t` (by name)."""
    if name == "row_sums":
        return {"s": t["x"].sum(1), "t": t["y"].amax(1), "u": t["z"].sum(1),
                "ps": t["p"].sum(1), "qs": t["q"].sum(1), "rm": t["r"].amax(1)}
    if name == "relayouts":
        n = torch.arange(512, device="cuda", dtype=torch.int32)
        return {"out": t["col"].expand(256, 64), "mt": t["m"].T,
                "rr": t["r"].reshape(2, 256),
                "io": torch.where(n % 3 == 0, -n, n)}
    if name == "scans":
        return {"cx": t["x"].cumsum(1), "cy": t["y"].cumsum(1),
                "rz": t["z"].flip(1).cumsum(1).flip(1),
                "mw": t["w"].cummax(1).values}
    if name == "ragged":
        return {"y": t["x"] + t["x"].amax(1, keepdim=True)}
    if name == "mma_rows":
        s = t["q"].float() @ t["k"].float()
        p = t["a"].float() @ t["b"].float()
        return {"smax": s.amax(1), "ssum": s.sum(1),
                "amax": p.amax(1), "asum": p.sum(1),
                "sv": s @ t["v"].float(), "pw": p @ t["w"].float()}
    raise KeyError(name)


def main():
    root = sys.argv[1]
    torch.manual_seed(0)
    failed = 0
    for name in ["row_sums", "relayouts", "ragged", "scans", "mma_rows"]:
        artifact = Artifact(f"{root}/{name}")
        tensors = {}
        for b in artifact.buffers:
            dtype = {"f32": torch.float32, "f16": torch.float16,
                     "i32": torch.int32}[b.dtype]
            if b.role == "input":
                x = torch.randn(b.shape, device="cuda")
                # f16 inputs feed tile.mma: small integers, whose products
                # and sums (and their f16 roundings) are exact either way.
                if b.dtype == "f16":
                    x = x.mul(1.5).round()
                tensors[b.name] = x.to(dtype)
            else:  # poisoned: an element the kernel misses shows
                tensors[b.name] = torch.full(b.shape, -12345, device="cuda",
                                             dtype=dtype)
        artifact(**tensors)
        torch.cuda.synchronize()
        for out, expected in references(name, tensors).items():
            got = tensors[out]
            if got.dtype.is_floating_point:
                # Normalised by the largest expected magnitude: f32 sums in
                # another order differ by a few ulps of the largest partial
                # sum, wherever the result itself is near zero.
                err = ((got - expected).abs().max() /
                       expected.abs().max()).item()
                ok = err < 1e-5
            else:
                err = (got != expected).sum().item()
                ok = err == 0
            failed += not ok
            print(f"{name:10} {out:4} {'ok  ' if ok else 'FAIL'} "
                  f"{'max err / max |ref|' if got.dtype.is_floating_point else 'mismatches'} {err:.3g}")
    print(f"{failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""On the build machine (LLVM/MLIR): compiles the tile-DSL kernels and the
Mamba-2 SSD that gpu_check.py runs into DIR (default build/device-dsl, git
ignored; carry it). The SSD's artifacts land in DIR/cache, the disk cache
tileopt.ops reads on the GPU machine, where nothing can be compiled.

    PYTHONPATH=python python3 bench/tile_dsl/prepare.py [DIR]
"""
import os
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/device-dsl").resolve()
out.mkdir(parents=True, exist_ok=True)
os.environ["TILEOPT_CACHE_DIR"] = str(out / "cache")
sys.path.insert(0, str(Path(__file__).parent))

from shapes import SSD_CONFIGS  # noqa: E402
from tileopt import kernels  # noqa: E402
from tileopt.ops import ssd  # noqa: E402

kernels.softmax_program((8192, 8192), "bf16").compile(str(out / "softmax.art"))
kernels.rms_norm_program((8192, 8192), "bf16").compile(str(out / "rms_norm.art"))
kernels.gemm_program(4096, 4096, 4096).compile(str(out / "gemm.art"))
for config in SSD_CONFIGS:
    print(ssd.compiled_program(ssd.SSDConfig(*config["shape"], "bf16", **config["opts"]))[0])

"""tileopt.tile: cuTile-style tile kernels in Python, traced into the tile
dialect (docs/tile-dsl.md).

    from tileopt import tile

    @tile.kernel
    def scale(x, y, TILE: tile.constexpr):
        i = tile.bid(0)
        t = tile.load(x, (i,), (TILE,))
        tile.store(y, (i,), t * 2.0)

    program = scale.trace((8,), tile.array((1024,), tile.float32),
                          tile.array((1024,), tile.float32), 128)
    print(program.mlir())                  # tile.kernel @scale + host @main
    program.compile("scale.art")           # tileopt-compile
    program.interpret(x)["y"]              # tileopt-interp, float64

`tile.autotune` searches a kernel's constexpr parameters and compile
options: compiled here, timed on the GPU, the choice cached per shape.
"""

from . import autotune
from .ir import DType
from .ops import *  # noqa: F401,F403 (the DSL's operations, listed in ops.__all__)
from .ops import __all__ as _ops_all
from .program import ArraySpec, Buffer, Kernel, Program, array, constexpr, kernel
from .tracing import TileError

__all__ = _ops_all + ["autotune", "DType", "ArraySpec", "Buffer", "Kernel", "Program", "array",
                      "constexpr", "kernel", "TileError"]

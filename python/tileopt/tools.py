"""TileOpt's command-line tools from Python: where they are, and the text
format of tensors that `tileopt-interp` reads and prints (the format is in
tools/tileopt-interp/tileopt-interp.cpp's header comment)::

    from tileopt import tools
    tools.tool("tileopt-compile")            # path of the executable
    text = tools.format_tensors([np.ones((2, 3))])
    [out] = tools.parse_tensors(result_text)

The tools are taken from $TILEOPT_BUILD_DIR/bin, else this checkout's
build/bin, else $PATH. `cache_dir()` is where TileOpt keeps what it
computes once and reuses ($TILEOPT_CACHE_DIR, ...), as tileopt-compile's
search cache does.
"""

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

__all__ = ["ToolError", "tool", "run", "cache_dir", "format_tensors", "parse_tensors"]

_CHECKOUT = Path(__file__).resolve().parents[2]


class ToolError(RuntimeError):
    """A TileOpt tool is missing or exited non-zero; the message holds its
    diagnostics."""


def tool(name):
    """The path of TileOpt tool `name` (e.g. "tileopt-interp")."""
    build = os.environ.get("TILEOPT_BUILD_DIR")
    candidates = [Path(build) / "bin" / name] if build else []
    candidates.append(_CHECKOUT / "build" / "bin" / name)
    for path in candidates:
        if path.is_file():
            return str(path)
    on_path = shutil.which(name)
    if on_path:
        return on_path
    raise ToolError(f"{name} not found in {', '.join(map(str, candidates))} or on PATH "
                    "(build TileOpt, or set TILEOPT_BUILD_DIR)")


def run(name, args, **kwargs):
    """Runs tool `name` with `args`; its CompletedProcess, or ToolError with
    its stderr when it fails."""
    result = subprocess.run([tool(name), *map(str, args)], capture_output=True,
                            text=True, **kwargs)
    if result.returncode != 0:
        raise ToolError(f"{name} failed (exit {result.returncode}):\n{result.stderr}")
    return result


def cache_dir():
    """TileOpt's cache directory, by tileopt-compile's rule
    (driver::defaultCacheDir): $TILEOPT_CACHE_DIR, else
    $XDG_CACHE_HOME/tileopt, else ~/.cache/tileopt."""
    if "TILEOPT_CACHE_DIR" in os.environ:
        return Path(os.environ["TILEOPT_CACHE_DIR"])
    if "XDG_CACHE_HOME" in os.environ:
        return Path(os.environ["XDG_CACHE_HOME"]) / "tileopt"
    return Path.home() / ".cache" / "tileopt"


def format_tensors(arrays):
    """tileopt-interp's input format; repr keeps every bit of a float64."""
    chunks = []
    for a in arrays:
        a = np.asarray(a, dtype=np.float64)
        chunks.append("tensor " + "x".join(map(str, a.shape)))
        chunks.append(" ".join(map(repr, a.ravel().tolist())))
    return "\n".join(chunks) + "\n"


def parse_tensors(text):
    """Inverse of format_tensors, for what tileopt-interp prints."""
    tensors, shape, values = [], None, []

    def finish():
        if shape is not None:
            if len(values) != np.prod(shape):
                raise ValueError(f"tensor {shape}: {len(values)} values")
            tensors.append(np.array(values, dtype=np.float64).reshape(shape))

    for line in text.splitlines():
        words = line.split("#")[0].split()
        if words[:1] == ["tensor"]:
            finish()
            shape, values = tuple(int(d) for d in words[1].split("x")), []
        else:
            values.extend(float(w) for w in words)
    finish()
    return tensors

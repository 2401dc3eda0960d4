"""Tensor files: named dense tensors in one file, the inputs and expected
outputs that tileopt-run checks an artifact with (format in
docs/artifact-format.md, "Interpreter reference files"). Standard library
only, so it runs on the build machine and the GPU machine alike::

    from tileopt import tensor_file
    tensor_file.write(path, [Tensor("x", "bf16", [2, 2], [1, -1, 0.5, 3])])
    for t in tensor_file.read(path): ...

Values are Python floats; writing rounds them to the dtype to nearest even,
and `rounded` gives the values a dtype keeps.
"""

import array
import struct
import sys
from dataclasses import dataclass

__all__ = ["Tensor", "write", "read", "rounded", "DTYPES"]

MAGIC = b"tileopt-tensors 1\n"

# dtype -> (array typecode, element size); f16 and bf16 are coded by hand
# (array has no half type).
DTYPES = {"f16": (None, 2), "bf16": ("H", 2), "f32": ("f", 4),
          "f64": ("d", 8), "i8": ("b", 1), "i32": ("i", 4), "i64": ("q", 8)}


@dataclass
class Tensor:
    name: str
    dtype: str
    shape: list
    values: list  # row-major, len == product(shape)


def _count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _little_endian(a):
    if sys.byteorder == "big":
        a.byteswap()
    return a


def _encode(dtype, values):
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}")
    if dtype == "f16":
        return struct.pack(f"<{len(values)}e", *values)
    if dtype == "bf16":
        # Through f32, as tileopt-run rounds: the f32 bits' top half, rounded
        # to nearest even; a NaN stays a NaN.
        bits = array.array("I", array.array("f", values).tobytes())
        half = array.array("H", (
            (b >> 16) | 0x40 if b & 0x7FFFFFFF > 0x7F800000
            else (b + 0x7FFF + ((b >> 16) & 1)) >> 16 for b in bits))
        return _little_endian(half).tobytes()
    code = DTYPES[dtype][0]
    if dtype.startswith("i"):
        values = [int(v) for v in values]
    return _little_endian(array.array(code, values)).tobytes()


def _decode(dtype, data):
    if dtype == "f16":
        return list(struct.unpack(f"<{len(data) // 2}e", data))
    if dtype == "bf16":
        half = array.array("H")
        half.frombytes(data)
        bits = array.array("I", (h << 16 for h in _little_endian(half)))
        return list(array.array("f", bits.tobytes()))
    a = array.array(DTYPES[dtype][0])
    a.frombytes(data)
    return list(_little_endian(a))


def rounded(dtype, values):
    """`values` as stored in `dtype` (rounded to nearest even)."""
    return _decode(dtype, _encode(dtype, values))


def write(path, tensors):
    with open(path, "wb") as f:
        f.write(MAGIC)
        for t in tensors:
            if not t.name or any(c.isspace() for c in t.name):
                raise ValueError(f"tensor name {t.name!r}: must be non-empty, "
                                 "without whitespace")
            if len(t.values) != _count(t.shape) or any(d < 1 for d in t.shape):
                raise ValueError(f"tensor {t.name}: {len(t.values)} values "
                                 f"for shape {t.shape}")
            dims = "".join(f" {d}" for d in t.shape)
            f.write(f"tensor {t.name} {t.dtype}{dims}\n".encode())
            f.write(_encode(t.dtype, t.values))


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path}: not a tensor file")
    pos, tensors = len(MAGIC), []
    while pos < len(data):
        end = data.index(b"\n", pos)
        words = data[pos:end].decode().split(" ")
        if len(words) < 3 or words[0] != "tensor" or words[2] not in DTYPES:
            raise ValueError(f"{path}: bad header {data[pos:end]!r}")
        name, dtype, shape = words[1], words[2], [int(d) for d in words[3:]]
        size = _count(shape) * DTYPES[dtype][1]
        body = data[end + 1:end + 1 + size]
        if len(body) != size:
            raise ValueError(f"{path}: tensor {name} is cut short")
        tensors.append(Tensor(name, dtype, shape, _decode(dtype, body)))
        pos = end + 1 + size
    return tensors


def main(argv):
    """Prints tensor files in tileopt-interp's text format (headers as
    comments), for a look at what an artifact is checked with."""
    if len(argv) < 2:
        sys.exit(f"usage: {argv[0]} FILE.tensors...")
    for path in argv[1:]:
        for t in read(path):
            dims = " ".join(map(str, t.shape))
            print(f"# {t.name} {t.dtype} {dims}\ntensor {'x'.join(map(str, t.shape)) or 1}")
            row = t.shape[-1] if t.shape else 1
            for i in range(0, len(t.values), row):
                print(" ".join(f"{v:.9g}" for v in t.values[i:i + row]))


if __name__ == "__main__":
    main(sys.argv)

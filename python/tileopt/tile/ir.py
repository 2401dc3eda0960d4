"""The tile-dialect IR the DSL builds while it traces, and its MLIR text.

A small in-memory form: values, operations holding their text with operand
placeholders, blocks, and the one region-holding op the DSL emits
(`scf.for`). Kept in memory rather than printed at once because a loop's
body is rewritten after it is traced (its loop-carried values become block
arguments, `ForOp.close`).
"""

from dataclasses import dataclass

__all__ = ["DType", "DTYPES", "TileType", "ScalarType", "ViewType", "INDEX", "Value",
           "Location", "Op", "ForOp", "Block", "print_kernel"]


@dataclass(frozen=True)
class DType:
    """An element type: its MLIR spelling and what kind of number it is."""
    mlir: str
    bits: int
    is_float: bool

    def __repr__(self):
        return f"tile.{_NAMES[self.mlir]}"


DTYPES = {
    "f64": DType("f64", 64, True), "f32": DType("f32", 32, True),
    "f16": DType("f16", 16, True), "bf16": DType("bf16", 16, True),
    "i64": DType("i64", 64, False), "i32": DType("i32", 32, False),
    "i16": DType("i16", 16, False), "i8": DType("i8", 8, False),
    "i1": DType("i1", 1, False),
}
_NAMES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
          "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool_"}


@dataclass(frozen=True)
class TileType:
    shape: tuple
    dtype: DType

    def __str__(self):
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + f"{self.dtype.mlir}>"


@dataclass(frozen=True)
class ScalarType:
    """A scalar: `index` (block ids, tile indices, loop counters) or a
    number type."""
    mlir: str

    def __str__(self):
        return self.mlir


INDEX = ScalarType("index")


@dataclass(frozen=True)
class ViewType:
    shape: tuple
    dtype: DType

    def __str__(self):
        return "!tile.view<" + "x".join(map(str, self.shape)) + f"x{self.dtype.mlir}>"


class Value:
    """An SSA value; compared by identity."""
    __slots__ = ("type", "name")

    def __init__(self, type, name=None):
        self.type = type
        self.name = name  # set for kernel arguments only


@dataclass(frozen=True)
class Location:
    """Where in the user's Python source an op was traced."""
    file: str
    line: int
    column: int
    source: str  # the line's text, for error messages

    def mlir(self):
        file = self.file.replace("\\", "\\\\").replace('"', '\\"')
        return f'loc("{file}":{self.line}:{self.column})'

    def __str__(self):
        return f"{self.file}:{self.line}"


class Op:
    """One operation: `text` with `{0}`, `{1}`, ... standing for its
    operands' names; the printer puts its results' names in front."""

    def __init__(self, text, operands, result_types, loc):
        self.text = text
        self.operands = list(operands)
        self.results = [Value(t) for t in result_types]
        self.loc = loc

    def replace_uses(self, mapping):
        """Replaces operands by `mapping` (Value -> Value), here and in
        nested regions."""
        self.operands = [mapping.get(v, v) for v in self.operands]

    def print(self, printer, indent):
        results = printer.define(self.results)
        text = self.text.format(*(printer.use(v) for v in self.operands))
        return [f"{indent}{results}{text} {self.loc.mlir()}"]


class Block:
    def __init__(self, args=()):
        self.args = list(args)
        self.ops = []

    def replace_uses(self, mapping):
        for op in self.ops:
            op.replace_uses(mapping)

    def print(self, printer, indent):
        lines = []
        for op in self.ops:
            lines.extend(op.print(printer, indent))
        return lines


class ForOp(Op):
    """`scf.for` from `lower` to `upper` by `step` (index values). Its
    loop-carried values are known only once the body has been traced:
    `close` adds them."""

    def __init__(self, lower, upper, step, loc):
        super().__init__("", [lower, upper, step], [], loc)
        self.body = Block([Value(INDEX)])
        self.yields = []

    @property
    def induction_variable(self):
        return self.body.args[0]

    def close(self, inits, yields):
        """Carries `inits` into the loop: each becomes a block argument that
        replaces it in the body, and `yields` (the values the body ends
        with, in the same order) become the next iteration's. Returns the
        loop's results."""
        carried = [Value(v.type) for v in inits]
        self.body.args.extend(carried)
        mapping = dict(zip(inits, carried))
        self.body.replace_uses(mapping)
        self.operands.extend(inits)
        self.yields = [mapping.get(v, v) for v in yields]
        self.results = [Value(v.type) for v in inits]
        return self.results

    def replace_uses(self, mapping):
        super().replace_uses(mapping)
        self.body.replace_uses(mapping)
        self.yields = [mapping.get(v, v) for v in self.yields]

    def print(self, printer, indent):
        lower, upper, step, *inits = (printer.use(v) for v in self.operands)
        results = printer.define(self.results)
        iv = printer.define_argument(self.induction_variable)
        head = f"{indent}{results}scf.for {iv} = {lower} to {upper} step {step}"
        if inits:
            args = ", ".join(f"{printer.define_argument(a)} = {i}"
                             for a, i in zip(self.body.args[1:], inits))
            types = ", ".join(str(v.type) for v in self.results)
            head += f" iter_args({args}) -> ({types})"
        lines = [head + " {"]
        lines.extend(self.body.print(printer, indent + "  "))
        if self.yields:
            values = ", ".join(printer.use(v) for v in self.yields)
            types = ", ".join(str(v.type) for v in self.yields)
            lines.append(f"{indent}  scf.yield {values} : {types}")
        lines.append(f"{indent}}} {self.loc.mlir()}")
        return lines


class _Printer:
    """Names values in order of definition: kernel arguments by their
    Python names, other values %0, %1, ... (several results of one op %n#0,
    %n#1, ...)."""

    def __init__(self):
        self.names = {}
        self.count = 0

    def define(self, results):
        if not results:
            return ""
        name = f"%{self.count}"
        self.count += 1
        if len(results) == 1:
            self.names[results[0]] = name
            return f"{name} = "
        for i, v in enumerate(results):
            self.names[v] = f"{name}#{i}"
        return f"{name}:{len(results)} = "

    def define_argument(self, value):
        # Python names cannot start with a digit, so argument names never
        # collide with numbered values.
        if value.name:
            name = f"%{value.name}"
        else:
            name = f"%{self.count}"
            self.count += 1
        self.names[value] = name
        return name

    def use(self, value):
        return self.names[value]


def print_kernel(name, arguments, body, loc, attributes=""):
    """The text of `tile.kernel @name(arguments) { body }`."""
    printer = _Printer()
    args = ", ".join(f"{printer.define_argument(a)}: {a.type}" for a in arguments)
    lines = [f"tile.kernel @{name}({args}){attributes} {{"]
    lines.extend(body.print(printer, "  "))
    lines.append(f"  tile.return {loc.mlir()}")
    lines.append(f"}} {loc.mlir()}")
    return "\n".join(lines) + "\n"

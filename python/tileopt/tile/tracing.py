"""The state of a trace: the kernel being built, where ops go, where in the
user's source each comes from, and the loops of `tile.range`.

A kernel is traced by calling its Python function once on tracer objects
(`ops.Tile`, `ops.Index`, `ops.Array`); each DSL call appends ops to the
innermost open block. Errors and MLIR locations name the user's line: the
first frame on the stack outside this package.
"""

import inspect
import linecache
import sys
from pathlib import Path

from .ir import INDEX, Block, ForOp, Location, Op

__all__ = ["TileError", "user_location", "current", "Trace", "Traced", "Loop"]

_PACKAGE_DIR = str(Path(__file__).resolve().parent)


class TileError(Exception):
    """A kernel cannot be traced. The message starts with the file and line
    of the user's code that caused it, and quotes that line."""

    def __init__(self, message, loc=None):
        loc = loc or user_location()
        self.location = loc
        super().__init__(f"{loc.file}:{loc.line}: {message}\n    {loc.source.strip()}")


def user_location():
    """The location of the innermost caller outside this package."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:  # called from within the package alone
        return Location("<tileopt.tile>", 0, 0, "")
    positions = inspect.getframeinfo(frame).positions
    column = positions.col_offset + 1 if positions and positions.col_offset is not None else 1
    file = frame.f_code.co_filename
    return Location(file, frame.f_lineno, column, linecache.getline(file, frame.f_lineno))


_active = []  # the traces in progress, innermost last


def current():
    """The trace in progress; a TileError outside of one."""
    if not _active:
        raise TileError("tile operations can be used only inside a @tile.kernel "
                        "function while it is traced (kernel.trace or Program.launch)")
    return _active[-1]


class Trace:
    """One kernel being traced. Constants are hoisted to the kernel's
    entry, so that a loop body holds only its own work."""

    def __init__(self):
        self.constants = Block()
        self.body = Block()
        self._index_constants = {}
        self._blocks = [self.body]
        self._loops = []  # open tile.range loops, innermost last
        self.reads, self.writes = set(), set()  # kernel arguments (ops.Array)

    def __enter__(self):
        _active.append(self)
        return self

    def __exit__(self, *exc):
        _active.pop()

    def emit(self, text, operands, result_types):
        """Appends an op to the innermost open block; its results."""
        op = Op(text, operands, result_types, user_location())
        self._blocks[-1].ops.append(op)
        return op.results

    def constant(self, literal, type):
        """A new `arith.constant literal : type`. Each tile constant is a
        value of its own: a loop that carries one replaces its uses in the
        body, which must not reach another tile of the same value."""
        op = Op(f"arith.constant {literal} : {type}", [], [type], user_location())
        self.constants.ops.append(op)
        return op.results[0]

    def index(self, value):
        """An `index` value: a traced one as it is, a Python int as a
        constant made once per kernel (indices from Python ints are never
        loop-carried)."""
        if isinstance(value, Traced):
            return value.value
        if value not in self._index_constants:
            self._index_constants[value] = self.constant(str(int(value)), INDEX)
        return self._index_constants[value]

    def register(self, obj):
        """Notes a new tracer object, so that the innermost loop can tell
        what its body computed."""
        if self._loops:
            self._loops[-1].created.append(obj)

    def open_loop(self, loop, op):
        self._blocks[-1].ops.append(op)
        self._blocks.append(op.body)
        self._loops.append(loop)

    def close_loop(self, loop):
        assert self._loops[-1] is loop
        self._loops.pop()
        self._blocks.pop()

    def check_closed(self):
        """A loop still open when the kernel returns was left by `break` or
        `return`, which a traced loop cannot express."""
        if self._loops:
            raise TileError("this tile.range loop was left early (break or return "
                            "inside it): a traced loop always runs all its iterations",
                            self._loops[-1].location)

    def body_with_constants(self):
        block = Block()
        block.ops = self.constants.ops + self.body.ops
        return block


class Traced:
    """A tracer object: stands for an SSA value while a kernel is traced.
    A value computed inside a `tile.range` body and not carried out of the
    loop is poisoned when the loop closes: using it is an error that says
    so, rather than IR that refers into the loop."""

    def __init__(self, value):
        self._value = value
        self.type = value.type
        self._poison = None
        if _active:
            _active[-1].register(self)

    @property
    def value(self):
        if self._poison:
            raise TileError(self._poison)
        return self._value


_MISSING = object()


class Loop:
    """`for i in tile.range(...)`: iterates once, tracing the body into an
    `scf.for`. Names of the enclosing function rebound by the body are the
    loop-carried values: the body's uses of their values from before the
    loop become the loop's block arguments, and after the loop the names'
    objects stand for the loop's results. The names are read from the
    caller's frame, before and after the body."""

    def __init__(self, trace, lower, upper, step, wrap_index):
        self.trace = trace
        self.bounds = (lower, upper, step)
        self.wrap_index = wrap_index  # Value -> ops.Index
        self.state = "new"
        self.created = []

    def __iter__(self):
        return self

    def __next__(self):
        if self.state == "new":
            self.state = "body"
            self.frame = sys._getframe(1)
            self.before = dict(self.frame.f_locals)
            self.location = user_location()
            self.op = ForOp(*self.bounds, self.location)
            self.trace.open_loop(self, self.op)
            return self.wrap_index(self.op.induction_variable)
        if self.state == "body":
            self.state = "done"
            self._close()
        raise StopIteration

    def _close(self):
        after = dict(self.frame.f_locals)
        del self.frame  # no reference cycle through the frame
        self.trace.close_loop(self)
        carried = []  # (name, object before, object after)
        for name, obj in after.items():
            before = self.before.get(name, _MISSING)
            if obj is before or not isinstance(obj, Traced) or before is _MISSING:
                continue
            if not isinstance(before, Traced):
                raise TileError(
                    f"`{name}` is {_describe(before)} before this loop and a traced value "
                    f"after its body; a loop can carry only traced values: start it as one "
                    f"before the loop (e.g. tile.full(shape, {before!r}, dtype))", self.location)
            if _type_of(before) != _type_of(obj):
                raise TileError(
                    f"`{name}` is {_type_of(before)} before this loop and {_type_of(obj)} after "
                    f"its body; a loop-carried value keeps its type", self.location)
            aliases = [other for other, o in self.before.items()
                       if other != name and isinstance(o, Traced) and o._value is before._value]
            if aliases:
                raise TileError(
                    f"`{name}` changes in this loop and `{aliases[0]}` held the same value when it "
                    f"started; the trace cannot tell which of the two the body reads (bind a "
                    f"copy to one of them, e.g. `{aliases[0]} = {aliases[0]} + 0`)", self.location)
            carried.append((name, before, obj))
        results = self.op.close([b.value for _, b, _ in carried],
                                [a.value for _, _, a in carried])
        poison = (f"this value was computed inside the tile.range loop at {self.location} and "
                  f"is not carried out of it: to use it after the loop, assign it to a variable "
                  f"that exists before the loop")
        for obj in self.created:
            obj._poison = poison
        for (_, _, obj), result in zip(carried, results):
            obj._value, obj._poison = result, None
            # Now a value of the enclosing block: an enclosing loop must
            # poison it too when it closes.
            self.trace.register(obj)


def _type_of(obj):
    return str(obj.type) if isinstance(obj, Traced) else type(obj).__name__


def _describe(value):
    if value is _MISSING:
        return "undefined"
    return f"the Python {type(value).__name__} {value!r}"

"""Memory and arrays: one memory state threaded as a value.

  Load(ctrl, mem, array, index)          the element of an array or a list (Python index semantics:
                                         a negative index wraps once)
  Store(ctrl, mem, array, index, value)  the next memory state
  NewArray(ctrl, length)                 a fresh array (np.zeros/ones/empty)
  ArrayLen(array)                        pure
  OutOfBounds(index, length)             pure bool: not -length <= index < length
  Call(ctrl, mem, args...)               the result of a call of the graph's own
                                         function or of a recursive helper's graph
  CallOut(call)                          pure: value i of a call that gives several
  CallMem(call)                          the memory state after that call

Bounds are checked by an explicit guard ``If(OutOfBounds) -> Raise IndexError``
in front of every access, so Load and Store themselves never fault; they keep
the guard's projection as control so no pass hoists them above it.
"""

from __future__ import annotations

from . import ranges
from .node import Node, TupleOut
from .types import (
    BOOL,
    BOTTOM,
    INT64_MAX,
    MEM,
    TOP,
    ArrayType,
    ListType,
    Type,
    bounds,
    constant,
    int_range,
)

#: the type of a length: never negative
LENGTH = int_range(0, INT64_MAX)

#: numpy dtype name -> how a stored Python value is converted, as numpy does
DTYPES = ("float64", "int64", "bool")


_PYTHON_SCALARS = (float, int, bool, list)  # a list's items: Python values (rows too)


class Load(Node):
    __slots__ = ()
    is_gvn = True  # same control, memory, array and index: the same value
    reads_memory = True

    def __init__(self, graph, ctrl, mem, array, index):
        super().__init__(graph, ctrl, mem, array, index)

    @property
    def mem(self) -> Node:
        return self.inputs[1]

    @property
    def array(self) -> Node:
        return self.inputs[2]

    @property
    def index(self) -> Node:
        return self.inputs[3]

    def compute(self) -> Type:
        t = self.inputs[2].type
        if t is TOP or self.inputs[3].type is TOP:
            return TOP
        return t.elem if isinstance(t, (ArrayType, ListType)) else BOTTOM

    def eval(self, mem, array, index):
        v = array[index]  # a list holds Python values, an array numpy scalars
        return v if type(v) in _PYTHON_SCALARS else v.item()


class Store(Node):
    __slots__ = ()
    is_gvn = False
    writes_memory = True

    def __init__(self, graph, ctrl, mem, array, index, value):
        super().__init__(graph, ctrl, mem, array, index, value)

    @property
    def mem(self) -> Node:
        return self.inputs[1]

    @property
    def array(self) -> Node:
        return self.inputs[2]

    @property
    def index(self) -> Node:
        return self.inputs[3]

    @property
    def value(self) -> Node:
        return self.inputs[4]

    def compute(self) -> Type:
        return MEM

    def eval(self, mem, array, index, value):
        array[index] = value


class NewArray(Node):
    """A new array of ``length`` elements; ``fill`` is 'zeros', 'ones' or 'empty'."""

    __slots__ = ("dtype", "fill")
    is_gvn = False  # two allocations are two arrays
    allocates = True

    def __init__(self, graph, ctrl, length, dtype: str, fill: str):
        self.dtype = dtype
        self.fill = fill
        super().__init__(graph, ctrl, length)

    def payload(self):
        return (self.dtype, self.fill)

    @property
    def label(self) -> str:
        return f"np.{self.fill}[{self.dtype}]"

    def compute(self) -> Type:
        n = self.inputs[1].type
        if n is TOP:
            return TOP
        return ArrayType(self.dtype) if n.kind in ("int", "bool", "number") else BOTTOM

    def eval(self, length):
        import numpy as np

        return getattr(np, self.fill)(length, dtype=self.dtype)


class ArrayLen(Node):
    __slots__ = ()

    def __init__(self, graph, array):
        super().__init__(graph, None, array)

    @property
    def label(self) -> str:
        return "len"

    def result_type(self, a):
        return LENGTH if isinstance(a, ArrayType) else BOTTOM

    def compute(self) -> Type:
        t = self.inputs[1].type
        return TOP if t is TOP else self.result_type(t)

    def eval(self, array):
        return len(array)


class OutOfBounds(Node):
    __slots__ = ()

    def __init__(self, graph, index, length):
        super().__init__(graph, None, index, length)

    @property
    def label(self) -> str:
        return "out_of_bounds"

    def eval(self, index, length):
        return not (-length <= index < length)

    def result_type(self, a, b):
        ra, rb = bounds(a), bounds(b)
        if ra is not None and rb is not None:
            r = ranges.out_of_bounds(ra, rb)
            if r is not None:
                return constant(r)
        return BOOL if a.kind and b.kind else BOTTOM


class Overlaps(Node):
    """``Overlaps(a, b)``: may arrays ``a`` and ``b`` share memory (numpy's
    ``may_share_memory``: their byte ranges meet; an empty array shares none)?  The
    frontend refuses, at run time, what numpy computes in an order son does not model
    when they do (son/frontend/selection.py).  Pure: it reads no element."""

    __slots__ = ()

    def __init__(self, graph, a, b):
        super().__init__(graph, None, a, b)

    @property
    def label(self) -> str:
        return "overlaps"

    def eval(self, a, b):
        import numpy as np

        return bool(np.may_share_memory(a, b))

    def result_type(self, a, b):
        return BOOL if isinstance(a, ArrayType) and isinstance(b, ArrayType) else BOTTOM


class TapeGrow(Node):
    """``TapeGrow(ctrl, mem, array, count)``: ``array`` itself if it has room for an
    element at index ``count``, else a copy of it with twice the capacity plus 16, or
    ``count + 1`` if that is more (reverse mode reserves room before a counted loop).
    Reverse mode (son/grad/tape.py) calls it before every push on a tape; it reads the
    array's contents (hence the memory input) and, like NewArray, is an identity that
    is never value-numbered.  Kernels test the capacity inline and call the copying
    helper ``_tape_grow`` only when full.  O(1) amortized per push."""

    __slots__ = ()
    is_gvn = False

    def __init__(self, graph, ctrl, mem, array, count):
        super().__init__(graph, ctrl, mem, array, count)

    @property
    def label(self) -> str:
        return "tape_grow"

    def compute(self) -> Type:
        t = self.inputs[2].type
        return t if t is TOP or isinstance(t, ArrayType) else BOTTOM

    def eval(self, mem, array, count):
        if count < len(array):
            return array
        import numpy as np

        grown = np.empty(max(2 * len(array) + 16, count + 1), dtype=array.dtype)
        grown[:len(array)] = array
        return grown


class Call(Node):
    """A call of a function with a graph of its own: ``Call(ctrl, mem, args...)``, the
    arguments in the callee's parameter order.  The callee is ``target``, a Graph (a
    recursive helper, son/frontend/recursion.py), or None for the function whose graph
    this is (recursion, direct or through inlined helpers).  Its value is the callee's
    result, typed ``result`` (what the frontend assumed and then checked against the
    function's returns, son/frontend/parser.py).  Like a Store it hangs from its control
    and is never moved, merged or removed while its memory state is used: it runs
    exactly once where the source calls, may write the arrays it is given, and may raise
    (RecursionError past ``config.recursion_limit`` calls deep); ``CallMem`` is the
    memory after it.  The interpreter runs the callee's graph, a kernel calls the
    callee's function."""

    __slots__ = ("result", "target")
    is_gvn = False
    writes_memory = True

    def __init__(self, graph, ctrl, mem, *args, result: Type, target=None):
        self.result = result
        self.target = target
        super().__init__(graph, ctrl, mem, *args)

    def payload(self):
        return (self.result, self.callee_name)

    @property
    def callee_name(self) -> str:
        return (self.target or self.graph).name

    @property
    def label(self) -> str:
        return f"call {self.callee_name}"

    @property
    def args(self) -> list[Node]:
        return self.inputs[2:]

    def compute(self) -> Type:
        if any(x is not None and x.type is TOP for x in self.inputs[2:]):
            return TOP  # an argument only on a path the types prove dead
        return self.result


class CallOut(TupleOut):
    """Value ``index`` of a ``Call`` whose callee returns several (``result`` a
    ``TupleType``: a recursive function returning a flat tuple, the forward-mode
    derivative of a function, which returns its value and its tangent)."""

    __slots__ = ()

    @property
    def label(self) -> str:
        return f"call out {self.index}"


class CallMem(Node):
    """The memory state after ``Call`` (pure: the arrays changed in place)."""

    __slots__ = ()

    def __init__(self, graph, call):
        super().__init__(graph, None, call)

    @property
    def label(self) -> str:
        return "call mem"

    def compute(self) -> Type:
        return MEM

    def eval(self, call):
        return None

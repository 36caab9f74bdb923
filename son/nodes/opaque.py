"""Opaque Python: statements son cannot express, run by CPython in the middle of a graph
(issue 23's JIT fallback, the seed design's ``PyExecute``).

``PyRegion(ctrl, mem, *live_ins)`` stands for a maximal run of statements of the
compiled function that the frontend refused (a ``print``, a ``try``, a dict).  It is
one node: it hangs from its control like a ``Call``, takes the memory state and gives
a new one (``PyRegionMem``), so no load or store moves across it, and its value is the
tuple of the variables it assigns that the rest of the function reads (``PyOut``
projects one), each typed by the kind the frontend declared for it.  No pass folds,
merges or moves it; every analysis sees its outputs as unknown values of their kinds.

The statements themselves are a Python function the frontend compiled from their
syntax tree (so tracebacks name the user's file and lines), registered here under a
key that is a hash of what it is: ``run_region(key, *values)`` calls it, and is what
the interpreter calls and what a kernel calls inside ``numba.objmode``.  Variables
that only regions read and write (a dict, a string) never enter the graph: they live
in the call's *frame*, a dict that ``enter_call`` pushes when a graph or kernel is
entered and the regions of that call share.

``run_region`` checks every value it returns against its declared kind and raises
``SonError`` naming the variable when CPython gave another kind: a value is never
converted silently.  O(values) per region run, plus the region's own work.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Callable

import numpy as np

from ..errors import SonError
from .node import Node, TupleOut
from .types import BOOL, FLOAT, INT, MEM, TOP, ArrayType, TupleType, Type

__all__ = ["RAISED", "RERAISE", "PyOut", "PyRegion", "PyRegionMem", "RegionCode", "enter_call", "register",
           "run_region"]

_INT64 = (-(1 << 63), (1 << 63) - 1)


class RegionCode:
    """What a region runs: ``fn(frame, *live_ins)`` returning its live-outs, with the
    names and declared types of both and where it is in the source."""

    __slots__ = ("key", "fn", "ins", "outs", "kinds", "filename", "lines", "text", "why", "backs")

    def __init__(self, key: str, fn: Callable, ins: list[str], outs: list[str], kinds: list[Type],
                 filename: str, lines: tuple[int, int], text: str, why: str,
                 backs: tuple[tuple[int, ArrayType], ...] = ()):
        self.key, self.fn, self.ins, self.outs, self.kinds = key, fn, ins, outs, kinds
        self.filename, self.lines, self.text, self.why = filename, lines, text, why
        #: (position in ins, array type) of each list the region changes: it is given as
        #: a list (a copy) and its items come back after the live-outs, as an array
        self.backs = backs

    @property
    def types(self) -> tuple[Type, ...]:
        """The types of the region's value after its status: live-outs, then lists' items."""
        return (*self.kinds, *(t for _, t in self.backs))

    @property
    def where(self) -> str:
        a, b = self.lines
        return f"{self.filename}:{a}" if a == b else f"{self.filename}:{a}-{b}"


#: key -> RegionCode; the latest parse of a function replaces its regions' entries
_REGISTRY: dict[str, RegionCode] = {}
_STATE = threading.local()


def register(code: RegionCode) -> RegionCode:
    _REGISTRY[code.key] = code
    return code


@contextlib.contextmanager
def enter_call():
    """A new frame for the regions of one call of a graph or kernel (nested calls, on
    this thread, each get their own)."""
    stack = getattr(_STATE, "frames", None)
    if stack is None:
        stack = _STATE.frames = []
    stack.append({})
    try:
        yield
    finally:
        stack.pop()


def run_region(key: str, *values):
    """Run region ``key`` on its live-in values in the current call's frame; returns
    ``(status, *live_outs)``: status 0 where control goes on after it, 1 where it returned
    (the value in the last slot), 2 where it broke out of a loop, 3 where it continued one
    (see son/frontend/regions.py)."""
    code = _REGISTRY.get(key)
    if code is None:
        raise SonError(f"fallback region {key} is not registered in this process (parse the function "
                       "again: son.jit and son.parse register its regions)")
    stack = getattr(_STATE, "frames", None)
    frame = stack[-1] if stack else {}
    if not code.backs:
        out = code.fn(frame, *values)
    else:  # the lists it changes, as lists; an exception waits until their items are back
        values = list(values)
        for i, _ in code.backs:
            values[i] = values[i].tolist() if hasattr(values[i], "tolist") else list(values[i])
        try:
            out = code.fn(frame, *values)
        except Exception as e:  # noqa: BLE001 - raised again by RERAISE, after the items are back
            _STATE.pending = e
            out = (RAISED,)
    status = out[0]
    if status == 0:  # on to the next statement: every live-out (the returned value's slot unused)
        given = dict(zip(code.outs, out[1:]))
    elif status == 1:  # a return: its value alone
        given = {code.outs[-1]: out[1]}
    elif status in (2, 3):  # a break, a continue: the variables bound there, which the loop
        # goes on with (seed: a try/except in a loop whose handler continues kept 0 for the sum)
        given = {name: out[1][name] for name in code.outs if name in out[1]}
    else:  # an exception
        given = {}
    return ((status,) + tuple(_checked(code, name, t, given[name]) if name in given else _UNUSED[t.kind]
                              for name, t in zip(code.outs, code.kinds))
            + tuple(_items(code, values[i], code.ins[i], t) for i, t in code.backs))


#: the status of a region that raised after changing a list it was given
RAISED = 4


def _reraise(frame):
    e = getattr(_STATE, "pending", None)
    _STATE.pending = None
    if e is None:
        raise SonError("a fallback region's exception was lost")
    raise e


#: the region that raises again what a region that changes lists raised
RERAISE = RegionCode("reraise", _reraise, [], [], [], "<son>", (0, 0), "raise", "an exception after a region")
_REGISTRY[RERAISE.key] = RERAISE


def _items(code: RegionCode, lst, name: str, t: ArrayType):
    """The items of list ``name`` the region changed, as an array of ``t``, or a
    SonError when the region put in an item of another kind (which son's lists cannot
    hold).  O(len)."""
    want = {"float64": float, "int64": int, "bool": bool}[t.dtype]
    for k, x in enumerate(lst):
        if type(x) is not want or want is int and not _INT64[0] <= x <= _INT64[1]:
            raise SonError(f"{code.where}: list {name!r}, changed in code son runs with CPython (a fallback "
                           f"region), holds {type(x).__name__} {x!r} at index {k} where son compiled it as a "
                           f"list of {want.__name__}s (son's lists hold one kind of element)")
    return np.array(lst, dtype=t.dtype)


#: the value in a live-out's slot when control left the region before assigning it
_UNUSED = {"int": 0, "float": 0.0, "bool": False}


def _checked(code: RegionCode, name: str, t: Type, v):
    """``v`` as the kind ``t`` declared for variable ``name``, or a SonError."""
    kind = type(v).__name__
    if isinstance(t, ArrayType):
        if getattr(v, "ndim", None) == 1 and str(getattr(v, "dtype", "")) == t.dtype:
            return v
        kind = f"{kind} of dtype {getattr(v, 'dtype', '?')}"
    elif t is FLOAT and isinstance(v, float):  # a numpy float64 is a float subclass
        return float(v)
    elif t is INT and (isinstance(v, int) and type(v) is not bool or type(v).__name__ == "int64"):
        v = int(v)
        if _INT64[0] <= v <= _INT64[1]:
            return v
        kind = f"int {v}, outside int64"
    elif t is BOOL and type(v).__name__ in ("bool", "bool_"):
        return bool(v)
    raise SonError(f"{code.where}: variable {name!r}, assigned in code son runs with CPython (a fallback "
                   f"region), is {kind} where son compiled it as {t}; annotate it (e.g. "
                   f"'{name}: {_annotation(t)} = ...') or give it one kind throughout")


def _annotation(t: Type) -> str:
    return "np.ndarray" if isinstance(t, ArrayType) else {"int": "int", "float": "float"}.get(t.kind, "bool")


class PyRegion(Node):
    """``PyRegion(ctrl, mem, *live_ins)``: a run of statements CPython executes (see the
    module docstring).  Its value is ``(0, *live_outs)``, typed by the kinds declared
    for them; ``code`` is the ``RegionCode``."""

    __slots__ = ("code",)
    is_gvn = False
    writes_memory = True  # and may read anything: like a Call, it is ordered by its memory input

    def __init__(self, graph, ctrl, mem, *ins, code: RegionCode):
        self.code = code
        super().__init__(graph, ctrl, mem, *ins)

    def payload(self):
        return (self.code.key,)

    @property
    def label(self) -> str:
        return f"python {self.code.where.rsplit(':', 1)[-1]}"

    def compute(self) -> Type:
        if any(x is not None and x.type is TOP for x in self.inputs[2:]):
            return TOP  # only on a path the types prove dead
        return TupleType((INT, *self.code.types))

    def eval(self, mem, *values):
        return run_region(self.code.key, *values)


class PyRegionMem(Node):
    """The memory state after a ``PyRegion`` (whatever CPython changed in place)."""

    __slots__ = ()

    def __init__(self, graph, region):
        super().__init__(graph, None, region)

    @property
    def label(self) -> str:
        return "python mem"

    def compute(self) -> Type:
        return MEM

    def eval(self, region):
        return None


class PyOut(TupleOut):
    """Live-out ``index`` (1-based: 0 is the region's status) of a ``PyRegion``."""

    __slots__ = ()

    @property
    def label(self) -> str:
        r = self.inputs[1]
        if self.index == 0:
            return "py status"
        if isinstance(r, PyRegion) and self.index - 1 < len(r.code.outs):
            return f"py {r.code.outs[self.index - 1]}"
        if isinstance(r, PyRegion) and self.index - 1 - len(r.code.outs) < len(r.code.backs):
            return f"py items of {r.code.ins[r.code.backs[self.index - 1 - len(r.code.outs)][0]]}"
        return f"py #{self.index}"

"""Recursion: a call of the function being compiled, from its body or from a helper
inlined into it, is a ``Call`` node (son/nodes/memory.py) instead of an inlining.

The call's arguments must have the kinds of the function's parameters (the graph
has one parameter type each: ``f(n - 1)`` for ``n: int``, an array for an array), and
its result is typed by an assumption the whole parse then checks: a first parse types
it TOP (no value yet), so the returns that are not calls give the kind to assume; a
parse whose returns do not fit its assumption starts again under their meet
(``son/frontend/parser.py``, at most five parses, as loops are parsed again).
What is refused, with a located error: recursion into a helper other than the
compiled function (each function would need its own graph), a function whose
parameters or result are tuples, complex numbers or values that may be None, and
arguments of other kinds than the parameters'.  O(arguments) per call."""

from __future__ import annotations

import ast

from ..nodes import Call, CallMem, Node, kept
from ..nodes.types import INT, NUMBER, TOP, ArrayType
from .functions import Local
from .scope import Aggregate, describe, shape
from .source import source_of

#: the key of ``FunctionParser.learned`` under which the parse keeps what it assumed of
#: a recursive call's result, and whether it made one
RESULT, USED = "recursion result", "recursion used"


class Recursion:
    """FunctionParser's recursive calls (a mixin)."""

    def recursive_call(self, e: ast.Call, fn, vals: list[Node] | None) -> Node:
        name = getattr(fn, "__name__", "function")
        if fn is not self.stack[0]:
            raise self.error(e, f"recursive call to {name}(), a helper inlined into "
                                f"{self.g.name}() (son compiles recursion of the function it "
                                "compiles, not of helpers: compile the helper itself)", "recursion")
        if self.g.arg_forms is not None:
            raise self.error(e, f"recursive call to {name}(), whose parameters are tuples or "
                                "complex numbers (son passes recursive calls single values and "
                                "arrays)", "recursion")
        bound = self.bind_arguments(e, fn, fn.src if isinstance(fn, Local) else source_of(fn), vals)
        args = []
        for (p, v), (_flat, t) in zip(bound, self.g.params):
            if isinstance(v, Aggregate) or not _fits(v, t):
                what = describe(shape(v)) if isinstance(v, Aggregate) else str(v.type.widen())
                raise self.error(e, f"recursive call to {name}() passes {what} as {p!r}, which is "
                                    f"{t} (a compiled function has one type per parameter)", "recursion")
            args.append(v)
        self.learned[USED] = True
        result = self.learned.get(RESULT, INT)  # TOP in the first parse: see parser.py
        with kept(*args):
            call = self.op(e, Call, self.scope.ctrl, self.scope.mem, *args, result=result)
        with kept(call):
            self.scope.mem = self.op(e, CallMem, call)
        return call


def _fits(v: Node, t) -> bool:
    """May ``v`` be passed for a parameter of type ``t``?  The same kind (a value only on
    a dead path, TOP, fits anything), an array of the same dtype; an unannotated
    parameter takes any number."""
    if v.type is TOP:
        return True
    if isinstance(t, ArrayType):
        return isinstance(v.type, ArrayType) and v.type.dtype == t.dtype
    if t is NUMBER:
        return v.type.kind in ("int", "float", "bool", "number")
    return v.type.kind == t.kind

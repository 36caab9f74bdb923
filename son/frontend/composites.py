"""numpy's elementwise functions that son writes as code rather than as one node:
``np.maximum``/``minimum``/``fmax``/``fmin``/``clip`` (son/frontend/extremes.py),
``np.where``, the composite ufuncs of son/frontend/elements.py (``logaddexp``,
``logaddexp2``, ``sinc``, ``deg2rad``, ``reciprocal``, ...) and a float array's ``//``
and ``%``.  Each element function is inlined once per element of a whole-array chain
(the chain's loop body), or once for a call on numbers, so the peephole, SCCP and the
gradients see its primitives (NNVM's SimplifyInference, done while parsing).

O(size of the element function) nodes per chain or call.
"""

from __future__ import annotations

import ast
from typing import Callable, NamedTuple

import numpy as np

from ..nodes import FloorDiv, IEEEPow, Node, kept
from . import elements as el
from . import extremes as ex
from .lists import DTYPE_OF_KIND

#: np.maximum / minimum / fmax / fmin / clip: element functions by result kind
EXTREMES = {np.maximum: {"float": ex.maximum_float, "int": ex.maximum_int, "bool": ex.maximum_bool},
            np.minimum: {"float": ex.minimum_float, "int": ex.minimum_int, "bool": ex.minimum_bool},
            np.fmax: {"float": ex.fmax_float, "int": ex.maximum_int, "bool": ex.maximum_bool},
            np.fmin: {"float": ex.fmin_float, "int": ex.minimum_int, "bool": ex.minimum_bool},
            np.clip: {"float": ex.clip_float, "int": ex.clip_int}}


class Composite(NamedTuple):
    """A ufunc written as element code.  ``element``: its function, or a dict from the
    operands' common kind to one (a kind it lacks is refused); ``convert``: the
    operands as floats ("float": numpy's float loops, ints converted as numpy converts
    them), as their common kind ("common": numpy's comparisons) or as they are (None);
    ``result``: the dtype of an array result (None: the operands' common kind's);
    ``bools``: it takes bool operands (numpy computes most float ufuncs of bools in
    float16, which son refuses); ``accepts``: the kinds each operand may have where
    numpy's loops differ by operand (``ldexp``'s int exponent).  An element that is a
    node class is that one node of the converted operands."""

    element: Callable | dict | type
    arity: int
    bools: bool = False
    convert: str | None = "float"
    result: str | None = "float64"
    accepts: tuple[frozenset, ...] | None = None


def _compare(fn) -> Composite:
    return Composite(fn, 2, bools=True, convert="common", result="bool")


def _logical(fn, arity: int = 2) -> Composite:
    return Composite(fn, arity, bools=True, convert=None, result="bool")


def _integral(fn) -> Composite:
    """An int64 ufunc (``gcd``, shifts): bools join ints as int64, two bools (numpy's int8)
    and floats (numpy's TypeError) are refused."""
    return Composite({"int": fn}, 2, bools=True, convert="common", result=None)


COMPOSITES = {np.logaddexp: Composite(el.logaddexp, 2), np.logaddexp2: Composite(el.logaddexp2, 2),
              np.sinc: Composite(el.sinc, 1, bools=True),
              np.reciprocal: Composite({"float": el.reciprocal}, 1),  # of ints: C's 1 / x, refused
              np.deg2rad: Composite(el.deg2rad, 1), np.radians: Composite(el.deg2rad, 1),
              np.rad2deg: Composite(el.rad2deg, 1), np.degrees: Composite(el.rad2deg, 1),
              np.heaviside: Composite(el.heaviside, 2), np.nextafter: Composite(el.nextafter, 2),
              np.signbit: Composite(el.signbit, 1, bools=True, result="bool"),
              np.isposinf: Composite(el.isposinf, 1, bools=True, result="bool"),
              np.isneginf: Composite(el.isneginf, 1, bools=True, result="bool"),
              np.nan_to_num: Composite({"float": el.nan_to_num, "int": el.same, "bool": el.same}, 1,
                                       bools=True, convert=None, result=None),
              np.positive: Composite({"float": el.same, "int": el.same}, 1, convert=None, result=None),
              np.greater: _compare(el.greater), np.greater_equal: _compare(el.greater_equal),
              np.less: _compare(el.less), np.less_equal: _compare(el.less_equal),
              np.equal: _compare(el.equal), np.not_equal: _compare(el.not_equal),
              np.logical_and: _logical(el.logical_and), np.logical_or: _logical(el.logical_or),
              np.logical_xor: _logical(el.logical_xor), np.logical_not: _logical(el.logical_not, 1),
              np.fix: Composite({"float": el.fix, "int": el.same, "bool": el.same}, 1, bools=True,
                                convert=None, result=None),
              np.conjugate: Composite({"float": el.same, "int": el.same}, 1, convert=None, result=None),
              np.spacing: Composite(el.spacing, 1),
              np.float_power: Composite(IEEEPow, 2, bools=True),
              np.ldexp: Composite(el.ldexp, 2, bools=True, convert=None,
                                  accepts=(frozenset({"float", "int"}), frozenset({"int", "bool"}))),
              np.invert: Composite({"int": el.invert_int, "bool": el.logical_not}, 1, bools=True,
                                   convert=None, result=None),
              np.gcd: _integral(el.gcd), np.lcm: _integral(el.lcm),
              np.left_shift: _integral(el.left_shift), np.right_shift: _integral(el.right_shift)}
for _alias, _fn in (("conj", "conjugate"), ("bitwise_not", "invert"), ("bitwise_invert", "invert"),
                    ("bitwise_left_shift", "left_shift"), ("bitwise_right_shift", "right_shift")):
    if hasattr(np, _alias):  # numpy 2's array-API names
        COMPOSITES[getattr(np, _alias)] = COMPOSITES[getattr(np, _fn)]


def common_kind(kinds) -> str:
    """The kind numpy gives operands of ``kinds`` together: float, else bool, else int."""
    return "float" if "float" in kinds else "bool" if set(kinds) == {"bool"} else "int"


class ElementFunctions:
    """The Ufuncs mixin's functions that inline element code (FunctionParser's bases)."""

    def converter(self, kind: str | None):
        """``(at, value) -> value`` of kind ``kind`` (a bool stays as it is; None: any)."""
        same = lambda at, v: v  # noqa: E731
        return {"float": self.float_of, "int": self.int_of, "bool": same, None: same}[kind]

    def element_call(self, at: ast.AST, fn: Callable | type, vals: list[Node], kind: str | None) -> Node:
        """``fn``'s body inlined on ``vals`` converted to ``kind``, as a call located at ``at``
        (``fn`` a node class: that node of them)."""
        conv = self.converter(kind)
        done: list[Node] = []
        with kept(*vals):
            for v in vals:
                with kept(*done):
                    done.append(conv(at, v).keep())
        if isinstance(fn, type):
            try:
                return self.op(at, fn, *done)
            finally:
                for x in done:
                    x.unkeep()
        name = ast.copy_location(ast.Name(fn.__name__, ast.Load()), at)
        call = ast.copy_location(ast.Call(name, [], []), at)
        try:
            return self.inline(call, fn, done)
        finally:
            for x in done:
                x.unkeep()

    def extreme_kind(self, e: ast.Call, fn, name: str, kinds: list[str]) -> str:
        kind = common_kind(kinds)
        if kind not in EXTREMES[fn] or (fn is np.clip and kinds[0] == "bool"):
            raise self.unsupported(e, f"{name}() of bools (numpy's result is not a bool)")
        return kind

    def extreme(self, e: ast.Call, fn, name: str, vals: list[Node], kinds: list[str]) -> Node:
        """``np.maximum``/``minimum``/``fmax``/``fmin``/``clip`` of numbers (elements):
        their kind's element function of the values converted to that kind."""
        kind = self.extreme_kind(e, fn, name, kinds)
        return self.element_call(e, EXTREMES[fn][kind], vals, kind)

    def composite(self, e: ast.Call, fn, name: str, vals: list[Node], kinds: list[str]) -> Node:
        """A ``COMPOSITES`` ufunc of numbers (elements): its element function."""
        spec, kind = COMPOSITES[fn], common_kind(kinds)
        element = spec.element.get(kind) if isinstance(spec.element, dict) else spec.element
        if "bool" in kinds and not spec.bools:
            raise self.unsupported(e, f"{name}() of a bool array (numpy computes it in float16 or int8, or "
                                      "has no loop for bools)")
        for i, (k, ok) in enumerate(zip(kinds, spec.accepts or ())):
            if k not in ok:
                raise self.unsupported(e, f"{name}() with a {k} operand #{i + 1} (numpy has no such loop, "
                                          "or computes it in float16)")
        if element is None:
            raise self.unsupported(e, f"{name}() of {kind}s (numpy has no loop for them, or its loop is "
                                      "not the float one: convert them with float())")
        return self.element_call(e, element, vals, {"float": "float", "common": kind}.get(spec.convert))

    def composite_dtype(self, fn, kinds: list[str]) -> str:
        return COMPOSITES[fn].result or DTYPE_OF_KIND[common_kind(kinds)]

    def float_division(self, at: ast.AST, op: type, x: Node, y: Node) -> Node:
        """numpy's float ``x // y`` (``op`` FloorDiv) or ``x % y``: Python's, but IEEE's
        for a zero divisor (no ZeroDivisionError)."""
        return self.element_call(at, el.floor_divide if op is FloorDiv else el.remainder, [x, y], "float")

    def where_chain(self, e: ast.Call, parts: list, kinds: list[str]):
        """``np.where(c, x, y)``: ``x``'s element where ``c``'s is true, else ``y``'s, in
        the dtype numpy gives the two."""
        kind = common_kind(kinds[1:])
        conv = self.converter(kind)

        def pick(p, c, x, y):
            with kept(c):
                x = conv(e, x)
                with kept(x):
                    y = conv(e, y)
                    with kept(y):
                        return p.choose(p.truth(c, e), x, y)

        return self.combine(e, parts, DTYPE_OF_KIND[kind], pick)

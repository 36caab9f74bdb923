"""Math nodes: one class per function, made from one table.

A math node computes the IEEE result (nan/inf instead of exceptions), as
numpy does.  CPython's ``math`` module raises instead; the frontend makes that
explicit with a guard ``If(MathError(r, x...)) -> Raise`` after the call, so the
node itself never faults and passes may move or delete it freely.  The
payload ``np`` says which library's rounding the value follows (``math.exp``
and ``np.exp`` may differ in the last ulp on some CPUs).

``MathError(r, x...)`` is CPython's rule for ``math`` (``math_1`` in
mathmodule.c): a NaN result from non-NaN arguments is a domain error, an
infinite result from finite arguments is a range error (OverflowError for the
functions that can overflow, ValueError for the others, e.g. ``log(0.0)``).
"""

from __future__ import annotations

import math

import numpy as np

from . import ranges
from .arith import Binary, Unary, arith_kind, ranged
from .node import Node
from .types import BOOL, BOTTOM, FLOAT, INT, NUMBER, Type, wrap64


class MathCall(Node):
    """Base of the float-valued library functions."""

    __slots__ = ("np",)
    #: name in the math module / in numpy (None: not there)
    math_name: str | None = None
    np_name: str | None = None
    #: True if an infinite result from finite arguments is an OverflowError
    can_overflow = False

    def __init__(self, graph, *args, np: bool = False):
        self.np = np
        super().__init__(graph, None, *args)

    def payload(self):
        return (self.np,)

    @property
    def label(self) -> str:
        return ("np." + self.np_name) if self.np else self.math_name

    def eval(self, *xs):
        if not self.np:
            try:
                return getattr(math, self.math_name)(*xs)
            except (ValueError, OverflowError):
                # the IEEE value, which the guard after this node turns into the error:
                # math converts ints to floats first (numpy's int fmod(82, 0) is 0, not nan)
                xs = tuple(float(x) for x in xs)
        with np.errstate(all="ignore"):
            r = float(getattr(np, self.np_name)(*xs))
        # numpy's loops do not fix the sign of a NaN they make (np.log1p(-inf) has been seen
        # both ways in one process, which made a node's type disagree with a later
        # compute(): seed 27125 i2553), so one is made; but a square root is one IEEE
        # instruction everywhere (numpy's scalar and SIMD loops, a kernel's LLVM sqrt), whose
        # NaN copysign shows: -nan on x86 (seed 47125 i11826 took a result for a ValueError)
        return math.nan if r != r and self.math_name != "sqrt" else r

    def result_type(self, *ts):
        return FLOAT if all(t.kind for t in ts) else BOTTOM


#: name -> (math name, numpy name, arity, can_overflow)
MATH_TABLE = {
    "Sin": ("sin", "sin", 1, False),
    "Cos": ("cos", "cos", 1, False),
    "Tan": ("tan", "tan", 1, False),
    "Asin": ("asin", "arcsin", 1, False),
    "Acos": ("acos", "arccos", 1, False),
    "Atan": ("atan", "arctan", 1, False),
    "Sinh": ("sinh", "sinh", 1, True),
    "Cosh": ("cosh", "cosh", 1, True),
    "Tanh": ("tanh", "tanh", 1, False),
    "Asinh": ("asinh", "arcsinh", 1, False),
    "Acosh": ("acosh", "arccosh", 1, False),
    "Atanh": ("atanh", "arctanh", 1, False),
    "Exp": ("exp", "exp", 1, True),
    "Exp2": ("exp2", "exp2", 1, True),
    "Expm1": ("expm1", "expm1", 1, True),
    "Log": ("log", "log", 1, False),
    "Log2": ("log2", "log2", 1, False),
    "Log10": ("log10", "log10", 1, False),
    "Log1p": ("log1p", "log1p", 1, False),
    "Sqrt": ("sqrt", "sqrt", 1, False),
    "Cbrt": ("cbrt", "cbrt", 1, False),
    "Fabs": ("fabs", "fabs", 1, False),
    "Erf": ("erf", None, 1, False),
    "Erfc": ("erfc", None, 1, False),
    "Floor": (None, "floor", 1, False),
    "Ceil": (None, "ceil", 1, False),
    "Trunc": (None, "trunc", 1, False),
    "Rint": (None, "rint", 1, False),
    "Atan2": ("atan2", "arctan2", 2, False),
    "Hypot": ("hypot", "hypot", 2, False),
    "Copysign": ("copysign", "copysign", 2, False),
    "Fmod": ("fmod", "fmod", 2, False),
}


def _make(name, math_name, np_name, arity, can_overflow):
    doc = f"{math_name or np_name}(" + ", ".join("xy"[:arity]) + ") as an IEEE float function."
    return type(name, (MathCall,), {
        "__slots__": (), "__doc__": doc, "math_name": math_name, "np_name": np_name,
        "arity": arity, "can_overflow": can_overflow,
    })


MATH_NODES: dict[str, type] = {n: _make(n, *spec) for n, spec in MATH_TABLE.items()}

#: functions that return a value for every argument (no guard needed after them)
TOTAL = frozenset({"Fabs", "Copysign", "Atan", "Tanh", "Asinh", "Atan2", "Erf", "Erfc", "Hypot", "Cbrt",
                   "Floor", "Ceil", "Trunc", "Rint"})
#: functions whose result is NaN only for a NaN argument (no domain error possible)
NAN_FREE = frozenset({"Sinh", "Cosh", "Exp", "Exp2", "Expm1"})
#: functions whose result is infinite only for an infinite argument (no range error)
INF_FREE = frozenset({"Sin", "Cos", "Tan", "Asin", "Acos", "Acosh", "Sqrt", "Fmod"})
globals().update(MATH_NODES)


#: the messages of the faults CPython raises where IEEE arithmetic (and numba.njit)
#: returns a value: a math function's NaN or infinity, ``**``'s overflow, ``int(x)`` of
#: a NaN or of a float outside int64.  The frontend raises them; ``son.jit(math_errors=
#: False)`` drops exactly the guards that raise MATH_FAULTS.
DOMAIN_ERROR, RANGE_ERROR = "math domain error", "math range error"
POW_RANGE_ERROR = "numerical result out of range"
INT_OF_NAN, INT_OUT_OF_RANGE = "cannot convert float NaN to integer", "float does not fit in int64"
MATH_FAULTS = frozenset({(ValueError, DOMAIN_ERROR), (OverflowError, RANGE_ERROR),
                         (OverflowError, POW_RANGE_ERROR), (ValueError, INT_OF_NAN),
                         (OverflowError, INT_OUT_OF_RANGE)})


def math_guards(cls: type) -> list[tuple[str, type]]:
    """The ``(MathError which, exception)`` guards CPython's ``math.<f>`` needs after
    the IEEE value: none for TOTAL functions; a domain error raises ValueError, a range
    error OverflowError for the functions that can overflow and ValueError for the
    others (``log(0.0)``); an error the function cannot produce (NAN_FREE, INF_FREE)
    gets no guard, so kernels compile fewer tests and raise sites."""
    name = cls.__name__
    if name in TOTAL:
        return []
    domain, rng = name not in NAN_FREE, name not in INF_FREE
    if cls.can_overflow:
        return [("domain", ValueError)] * domain + [("range", OverflowError)] * rng
    if domain and rng:
        return [("any", ValueError)]
    return [("domain", ValueError)] * domain + [("range", ValueError)] * rng

#: user-visible function object -> (node class, np flavour)
MATH_FUNCTIONS: dict[object, tuple[type, bool]] = {}
for _cls in MATH_NODES.values():
    if _cls.math_name and hasattr(math, _cls.math_name):
        MATH_FUNCTIONS[getattr(math, _cls.math_name)] = (_cls, False)
    if _cls.np_name and hasattr(np, _cls.np_name):
        MATH_FUNCTIONS[getattr(np, _cls.np_name)] = (_cls, True)


class MathError(Node):
    """``MathError(r, x...)``: did ``math`` raise computing r from x...?  (bool)

    ``which`` is 'domain' (NaN from non-NaN), 'range' (inf from finite) or
    'any' (either).
    """

    __slots__ = ("which",)

    def __init__(self, graph, r, *args, which: str):
        self.which = which
        super().__init__(graph, None, r, *args)

    def payload(self):
        return (self.which,)

    @property
    def label(self) -> str:
        return f"{self.which}_error"

    def eval(self, r, *xs):
        domain = math.isnan(r) and not any(math.isnan(x) for x in xs)
        rng = math.isinf(r) and all(math.isfinite(x) for x in xs)
        return {"domain": domain, "range": rng, "any": domain or rng}[self.which]

    def result_type(self, *ts):
        return BOOL if all(t.kind for t in ts) else BOTTOM


class _Predicate(Unary):
    __slots__ = ()

    def result_type(self, a):
        return BOOL if a.kind else BOTTOM


class IsNan(_Predicate):
    __slots__ = ()
    symbol = "isnan"

    def eval(self, a):
        return math.isnan(a)


class IsInf(_Predicate):
    __slots__ = ()
    symbol = "isinf"

    def eval(self, a):
        return math.isinf(a)


class IsFinite(_Predicate):
    __slots__ = ()
    symbol = "isfinite"

    def eval(self, a):
        return math.isfinite(a)


class Abs(Unary):
    """``abs(x)``: ints wrap (abs(INT64_MIN) == INT64_MIN), bools give ints."""

    __slots__ = ()
    symbol = "abs"

    def eval(self, a):
        r = abs(a)
        return wrap64(r) if type(r) is int else r

    def result_type(self, a):
        return ranged(arith_kind(a, INT), ranges.abs_, a)


def _minmax_kind(a: Type, b: Type) -> Type:
    if a.kind is None or b.kind is None:
        return BOTTOM
    return a.widen() if a.kind == b.kind else NUMBER  # min(True, 5) is True: a number


class Min(Binary):
    """``min(a, b)`` with Python's rule: b only if b < a (NaN and -0.0 keep order)."""

    __slots__ = ()
    symbol = "min"

    def eval(self, a, b):
        return b if b < a else a

    def result_type(self, a, b):
        return ranged(_minmax_kind(a, b), ranges.min_, a, b)


class Max(Binary):
    """``max(a, b)``: b only if b > a."""

    __slots__ = ()
    symbol = "max"

    def eval(self, a, b):
        return b if b > a else a

    def result_type(self, a, b):
        return ranged(_minmax_kind(a, b), ranges.max_, a, b)

"""Float bounds from a value's structure, and the math guards they prove unnecessary.

The lattice types every float ``FLOAT``: it has no float ranges (a loop phi of
floats would need widening to infinities, and ``-0.0``/NaN make order facts
weak).  Many of CPython's math checks are nevertheless decided by the shape of
the expression alone: ``math.exp(-x * x)`` cannot overflow (``-x * x`` is at
most 0), ``math.sqrt(dx * dx + dy * dy)`` cannot see a negative argument,
``math.log(1.0 + x * x)`` neither, ``math.cos(k / n)`` of ints cannot see an
infinity.  ``float_bounds(x)`` finds such facts on demand: an interval
``(lo, hi)`` holding every value of ``x`` *that is not a NaN* (a NaN is always
possible; no guard is folded because of where a NaN could not be).

Soundness.  ``+ - * /`` and ``sqrt`` are correctly rounded and rounding is
monotone, so the IEEE results at an interval's corners bound the results
inside it, at run time as here (the same operations; a corner that is a NaN,
``inf - inf`` or ``0 * inf``, gives up).  Other functions get coarse ranges
that hold whatever the library's last bit (``exp >= 0``, ``-1 <= cos <= 1``).
An int operand brings its lattice range, converted to floats; beyond 2**53 an
end moves one float outward, so the conversion's rounding cannot cross it.  Zero's
sign is not tracked: every test below treats ``0.0`` and ``-0.0`` alike.

Used by the peephole rule ``math_error_impossible``: a ``MathError`` guard
whose function cannot fail on its argument's bounds folds to False (so
``If``/``Raise`` go), in the pessimistic parse and every pass after it.

Cost: ``float_bounds`` visits each node at most once per query, to a depth of
``DEPTH`` operands (so the walk is bounded, O(2**DEPTH) at worst, never the
depth of the user's expression); a bounded recursion, not an unbounded one.
"""

from __future__ import annotations

import math

from .arith import Add, Div, IEEEDiv, Mul, Neg, Not, Sub, ToFloat
from .control import CProj, If, Loop, Phi
from .mathfn import MATH_NODES, Abs, Max, Min
from .node import Node
from .refine import Refine
from .types import bounds

__all__ = ["DEPTH", "float_bounds", "math_call_safe"]

Bounds = tuple[float, float]
INF = math.inf
FULL: Bounds = (-INF, INF)
#: how many operands deep a query looks
DEPTH = 8
#: ints beyond this convert to floats with rounding
_EXACT = float(1 << 53)
#: coarse ranges of functions whose last bit is the library's
_RANGES: dict[str, Bounds] = {
    "Exp": (0.0, INF), "Exp2": (0.0, INF), "Expm1": (-1.0, INF), "Cosh": (1.0, INF),
    "Sin": (-1.0, 1.0), "Cos": (-1.0, 1.0), "Tanh": (-1.0, 1.0), "Erf": (-1.0, 1.0),
    "Erfc": (0.0, 2.0), "Atan": (-2.0, 2.0), "Acos": (0.0, 4.0), "Asin": (-2.0, 2.0),
    "Atan2": (-4.0, 4.0), "Hypot": (0.0, INF),
}


def _int_end(v: int, low: bool) -> float:
    """An end of an int range as a float bound: exact up to 2**53, one float outward
    beyond (the conversion rounds to nearest, which is monotone)."""
    f = float(v)
    return f if abs(v) <= _EXACT else math.nextafter(f, -INF if low else INF)


def _hull(cs: list[float]) -> Bounds:
    if any(c != c for c in cs):
        return FULL
    return min(cs), max(cs)


def _square(b: Bounds) -> Bounds:
    lo, hi = b
    if lo >= 0:
        return lo * lo, hi * hi
    if hi <= 0:
        return hi * hi, lo * lo
    return 0.0, max(lo * lo, hi * hi)


def _abs(b: Bounds) -> Bounds:
    lo, hi = b
    if lo >= 0:
        return b
    if hi <= 0:
        return -hi, -lo
    return 0.0, max(-lo, hi)


def float_bounds(x: Node, depth: int = DEPTH, memo: dict | None = None, facts: dict | None = None) -> Bounds:
    """``(lo, hi)`` bounding every non-NaN value of ``x`` (a float, int or bool node);
    ``(-inf, inf)`` when nothing is known.  ``facts``: node -> bounds the tests that
    dominate the place of the question prove (``dominating_facts``)."""
    memo = {} if memo is None else memo
    got = memo.get(x)
    if got is None:
        memo[x] = FULL  # a cycle (loop phi) reached again knows nothing
        got = _bounds(x, depth, memo, facts)
        fact = facts.get(x) if facts else None
        if fact is not None:
            got = (max(got[0], fact[0]), min(got[1], fact[1]))
        memo[x] = got
    return got


def _bounds(x: Node, depth: int, memo: dict, facts: dict | None) -> Bounds:
    t = x.type
    b = bounds(t)
    if b is not None:
        return _int_end(b[0], True), _int_end(b[1], False)
    if t.kind != "float":
        return FULL
    if t.is_constant:
        return FULL if t.con != t.con else (t.con, t.con)
    if depth == 0:
        return FULL
    cls = type(x)
    ins = x.inputs

    def of(i: int) -> Bounds:
        return float_bounds(ins[i], depth - 1, memo, facts)

    if cls is Refine:
        return of(1)
    if cls is ToFloat:
        return of(1)
    if cls is Neg:
        lo, hi = of(1)
        return -hi, -lo
    if cls is Abs or cls is MATH_NODES["Fabs"]:
        return _abs(of(1))
    if cls is Add or cls is Sub:
        (alo, ahi), (blo, bhi) = of(1), of(2)
        if cls is Sub:
            blo, bhi = -bhi, -blo
        return _hull([alo + blo, ahi + bhi])
    if cls is Mul:
        a, b = ins[1], ins[2]
        if a is b:
            return _square(of(1))
        for p, q, i in ((a, b, 1), (b, a, 2)):
            if type(q) is Neg and q.inputs[1] is p:  # x * -x
                lo, hi = _square(of(i))
                return -hi, -lo
        (alo, ahi), (blo, bhi) = of(1), of(2)
        return _hull([alo * blo, alo * bhi, ahi * blo, ahi * bhi])
    if cls is Div or cls is IEEEDiv:
        (alo, ahi), (blo, bhi) = of(1), of(2)
        if not (blo > 0 or bhi < 0):
            return FULL
        return _hull([alo / blo, alo / bhi, ahi / blo, ahi / bhi])
    if cls is Min or cls is Max:
        (alo, ahi), (blo, bhi) = of(1), of(2)
        f = min if cls is Min else max
        return f(alo, blo), f(ahi, bhi)
    if cls is MATH_NODES["Sqrt"]:
        lo, hi = of(1)
        return math.sqrt(max(lo, 0.0)), math.sqrt(max(hi, 0.0))
    if cls is Phi:
        if type(ins[0]) is Loop:
            return FULL
        parts = [float_bounds(v, depth - 1, memo, facts) for v in ins[1:] if v is not None]
        return (min(p[0] for p in parts), max(p[1] for p in parts)) if parts else FULL
    r = _RANGES.get(cls.__name__)
    return r if r is not None and cls in MATH_NODES.values() else FULL


def _finite(lo: float, hi: float) -> bool:
    return -INF < lo and hi < INF


#: math function -> (no domain error on bounds (lo, hi), no range error on them)
_SAFE = {
    "Sqrt": (lambda lo, hi: lo >= 0, None),
    "Log": (lambda lo, hi: lo >= 0, lambda lo, hi: lo > 0),
    "Log2": (lambda lo, hi: lo >= 0, lambda lo, hi: lo > 0),
    "Log10": (lambda lo, hi: lo >= 0, lambda lo, hi: lo > 0),
    "Log1p": (lambda lo, hi: lo >= -1, lambda lo, hi: lo > -1),
    "Asin": (lambda lo, hi: -1 <= lo and hi <= 1, None),
    "Acos": (lambda lo, hi: -1 <= lo and hi <= 1, None),
    "Acosh": (lambda lo, hi: lo >= 1, None),
    "Atanh": (lambda lo, hi: -1 <= lo and hi <= 1, lambda lo, hi: -1 < lo and hi < 1),
    "Sin": (_finite, None),
    "Cos": (_finite, None),
    "Tan": (_finite, None),
    "Exp": (None, lambda lo, hi: hi <= 709.0),
    "Expm1": (None, lambda lo, hi: hi <= 709.0),
    "Exp2": (None, lambda lo, hi: hi <= 1023.0),
    "Sinh": (None, lambda lo, hi: -709.0 <= lo and hi <= 709.0),
    "Cosh": (None, lambda lo, hi: -709.0 <= lo and hi <= 709.0),
}


def math_call_safe(call: Node, which: str, facts: dict | None = None) -> bool:
    """Whether the one-argument math node ``call`` cannot make the error ``which``
    ('domain', 'range' or 'any') of CPython's ``math`` on its argument's bounds (under
    ``facts``, see ``float_bounds``)."""
    tests = _SAFE.get(type(call).__name__)
    if tests is None or type(call) not in MATH_NODES.values() or len(call.inputs) != 2:
        return False
    lo, hi = float_bounds(call.inputs[1], facts=facts)
    domain, rng = tests
    need = {"domain": (domain,), "range": (rng,), "any": (domain, rng)}[which]
    return all(test is not None and test(lo, hi) for test in need)


#: how many tests up the chain of single-entry control ``dominating_facts`` looks
CHAIN = 16
#: an order test ``x op c`` that holds -> the bounds it gives x (NaN never satisfies one)
_HOLDS = {"LT": lambda c: (-INF, math.nextafter(c, -INF)), "LE": lambda c: (-INF, c),
          "GT": lambda c: (math.nextafter(c, INF), INF), "GE": lambda c: (c, INF),
          "EQ": lambda c: (c, c)}
#: the test that holds, but for NaN, where ``x op c`` is false
_FALSE = {"LT": "GE", "LE": "GT", "GT": "LE", "GE": "LT", "NE": "EQ"}


def dominating_facts(ctrl: Node) -> dict:
    """Bounds on float values that the tests dominating control ``ctrl`` prove: up the
    chain of ``If`` projections (at most ``CHAIN`` tests, stopping at a merge), each
    ``x op c`` of a float ``x`` and a constant ``c`` bounds ``x`` on the arm taken.  The
    false arm counts too: ``not (x <= 0.0)`` is ``x > 0.0`` or a NaN, and bounds never
    speak of NaN.  ``not`` of a test is looked through.  O(CHAIN)."""
    facts: dict = {}
    for _ in range(CHAIN):
        if type(ctrl) is not CProj or type(ctrl.inputs[0]) is not If:
            break
        branch = ctrl.inputs[0]
        cond, holds = branch.inputs[1], ctrl.index == 0
        while type(cond) is Not:
            cond, holds = cond.inputs[1], not holds
        op = type(cond).__name__
        if not holds:
            op = _FALSE.get(op)
        if op in _HOLDS and len(cond.inputs) == 3:
            x, c = cond.inputs[1], cond.inputs[2].type
            if x.type.kind == "float" and c.is_constant and c.kind in ("float", "int") and c.con == c.con:
                lo, hi = _HOLDS[op](float(c.con))
                old = facts.get(x, FULL)
                facts[x] = (max(old[0], lo), min(old[1], hi))
        ctrl = branch.inputs[0]
    return facts

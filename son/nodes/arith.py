"""Data nodes: constants, arithmetic, bitwise and shifts, casts.

Every data node has ``inputs[0]`` = control (None when it floats freely; a
node that would fault without its guard keeps the guard's projection there)
and its operands after it.  ``eval`` is the reference semantics on Python
values (used by the interpreter and, through ``compute``, by the folder), so
folding can never disagree with execution:

* ints are int64 and wrap (two's complement); bools act as ints in arithmetic;
* ``//`` and ``%`` floor as in Python; ``/`` is true division;
* a zero divisor raises ZeroDivisionError (and is therefore never folded);
* ``a ** b`` on ints raises ValueError for b < 0 (the frontend turns a
  negative *constant* exponent into float arithmetic, as CPython does);
* ``a << b`` / ``a >> b`` raise ValueError for b < 0 and give the wrapped
  Python result otherwise (0 or -1 for counts of 64 and more).

The type of an int result is a range (``son.nodes.ranges`` has the transfer
functions, bools read as 0 or 1): sound under int64 wrap-around, so a result
whose exact range may leave int64 is the full ``INT``.  Comparisons of two
ranges that do not overlap fold.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from . import ranges
from .node import Node
from .types import BOOL, BOTTOM, FLOAT, INT, INT64_MIN, NUMBER, Type, bounds, constant, int_range, wrap64


def _wrap(r):
    return wrap64(r) if type(r) is int else r


def _either_order(r, a, b):
    """``r = a op b`` for a commutative ``op``, the same for ``b op a``.  Only a NaN made
    from two NaN operands tells the orders apart: its sign is the hardware's pick of an
    operand (x86 takes the first), which the peephole's canonical operand order changes.
    son makes that NaN negative only when both are (the oracle and docs/decisions.md
    treat a NaN's sign as unspecified, as IEEE 754 does)."""
    if r != r and a != a and b != b:
        neg = math.copysign(1.0, a) < 0 and math.copysign(1.0, b) < 0
        return -math.nan if neg else math.nan
    return r


def ranged(kind: Type, f, *ts: Type) -> Type:
    """``kind``, narrowed to the range ``f`` gives on the operands' ranges when the
    result is an int: ``INT`` where ``f`` gives no bound or the range leaves int64."""
    if kind is not INT:
        return kind
    bs = [bounds(t) for t in ts]
    if None in bs:
        return INT
    r = f(*bs)
    return INT if r is None else int_range(*r)


def arith_kind(a: Type, b: Type) -> Type:
    """Result type of +, -, *, //, % on two scalars (bools count as ints)."""
    if a.kind is None or b.kind is None:
        return BOTTOM
    if a.kind == "float" or b.kind == "float":
        return FLOAT
    if a.kind == "number" or b.kind == "number":
        return NUMBER
    return INT


class Constant(Node):
    """A constant; its lattice type is its payload.  ``inputs[0]`` is Start."""

    __slots__ = ("value_type",)

    def __init__(self, graph, t: Type):
        self.value_type = t
        super().__init__(graph, graph.start)

    def payload(self):
        return (self.value_type,)

    @property
    def value(self):
        return self.value_type.con

    @property
    def label(self) -> str:
        return str(self.value_type)

    def compute(self) -> Type:
        return self.value_type

    def eval(self):
        return self.value_type.con


class Binary(Node):
    """A binary operator ``op(lhs, rhs)``; subclasses give ``op`` and ``symbol``."""

    __slots__ = ()
    symbol = "?"

    def __init__(self, graph, lhs, rhs, ctrl=None):
        super().__init__(graph, ctrl, lhs, rhs)

    @property
    def lhs(self) -> Node:
        return self.inputs[1]

    @property
    def rhs(self) -> Node:
        return self.inputs[2]

    @property
    def label(self) -> str:
        return self.symbol

    def result_type(self, a, b):
        return arith_kind(a, b)


class Unary(Node):
    __slots__ = ()
    symbol = "?"

    def __init__(self, graph, x, ctrl=None):
        super().__init__(graph, ctrl, x)

    @property
    def x(self) -> Node:
        return self.inputs[1]

    @property
    def label(self) -> str:
        return self.symbol


# ---------------------------------------------------------------- arithmetic
class Add(Binary):
    __slots__ = ()
    symbol = "+"
    commutative = True

    def eval(self, a, b):
        return _either_order(_wrap(a + b), a, b)

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.add, a, b)


class Sub(Binary):
    __slots__ = ()
    symbol = "-"

    def eval(self, a, b):
        return _wrap(a - b)

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.sub, a, b)


class Mul(Binary):
    __slots__ = ()
    symbol = "*"
    commutative = True

    def eval(self, a, b):
        return _either_order(_wrap(a * b), a, b)

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.mul, a, b)


class Div(Binary):
    """True division ``a / b``: always float."""

    __slots__ = ()
    symbol = "/"

    def eval(self, a, b):
        return a / b

    def result_type(self, a, b):
        return FLOAT if a.kind and b.kind else BOTTOM


class FloorDiv(Binary):
    __slots__ = ()
    symbol = "//"

    def eval(self, a, b):
        return _wrap(a // b)

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.floordiv, a, b)


class Mod(Binary):
    __slots__ = ()
    symbol = "%"

    def eval(self, a, b):
        return _wrap(a % b)

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.mod, a, b)


class Pow(Binary):
    __slots__ = ()
    symbol = "**"

    def eval(self, a, b):
        if type(a) is not float and type(b) is not float:
            if b < 0:
                raise ValueError("integer ** negative integer is not an int")
            return wrap64(pow(a, b, 1 << 64))
        r = a**b
        if type(r) is complex:
            raise ValueError("negative number raised to a fractional power (complex result)")
        return r

    def result_type(self, a, b):
        return ranged(arith_kind(a, b), ranges.pow_, a, b)


class IEEEDiv(Binary):
    """``a / b`` with IEEE-754 results (inf, nan) instead of ZeroDivisionError.

    Never built by the frontend: derivative rules use it (son/grad/rules.py), where a
    partial such as ``1/x`` must be a total function that no guard protects."""

    __slots__ = ()
    symbol = "fdiv"

    def eval(self, a, b):
        try:
            return float(a) / float(b)
        except ZeroDivisionError:
            with np.errstate(all="ignore"):
                return float(np.float64(a) / np.float64(b))

    def result_type(self, a, b):
        return FLOAT if a.kind and b.kind else BOTTOM


class IEEEPow(Binary):
    """``a ** b`` on floats with IEEE-754 results (C ``pow``: ``0.0 ** -1.0`` is inf, a
    negative base to a fractional power nan, overflow inf) where Python raises.
    Built by derivative rules (son/grad/rules.py), like ``IEEEDiv``, and for C's ``pow``
    in CPython's algorithms written in Python (son/frontend/libm.py)."""

    __slots__ = ()
    symbol = "fpow"

    def eval(self, a, b):
        try:
            r = float(a) ** float(b)
            if type(r) is float:
                return r
        except (ZeroDivisionError, OverflowError):
            pass
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(a), np.float64(b)))

    def result_type(self, a, b):
        return FLOAT if a.kind and b.kind else BOTTOM


class ZMul(Binary):
    """``p * d`` where an exactly zero factor absorbs the other, inf and nan too: the
    product of a local partial ``p`` and an adjoint or a tangent ``d`` (built by
    ``son.grad.rules.product``).  A derivative that is exactly zero contributes exactly
    zero (a "strong zero"; JAX's symbolic zeros do it where they are known statically):
    a partial that is inf on a path the result does not depend on (``x * inf``) leaves
    the gradient finite, and so does the inf tangent of ``x * inf`` through a ``max``
    that did not take it (partial 0).

    The value is ``p * d`` when ``p`` is finite and non-zero (a zero ``d`` gives a
    signed zero there), else ``0.0`` when either is zero, else ``p * d``.  That order
    is the kernel's: it tests only the partial on the common path, which for a
    loop-invariant partial LLVM hoists out of the loop, and never the adjoint's
    loop-carried chain (a test of ``d`` there cost horner's gradient 1.8x); ``eval``
    follows it bit for bit.  The sign of a zero derivative is not meaningful.

    Never built by the frontend: the derivative transforms (son/grad) build it."""

    __slots__ = ()
    symbol = "zmul"

    def eval(self, p, d):
        p, d = float(p), float(d)
        if math.isfinite(p) and p != 0:
            return p * d
        return 0.0 if p == 0 or d == 0 else p * d

    def result_type(self, p, d):
        return FLOAT if p.kind and d.kind else BOTTOM


class GradVia(Node):
    """``GradVia(value, surrogate)``: the value ``value``, whose derivative is
    ``surrogate``'s.  Built only by a parse for the derivative transforms, where an
    algorithm's value must stay exact but differentiating it would be slow: numpy's
    pairwise float sum (an explicit stack, blocks of eight running sums) has the same
    derivative as the sum in order, a plain loop the transforms record cheaply
    (son/frontend/arrayfns.py).  Its rule (son.grad.rules) sends the whole derivative to
    the surrogate, and the transforms replace the node by ``value`` in what they build,
    so neither the surrogate's value nor a tape of the algorithm is ever computed.
    Anything else sees ``value``: its type is ``value``'s, the interpreter and the
    kernels give ``value``."""

    __slots__ = ()

    def __init__(self, graph, value, surrogate):
        super().__init__(graph, None, value, surrogate)

    @property
    def label(self) -> str:
        return "grad-via"

    def compute(self) -> Type:
        return self.inputs[1].type

    def eval(self, value, surrogate):
        return value


class Neg(Unary):
    __slots__ = ()
    symbol = "-"

    def eval(self, a):
        return _wrap(-a)

    def result_type(self, a):
        return ranged(arith_kind(a, INT), ranges.neg, a)


# ---------------------------------------------------------------- bitwise
def _bitwise_kind(a: Type, b: Type) -> Type:
    if a.kind is None or b.kind is None or "float" in (a.kind, b.kind):
        return BOTTOM
    if a.kind == "bool" and b.kind == "bool":
        return BOOL
    if "number" in (a.kind, b.kind):
        return NUMBER
    return INT


class BitAnd(Binary):
    __slots__ = ()
    symbol = "&"
    commutative = True

    def eval(self, a, b):
        return a & b

    def result_type(self, a, b):
        return ranged(_bitwise_kind(a, b), lambda x, y: ranges.bitwise("&", x, y), a, b)


class BitOr(Binary):
    __slots__ = ()
    symbol = "|"
    commutative = True

    def eval(self, a, b):
        return a | b

    def result_type(self, a, b):
        return ranged(_bitwise_kind(a, b), lambda x, y: ranges.bitwise("|", x, y), a, b)


class BitXor(Binary):
    __slots__ = ()
    symbol = "^"
    commutative = True

    def eval(self, a, b):
        return a ^ b

    def result_type(self, a, b):
        return ranged(_bitwise_kind(a, b), lambda x, y: ranges.bitwise("^", x, y), a, b)


def _shift_kind(a: Type, b: Type) -> Type:
    if a.kind is None or b.kind is None or "float" in (a.kind, b.kind):
        return BOTTOM
    return NUMBER if "number" in (a.kind, b.kind) else INT


class Shl(Binary):
    __slots__ = ()
    symbol = "<<"

    def eval(self, a, b):
        if b < 0:
            raise ValueError("negative shift count")
        return 0 if b >= 64 else wrap64(a << b)

    def result_type(self, a, b):
        return ranged(_shift_kind(a, b), ranges.shl, a, b)


class Shr(Binary):
    __slots__ = ()
    symbol = ">>"

    def eval(self, a, b):
        if b < 0:
            raise ValueError("negative shift count")
        return int(a >> min(b, 64))

    def result_type(self, a, b):
        return ranged(_shift_kind(a, b), ranges.shr, a, b)


class Invert(Unary):
    __slots__ = ()
    symbol = "~"

    def eval(self, a):
        return ~a

    def result_type(self, a):
        return ranged({"int": INT, "bool": INT, "number": NUMBER}.get(a.kind, BOTTOM), ranges.invert, a)


# ---------------------------------------------------------------- comparisons
class Compare(Binary):
    """A comparison: folds when the operands' int ranges decide it (``[0, 5] < [6, 9]``;
    bools read as 0 and 1, so ``(a < b) < 3`` is True)."""

    __slots__ = ()

    def result_type(self, a, b):
        if not (a.kind and b.kind):
            return BOTTOM
        ra, rb = bounds(a), bounds(b)
        if ra is not None and rb is not None:
            r = ranges.compare(self.symbol, ra, rb)
            if r is not None:
                return constant(r)
        return BOOL


def _compare(name: str, symbol: str, op, commutative: bool) -> type:
    def eval(self, a, b):
        return op(a, b)

    return type(name, (Compare,), {"__slots__": (), "symbol": symbol, "eval": eval,
                                   "commutative": commutative, "__doc__": f"a {symbol} b"})


EQ = _compare("EQ", "==", operator.eq, True)
NE = _compare("NE", "!=", operator.ne, True)
LT = _compare("LT", "<", operator.lt, False)
LE = _compare("LE", "<=", operator.le, False)
GT = _compare("GT", ">", operator.gt, False)
GE = _compare("GE", ">=", operator.ge, False)

#: the comparison with its operands swapped: a < b  ==  b > a
SWAPPED = {EQ: EQ, NE: NE, LT: GT, LE: GE, GT: LT, GE: LE}


class ULT(Binary):
    """``a < b`` of two ints read as unsigned 64-bit ints (their int64 bit patterns): one
    compare where a signed test needs two, such as a range loop's "another element
    follows" test on a distance that may have wrapped (son/frontend/loops.py).  Folds
    where both ranges lie on one side of 0, whose unsigned order is the signed one."""

    __slots__ = ()
    symbol = "<u"

    def eval(self, a, b):
        return (a & _U64) < (b & _U64)

    def result_type(self, a, b):
        if not (a.kind and b.kind):
            return BOTTOM
        ra, rb = bounds(a), bounds(b)
        if ra is not None and rb is not None and (min(ra[0], rb[0]) >= 0 or max(ra[1], rb[1]) < 0):
            r = ranges.compare("<", ra, rb)
            if r is not None:
                return constant(r)
        return BOOL


_U64 = (1 << 64) - 1


class Not(Unary):
    __slots__ = ()
    symbol = "not "

    def eval(self, a):
        return not a

    def result_type(self, a):
        r = bounds(a)
        if r is not None and not r[0] <= 0 <= r[1]:
            return constant(False)  # never 0
        return BOOL if a.kind else BOTTOM


# ---------------------------------------------------------------- casts
class ToFloat(Unary):
    """``float(x)`` for an int, bool or float."""

    __slots__ = ()
    symbol = "float"

    def eval(self, a):
        return float(a)

    def result_type(self, a):
        return FLOAT if a.kind else BOTTOM


class ToInt(Unary):
    """``int(x)``: truncates floats; NaN raises ValueError, out of int64 OverflowError."""

    __slots__ = ()
    symbol = "int"

    def eval(self, a):
        if type(a) is float and math.isfinite(a) and not (INT64_MIN <= a < -float(INT64_MIN)):
            raise OverflowError("float too large to convert to int64")
        return wrap64(int(a))

    def result_type(self, a):
        if a.kind == "int" or a.kind == "bool":
            return int_range(*bounds(a))
        return INT if a.kind else BOTTOM


class IsFloat(Unary):
    """Is ``x`` a float at run time?  Folds once the kind is known; guards the
    operations that raise TypeError on a float when a parameter's kind is unknown."""

    __slots__ = ()
    symbol = "isfloat"

    def eval(self, a):
        return type(a) is float

    def compute(self) -> Type:
        k = self.inputs[1].type.kind
        if k in ("int", "bool", "float"):
            return constant(k == "float")
        return super().compute()

    def result_type(self, a):
        return BOOL if a.kind else BOTTOM


class ToBool(Unary):
    __slots__ = ()
    symbol = "bool"

    def eval(self, a):
        return bool(a)

    def result_type(self, a):
        r = bounds(a)
        if r is not None and not r[0] <= 0 <= r[1]:
            return constant(True)  # never 0
        return BOOL if a.kind else BOTTOM

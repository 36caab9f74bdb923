"""The derivative rule table: ``PARTIALS[node class] -> rule``, one place for every
local derivative that forward mode (``forward.py``) and reverse mode (``reverse.py``)
use.

``rule(b, node, ins, out)``: ``node`` is the primal node (its payload is read from
it), ``ins`` its inputs already mapped into the graph being built (same positions as
``node.inputs``; rules ignore control and memory positions), ``out`` the mapped node of
the primal value.  The rule returns, aligned with ``node.inputs``, the partial
derivative ``d out / d input`` as a node of the target graph, or None where the input
carries no derivative (an int or bool, a constant, control, or a partial that is
structurally zero).  ``b`` builds pure data nodes: ``b.node(cls, *operands, **payload)``
(the node, after the peephole) and ``b.const(value)``.  A rule may build a partial the
caller then does not use; the caller kills it (a built node with no user is dead).

Forward mode: ``ydot = sum_i p_i * xdot_i``.  Reverse mode: ``xbar_i += p_i * ybar``.
Both products are built by ``product`` as ``ZMul`` (``son.nodes``): an exactly zero
tangent, adjoint or partial contributes exactly zero, whatever the other factor (a
strong zero): ``x * inf`` on a path the result does not depend on gives a derivative
0, not ``inf * 0 = nan``.

Every partial is a *total* function: it never raises, whatever the operands (the
primal's guards do not protect it, and passes may hoist it).  Where a divisor or a
power's base may be zero the rules use ``IEEEDiv`` / ``IEEEPow`` (inf/nan instead of
``ZeroDivisionError``) and math nodes without their guards (nan instead of ``ValueError``).

Choices where the derivative is not classical (documented, tested):

* ``a // b``, ``floor``, ``ceil``, ``trunc``: derivative 0 (piecewise constant).
* ``a % b`` (and ``fmod``): ``d/da = 1``, ``d/db = -q`` with ``q`` the integer quotient
  (``a // b``; ``trunc(a / b)`` for fmod), computed as the nearest integer to
  ``(a - out) / b`` so that it agrees with CPython's floor division.
* ``abs(x)`` (and ``fabs``): ``copysign(1.0, x)``: +1 at ``0.0``, -1 at ``-0.0``
  (a subgradient; JAX and autograd use 0 there).
* ``min(a, b)`` / ``max(a, b)``: the partial follows the operand Python returns
  (``b`` only if ``b < a`` resp. ``b > a``): 1 for that operand, 0 for the other, so
  ties and NaN go to ``a``.
* ``a ** b``: ``d/da = b * a ** (b - 1)`` (IEEE power); ``d/db = log(a) * out`` with
  ``log(a)`` replaced by 0 where ``a == 0`` (so ``0.0 ** b`` has ``d/db = 0``, as the
  limit from the right; a negative base gives NaN, the derivative being complex).
* ``sqrt`` at 0, ``log`` at 0, ``asin``/``acos`` at +-1: inf or nan, as IEEE division
  gives.
* ``int -> float`` and ``float -> int`` casts carry no derivative (ints have none);
  ``float(x)`` of a float is the identity.
* ``copysign(a, b)``: ``d/da = sign(a) * sign(b)`` (copysigns), ``d/db = 0``.

``is_differentiable(node)``: float-typed values, and 'number' values (int or float,
decided at run time: e.g. ``max(x, 1)`` with ``x`` a float) whose tangent is a float.
Ints and bools carry no derivative.

Every node class of ``son.nodes`` is in exactly one of: ``PARTIALS``, ``STRUCTURAL``
(the transforms handle it themselves: phis, memory, control, parameters, constants),
``DISCRETE`` (its value is never a float, so it has no derivative), or
``NOT_DIFFERENTIABLE`` (float-valued without a rule: the transforms raise ``SonError``
naming it).  tests/test_grad_forward.py checks this partition.

Cost: a rule builds O(1) nodes.
"""

from __future__ import annotations

import math
from typing import Callable

from ..errors import SonError
from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    MATH_NODES,
    NE,
    ULT,
    Abs,
    Add,
    ArrayLen,
    BitAnd,
    BitOr,
    BitXor,
    Call,
    CallMem,
    CallOut,
    Constant,
    CProj,
    Div,
    FloorDiv,
    GradVia,
    IEEEDiv,
    IEEEPow,
    If,
    Invert,
    IsFinite,
    IsFloat,
    IsInf,
    IsNan,
    ListLen,
    ListOp,
    Load,
    Loop,
    MathError,
    Max,
    Min,
    Mod,
    Mul,
    Neg,
    Never,
    NewArray,
    NewList,
    Node,
    Not,
    OutOfBounds,
    Overlaps,
    PairwiseSum,
    Phi,
    Pow,
    Proj,
    PyOut,
    PyRegion,
    PyRegionMem,
    Raise,
    Refine,
    Region,
    Return,
    Shl,
    Shr,
    Start,
    Stop,
    Store,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    XCtrl,
    ZMul,
    constant,
)
from ..nodes.memory import TapeGrow

__all__ = ["DISCRETE", "Builder", "NOT_DIFFERENTIABLE", "PARTIALS", "STRUCTURAL", "Rule", "is_differentiable",
           "refuse_active_regions",
           "product"]

Rule = Callable[[object, Node, list, Node], list]

#: node class -> its derivative rule (see the module docstring)
PARTIALS: dict[type, Rule] = {}

#: classes the transforms handle structurally, not through a rule
STRUCTURAL: set[type] = {Phi, Load, Store, NewArray, ArrayLen, Constant, Proj, Start, Stop, Region, Loop,
                         If, CProj, Return, Raise, XCtrl, TapeGrow, NewList, ListOp}

#: classes whose values are never floats (ints, bools): no derivative flows through them
DISCRETE: frozenset[type] = frozenset({EQ, NE, LT, LE, GT, GE, ULT, Not, BitAnd, BitOr, BitXor, Shl, Shr,
                                       Invert, ToInt, ToBool, IsFloat, IsNan, IsInf, IsFinite, MathError,
                                       OutOfBounds, Overlaps,
                                       Never, Refine, ListLen})

#: float-valued classes without a rule: differentiating through one is a SonError (forward
#: mode rewrites calls before it gets there, son/grad/calls.py, and reverse mode gives a
#: graph with calls to forward mode)
NOT_DIFFERENTIABLE: frozenset[type] = frozenset({Call, CallMem, CallOut, PyRegion, PyRegionMem, PyOut,
                                                 PairwiseSum})  # (a GradVia's value: never differentiated)

M = MATH_NODES


def refuse_active_regions(graph, active) -> None:
    """A fallback region (``PyRegion``: code CPython runs) that is given a value or an
    array carrying a derivative would need one CPython cannot give: a SonError naming
    it.  Regions given only inactive values (logging, bookkeeping) stay, their results
    constants of the derivative.  O(N)."""
    for n in graph.nodes():
        if type(n) is PyRegion and any(x in active for x in n.inputs[2:]):
            first = n.code.text.splitlines()[0]
            raise SonError(f"{graph.name}: cannot differentiate through code son runs with CPython (the "
                           f"fallback region at {n.code.where}: {first!r}): it is given values that depend "
                           "on the differentiated arguments; compute them in code son compiles, or keep "
                           "the region to values that do not")


def is_differentiable(node: Node | None) -> bool:
    """Does ``node``'s value carry a derivative?  Floats do (and 'number' values, int or
    float at run time, whose tangent is a float); ints, bools, arrays, memory and
    control do not."""
    return node is not None and node.type.kind in ("float", "number")


def _active(x: Node | None) -> bool:
    """A primal operand through which a derivative can flow (not a constant)."""
    return is_differentiable(x) and not x.type.is_constant


def partials(*classes: type):
    """Register the decorated function as the rule of ``classes``."""

    def register(fn: Rule) -> Rule:
        for c in classes:
            assert c not in PARTIALS, c
            PARTIALS[c] = fn
        return fn

    return register


# ---------------------------------------------------------------- helpers
def product(b, p: Node, t: Node) -> Node:
    """The contribution ``p * t`` of a derivative ``t`` (a tangent, forward mode; an
    adjoint, reverse mode) through an operand whose partial is ``p``: ``ZMul(p, t)``, so
    that a zero on either side contributes zero even times inf or nan.  O(1)."""
    if p.type.is_constant and p.type.con == 1.0:
        return t
    if p.type.is_constant and p.type.con == -1.0:
        return b.node(Neg, t)
    return b.node(ZMul, p, t)


def _float(b, x: Node) -> Node:
    """``x`` as a float (a partial that is an int or bool operand, ``y`` in ``x*y``)."""
    return x if x.type.kind == "float" else b.node(ToFloat, x)


def _nearest_int(b, q: Node) -> Node:
    """The integer nearest to ``q`` (half away from zero) as a float: trunc(q + copysign(.5, q))."""
    half = b.node(M["Copysign"], b.const(0.5), q, np=True)
    return b.node(M["Trunc"], b.node(Add, q, half), np=True)


def _recip(b, x: Node) -> Node:
    return b.node(IEEEDiv, b.const(1.0), x)


def _sq(b, x: Node) -> Node:
    return b.node(Mul, x, x)


def _sign(b, x: Node) -> Node:
    return b.node(M["Copysign"], b.const(1.0), x, np=True)


def _unary(fn: Callable) -> Rule:
    """A rule for ``f(x)`` from ``fn(b, x, out) -> d out / dx``."""

    def rule(b, node, ins, out):
        return [None, fn(b, ins[1], out) if _active(node.inputs[1]) else None]

    rule.__name__ = getattr(fn, "__name__", "unary")
    return rule


def _binary(fa: Callable | None, fb: Callable | None) -> Rule:
    """A rule for ``f(a, b)`` from ``fa(b, a, b_, out)`` and ``fb(...)`` (None: zero)."""

    def rule(b, node, ins, out):
        a, y = ins[1], ins[2]
        pa = fa(b, a, y, out) if fa is not None and _active(node.inputs[1]) else None
        pb = fb(b, a, y, out) if fb is not None and _active(node.inputs[2]) else None
        return [None, pa, pb]

    return rule


def _zero(b, node, ins, out):
    """Piecewise-constant functions: derivative 0 everywhere it exists."""
    return [None] * len(node.inputs)


# ---------------------------------------------------------------- arithmetic
PARTIALS[Add] = _binary(lambda b, x, y, o: b.const(1.0), lambda b, x, y, o: b.const(1.0))
PARTIALS[Sub] = _binary(lambda b, x, y, o: b.const(1.0), lambda b, x, y, o: b.const(-1.0))
PARTIALS[Mul] = _binary(lambda b, x, y, o: _float(b, y), lambda b, x, y, o: _float(b, x))
# zmul's partials are mul's: where d == 0 the product is the constant 0 and d/dp = d = 0
# (strongly: the product of that partial and a tangent is a zmul too)
PARTIALS[ZMul] = PARTIALS[Mul]


@partials(GradVia)
def _surrogate(b, node, ins, out):
    """The whole derivative goes to the surrogate (``GradVia``), none to the value."""
    return [None, None, b.const(1.0) if _active(ins[2]) else None]
# d(x/y)/dy = -x/y**2 = -out/y
PARTIALS[Div] = _binary(lambda b, x, y, o: _recip(b, y),
                        lambda b, x, y, o: b.node(Neg, b.node(IEEEDiv, o, y)))
PARTIALS[IEEEDiv] = PARTIALS[Div]
PARTIALS[FloorDiv] = _zero


def _minus_quotient(b, x, y, o):
    """-q for ``o = x - q*y`` (mod, fmod): q is the integer nearest to (x - o) / y."""
    return b.node(Neg, _nearest_int(b, b.node(IEEEDiv, b.node(Sub, x, o), y)))


# x % y = x - q*y with q the floor quotient
PARTIALS[Mod] = _binary(lambda b, x, y, o: b.const(1.0), _minus_quotient)
PARTIALS[Neg] = _unary(lambda b, x, o: b.const(-1.0))
PARTIALS[Abs] = _unary(lambda b, x, o: _sign(b, x))
PARTIALS[ToFloat] = _unary(lambda b, x, o: b.const(1.0) if x.type.kind != "int" else None)


@partials(Pow, IEEEPow)
def pow_rule(b, node, ins, out):
    """x ** y: d/dx = y * x ** (y - 1); d/dy = log(x) * out (0 where x == 0).  The
    product in d/dx is a strong zero (``ZMul``): where ``x ** (y - 1)`` is 0 the partial
    is 0 even for an infinite ``y`` (``0.0 ** inf`` is constant 0 around a zero base;
    IEEE's ``inf * 0`` would make it nan, son.fuzz seed 6125 i15171)."""
    x, y = ins[1], ins[2]
    px = py = None
    if _active(node.inputs[1]):
        c = y.type.con if y.type.is_constant else None
        if c is not None and c == 0:
            px = None  # x ** 0 == 1
        elif c is not None and c == 1:
            px = b.const(1.0)
        elif c is not None and c == 2:
            px = b.node(Mul, b.const(2.0), x)
        else:
            px = b.node(ZMul, _float(b, y), b.node(IEEEPow, x, b.node(Sub, y, b.const(1.0))))
    if _active(node.inputs[2]):
        x_or_1 = b.node(Add, x, b.node(ToFloat, b.node(EQ, x, b.const(0.0))))  # log(1) = 0 at x == 0
        py = b.node(Mul, _m("Log", x_or_1, b=b), out)
    return [None, px, py]


def _min_max(cmp: type) -> Rule:
    """min/max: the partial follows the operand Python returns (b only if ``cmp(b, a)``)."""

    def rule(b, node, ins, out):
        a, y = ins[1], ins[2]
        took_b = b.node(ToFloat, b.node(cmp, y, a))
        pa = b.node(Sub, b.const(1.0), took_b) if _active(node.inputs[1]) else None
        pb = took_b if _active(node.inputs[2]) else None
        if pb is None and took_b.is_unused():
            took_b.kill()
        return [None, pa, pb]

    return rule


PARTIALS[Min] = _min_max(LT)
PARTIALS[Max] = _min_max(GT)


# ---------------------------------------------------------------- math functions
#: math functions whose ``math`` flavour is not float -> float in a kernel (numba's
#: ``math.floor`` returns an int): the rules build their numpy flavour
_NP_ONLY = frozenset({"Floor", "Ceil", "Trunc", "Rint"})


def _m(name: str, *args: Node, b) -> Node:
    """The library function ``name`` on ``args``, without guards: total (a math-flavoured
    node's value is the IEEE one; the guards that make CPython raise are separate
    nodes).  The ``math`` flavour where it is float -> float: the interpreter and the
    kernel then both call the C library's function, as for the primal, where numpy's
    own (SIMD) loops may round differently (son.fuzz seed 7125 i4520: the gradient of
    ``math.cosh`` was an ulp apart between interpreter and kernel through ``np.sinh``)."""
    return b.node(M[name], *args, np=name in _NP_ONLY)


_LN2, _LN10, _TWO_OVER_SQRT_PI = math.log(2.0), math.log(10.0), 2.0 / math.sqrt(math.pi)

_MATH_UNARY: dict[str, Callable] = {
    "Sin": lambda b, x, o: _m("Cos", x, b=b),
    "Cos": lambda b, x, o: b.node(Neg, _m("Sin", x, b=b)),
    "Tan": lambda b, x, o: b.node(Add, b.const(1.0), _sq(b, o)),
    "Asin": lambda b, x, o: _recip(b, _m("Sqrt", b.node(Sub, b.const(1.0), _sq(b, x)), b=b)),
    "Acos": lambda b, x, o: b.node(Neg, _recip(b, _m("Sqrt", b.node(Sub, b.const(1.0), _sq(b, x)), b=b))),
    "Atan": lambda b, x, o: _recip(b, b.node(Add, b.const(1.0), _sq(b, x))),
    "Sinh": lambda b, x, o: _m("Cosh", x, b=b),
    "Cosh": lambda b, x, o: _m("Sinh", x, b=b),
    "Tanh": lambda b, x, o: b.node(Sub, b.const(1.0), _sq(b, o)),
    "Asinh": lambda b, x, o: _recip(b, _m("Sqrt", b.node(Add, _sq(b, x), b.const(1.0)), b=b)),
    # 1/sqrt(x*x - 1), written as two square roots to avoid cancellation near 1
    "Acosh": lambda b, x, o: _recip(b, b.node(Mul, _m("Sqrt", b.node(Sub, x, b.const(1.0)), b=b),
                                              _m("Sqrt", b.node(Add, x, b.const(1.0)), b=b))),
    "Atanh": lambda b, x, o: _recip(b, b.node(Sub, b.const(1.0), _sq(b, x))),
    "Exp": lambda b, x, o: o,
    "Exp2": lambda b, x, o: b.node(Mul, o, b.const(_LN2)),
    "Expm1": lambda b, x, o: b.node(Add, o, b.const(1.0)),
    "Log": lambda b, x, o: _recip(b, x),
    "Log2": lambda b, x, o: _recip(b, b.node(Mul, x, b.const(_LN2))),
    "Log10": lambda b, x, o: _recip(b, b.node(Mul, x, b.const(_LN10))),
    "Log1p": lambda b, x, o: _recip(b, b.node(Add, x, b.const(1.0))),
    "Sqrt": lambda b, x, o: b.node(IEEEDiv, b.const(0.5), o),
    "Cbrt": lambda b, x, o: _recip(b, b.node(Mul, b.const(3.0), _sq(b, o))),
    "Fabs": lambda b, x, o: _sign(b, x),
    "Erf": lambda b, x, o: b.node(Mul, b.const(_TWO_OVER_SQRT_PI), _m("Exp", b.node(Neg, _sq(b, x)), b=b)),
    "Erfc": lambda b, x, o: b.node(Mul, b.const(-_TWO_OVER_SQRT_PI), _m("Exp", b.node(Neg, _sq(b, x)), b=b)),
}
for _name, _fn in _MATH_UNARY.items():
    PARTIALS[M[_name]] = _unary(_fn)
for _name in ("Floor", "Ceil", "Trunc", "Rint"):
    PARTIALS[M[_name]] = _zero

# atan2(y, x): d/dy = x / (x^2 + y^2) = 1 / (x + y * (y / x)), d/dx = -y / (x^2 + y^2) =
# -1 / (y + x * (x / y)).  Written the second way, an infinite operand gives the limit 0
# where the first gives inf / inf = nan (son.fuzz seed 10125 i15436: the gradient of
# atan2(inf, x0 / x0) was nan in reverse mode, 0 in forward mode, where the tangent of
# x0 / x0 is exactly 0), a zero operand gives 0 the same way (y / 0 is inf), and tiny
# or huge operands do not underflow or overflow in a square (atan2(1e-300, 1e-300)).
PARTIALS[M["Atan2"]] = _binary(
    lambda b, y, x, o: _recip(b, b.node(Add, x, b.node(Mul, y, b.node(IEEEDiv, y, x)))),
    lambda b, y, x, o: b.node(Neg, _recip(b, b.node(Add, y, b.node(Mul, x, b.node(IEEEDiv, x, y))))))
PARTIALS[M["Hypot"]] = _binary(lambda b, x, y, o: b.node(IEEEDiv, x, o),
                               lambda b, x, y, o: b.node(IEEEDiv, y, o))
PARTIALS[M["Copysign"]] = _binary(lambda b, x, y, o: b.node(Mul, _sign(b, x), _sign(b, y)), None)
# fmod(x, y) = x - trunc(x / y) * y
PARTIALS[M["Fmod"]] = _binary(lambda b, x, y, o: b.const(1.0), _minus_quotient)


# ---------------------------------------------------------------- a builder for the transforms
class Builder:
    """Builds pure data nodes in ``graph`` through the peephole (``node``, ``const``),
    pinning each result until ``release()``: a transform holds nodes in Python
    variables while later folds could otherwise kill them.  ``release()`` unpins them
    all and kills those nothing uses (partials a transform built but did not need)."""

    def __init__(self, graph, peephole: bool = True):
        from ..peephole.engine import Peephole

        self.graph = graph
        self.peephole = Peephole(graph, enabled=peephole)
        self.pinned: list[Node] = []

    def pin(self, n: Node) -> Node:
        self.pinned.append(n.keep())
        return n

    def node(self, cls: type, *operands: Node, **payload) -> Node:
        return self.pin(self.peephole.peep(cls(self.graph, *operands, **payload)))

    def const(self, value) -> Node:
        return self.pin(self.peephole.peep(Constant(self.graph, constant(value))))

    def release(self) -> None:
        pinned, self.pinned = self.pinned, []
        for n in pinned:
            n.unkeep()
        for n in pinned:
            if n.inputs is not None and n.is_unused():
                n.kill()

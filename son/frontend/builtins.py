"""More of Python's numeric builtins, each as the nodes CPython's definition computes.

- ``operator.add(a, b)`` and its siblings: the operator itself (``a + b``), parsed
  as the expression they stand for, so every guard and rule of the operator
  applies (``OPERATOR_FORMS``).
- ``math.degrees(x)``, ``math.radians(x)``: ``x`` times CPython's constant
  ``180 / pi`` (``pi / 180``), as mathmodule.c computes them.
- ``round(x)``: of a float, ``int()`` of ``np.rint(x)``, which rounds half to even as
  CPython does (``round(2.5) == 2``), with ``int()``'s errors for NaN and
  infinities; of an int or a bool, the int.  ``round(x, ndigits)`` for a constant
  ``ndigits``: exactly CPython's (which rounds through a correctly rounded decimal
  conversion) by an exact scaling, ``pylib.round_float`` and ``round_int``; a float
  with ``22 < |ndigits|`` (where the power of ten is not an exact float) is refused
  unless the result is ``x`` or a zero.
- ``math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)``: CPython's four tests
  (equal; else not if either is infinite; else ``|b - a|`` within one of the
  tolerances), negative tolerances raising ``ValueError``.
- ``math.pow(a, b)``: ``float(a) ** float(b)`` with math's errors (ValueError for
  ``0.0`` to a negative power and a negative base to a fractional one).
- ``float("inf")`` and other string literals: the float they name.
- methods and attributes of values: ``x.is_integer()`` of a float, ``x.conjugate()``,
  ``n.bit_length()``, ``x.real``, ``x.imag``, ``a.ndim``.
- ``math.hypot`` of other than two arguments: CPython's ``vector_norm`` on a tuple
  (``pylib.hypot_n``).
- ``pow(a, b, m)``: CPython's modular power (a negative ``b`` through the modular
  inverse, ValueError where there is none), ``pylib.pow3``.
- ``math.gcd``, ``math.lcm``, ``math.isqrt``, ``math.factorial``, ``math.comb``,
  ``math.perm``, ``math.frexp``, ``math.ldexp``, ``math.modf``, ``math.nextafter``,
  ``math.ulp``, ``math.remainder``, ``math.gamma``, ``math.lgamma``: CPython's (or
  libm's) definitions written in Python
  (``pylib.py``) and inlined; the float ones exactly (scalings with powers of two and
  at most one rounding; gamma and lgamma as CPython's own Lanczos sum, with libm's
  ``exp``/``pow``/``log`` through ``libm.py``).
- ``math.fsum(xs)`` and ``math.dist(p, q)`` of arrays, lists, tuples, ranges and
  generator expressions: CPython's algorithms (``pylib.fsum``: Shewchuk's partials
  with CPython's specials and final half-even correction; ``pylib.dist``: the
  ``hypot`` of the differences) inlined on the values.
- ``isinstance(x, float)`` and ``isinstance(x, np.ndarray)`` (or a tuple of them):
  decided by the lattice (an int-or-float value tests its tag; None, tuples and
  complex numbers are neither; a value that may be None tests its flag).  Tests against
  ``int`` or ``bool`` are refused: son's int64 may be a Python int or a
  ``numpy.int64`` loaded from an array, which CPython tells apart.

Each is O(1) nodes besides its arguments (an inlined ``pylib`` function: its body).
"""

from __future__ import annotations

import ast
import math
import operator

import numpy as np

from ..nodes import (
    EQ,
    LE,
    LT,
    Abs,
    BitAnd,
    BitOr,
    IsFinite,
    IsFloat,
    IsInf,
    Mul,
    Node,
    Not,
    Sub,
    ToFloat,
    ToInt,
    kept,
)
from ..nodes.mathfn import MATH_NODES
from ..nodes.types import NONE, TOP, ArrayType
from . import libm, pylib
from .core import _kind
from .scope import Aggregate, Cplx, Grid, Opt, Rng, View

#: ``operator`` function -> the Python expression it computes on its arguments ``a``, ``b``
OPERATOR_FORMS: dict = {
    operator.add: "a + b", operator.sub: "a - b", operator.mul: "a * b", operator.truediv: "a / b",
    operator.floordiv: "a // b", operator.mod: "a % b", operator.pow: "a ** b",
    operator.and_: "a & b", operator.or_: "a | b", operator.xor: "a ^ b",
    operator.lshift: "a << b", operator.rshift: "a >> b",
    operator.lt: "a < b", operator.le: "a <= b", operator.eq: "a == b", operator.ne: "a != b",
    operator.gt: "a > b", operator.ge: "a >= b",
    operator.neg: "-a", operator.pos: "+a", operator.invert: "~a", operator.inv: "~a",
    operator.not_: "not a", operator.truth: "bool(a)", operator.abs: "abs(a)",
    operator.index: "a",
}

_DEGREES, _RADIANS = 180.0 / math.pi, math.pi / 180.0


class Builtins:
    """FunctionParser's numeric builtins beyond ``calls.py`` (a mixin)."""

    def call_operator(self, e: ast.Call, name: str, fn) -> object:
        form = ast.parse(OPERATOR_FORMS[fn], mode="eval").body
        names = ["a", "b"][:sum(1 for n in ast.walk(form) if isinstance(n, ast.Name) and n.id in ("a", "b"))]
        self.arity(e, name, len(names), len(names))  # each argument is evaluated once, in the form
        if fn is operator.index:
            (x,) = self.exprs(e.args)
            if _kind(x) not in ("int", "bool"):
                raise self.error(e, f"{name}() of a {x.type.widen()} value: an int is needed", name)
            return self.op(e, ToInt, x) if _kind(x) == "bool" else x
        args = dict(zip(names, e.args))

        class Subst(ast.NodeTransformer):
            def visit_Name(self, n):
                return args.get(n.id, n) if isinstance(n.ctx, ast.Load) else n

        given = {id(n) for a in args.values() for n in ast.walk(a)}
        expr = Subst().visit(form)
        for n in ast.walk(expr):
            if id(n) not in given:
                ast.copy_location(n, e)  # the form's own nodes are located at the call
        if isinstance(expr, ast.Call):  # bool(a), abs(a): the builtin's handler, named as written
            from .calls import _CALLS

            return _CALLS[{"bool": bool, "abs": abs}[expr.func.id]](self, expr, name)
        return self.expr(expr)

    def call_angle(self, e: ast.Call, name: str, factor: float):
        (x,) = self.scalars(e, name, self.args(e, name, 1, 1))
        return self.arith(e, Mul, self.con(factor), self.op(e, ToFloat, x))

    def call_round(self, e: ast.Call, name: str):
        self.arity(e, name, 1, 2, ("ndigits",))
        given = e.args[1:] + [k.value for k in e.keywords]
        if given and not (isinstance(given[0], ast.Constant) and given[0].value is None):
            return self.round_digits(e, name, given[0])
        (x,) = self.scalars(e, name, self.args(ast.copy_location(ast.Call(e.func, e.args[:1], []), e),
                                               name, 1, 1))
        k = _kind(x)
        if k in ("int", "bool"):
            return self.op(e, ToInt, x)
        if k == "number" and x.type is not TOP:  # TOP: dead code, any kind
            raise self.error(e, "round() of a value that may be an int or a float: son rounds floats "
                                "with np.rint, which would round a large int", name)
        return self.to_int(e, self.op(e, MATH_NODES["Rint"], x, np=True))

    def round_digits(self, e: ast.Call, name: str, ndigits: ast.expr):
        """``round(x, ndigits)``: an int's nearest multiple of ``10**-ndigits``
        (``pylib.round_int``), a float's exact rounding at the digit (``pylib.round_float``,
        for ``|ndigits| <= 22``: ``10**ndigits`` is then exact).  An ``ndigits`` known only
        at run time takes the same steps (``round_float_at``): the digits son does
        not round exactly are a located refusal for a constant, son's run-time refusal
        (NotImplementedError) where met at run time."""
        (x,) = self.scalars(e, name, self.exprs(e.args[:1]))
        with kept(x):
            nd = self.expr(ndigits)
        if _kind(nd) not in ("int", "bool"):
            raise self.error(e, f"{name}(): ndigits must be an int, not {nd.type.widen()} "
                                "(CPython: TypeError)", name)
        k = _kind(x)
        if not nd.type.is_constant:  # the same steps, the digit known when they run
            fn = round_int_at if k in ("int", "bool") else round_number_at \
                if k == "number" and x.type is not TOP else round_float_at
            with kept(x, nd):
                return self.inline(e, fn, [x, nd])
        n = int(nd.type.con)
        if k in ("int", "bool"):
            with kept(x):
                return self.op(e, ToInt, x) if n >= 0 else self.inline(e, pylib.round_int, [x, self.con(n)])
        if 22 < n <= 323 or -308 <= n < -22:
            raise self.unsupported(e, f"round() with ndigits={n} (son rounds floats exactly for "
                                      "ndigits in [-22, 22], where 10**ndigits is an exact float)")
        fn = pylib.round_number if k == "number" and x.type is not TOP else pylib.round_float
        with kept(x):
            return self.inline(e, fn, [x, self.con(n)])

    def call_isclose(self, e: ast.Call, name: str):
        # every argument is evaluated, keywords too, before a None among them is CPython's
        # TypeError: the tolerances are read as they are, the positional values after them
        self.arity(e, name, 2, 2, ("rel_tol", "abs_tol"))
        raw = self.exprs(e.args, any_value=True)
        with kept(*raw):
            given = {}
            for k in e.keywords:
                with kept(*given.values()):
                    v = self.expr_any(k.value)
                    given[k.arg] = v
            with kept(*given.values()):
                a, b = self.scalars(e, name, self.checked_args(e, name, raw, e.args))
        with kept(a, b):
            for key, v in list(given.items()):
                with kept(*given.values()):
                    if isinstance(v, Opt):
                        v = self.unwrap(v, e)
                    if v.type is NONE:  # CPython's TypeError where it is reached
                        v = self.none_operand(e, f"{name}() tolerance")
                given[key] = v
            for v in given.values():
                if _kind(v) is None:
                    raise self.error(e, f"{name}() tolerances are numbers, not {v.type}", name)
        with _Pins(self, e, a, b, *given.values()) as op:
            tol = {"rel_tol": 1e-09, "abs_tol": 0.0}
            rt, at = (op(ToFloat, given[k]) if k in given else self.con(tol[k]) for k in tol)
            zero = self.con(0.0)
            self.guard(op(BitOr, op(LT, rt, zero), op(LT, at, zero)), ValueError,
                       "tolerances must be non-negative")
            x, y = op(ToFloat, a), op(ToFloat, b)
            diff = op(Abs, op(Sub, y, x))
            within = op(BitOr, op(BitOr, op(LE, diff, op(Abs, op(Mul, rt, y))),
                                  op(LE, diff, op(Abs, op(Mul, rt, x)))), op(LE, diff, at))
            finite = op(Not, op(BitOr, op(IsInf, x), op(IsInf, y)))
            return op(BitOr, op(EQ, x, y), op(BitAnd, finite, within))

    def call_math_pow(self, e: ast.Call, name: str):
        a, b = self.scalars(e, name, self.args(e, name, 2, 2))
        with kept(a, b):
            return self.power(e, a, b, library=True)

    def value_method(self, e: ast.Call):
        """``x.is_integer()`` (a float: finite and equal to its truncation) and
        ``x.conjugate()`` (an int or a float: itself; a bool: its int) on a value; None if
        ``e`` calls no method son knows on a value (it is then resolved as a global)."""
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr in ("is_integer", "conjugate", "bit_length")
                and (self.is_value(f.value) or type(self.resolve_quiet(f.value)) in (int, float, bool))):
            return None
        name = ast.unparse(f)
        if e.args or e.keywords:
            raise self.error(e, f"{name}() takes no arguments", name)
        x = self.expr(f.value)
        if isinstance(x, Cplx) and f.attr == "conjugate":
            return self.complex_conjugate(e, x)
        if x.type is NONE:  # CPython's AttributeError where it is reached
            return self.fault(AttributeError, f"'NoneType' object has no attribute '{f.attr}'")
        k = _kind(x)
        if f.attr == "bit_length" and k in ("int", "bool", "number"):
            (x,) = self.int_args(e, name, [x])
            with kept(x):
                return self.inline(e, pylib.bit_length, [x])
        if f.attr == "conjugate" and k in ("int", "bool", "float", "number"):
            return self.op(e, ToInt, x) if k == "bool" else x
        if f.attr == "is_integer" and k == "number" and x.type is not TOP:
            raise self.error(e, f"{name}() of a value that may be an int or a float", name)
        if f.attr == "is_integer" and k in ("float", "number"):
            with _Pins(self, e, x) as op:
                whole = op(EQ, self.op(e, MATH_NODES["Trunc"], x, np=True), x)
                return op(BitAnd, op(IsFinite, x), whole)
        why = " (CPython 3.11: only floats have is_integer())" if f.attr == "is_integer" else ""
        raise self.error(e, f"{x.type.widen()} has no method {f.attr}(){why}", name)

    def value_attribute(self, e: ast.Attribute):
        """``x.real``, ``x.imag`` of an int, float or bool value (CPython: ``True.real`` is 1,
        ``x.imag`` a zero of x's type); ``a.ndim``, ``a.shape`` and ``a.size`` of a 1-D array,
        and its ``a.T`` and ``a.real``, which are ``a`` (numpy's views of all of it: writes
        through them reach it); an n-D array's in ``grid_attribute``."""
        x = self.expr(e.value)
        if isinstance(x, Cplx):
            return self.complex_attribute(e, x, e.attr)
        if isinstance(x, Rng) and e.attr in ("start", "stop", "step"):
            return getattr(x, e.attr)
        if x.type is NONE:  # CPython's AttributeError where it is reached
            return self.fault(AttributeError, f"'NoneType' object has no attribute '{e.attr}'")
        k = _kind(x)
        if x.type is TOP:  # only on paths the graph proves dead: any value will do
            return x
        if isinstance(x, Grid):
            return self.grid_attribute(e, x)
        if (isinstance(x.type, ArrayType) or isinstance(x, View)) and e.attr == "ndim":
            return self.con(1)
        if (isinstance(x.type, ArrayType) or isinstance(x, View)) and e.attr == "shape":
            with kept(x):
                return self.pack([self.length(e, x)])
        if (isinstance(x.type, ArrayType) or isinstance(x, View)) and e.attr == "size":
            return self.length(e, x)
        if (isinstance(x.type, ArrayType) or isinstance(x, View)) and e.attr in ("T", "real"):
            return x  # a 1-D array's transpose, a real array's real part: itself
        if e.attr == "real" and k in ("int", "bool", "float", "number"):
            return self.op(e, ToInt, x) if k == "bool" else x
        if e.attr == "imag" and k in ("int", "bool", "float"):  # a zero of x's own type
            return self.con(0.0 if k == "float" else 0)
        raise self.unsupported(e, f"attribute .{e.attr} of a {x.type.widen()} value")

    def call_pylib(self, e: ast.Call, name: str, fn, arity: int | None = None):
        """``fn`` from ``pylib`` inlined on the call's int arguments; ``math.gcd`` and
        ``math.lcm`` of any number of them folded pairwise (``gcd()`` is 0, ``lcm()`` 1).
        A float argument is refused: CPython raises TypeError for it."""
        if arity is None:  # gcd, lcm: any number of arguments
            if len(e.args) != 2:
                if e.keywords:
                    raise self.error(e, f"{name}() takes no keyword arguments", name)
                if not e.args:
                    return self.con(0 if fn is pylib.gcd else 1)
                if len(e.args) == 1:
                    (x,) = self.int_args(e, name, self.args(e, name, 1, 1))
                    return self.op(e, Abs, self.op(e, ToInt, x) if _kind(x) == "bool" else x)
                inner = ast.copy_location(ast.Call(e.func, e.args[:2], []), e)
                return self.expr(ast.copy_location(ast.Call(e.func, [inner, *e.args[2:]], []), e))
            arity = 2
        vals = self.int_args(e, name, self.args(e, name, arity, arity))
        with kept(*vals):
            return self.inline(e, fn, vals)

    def call_perm(self, e: ast.Call, name: str):
        """``math.perm(n, k=None)``: ``factorial(n)`` without ``k``."""
        self.arity(e, name, 1, 2)
        if len(e.args) == 1 or (isinstance(e.args[1], ast.Constant) and e.args[1].value is None):
            return self.call_pylib(ast.copy_location(ast.Call(e.func, e.args[:1], []), e), name,
                                   pylib.factorial, 1)
        return self.call_pylib(e, name, pylib.perm, 2)

    def call_pylib_float(self, e: ast.Call, name: str, fn, arity: int, ints: tuple = ()):
        """``fn`` from ``pylib`` inlined on the call's number arguments (those at the
        positions ``ints`` must be ints, as CPython's ``ldexp`` exponent)."""
        vals = self.scalars(e, name, self.args(e, name, arity, arity))
        for j in ints:
            vals[j] = self.int_args(e, name, [vals[j]])[0]
        with kept(*vals):
            return self.inline(e, fn, vals)

    def call_pylib_iterables(self, e: ast.Call, name: str, fn, arity: int):
        """``fn`` from ``pylib`` inlined on the call's arguments as they are (arrays,
        lists, tuples, ranges): ``math.fsum(xs)`` (CPython's algorithm), ``math.dist(p,
        q)``.  A generator expression is passed as the list it makes (CPython's loops
        read every item before they compute)."""
        self.arity(e, name, arity, arity)
        vals = []
        for arg in e.args:
            if isinstance(arg, ast.GeneratorExp):
                arg = ast.copy_location(ast.ListComp(arg.elt, arg.generators), arg)
            with kept(*vals):
                vals.append(self.expr_any(arg))
        with kept(*vals):
            return self.inline(e, fn, vals)

    def call_libm(self, e: ast.Call, name: str, node: str):
        """A ``libm`` function (inside ``pylib``): its node, no guard."""
        from .. import nodes

        arity = MATH_NODES[node].arity if node in MATH_NODES else 2  # IEEEPow: C's pow(x, y)
        vals = self.scalars(e, name, self.args(e, name, arity, arity))
        with _Pins(self, e, *vals) as op:
            floats = [v if _kind(v) == "float" else op(ToFloat, v) for v in vals]
            return op(nodes.IEEEPow if node == "IEEEPow" else MATH_NODES[node], *floats)

    def int_args(self, e: ast.Call, name: str, vals: list[Node]) -> list[Node]:
        """``vals`` as ints: an int, a bool or a dead value as it is; an int-or-float
        value after a guard raising CPython's TypeError for a float; a float is a located
        error."""
        out = []
        for v in vals:
            k = _kind(v)
            if k == "number" and v.type is not TOP:
                with kept(*vals, *out):
                    self.guard(self.op(e, IsFloat, v), TypeError,
                               "'float' object cannot be interpreted as an integer")
                    v = self.op(e, ToInt, v, ctrl=self.scope.ctrl)  # an int from here on
            elif k not in ("int", "bool", "number"):
                raise self.error(e, f"{name}() takes ints, not {v.type.widen()} (CPython: TypeError)", name)
            out.append(v)
        return out

    def call_isinstance(self, e: ast.Call, name: str):
        if len(e.args) != 2 or e.keywords:
            raise self.error(e, "isinstance() takes 2 positional arguments", name)
        spec = e.args[1]
        classes = [self.resolve(c) for c in (spec.elts if isinstance(spec, ast.Tuple) else [spec])]
        bad = [c for c in classes if c not in (float, np.ndarray)]
        if bad:
            raise self.unsupported(e, f"isinstance() against {getattr(bad[0], '__name__', bad[0])} (son "
                                      "decides float and np.ndarray only: an int64 may be a Python int or a "
                                      "numpy.int64, which CPython tells apart)")
        (x,) = self.exprs(e.args[:1], any_value=True)
        if isinstance(x, Opt):  # not None and an instance
            with kept(x):
                inner = self.is_instance(e, name, classes, x.value)
                return self.op(e, BitAnd, self.op(e, Not, x.is_none), inner)
        return self.is_instance(e, name, classes, x)

    def is_instance(self, e: ast.Call, name: str, classes: list, x: Node) -> Node:
        k = _kind(x)
        if x.type is NONE or isinstance(x, Aggregate):  # None, a tuple, a complex: neither
            return self.con(False)
        if np.ndarray in classes and isinstance(x.type, ArrayType):
            return self.con(True)
        if float in classes and k == "number":
            return self.op(e, IsFloat, x)
        if k is None and not isinstance(x.type, ArrayType):
            raise self.error(e, f"isinstance() of a {x.type} value", name)
        return self.con(float in classes and k == "float")


class _Pins:
    """``with _Pins(parser, at, *inputs) as op:`` ``op(cls, *ins)`` makes a node with the
    parser's ``op`` and pins it (and ``inputs``) until the block ends, so a fold in a
    later node cannot kill an earlier one the expression still uses (``|c|`` of a
    constant ``c`` is ``c`` itself: folding the ``abs`` node would kill it)."""

    def __init__(self, parser, at, *inputs: Node):
        self.parser, self.at, self.nodes = parser, at, [n for n in inputs if n is not None]

    def __enter__(self):
        for n in self.nodes:
            n.keep()
        return self

    def __call__(self, cls, *ins: Node, **kw) -> Node:
        n = self.parser.op(self.at, cls, *ins, **kw)
        n.keep()
        self.nodes.append(n)
        return n

    def __exit__(self, *exc) -> None:
        for n in self.nodes:
            n.unkeep()


def float_literal(parser, e: ast.Call):
    """``float("inf")``: the float a string literal names (CPython's parse of it), or a
    located error for a string that names none."""
    s = e.args[0].value
    try:
        return parser.con(float(s))
    except ValueError:
        raise parser.error(e, f"could not convert string to float: {s!r}", "float") from None


#: callee -> handler(parser, call, name as written)
BUILTIN_CALLS: dict = {
    **{fn: (lambda p, e, n, fn=fn: p.call_operator(e, n, fn)) for fn in OPERATOR_FORMS},
    math.degrees: lambda p, e, n: p.call_angle(e, n, _DEGREES),
    math.radians: lambda p, e, n: p.call_angle(e, n, _RADIANS),
    round: lambda p, e, n: p.call_round(e, n),
    math.isclose: lambda p, e, n: p.call_isclose(e, n),
    math.pow: lambda p, e, n: p.call_math_pow(e, n),
    math.gcd: lambda p, e, n: p.call_pylib(e, n, pylib.gcd),
    math.lcm: lambda p, e, n: p.call_pylib(e, n, pylib.lcm),
    math.isqrt: lambda p, e, n: p.call_pylib(e, n, pylib.isqrt, 1),
    math.factorial: lambda p, e, n: p.call_pylib(e, n, pylib.factorial, 1),
    math.comb: lambda p, e, n: p.call_pylib(e, n, pylib.comb, 2),
    math.perm: lambda p, e, n: p.call_perm(e, n),
    math.gamma: lambda p, e, n: p.call_pylib_float(e, n, pylib.gamma, 1),
    math.lgamma: lambda p, e, n: p.call_pylib_float(e, n, pylib.lgamma, 1),
    math.frexp: lambda p, e, n: p.call_pylib_float(e, n, pylib.frexp, 1),
    math.modf: lambda p, e, n: p.call_pylib_float(e, n, pylib.modf, 1),
    math.ldexp: lambda p, e, n: p.call_pylib_float(e, n, pylib.ldexp, 2, ints=(1,)),
    math.nextafter: lambda p, e, n: p.call_pylib_float(e, n, pylib.nextafter, 2),
    math.ulp: lambda p, e, n: p.call_pylib_float(e, n, pylib.ulp, 1),
    math.remainder: lambda p, e, n: p.call_pylib_float(e, n, pylib.remainder, 2),
    math.fsum: lambda p, e, n: p.call_pylib_iterables(e, n, pylib.fsum, 1),
    math.dist: lambda p, e, n: p.call_pylib_iterables(e, n, pylib.dist, 2),
    isinstance: lambda p, e, n: p.call_isinstance(e, n),
    **{fn: (lambda p, e, n, node=node: p.call_libm(e, n, node)) for fn, node in libm.NODES.items()},
}



# ---------------------------------------------------------------- inlined (son's Python)
def round_int_at(x, n):
    """``round(x, n)`` of an int, ``n`` known at run time."""
    return x if n >= 0 else pylib.round_int(x, n)


def round_float_at(x, n):
    """``round(x, n)`` of a float, ``n`` known at run time: ``round_float`` where it is
    exact, son's run-time refusal for the digits it is not (where 10**n is inexact)."""
    if 22 < n <= 323 or -308 <= n < -22:
        raise NotImplementedError("round() of a float at ndigits in [-308, -22) or (22, 323]: son "
                                  "rounds exactly where 10**ndigits is an exact float")
    return pylib.round_float(x, n)


def round_number_at(x, n):
    """``round(x, n)`` of a value that is an int or a float, both known at run time."""
    if isinstance(x, float):
        return round_float_at(x, n)
    return round_int_at(x, n)

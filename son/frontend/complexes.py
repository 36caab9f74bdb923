"""Complex numbers as values of the parse: a ``Cplx`` holds the real and imaginary parts,
two float nodes, and every operation is CPython's (Objects/complexobject.c) on the parts.

An int, bool or float operand of a complex operator is first a complex with imaginary
part ``0.0`` (CPython 3.11's ``to_complex``: ``(1-0j) + 1.0`` has imaginary part
``0.0``, as ``-0.0 + 0.0``); ``*`` is ``_Py_c_prod`` (no fused multiply-add); ``/`` is
``_Py_c_quot``, Smith's algorithm with its ZeroDivisionError, written in Python in
``pycomplex.c_quot`` and inlined; ``z ** n`` for an exponent that is a constant integer of
magnitude at most 100 is ``c_powi``'s binary powering, unrolled while parsing, with
its ZeroDivisionError for 0 to a negative power and OverflowError for an infinite part;
any other exponent is ``pycomplex.c_pow``, CPython's ``complex_pow`` (both algorithms,
chosen at run time, and errno read as CPython reads it).  ``abs(z)`` is libm's ``hypot`` with
OverflowError where finite parts give an infinite modulus; ``cmath.phase`` is
``atan2`` with the OverflowError CPython raises where glibc's ``atan2`` reports an
underflow to zero; ``==``/``!=`` compare the parts (an int operand exactly), orders
raise.  Also ``.real``, ``.imag``, ``.conjugate()``, ``complex(a, b)``, literals
``2j``, ``cmath.polar``/``isnan``/``isinf``/``isfinite``, and ``cmath.sqrt``/``exp``/
``log``/``log10``/``rect`` as CPython computes them (``pycomplex.py``).

Like tuples, a complex never reaches the graph: what is differentiated, scheduled and
compiled is float arithmetic, so gradients through complex code come for free.  A
complex result is its two parts and a ``Return.form`` that rebuilds it; a complex
parameter is refused.  O(1)
nodes per operation (a constant power: O(log n) products)."""

from __future__ import annotations

import ast
import cmath
import math

from ..nodes import (
    EQ,
    NE,
    Add,
    BitAnd,
    BitOr,
    Div,
    IsFinite,
    IsInf,
    IsNan,
    Mul,
    Neg,
    Node,
    Not,
    Sub,
    ToFloat,
    kept,
)
from ..nodes.mathfn import MATH_NODES
from ..nodes.types import NONE
from . import pycomplex
from .builtins import _Pins
from .core import _kind
from .scope import Aggregate, Cplx


class Complexes:
    """FunctionParser's complex numbers (a mixin)."""

    def cplx(self, re: Node, im: Node) -> Cplx:
        return Cplx(self.g, re, im)

    def complex_constant(self, v: complex) -> Cplx:
        return self.cplx(self.con(v.real), self.con(v.imag))

    def to_complex(self, at, v: Node) -> Cplx:
        """``v`` as a complex: itself, or a number with imaginary part 0.0."""
        if isinstance(v, Cplx):
            return v
        if v.type is NONE:  # CPython's TypeError where it is reached
            v = self.none_operand(at, "operand")
        if _kind(v) is None or isinstance(v, Aggregate):
            raise self.error(at, f"unsupported operand type for complex arithmetic: {v.type.widen()}",
                             "complex")
        re = v if _kind(v) == "float" else self.op(at, ToFloat, v)
        return self.cplx(re, self.con(0.0))

    def complex_arith(self, at, cls, a: Node, b: Node) -> Cplx:
        """``a op b`` where one operand is complex (``cls`` None for ``**``)."""
        if cls is None:
            return self.complex_power(at, a, b)
        if cls not in (Add, Sub, Mul, Div):
            raise self.error(at, f"unsupported operand type(s) for {cls.__name__.lower()}: complex "
                                 "(CPython: can't take floor or mod of a complex number)", "complex")
        with kept(a, b):
            x = self.to_complex(at, a)
            with kept(x):
                y = self.to_complex(at, b)
            with kept(x, y):
                return self.complex_binary(at, cls, x, y)

    def complex_binary(self, at, cls, x: Cplx, y: Cplx) -> Cplx:
        with _Pins(self, at, x, y) as op:
            if cls in (Add, Sub):
                return self.cplx(op(cls, x.re, y.re), op(cls, x.im, y.im))
            if cls is Mul:
                return self.cplx(op(Sub, op(Mul, x.re, y.re), op(Mul, x.im, y.im)),
                                 op(Add, op(Mul, x.re, y.im), op(Mul, x.im, y.re)))
            q = self.inline(_call(at, "c_quot"), pycomplex.c_quot, [x.re, x.im, y.re, y.im])
            return self.cplx(*q.elems)

    def complex_power(self, at, a: Node, b: Node) -> Cplx:
        """``a ** b``: ``c_powi`` for a constant integral exponent of magnitude <= 100."""
        e = b.type.con if b.type.is_constant and _kind(b) in ("int", "bool", "float") else None
        if isinstance(b, Cplx) and b.re.type.is_constant and b.im.type.is_constant and b.im.type.con == 0.0:
            e = b.re.type.con
        if e is None or not (math.isfinite(e) and e == math.floor(e) and abs(e) <= 100):
            with kept(a, b):  # CPython's complex_pow, its two algorithms chosen at run time
                x = self.to_complex(at, a)
                with kept(x):
                    y = self.to_complex(at, b)
                with kept(x, y):
                    return self.cplx(*self.inline(_call(at, "c_pow"), pycomplex.c_pow,
                                                  [x.re, x.im, y.re, y.im]).elems)
        n = int(e)
        with kept(a, b):
            x = self.to_complex(at, a)
            with kept(x):
                one = self.complex_constant(1 + 0j)
                r = one if n == 0 else self._powu(at, x, abs(n))
                if n <= 0:  # c_powi: 1 / x**-n, 0 to a negative power is CPython's EDOM
                    with kept(r):
                        zero = self.op(at, BitAnd, self.op(at, EQ, r.re, self.con(0.0)),
                                       self.op(at, EQ, r.im, self.con(0.0)))
                        self.guard(zero, ZeroDivisionError, "0.0 to a negative or complex power")
                        r = self.complex_binary(at, Div, one, r)
                with kept(r):
                    inf = self.op(at, BitOr, self.op(at, IsInf, r.re), self.op(at, IsInf, r.im))
                    self.guard(inf, OverflowError, "complex exponentiation")
        return r

    def _powu(self, at, x: Cplx, n: int) -> Cplx:
        """``c_powu``: binary powering from ``1+0j``, the same products in the same order
        (``(1+0j) * p`` is not ``p`` where a part of ``p`` is infinite)."""
        r, p, mask = self.complex_constant(1 + 0j), x, 1
        pinned = [r.keep()]
        while n >= mask:
            if n & mask:
                r = self.complex_binary(at, Mul, r, p)
                pinned.append(r.keep())
            mask <<= 1
            p = self.complex_binary(at, Mul, p, p)
            pinned.append(p.keep())
        for v in pinned:
            v.unkeep()
        return r

    def complex_abs(self, at, z: Cplx) -> Node:
        """``abs(z)``: libm's ``hypot`` (C99: infinite if a part is, NaN if a part is NaN;
        numpy's ``np.hypot`` calls it, where ``math.hypot`` is CPython's own algorithm),
        and CPython's OverflowError where finite parts give an infinite modulus."""
        with _Pins(self, at, z) as op:
            r = op(MATH_NODES["Hypot"], z.re, z.im, np=True)  # libm's, as _Py_c_abs (not math.hypot's)
            # the parts are looked at only where the modulus is infinite: one test on the
            # common path, as cheap as numba's own abs (a branch and a merge)
            t, f = self.branch(op(IsInf, r))
            other = self.scope.dup()
            other.ctrl = f
            self.scope.ctrl = t
            self.guard(op(BitAnd, op(IsFinite, z.re), op(IsFinite, z.im)), OverflowError,
                       "absolute value too large")
            self.scope = self.merge([self.scope, other])
        return r

    def complex_compare(self, at, cls, a: Node, b: Node) -> Node:
        """``==``/``!=`` (``complex_richcompare``); an order raises, as in CPython."""
        if cls not in (EQ, NE):
            raise self.error(at, "'<', '<=', '>', '>=' are not supported between complex numbers",
                             "comparison")
        if not isinstance(a, Cplx):
            a, b = b, a
        with _Pins(self, at, a, b) as op:
            if isinstance(b, Cplx):
                eq = op(BitAnd, op(EQ, a.re, b.re), op(EQ, a.im, b.im))
            elif _kind(b) is None or isinstance(b, Aggregate):
                eq = self.con(False)  # a tuple, None, an array: never equal
            else:  # an int compares exactly with the real part (CPython: float(re) == n)
                eq = op(BitAnd, op(EQ, a.re, b), op(EQ, a.im, self.con(0.0)))
            return op(Not, eq) if cls is NE else eq

    def complex_truth(self, at, z: Cplx) -> Node:
        with _Pins(self, at, z) as op:
            return op(BitOr, op(NE, z.re, self.con(0.0)), op(NE, z.im, self.con(0.0)))

    def complex_negate(self, at, z: Cplx, negate: bool) -> Cplx:
        if not negate:
            return z
        with _Pins(self, at, z) as op:
            return self.cplx(op(Neg, z.re), op(Neg, z.im))

    def complex_attribute(self, at, z: Cplx, attr: str) -> Node:
        if attr == "real":
            return z.re
        if attr == "imag":
            return z.im
        raise self.unsupported(at, f"attribute .{attr} of a complex number",
                               instead="son reads .real and .imag and calls .conjugate()")

    def complex_conjugate(self, at, z: Cplx) -> Cplx:
        with _Pins(self, at, z) as op:
            return self.cplx(z.re, op(Neg, z.im))

    def call_complex(self, e: ast.Call, name: str) -> Node:
        """``complex()``, ``complex(x)``, ``complex(re, im)`` of numbers or complexes
        (CPython's ``complex_new``: ``re + im*1j`` without rounding the parts)."""
        if any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in e.args):
            raise self.unsupported(e, "complex() of a string",
                                   instead="write complex(re, im) or a literal such as 1+2j")
        self.arity(e, name, 0, 2)
        vals = self.exprs(e.args)
        if not vals:
            return self.complex_constant(0j)
        with kept(*vals):
            parts = [self.to_complex(e, v) for v in vals]
            if len(parts) == 1:
                return parts[0]
            r, i = parts
            with _Pins(self, e, r, i) as op:  # (r.re - i.im) + (r.im + i.re) j, as complex_new
                re = op(Sub, r.re, i.im) if isinstance(vals[1], Cplx) else r.re
                im = op(Add, i.re, r.im) if isinstance(vals[0], Cplx) else i.re
                return self.cplx(re, im)

    def call_cmath_pylib(self, e: ast.Call, name: str, fn) -> Node:
        """``cmath.sqrt``, ``exp``, ``log10``: ``pycomplex``'s, on the parts."""
        self.arity(e, name, 1, 1)
        return self.complex_inline(e, _CMATH_PYLIB[fn][0], self.exprs(e.args))

    def call_cmath_log(self, e: ast.Call, name: str) -> Node:
        """``cmath.log(z)`` and ``cmath.log(z, base)``."""
        self.arity(e, name, 1, 2)
        fn = pycomplex.c_log if len(e.args) == 1 else pycomplex.c_log_base
        return self.complex_inline(e, fn, self.exprs(e.args))

    def complex_inline(self, e: ast.Call, fn, vals: list[Node]) -> Cplx:
        """``fn`` of ``pycomplex`` inlined on the parts of ``vals`` (each a number or a
        complex); its pair of floats as a complex."""
        parts: list[Node] = []
        with kept(*vals):
            for v in vals:
                with kept(*parts):
                    z = self.to_complex(e, v)
                parts += [z.re.keep(), z.im.keep()]
        try:
            return self.cplx(*self.inline(e, fn, parts).elems)
        finally:
            for x in parts:
                x.unkeep()

    def call_cmath(self, e: ast.Call, name: str, fn) -> Node:
        """``cmath.phase``, ``polar``, ``isnan``, ``isinf``, ``isfinite`` of a number or
        complex (``phase`` is C's ``atan2``, whose special values CPython's ``c_atan2``
        repeats)."""
        self.arity(e, name, 1, 1)
        (v,) = self.exprs(e.args)
        with kept(v):
            z = self.to_complex(e, v)
            with _Pins(self, e, z) as op:
                if fn is cmath.phase:  # glibc's atan2 reports an underflow to 0, which
                    # cmath.phase raises as OverflowError (math.atan2 does not)
                    phi = op(MATH_NODES["Atan2"], z.im, z.re)
                    finite = op(BitAnd, op(IsFinite, z.re), op(IsFinite, z.im))
                    under = op(BitAnd, op(NE, z.im, self.con(0.0)), op(EQ, phi, self.con(0.0)))
                    self.guard(op(BitAnd, finite, under), OverflowError, "math range error")
                    return phi
                if fn is cmath.polar:
                    r = self.complex_abs(e, z)
                    with kept(r):
                        return self.pack([r, op(MATH_NODES["Atan2"], z.im, z.re)])
                if fn is cmath.isnan:
                    return op(BitOr, op(IsNan, z.re), op(IsNan, z.im))
                if fn is cmath.isinf:
                    return op(BitOr, op(IsInf, z.re), op(IsInf, z.im))
                return op(BitAnd, op(IsFinite, z.re), op(IsFinite, z.im))


def _call(at: ast.AST, name: str) -> ast.Call:
    """A call node located at ``at``, for inlining a ``pycomplex`` function there."""
    return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), [], []), at)


#: cmath function -> (pycomplex function, number of complex arguments)
_CMATH_PYLIB = {cmath.sqrt: (pycomplex.c_sqrt, 1), cmath.exp: (pycomplex.c_exp, 1),
                cmath.log10: (pycomplex.c_log10, 1),
                **{getattr(cmath, n): (getattr(pycomplex, "c_" + n), 1)
                   for n in ("sinh", "cosh", "tanh", "sin", "cos", "tan")}}

COMPLEX_CALLS: dict = {
    complex: lambda p, e, n: p.call_complex(e, n),
    **{f: (lambda p, e, n, f=f: p.call_cmath_pylib(e, n, f)) for f in _CMATH_PYLIB},
    cmath.log: lambda p, e, n: p.call_cmath_log(e, n),
    cmath.rect: lambda p, e, n: p.cplx(*p.call_pylib_float(e, n, pycomplex.c_rect, 2).elems),
    **{f: (lambda p, e, n, f=f: p.call_cmath(e, n, f))
       for f in (cmath.phase, cmath.polar, cmath.isnan, cmath.isinf, cmath.isfinite)},
}

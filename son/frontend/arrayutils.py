"""numpy's small array utilities, each with one exact result: ``np.round``/``np.around``,
``np.square``, ``np.negative``, ``np.sign``, ``np.cumprod``, ``np.ptp``, ``np.average``
(no weights; with them: son/frontend/arraybuild.py), ``np.full_like``, ``a.fill(v)``,
``a.dot(b)``, and ``np.shape``/``np.ndim``/``np.size`` of an array (its attribute).

Of numbers and 1-D arrays or views (n-D arrays are refused where written, but for
``np.ptp``/``np.average``, which read every element):

- ``np.round(x, decimals=0)`` is numpy's ``PyArray_Round``: ``rint(x * f) / f`` with
  ``f`` ten to the ``decimals`` made by repeated multiplication (``rint(x / f) * f``
  for negative ``decimals``), ``rint`` rounding half to even and keeping the zero's
  sign; of ints with ``decimals >= 0`` a copy.
- ``np.sign``: -1, 0 or 1 of the element's kind, NaN for NaN, ``0.0`` for ``-0.0``;
  ``np.square`` is ``x * x`` (ints wrap), ``np.negative`` ``-x``; a bool array is
  numpy's TypeError for both ``sign`` and ``negative``, refused where written, and
  ``np.square`` of bools (numpy's int8) is refused too.
- ``np.cumprod`` multiplies in order (``np.flip`` and ``np.roll``: son/frontend/axes.py).
- ``np.ptp(a)`` is ``np.max(a) - np.min(a)`` and ``np.average(a)`` is ``np.mean(a)``,
  with their rules (NaN, zeros of both signs); ``np.ptp`` of a bool array is numpy's
  TypeError (it subtracts two numpy bools; son's elements are Python scalars).
- ``np.full_like(a, v)`` converts ``v`` to ``a``'s dtype as numpy casts (a float to an
  int array is truncated; a NaN or a float outside int64 there is the machine's cast:
  NotImplementedError); ``a.fill(v)`` the same, in place.
- ``a.dot(b)`` is ``np.dot(a, b)``.

The functions at the end are written in the Python son compiles and inlined.  O(1)
nodes per call plus the inlined body."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import LT, NewArray, Node, kept
from .arrayfns import fill_bool, fill_float, fill_int
from .core import BOOL_SUBTRACT, dtype_of, is_array_value
from .scope import Grid


class ArrayUtilities:
    """FunctionParser's small numpy utilities (a mixin ahead of ArrayFunctions: it takes
    the ``fill`` and ``dot`` methods of arrays)."""

    def array_method(self, e: ast.Call, a: Node | None = None) -> Node | None:
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr in ("fill", "dot") and self.is_value(f.value)):
            return super().array_method(e, a)
        a = self.expr(f.value) if a is None else a
        if not (is_array_value(a) or isinstance(a, Grid)):
            return None
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{f.attr}() takes one value", f.attr)
        with kept(a):
            v = self.expr(e.args[0])
            with kept(v):
                if f.attr == "dot":
                    return self.matmul(e, [a, v], "dot", "dot")
                dtype = dtype_of(a.base if isinstance(a, Grid) else a)
                x = self.cast_value(e, v, dtype)  # converted once, before any element is written
                with kept(x):
                    self.inline(e, fill_rows if isinstance(a, Grid) else _FILL[dtype], [a, x])
        return self.con(None)

    def _refuse_nd(self, e: ast.AST, name: str):
        raise self.unsupported(e, f"{name}() of an n-D array (son takes 1-D arrays here)")

    def one_operand(self, e: ast.Call, name: str, lo: int = 1, hi: int = 1) -> list[Node]:
        if not lo <= len(e.args) <= hi or e.keywords:
            raise self.error(e, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} arguments "
                                "(son reads no keyword)", name)
        return self.exprs(e.args)

    def call_elementwise(self, e: ast.Call, name: str, which: str) -> Node:
        (x,) = self.one_operand(e, name)
        with kept(x):
            if isinstance(x, Grid):
                self._refuse_nd(e, name)
            array = is_array_value(x)
            dtype = dtype_of(x) if array else {"float": "float64", "int": "int64", "bool": "bool"}.get(
                x.type.kind)
            if dtype is None:
                raise self.error(e.args[0], f"{name}() of a {x.type.widen()} value", name)
            if dtype == "bool" and which in ("negative", "sign"):
                raise self.unsupported(e, f"{name}() of bools (numpy's TypeError)")
            if which == "square" and dtype == "bool":  # measured: numpy 2.4 squares bools as int8
                raise self.unsupported(e, f"{name}() of bools (numpy's result is int8)")
            fn = {"square": (square, squares), "negative": (negative, negatives),
                  "sign": (sign_float if dtype == "float64" else sign_int,
                           signs_float if dtype == "float64" else signs_int)}[which][array]
            return self.inline(e, fn, [x])

    def call_np_round(self, e: ast.Call, name: str) -> Node:
        if not 1 <= len(e.args) <= 2 or any(k.arg != "decimals" for k in e.keywords):
            raise self.error(e, f"{name}() takes a value and decimals", name)
        x = self.expr(e.args[0])
        with kept(x):
            d = e.args[1] if len(e.args) == 2 else (e.keywords[0].value if e.keywords else None)
            decimals = self.con(0) if d is None else self.int_value(d)
            with kept(decimals):
                if isinstance(x, Grid):
                    self._refuse_nd(e, name)
                if (is_array_value(x) and dtype_of(x) == "int64") or x.type.kind == "int":
                    return self.round_ints(e, name, x, decimals)
                if is_array_value(x):
                    if dtype_of(x) != "float64":
                        raise self.unsupported(e, f"{name}() of a bool array (numpy's result is float16)")
                    return self.inline(e, round_floats, [x, decimals])
                if x.type.kind != "float":
                    raise self.unsupported(e, f"{name}() of a {x.type.widen()} value (son rounds floats)")
                return self.inline(e, round_float, [x, decimals])

    def round_ints(self, e: ast.Call, name: str, x: Node, decimals: Node) -> Node:
        """``np.round`` of an int or an int array to ``decimals >= 0``: the value itself (a
        copy of the array).  numpy rounds ints to negative decimals through floats
        (``np.round(2**62 + 1, -1)`` is ``2**62``): refused while parsing for a constant,
        NotImplementedError where the call runs for one known only then."""
        if decimals.type.is_constant:
            if decimals.type.con < 0:
                raise self.unsupported(e, f"{name}() of ints to negative decimals (numpy rounds them "
                                          "through floats)")
        else:
            with kept(x):
                self.guard(self.op(e, LT, decimals, self.con(0)), NotImplementedError,
                           f"{name}() of ints to negative decimals: numpy rounds them through floats "
                           "(son refuses it)")
        return x if x.type.kind == "int" else self.inline(e, copied, [x])

    def call_with_helper(self, e: ast.Call, name: str, fn, arity: int = 1, flat: bool = False) -> Node:
        vals = self.one_operand(e, name, arity, arity)
        a = vals[0]
        if not (is_array_value(a) or isinstance(a, Grid)):
            raise self.error(e.args[0], f"{name}() of a {a.type.widen()} value (son takes an array)", name)
        if fn is peak_to_peak and dtype_of(a.base if isinstance(a, Grid) else a) == "bool":
            return self.fault(TypeError, BOOL_SUBTRACT)  # numpy's max - min of numpy bools
        with kept(*vals):
            if isinstance(a, Grid):
                if not flat:
                    self._refuse_nd(e, name)
                vals[0] = a = self.flat_view(e, a, name)
            with kept(a):
                if fn is cumprod:  # its products start from numpy's 1 of the result's dtype
                    vals.append(self.con(1.0 if dtype_of(a) == "float64" else 1))
                return self.inline(e, fn, vals)

    def call_as_attribute(self, e: ast.Call, name: str, attr: str) -> Node:
        """``np.shape(a)``, ``np.ndim(a)``, ``np.size(a)``: the array's attribute."""
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{name}() takes one array (son reads no axis)", name)
        return self.expr_any(ast.copy_location(ast.Attribute(e.args[0], attr, ast.Load()), e))

    def call_full_like(self, e: ast.Call, name: str) -> Node:
        if len(e.args) != 2 or e.keywords:
            raise self.error(e, f"{name}() takes an array and a value (son reads no dtype=)", name)
        a, v = self.exprs(e.args)
        if not is_array_value(a) or isinstance(a, Grid):
            raise self.unsupported(e.args[0], f"{name}() of anything but a 1-D array")
        with kept(a, v):
            x = self.cast_value(e, v, dtype_of(a))
            with kept(x):
                n = self.length(e, a)
            with kept(x, n):
                out = self.op(e, NewArray, self.scope.ctrl, n, dtype=dtype_of(a), fill="empty")
                with kept(out):
                    self.inline(e, _FILL[dtype_of(a)], [out, x])
                return out


#: an array's dtype -> son's helper that stores one value in each of its elements
_FILL = {"float64": fill_float, "int64": fill_int, "bool": fill_bool}

UTILITY_CALLS = {
    np.round: lambda p, e, n: p.call_np_round(e, n),
    np.around: lambda p, e, n: p.call_np_round(e, n),
    np.square: lambda p, e, n: p.call_elementwise(e, n, "square"),
    np.negative: lambda p, e, n: p.call_elementwise(e, n, "negative"),
    np.sign: lambda p, e, n: p.call_elementwise(e, n, "sign"),
    np.cumprod: lambda p, e, n: p.call_with_helper(e, n, cumprod, flat=True),
    np.ptp: lambda p, e, n: p.call_with_helper(e, n, peak_to_peak, flat=True),
    np.full_like: lambda p, e, n: p.call_full_like(e, n),
    np.shape: lambda p, e, n: p.call_as_attribute(e, n, "shape"),
    np.ndim: lambda p, e, n: p.call_as_attribute(e, n, "ndim"),
    np.size: lambda p, e, n: p.call_as_attribute(e, n, "size"),
}


# ---------------------------------------------------------------- inlined (son's Python)
def square(x):
    return x * x


def squares(a):
    return a * a


def negative(x):
    return -x


def negatives(a):
    return -a


def sign_float(x):
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    if x == 0.0:
        return 0.0
    return x  # NaN


def sign_int(x):
    return 1 if x > 0 else -1 if x < 0 else 0


def signs_float(a):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = sign_float(a[i])
    return out


def signs_int(a):
    out = np.empty(len(a), dtype=np.int64)
    for i in range(len(a)):
        out[i] = sign_int(a[i])
    return out


def rint(x):
    """IEEE round half to even, the zero's sign kept (``rint(-0.3)`` is -0.0)."""
    r = np.floor(x)
    d = x - r
    if d > 0.5 or (d == 0.5 and r - 2.0 * np.floor(r / 2.0) == 1.0):
        r += 1.0
    if r == 0.0:
        r = math.copysign(0.0, x)
    return r


def _ten_to(n):
    f = 1.0
    for _ in range(n):
        f *= 10.0
    return f


def round_float(x, decimals):
    if decimals >= 0:
        f = _ten_to(decimals)
        return rint(x * f) / f
    f = _ten_to(-decimals)
    return rint(x / f) * f


def round_floats(a, decimals):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = round_float(a[i], decimals)
    return out


def fill_rows(a, x):
    """``a.fill(x)`` of an n-D array: each row (a view) filled."""
    for row in a:
        row.fill(x)


def copied(a):
    return a.copy()


def cumprod(a, one):
    """Products in order, from ``one`` (1.0 or 1: the array's dtype is its kind's)."""
    out = np.full(len(a), one)
    p = one
    for i in range(len(a)):
        p = p * a[i]
        out[i] = p
    return out


def peak_to_peak(a):
    return np.max(a) - np.min(a)


def average(a):
    return np.mean(a)

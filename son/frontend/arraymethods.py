"""More of numpy's array functions with one exact result: ``a.sort()`` in place,
``np.count_nonzero``, ``np.trace``, ``np.searchsorted``, ``np.eye`` and ``np.identity``,
``np.isclose``/``np.allclose`` and ``np.polyval``.

- ``a.sort()`` of a 1-D array or view sorts it in place (``np.sort``'s order: NaN last;
  0.0 beside -0.0 is ``NotImplementedError``, as there, since numpy's kernels decide
  their order) and is None.
- ``np.count_nonzero(a)`` counts the truthy elements of any array (NaN and -0.0 as
  Python counts them), an int.
- ``np.trace(a)`` of a 2-D array is ``np.sum`` of its diagonal, a strided view
  (``a[i, i]`` for ``i < min(n, m)``): numpy's pairwise sum of floats, bit for bit.
- ``np.searchsorted(a, v, side=...)`` is numpy's binary search (its ``binsearch``): for
  an array of keys the search of each key starts from the last one's bounds, as
  numpy's does, so an unsorted ``a`` gives numpy's answers too; floats are ordered as
  numpy sorts them, NaN last.  A number key gives an int, an array of keys an int64
  array.
- ``np.eye(n, m=None, k=0)`` and ``np.identity(n)`` (``dtype=``) are new C-order 2-D
  arrays.
- ``np.isclose(a, b, rtol, atol, equal_nan)`` is numpy's test per element, in floats
  (an elementwise chain, broadcast), ``np.allclose`` its ``all``.
- ``np.polyval(p, x)`` is numpy's Horner loop, ``y = y * x + p[i]`` from zeros of
  ``x``'s kind, for a number or a 1-D array ``x``.

Refused with a located error: ``a.sort()`` of an n-D array or with arguments, ``axis=``,
``sorter=`` and other keywords.  The functions at the end are written in the Python son
compiles and inlined, like son/frontend/arrayfns.py's.  O(1) nodes per call plus the
inlined body."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import EQ, LE, Abs, Add, BitAnd, BitOr, IsFinite, IsNan, Mul, Node, Sub, kept
from .arrayfns import all_true
from .core import _kind, dtype_of, is_array_value
from .scope import Grid
from .sorting import sort_bool, sort_float, sort_int
from .ufuncs import Lazy


class ArrayMethods:
    """FunctionParser's ``a.sort()``, ``np.count_nonzero``, ``np.trace``,
    ``np.searchsorted``, ``np.eye`` and ``np.identity`` (a mixin ahead of ArrayFunctions:
    it takes the ``sort`` method of arrays)."""

    def array_method(self, e: ast.Call, a: Node | None = None) -> Node | None:
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr == "sort" and self.is_value(f.value)):
            return super().array_method(e, a)
        a = self.expr(f.value) if a is None else a
        if isinstance(a, Grid):
            raise self.unsupported(e, f"sort() of a {a.ndim}-D array (son sorts 1-D arrays in place)")
        if not is_array_value(a):
            return None
        if e.args or e.keywords:
            raise self.error(e, "sort() takes no arguments in son (it sorts in place, NaN last)", "sort")
        order = {"float64": sort_float, "int64": sort_int, "bool": sort_bool}[dtype_of(a)]
        with kept(a):
            s = self.inline(e, order, [a, self.con(True)])
            with kept(s):
                self.inline(e, copy_into, [a, s])
        return self.con(None)

    def one_array(self, e: ast.Call, name: str) -> Node:
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{name}() takes one array (son reads no keyword)", name)
        a = self.expr(e.args[0])
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.error(e.args[0], f"{name}() of a {a.type.widen()} value (son takes an array)", name)
        return a

    def call_count_nonzero(self, e: ast.Call, name: str) -> Node:
        a = self.one_array(e, name)
        with kept(a):
            if isinstance(a, Grid):
                a = self.flat_view(e, a, name)
            with kept(a):
                return self.inline(e, count_nonzero, [a])

    def call_trace(self, e: ast.Call, name: str) -> Node:
        """``np.trace(a, offset=0)``: numpy's sum of that diagonal of a 2-D array."""
        given = e.args[1:] + [k.value for k in e.keywords if k.arg == "offset"]
        if len(given) > 1 or any(k.arg != "offset" for k in e.keywords):
            raise self.error(e, f"{name}() takes an array and an offset (son reads no other argument)", name)
        a = self.one_array(ast.copy_location(ast.Call(e.func, e.args[:1], []), e), name)
        with kept(a):
            k = self.expr(given[0]) if given else self.con(0)
        if _kind(k) != "int":
            raise self.unsupported(given[0], f"{name}() with an offset of {k.type.widen()} "
                                             "(son takes an int)")
        if not isinstance(a, Grid) or a.ndim != 2:
            raise self.unsupported(e.args[0], f"{name}() of anything but a 2-D array")
        with kept(a, k):
            too_big = "Python int too large to convert to C int"
            self.c_int(e, k, too_big, too_big)
            diagonal = self.diagonal_view(e, a, k)
        with kept(diagonal):
            call = ast.copy_location(ast.Call(e.func, [e.args[0]], []), e)
            return self.array_function(call, np.sum, name, diagonal, [])

    def call_searchsorted(self, e: ast.Call, name: str) -> Node:
        if len(e.args) != 2 or any(k.arg != "side" for k in e.keywords):
            raise self.error(e, f"{name}() takes an array, keys and side= (son reads no sorter=)", name)
        right = False
        for k in e.keywords:
            if not (isinstance(k.value, ast.Constant) and k.value.value in ("left", "right")):
                raise self.error(k.value, f"{name}(): side must be 'left' or 'right'", name)
            right = k.value.value == "right"
        a, v = self.exprs(e.args)
        if not is_array_value(a):
            raise self.error(e.args[0], f"{name}() of a {a.type.widen()} value (son searches 1-D arrays)",
                             name)
        with kept(a, v):
            floats = dtype_of(a) == "float64" or (is_array_value(v) and dtype_of(v) == "float64") or \
                (not is_array_value(v) and not isinstance(v, Grid) and v.type.kind == "float")
            if isinstance(v, Grid):
                raise self.unsupported(e.args[1], f"{name}() of n-D keys")
            if is_array_value(v):
                return self.inline(e, search_many, [a, v, self.con(right), self.con(floats)])
            if v.type.kind not in ("int", "float", "bool"):
                raise self.error(e.args[1], f"{name}() of a {v.type.widen()} key", name)
            return self.inline(e, search_one, [a, v, self.con(right), self.con(floats)])

    def call_nan_reduction(self, e: ast.Call, name: str, fn) -> Node:
        """``np.nansum``/``nanmean``/``nanmax``/``nanmin`` of an array: of floats, numpy's
        own composition (the NaNs replaced by 0 before numpy's sum; the mean divides by
        the count of the others, NaN where there are none; max and min skip NaNs, NaN
        only where all are, of 1-D arrays); of ints and bools, the plain reduction."""
        a = self.one_array(e, name)
        with kept(a):
            if dtype_of(a.base if isinstance(a, Grid) else a) != "float64":
                plain = {np.nansum: np.sum, np.nanmean: np.mean, np.nanmax: np.max, np.nanmin: np.min}[fn]
                if isinstance(a, Grid):  # all of it, in C order (numpy's order for ints too)
                    a = self.flat_view(e, a)
                with kept(a):
                    return self.array_function(e, plain, name, a, [])
            if fn in (np.nanmax, np.nanmin) and isinstance(a, Grid):
                raise self.unsupported(e, f"{name}() of an n-D float array (son takes 1-D ones here)")
            helper = {np.nansum: nansum_float, np.nanmean: nanmean_float, np.nanmax: nanmax_float,
                      np.nanmin: nanmin_float}[fn]
            return self.inline(e, helper, [a])

    def call_eye(self, e: ast.Call, name: str, identity: bool) -> Node:
        most = 1 if identity else 3
        if not 1 <= len(e.args) <= most or any(k.arg not in (("dtype",) if identity else ("M", "k", "dtype"))
                                               for k in e.keywords):
            raise self.error(e, f"{name}() takes {'n' if identity else 'n, m, k'} and dtype=", name)
        args = list(e.args) + [None] * (most - len(e.args))
        dtype = "float64"
        for k in e.keywords:
            if k.arg == "dtype":
                dtype = self.dtype_arg(k.value, name)
            else:
                args["Mk".index(k.arg) + 1] = k.value
        n = self.int_value(args[0]).keep()
        try:
            m = (self.int_value(args[1]) if not identity and args[1] is not None and not (
                isinstance(args[1], ast.Constant) and args[1].value is None) else n).keep()
            try:
                k = self.int_value(args[2]) if not identity and args[2] is not None else self.con(0)
                with kept(k):
                    out = self.new_grid(e, [n, m], dtype, "zeros")
                    with kept(out):
                        self.inline(e, eye_fill, [out.base, n, m, k, self.con({"float64": 1.0, "int64": 1,
                                                                               "bool": True}[dtype])])
                return out
            finally:
                m.unkeep()
        finally:
            n.unkeep()


    # -- np.isclose, np.allclose --------------------------------------------------------
    def call_np_isclose(self, e: ast.Call, name: str, every: bool) -> Node:
        """numpy's ``isclose``: ``abs(x - y) <= atol + rtol * abs(y)`` where ``y`` is finite,
        or ``x == y`` (infinities), or both NaN with ``equal_nan``, in floats; ``allclose``
        is its ``all``, a bool."""
        names = ("rtol", "atol", "equal_nan")
        if not 2 <= len(e.args) <= 5 or any(k.arg not in names for k in e.keywords):
            raise self.error(e, f"{name}() takes a, b, rtol, atol and equal_nan", name)
        opts = dict(zip(names, e.args[2:]))
        opts.update((k.arg, k.value) for k in e.keywords)
        tol = []
        for key, default in (("rtol", 1e-05), ("atol", 1e-08)):
            x = opts.get(key)
            v = self.con(default) if x is None else self.expr(x)
            if v.type.kind not in ("int", "float", "bool"):
                raise self.error(x, f"{name}(): {key} must be a number", name)
            tol.append(self.float_of(e, v).keep())
        try:
            nan = opts.get("equal_nan")
            if nan is not None and not (isinstance(nan, ast.Constant) and isinstance(nan.value, bool)):
                raise self.error(nan, f"{name}(): equal_nan must be True or False", name)
            equal_nan = bool(nan is not None and nan.value)
            a, b = self.operands(list(e.args[:2]))
            parts = [self.as_part(e, v) for v in (a, b)]
            self.kinds(e, parts, name)
            rtol, atol = tol

            def close(p, x, y):
                x, y = p.float_of(e, x), p.float_of(e, y)
                with kept(x, y):
                    ay = p.op(e, Abs, y)
                    with kept(ay):
                        bound = p.op(e, Add, atol, p.op(e, Mul, rtol, ay))
                    with kept(bound):
                        near = p.op(e, LE, p.op(e, Abs, p.op(e, Sub, x, y)), bound)
                    with kept(near):
                        r = p.op(e, BitOr, p.op(e, BitAnd, near, p.op(e, IsFinite, y)), p.op(e, EQ, x, y))
                    if equal_nan:
                        with kept(r):
                            r = p.op(e, BitOr, r, p.op(e, BitAnd, p.op(e, IsNan, x), p.op(e, IsNan, y)))
                    return r

            if not any(isinstance(v, Lazy) or isinstance(v, Grid) or is_array_value(v) for v in (a, b)):
                return close(self, a, b)
            out = self.materialize(e, self.combine(e, parts, "bool", close))
            if not every:
                return out
            with kept(out):
                if isinstance(out, Grid):
                    out = self.flat_view(e, out, name)
                with kept(out):
                    return self.inline(e, all_true, [out])
        finally:
            for t in tol:
                t.unkeep()

    # -- np.polyval ----------------------------------------------------------------------
    def call_polyval(self, e: ast.Call, name: str) -> Node:
        """numpy's ``polyval(p, x)``: ``y = y * x + p[i]`` from ``y = zeros_like(x)``, for
        a number ``x`` (a number) or a 1-D array ``x`` (a new array of the dtype numpy
        gives, float64 where ``p`` or ``x`` is)."""
        if len(e.args) != 2 or e.keywords:
            raise self.error(e, f"{name}() takes the coefficients and x", name)
        p, x = self.exprs(e.args)
        if not is_array_value(p):
            raise self.unsupported(e.args[0], f"{name}() of coefficients that are not a 1-D array")
        with kept(p, x):
            if isinstance(x, Grid):
                raise self.unsupported(e.args[1], f"{name}() of an n-D array")
            floats = dtype_of(p) == "float64"
            if is_array_value(x):
                if "bool" in (dtype_of(p), dtype_of(x)):
                    raise self.unsupported(e, f"{name}() of bools")
                floats = floats or dtype_of(x) == "float64"
                if floats:
                    return self.inline(e, polyval_floats, [p, x, self.con(dtype_of(x) != "float64")])
                return self.inline(e, polyval_ints, [p, x])
            if x.type.kind not in ("int", "float") or dtype_of(p) == "bool":
                raise self.unsupported(e.args[1], f"{name}() of a {x.type.widen()} x")
            zero = self.con(0.0 if x.type.kind == "float" else 0)
            return self.inline(e, polyval_number, [p, x, zero])


SEARCH_CALLS = {
    np.isclose: lambda p, e, n: p.call_np_isclose(e, n, every=False),
    np.allclose: lambda p, e, n: p.call_np_isclose(e, n, every=True),
    np.polyval: lambda p, e, n: p.call_polyval(e, n),
    np.count_nonzero: lambda p, e, n: p.call_count_nonzero(e, n),
    np.trace: lambda p, e, n: p.call_trace(e, n),
    np.searchsorted: lambda p, e, n: p.call_searchsorted(e, n),
    np.eye: lambda p, e, n: p.call_eye(e, n, identity=False),
    np.identity: lambda p, e, n: p.call_eye(e, n, identity=True),
    **{fn: (lambda fn: lambda p, e, n: p.call_nan_reduction(e, n, fn))(fn)
       for fn in (np.nansum, np.nanmean, np.nanmax, np.nanmin)},
}


# ---------------------------------------------------------------- inlined (son's Python)
def nansum_float(a):
    return np.sum(np.where(np.isnan(a), 0.0, a))


def nanmean_float(a):
    m = np.isnan(a)
    total = np.sum(np.where(m, 0.0, a))
    count = np.sum(~m)
    return total / count if count else math.nan


def nanmax_float(a):
    return _nan_extreme(a, True)


def nanmin_float(a):
    return _nan_extreme(a, False)


def _nan_extreme(a, larger):
    """numpy's fmax/fmin.reduce: the NaNs skipped, NaN only where every element is one;
    which of two zeros of different signs numpy's SIMD loop returns is its layout's
    choice: NotImplementedError there, as for np.max."""
    if len(a) == 0:
        if larger:
            raise ValueError("zero-size array to reduction operation fmax which has no identity")
        raise ValueError("zero-size array to reduction operation fmin which has no identity")
    best = math.nan
    for i in range(len(a)):
        x = a[i]
        if x == x and (best != best or (x > best if larger else x < best)):
            best = x
    if best == 0.0:
        for i in range(len(a)):
            if a[i] == 0.0 and math.copysign(1.0, a[i]) != math.copysign(1.0, best):
                raise NotImplementedError("np.nanmax/nanmin of 0.0 and -0.0 (numpy's result depends on its "
                                          "SIMD kernels)")
    return best


def copy_into(a, s):
    for i in range(len(a)):
        a[i] = s[i]


def count_nonzero(a):
    k = 0
    for i in range(len(a)):
        if a[i]:
            k += 1
    return k


def _before(x, y, floats):
    """numpy's sort order: ``x < y``, NaN after every number (floats)."""
    if floats:
        return x < y or (y != y and x == x)
    return x < y


def _search(a, key, lo, hi, right, floats):
    """numpy's binary search of ``key`` between ``lo`` and ``hi``."""
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if (not _before(key, a[mid], floats)) if right else _before(a[mid], key, floats):
            lo = mid + 1
        else:
            hi = mid
    return lo


def search_one(a, key, right, floats):
    return _search(a, key, 0, len(a), right, floats)


def search_many(a, keys, right, floats):
    """numpy's binsearch: each key's search starts from the bounds the last one left
    (compared with the side's order, as the search itself)."""
    n = len(a)
    out = np.empty(len(keys), dtype=np.int64)
    lo = 0
    hi = n
    last = keys[0] if len(keys) > 0 else 0
    for j in range(len(keys)):
        key = keys[j]
        if (not _before(key, last, floats)) if right else _before(last, key, floats):
            hi = n
        else:
            lo = 0
            hi = hi + 1 if hi < n else n
        last = key
        lo = _search(a, key, lo, hi, right, floats)
        hi = lo  # numpy's search ends with both bounds there: the next key starts from them
        out[j] = lo
    return out


def polyval_number(p, x, zero):
    if len(p) == 0:
        raise NotImplementedError("np.polyval of no coefficients at a number is numpy's 0-D array")
    y = zero
    for i in range(len(p)):
        y = y * x + p[i]
    return y


def polyval_floats(p, x, ints):
    """numpy's y = y * x + c over float64 arrays; of an int ``x`` the first y is int
    zeros, so the first step is ``0 + c`` (-0.0 + 0 is 0.0)."""
    y = np.zeros(len(x))
    for i in range(len(p)):
        c = float(p[i])
        for j in range(len(x)):
            if ints and i == 0:
                y[j] = 0 + c
            else:
                y[j] = y[j] * x[j] + c
    return y


def polyval_ints(p, x):
    y = np.zeros(len(x), dtype=np.int64)
    for i in range(len(p)):
        c = p[i]
        for j in range(len(x)):
            y[j] = y[j] * x[j] + c
    return y


def eye_fill(base, n, m, k, one):
    for i in range(n):
        j = i + k
        if 0 <= j < m:
            base[i * m + j] = one

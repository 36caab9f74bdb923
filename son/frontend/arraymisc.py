"""numpy functions that Numba's own tests call, each as numpy composes it: ``np.nancumsum``,
``np.nancumprod``, ``np.nanvar``, ``np.nanstd``, ``np.diagflat``, ``np.logspace``,
``np.fill_diagonal``, ``np.resize``, ``np.broadcast_to``, ``np.tri`` and ``np.unwrap``
(``np.correlate`` shares ``np.convolve``'s loops in son/frontend/arrayextra.py).

- ``np.nancumsum(a, axis=None)``/``np.nancumprod(a)``: numpy's ``_replace_nan`` (the NaNs of
  a float array made 0, or 1 for the product; an int or bool array as it is), then
  ``np.cumsum``/``np.cumprod`` of it (in order; int64 for ints and bools), flattened in C
  order, or along a constant ``axis`` for ``nancumsum``.
- ``np.nanvar(a, ddof=0)``/``np.nanstd``: of an int or bool array ``np.var``/``np.std``
  (numpy's ``nanvar`` does that); of floats numpy's ``_nanvar`` step for step: the NaNs made
  0, ``cnt`` the others, the mean ``sum(arr) / cnt`` (the pairwise sum of all the
  elements, IEEE division), the deviations ``arr - mean`` made 0 again where ``a`` was NaN,
  their squares summed pairwise over all the elements, divided by ``cnt - ddof``, NaN
  where that is not positive; ``nanstd`` its square root.  All of ``a``'s elements, an
  n-D array's in C order (the sums need a C-contiguous one: another layout is refused at
  run time, as for ``np.var``).
- ``np.diagflat(v, k=0)``: ``v`` flattened in C order on the k-th diagonal of a new
  square array of its dtype, zeros elsewhere; numpy's ValueError where the side passes
  int64's size.
- ``np.logspace(start, stop, num=50, endpoint=True, base=10.0)``: ``np.power(base, y)`` of
  ``y = np.linspace(start, stop, num, endpoint)`` (son's, numpy's fill): a float power of
  arrays, C's ``pow`` per element, as son's ``base ** y`` (where numpy raises arrays to
  powers with its own SIMD loop, on AVX-512 CPUs, son's kernels are within one ulp of it:
  docs/decisions.md, "Whole-array expressions").
- ``np.fill_diagonal(a, val, wrap=False)`` of a 2-D array (a view too) and a number:
  numpy's ``a.flat[:end:a.shape[1] + 1] = val`` (``end`` ``a.shape[1] ** 2`` unless
  ``wrap``), ``val`` converted as numpy's item assignment does (``int(val)`` into ints,
  with CPython's ValueError and OverflowError; ``float``, ``bool``); None.  Of a 1-D array
  numpy's ValueError.
- ``np.resize(a, new_shape)``: ``a`` flattened in C order and repeated to fill
  ``new_shape`` (an int or a tuple of one to three ints), zeros of ``a``'s dtype for an
  empty ``a``; numpy's ValueError for a negative dimension; a size past int64 is numpy's
  ValueError "array is too big" for an empty ``a``, NotImplementedError otherwise (numpy's
  MemoryError or OverflowError, by the number of copies of ``a`` it would join).
- ``np.broadcast_to(a, shape)``: a view of ``a`` (as numpy's: later writes to ``a`` show
  through it) with ``shape``'s dimensions, stride 0 along the axes it repeats; numpy's
  ValueErrors (a negative dimension, shapes that do not broadcast) at run time.  numpy's
  view is read-only; son does not refuse a write through it (as for ``np.diag``'s view):
  numpy raises ValueError there.
- ``np.tri(N, M=None, k=0, dtype=float)``: ``1`` where ``j <= i + k``, of ``dtype``
  (float, int, bool); a negative ``N`` or ``M`` gives no rows or columns.  Where ``-k`` or
  ``M - k`` passes int64 numpy's ``arange`` of Python ints decides (an OverflowError, or
  an empty result): NotImplementedError there.
- ``np.unwrap(p)`` of a 1-D float array (default ``discont`` and ``period``): numpy's
  steps, ``dd = diff(p)``, ``ddmod = mod(dd + pi, 2 * pi) - pi`` (Python's float ``%``, which
  is numpy's for a nonzero divisor), ``pi`` where ``ddmod == -pi`` and ``dd > 0``, the
  correction ``ddmod - dd`` (0 where ``abs(dd) < pi``), summed in order and added to
  ``p[1:]``.

Refused with a located error: keywords son does not read (``dtype=``, ``axis=`` but for
``nancumsum``, ``keepdims=``, ``discont=``, ``period=``, ``subok=``), ``np.fill_diagonal`` of
3-D arrays or of an array of values, ``np.diagflat``/``np.broadcast_to``/``np.resize`` of a
number, ``np.unwrap`` of ints, bools or n-D arrays (int differences wrap before numpy's
float arithmetic; not written yet).  The helpers at the end are son's Python, inlined.
O(1) nodes per call plus the inlined loops (``broadcast_to``: O(ndim) nodes, no loop);
O(elements of the result) time, ``np.nanvar`` O(elements)."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import LT, Node, ToFloat, kept
from ..nodes.types import TOP
from .arrayfns import linspace
from .arraymore import ieee_divide
from .core import _kind, dtype_of, is_array_value
from .scope import Grid

#: a dtype -> the zero of its kind
_ZERO = {"float64": 0.0, "int64": 0, "bool": False}
#: a dtype -> its one (np.tri's ones)
_ONE = {"float64": 1.0, "int64": 1, "bool": True}


class ArrayMisc:
    """FunctionParser's ``np.nancumsum``, ``np.nanvar``, ``np.diagflat``, ``np.logspace``,
    ``np.fill_diagonal``, ``np.resize``, ``np.broadcast_to``, ``np.tri``, ``np.unwrap`` (a
    mixin)."""

    def misc_array(self, at: ast.expr, name: str) -> Node:
        """The array argument ``at`` of ``name`` (1-D or n-D; a number is refused)."""
        a = self.expr(at)
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.unsupported(at, f"{name}() of a {a.type.widen()} value (son takes an array here)")
        return a

    def only_none(self, got: dict[str, ast.expr], words: tuple[str, ...], name: str) -> None:
        """Refuse the arguments ``words`` of ``name`` unless absent or the constant None."""
        for word in words:
            if word in got and not (isinstance(got[word], ast.Constant) and got[word].value is None):
                raise self.unsupported(got[word], f"{name}() with {word}= (son reads its default here)")

    def call_nan_cumulative(self, e: ast.Call, name: str, product: bool) -> Node:
        params = ["a", "axis", "dtype", "out"]
        got = self.call_arguments(e, name, params, optional=set(params[1:]))
        self.only_none(got, ("dtype", "out"), name)
        a = self.misc_array(got["a"], name)
        with kept(a):
            floats = dtype_of(a.base if isinstance(a, Grid) else a) == "float64"
            axis = self.expr(got["axis"]) if "axis" in got else self.con(None)
            with kept(axis):
                if not (axis.type.is_constant and axis.type.con is None):
                    if product:
                        raise self.unsupported(got["axis"], f"{name}() with axis= (son takes the flattened "
                                                            "array here)")
                    helper = nancumsum_axis if floats else cumsum_axis
                    return self.inline(e, helper, [a, axis])
                if product:
                    return self.inline(e, nancumprod_flat if floats else cumprod_flat, [a])
                return self.inline(e, nancumsum_flat if floats else cumsum_flat, [a])

    def call_nan_variance(self, e: ast.Call, name: str, std: bool) -> Node:
        params = ["a", "axis", "dtype", "out", "ddof", "keepdims"]
        got = self.call_arguments(e, name, params, optional=set(params[1:]))
        self.only_none(got, ("axis", "dtype", "out", "keepdims"), name)
        a = self.misc_array(got["a"], name)
        with kept(a):
            ddof = self.ddof_of([ast.keyword("ddof", got["ddof"])] if "ddof" in got else [])
            with kept(ddof):
                if dtype_of(a.base if isinstance(a, Grid) else a) != "float64":
                    return self.inline(e, std_plain if std else var_plain, [a, ddof])
                return self.inline(e, nanstd_float if std else nanvar_float, [a, ddof])

    def call_diagflat(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["v", "k"], optional={"k"})
        v = self.misc_array(got["v"], name)
        with kept(v):
            k = self.int_value(got["k"]) if "k" in got else self.con(0)
            with kept(k):
                dtype = dtype_of(v.base if isinstance(v, Grid) else v)
                most = self.con((2**63 - 1) // np.dtype(dtype).itemsize)  # numpy's size * itemsize
                return self.inline(e, diagflat, [v, k, self.con(_ZERO[dtype]), most])

    def call_logspace(self, e: ast.Call, name: str) -> Node:
        params = ["start", "stop", "num", "endpoint", "base"]
        got = self.call_arguments(e, name, params + ["dtype", "axis"],
                                  optional=set(params[2:]) | {"dtype", "axis"})
        self.only_none(got, ("dtype",), name)
        if "axis" in got and not (isinstance(got["axis"], ast.Constant) and got["axis"].value == 0):
            raise self.unsupported(got["axis"], f"{name}() with axis= (son makes the 1-D default)")
        defaults = {"num": 50, "endpoint": True, "base": 10.0}
        vals: list[Node] = []
        for p in params:
            with kept(*vals):
                vals.append(self.expr(got[p]) if p in got else self.con(defaults[p]))
        with kept(*vals):
            for p, v in zip(params, vals):
                kinds = ("int", "bool") if p in ("num", "endpoint") else ("int", "bool", "float")
                if v.type is not TOP and (isinstance(v, Grid) or is_array_value(v) or _kind(v) not in kinds):
                    raise self.unsupported(got.get(p, e), f"{name}() with {p} of {v.type.widen()} (son takes "
                                                          f"{' or '.join(kinds)})")
            return self.inline(e, logspace, vals)

    def call_fill_diagonal(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["a", "val", "wrap"], optional={"wrap"})
        a = self.misc_array(got["a"], name)
        with kept(a):
            val = self.expr(got["val"])
            with kept(val):
                wrap = self.truth(self.expr(got["wrap"]), got["wrap"]) if "wrap" in got else self.con(False)
            with kept(val, wrap):
                if isinstance(val, Grid) or is_array_value(val):
                    raise self.unsupported(got["val"], f"{name}() of an array of values (son takes a number)")
                if val.type is not TOP and _kind(val) not in ("int", "float", "bool"):
                    raise self.unsupported(got["val"], f"{name}() of a {val.type.widen()} value")
                if not isinstance(a, Grid):
                    return self.fault(ValueError, "array must be at least 2-d")
                if a.ndim != 2:
                    raise self.unsupported(got["a"], f"{name}() of a {a.ndim}-D array (son takes 2-D arrays)")
                dtype = dtype_of(a.base)
                x = {"float64": lambda: self.op(e, ToFloat, val), "int64": lambda: self.to_int(e, val),
                     "bool": lambda: self.truth(val, e)}[dtype]()
                with kept(x):
                    self.inline(e, fill_diagonal, [a, x, wrap])
                return self.con(None)

    def call_resize(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["a", "new_shape"])
        a = self.misc_array(got["a"], name)
        with kept(a):
            dims = self.shape_argument(got["new_shape"])
            with kept(*dims):
                zero = self.con(_ZERO[dtype_of(a.base if isinstance(a, Grid) else a)])
                return self.inline(e, (resize1, resize2, resize3)[len(dims) - 1], [a, *dims, zero])

    def call_broadcast_to(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["array", "shape", "subok"], optional={"subok"})
        if "subok" in got:
            raise self.unsupported(got["subok"], f"{name}() with subok= (son has no array subclasses)")
        a = self.misc_array(got["array"], name)
        with kept(a):
            g = a if isinstance(a, Grid) else self.as_grid(got["array"], a)
            with kept(g):
                dims = self.shape_argument(got["shape"])
                with kept(*dims):
                    for d in dims:
                        self.guard(self.op(e, LT, d, self.con(0)), ValueError,
                                   "all elements of broadcast shape must be non-negative")
                    extra = len(dims) - g.ndim
                    if extra < 0:
                        return self.fault(ValueError, "input operand has more dimensions than allowed by the "
                                                      "axis remapping")
                    strides: list[Node] = [self.con(0)] * extra
                    for sd, st, td in zip(g.dims, g.strides, dims[extra:]):
                        with kept(*strides):
                            strides.append(self.inline(e, broadcast_stride, [sd, td, st]))
                    with kept(*strides):
                        return self.read_only(e, self.shaped(e, g.base, g.start, list(dims), strides), name)

    def call_tri(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["N", "M", "k", "dtype", "like"],
                                  optional={"M", "k", "dtype", "like"})
        self.only_none(got, ("like",), name)
        dtype = self.dtype_arg(got["dtype"], name) if "dtype" in got else "float64"
        n = self.int_value(got["N"])
        with kept(n):
            m = self.expr(got["M"]) if "M" in got else self.con(None)
            if m.type.is_constant and m.type.con is None:
                m = n
            else:
                m = self.as_int_argument(got["M"], m)
            with kept(m):
                k = self.int_value(got["k"]) if "k" in got else self.con(0)
                with kept(k):
                    return self.inline(e, tri, [n, m, k, self.con(_ZERO[dtype]), self.con(_ONE[dtype])])

    def call_unwrap(self, e: ast.Call, name: str) -> Node:
        if len(e.args) > 3:
            raise self.error(e, f"{name}() takes 1 to 3 positional arguments ({len(e.args)} given)", name)
        got = self.call_arguments(e, name, ["p", "discont", "axis", "period"],
                                  optional={"discont", "axis", "period"})
        self.only_none(got, ("discont",), name)
        for word in ("axis", "period"):
            if word in got:
                raise self.unsupported(got[word], f"{name}() with {word}= (son reads the defaults)")
        p = self.expr(got["p"])
        with kept(p):
            self.one_d(got["p"], p, name)
            if dtype_of(p) != "float64":
                raise self.unsupported(got["p"], f"{name}() of {dtype_of(p)} arrays (son takes floats: "
                                                 "numpy's int differences wrap before its float arithmetic)")
            return self.inline(e, unwrap, [p])


MISC_CALLS = {
    np.nancumsum: lambda p, e, n: p.call_nan_cumulative(e, n, product=False),
    np.nancumprod: lambda p, e, n: p.call_nan_cumulative(e, n, product=True),
    np.nanvar: lambda p, e, n: p.call_nan_variance(e, n, std=False),
    np.nanstd: lambda p, e, n: p.call_nan_variance(e, n, std=True),
    np.diagflat: lambda p, e, n: p.call_diagflat(e, n),
    np.logspace: lambda p, e, n: p.call_logspace(e, n),
    np.fill_diagonal: lambda p, e, n: p.call_fill_diagonal(e, n),
    np.resize: lambda p, e, n: p.call_resize(e, n),
    np.broadcast_to: lambda p, e, n: p.call_broadcast_to(e, n),
    np.tri: lambda p, e, n: p.call_tri(e, n),
    np.unwrap: lambda p, e, n: p.call_unwrap(e, n),
}


# ---------------------------------------------------------------- inlined (son's Python)
def nancumsum_flat(a):
    f = a.copy().ravel()  # C order, any layout (numpy's copy keeps a's, its cumsum reads C order)
    return np.cumsum(np.where(np.isnan(f), 0.0, f))


def nancumsum_axis(a, axis):
    c = a.copy()
    return np.cumsum(np.where(np.isnan(c), 0.0, c), axis=axis)


def cumsum_flat(a):
    return np.cumsum(a)


def cumsum_axis(a, axis):
    return np.cumsum(a, axis=axis)


def nancumprod_flat(a):
    f = a.copy().ravel()
    return np.cumprod(np.where(np.isnan(f), 1.0, f))


def cumprod_flat(a):
    return np.cumprod(a.copy().ravel())


def var_plain(a, ddof):
    return np.var(a, ddof=ddof)


def std_plain(a, ddof):
    return np.std(a, ddof=ddof)


def nanvar_float(a, ddof):
    """numpy's ``_nanvar`` of a float array (``axis=None``)."""
    mask = np.isnan(a)
    arr = np.where(mask, 0.0, a)
    cnt = np.sum(~mask)
    avg = ieee_divide(np.sum(arr), float(cnt))
    d = np.where(mask, 0.0, arr - avg)
    var = np.sum(d * d)
    dof = cnt - ddof
    if dof <= 0:
        return math.nan
    return ieee_divide(var, float(dof))


def nanstd_float(a, ddof):
    return np.sqrt(nanvar_float(a, ddof))


def diagflat(v, k, zero, most):
    """numpy's ``diagflat(v, k)``: ``v.ravel()`` on the k-th diagonal of zeros (``most``:
    the most elements numpy allocates of that dtype, its ValueError beyond)."""
    f = v.copy().ravel()  # C order, any layout
    s = len(f)
    shift = k if k >= 0 else -k
    if k == -9223372036854775807 - 1 or s > 9223372036854775807 - shift:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                         "possible size.")
    n = s + shift
    if n > 0 and n > most // n:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                         "possible size.")
    out = np.full((n, n), zero)
    for i in range(s):
        if k >= 0:
            out[i, i + k] = f[i]
        else:
            out[i - k, i] = f[i]
    return out


def logspace(start, stop, num, endpoint, base):
    """numpy's ``logspace``: ``np.power(base, linspace(...))``, floats."""
    return np.power(float(base), linspace(start, stop, num, endpoint))


def fill_diagonal(a, x, wrap):
    """numpy's ``a.flat[:end:m + 1] = x`` of a 2-D ``a`` with ``m`` columns."""
    n = a.shape[0]
    m = a.shape[1]
    stop = n * m
    if not wrap and m * m < stop:
        stop = m * m
    for f in range(0, stop, m + 1):
        a[f // m, f % m] = x


def _resized(a, size, zero):
    """``a``'s elements in C order, repeated to ``size`` (zeros for an empty ``a``)."""
    f = a.copy().ravel()  # C order, any layout
    out = np.full(size, zero)
    s = len(f)
    if s > 0:
        for i in range(size):
            out[i] = f[i % s]
    return out


def _new_size(a, n0, n1, n2):
    """``n0 * n1 * n2``, after numpy's ValueError for a negative dimension; a size past
    int64 is numpy's ValueError for an empty ``a``, else NotImplementedError (numpy's
    MemoryError or OverflowError, by the number of copies of ``a`` it would join)."""
    if n0 < 0 or n1 < 0 or n2 < 0:
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = n0
    for d in (n1, n2):
        if d > 0 and size > 9223372036854775807 // d:
            if a.size == 0:
                raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                                 "maximum possible size.")
            raise NotImplementedError("np.resize to a size past int64 (numpy's error depends on the "
                                      "number of copies of the array)")
        size = size * d
    return size


def resize1(a, n0, zero):
    return _resized(a, _new_size(a, n0, 1, 1), zero)


def resize2(a, n0, n1, zero):
    return _resized(a, _new_size(a, n0, n1, 1), zero).reshape(n0, n1)


def resize3(a, n0, n1, n2, zero):
    return _resized(a, _new_size(a, n0, n1, n2), zero).reshape(n0, n1, n2)


def broadcast_stride(sd, td, st):
    """The stride of an axis of length ``sd`` (stride ``st``) broadcast to length ``td``."""
    if sd == td:
        return st
    if sd != 1:
        raise ValueError("operands could not be broadcast together with remapped shapes")
    return 0


def tri(n, m, k, zero, one):
    """numpy's ``tri``: ``greater_equal.outer(arange(n), arange(-k, m - k))``."""
    if k == -9223372036854775807 - 1 or (k < 0 and m - k < m) or (k > 0 and m - k > m):
        raise NotImplementedError("np.tri with -k or M - k past int64 (numpy's arange of Python ints "
                                  "decides the result)")
    rows = n if n > 0 else 0
    cols = m if m > 0 else 0
    out = np.full((rows, cols), zero)
    for i in range(rows):
        for j in range(cols):
            if j - i <= k:
                out[i, j] = one
    return out


def unwrap(p):
    """numpy's ``unwrap`` of a 1-D float array, ``discont=pi``, ``period=2*pi``."""
    n = len(p)
    up = p.copy()
    c = 0.0
    for i in range(1, n):
        dd = p[i] - p[i - 1]
        ddmod = (dd + math.pi) % (2 * math.pi) - math.pi
        if ddmod == -math.pi and dd > 0:
            ddmod = math.pi
        fix = ddmod - dd
        if abs(dd) < math.pi:
            fix = 0.0
        c = fix if i == 1 else c + fix
        up[i] = p[i] + c
    return up

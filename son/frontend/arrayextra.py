"""numpy's ``np.convolve``, ``np.correlate``, ``np.gradient`` and ``np.histogram`` of 1-D arrays,
``np.kron`` of 1-D arrays, ``np.triu``/``np.tril`` of
2-D arrays, and the
method forms of numpy functions son compiles (``a.repeat(k)``, ``a.round()``,
``a.clip(lo, hi)``, ``a.cumprod()``, ``a.nonzero()``, ``a.searchsorted(v)``,
``a.trace()``, ``a.take(i)``), each with numpy's values, dtypes and errors.

Of 1-D arrays and views (n-D arrays are refused where written):

- ``np.correlate(a, v, mode='valid')``: numpy's ``correlate2``, ``np.convolve``'s loops
  (below) on ``v[::-1]``; where ``v`` is longer numpy correlates ``v`` with ``a`` and
  reverses the result, so each element is summed in the order of the longer operand's
  indices, as numpy's dot loops; its ValueErrors "first (second) array argument cannot
  be empty".  Float elements of two terms or more: BLAS's order, as ``np.convolve``.

- ``np.convolve(a, v, mode='full')``, ``mode`` ``'full'``, ``'same'`` or ``'valid'`` (a
  string constant): numpy swaps ``a`` and ``v`` where ``v`` is longer, then its
  ValueErrors for an empty one ("a cannot be empty", "v cannot be empty"); the result
  has ``len(a) + len(v) - 1``, ``len(a)`` or ``len(a) - len(v) + 1`` elements of numpy's
  result dtype.  Each element is the sum, in the order of ``a``'s indices from zero, of
  ``a[i] * v[o - i]``: numpy's ``_pyarray_correlate`` and its dot loops, bit for bit for
  ints (int64 wrap-around) and bools (the or of ands).  numpy's float dot is BLAS's
  ``ddot`` (OpenBLAS: FMA, and blocks of 16 with SIMD accumulators, picked by CPU), so a
  float element of two terms or more may differ from numpy's in its last bits, as son's
  float matrix products do (docs/decisions.md); an element of one term, and every sum
  whose order does not matter (small integers in floats, NaN, infinities), is numpy's.
- ``np.gradient(f)`` and ``np.gradient(f, h)`` of a number ``h`` (``edge_order=1``):
  numpy's second-order central differences inside, ``(f[i+1] - f[i-1]) / (2. * h)``,
  and first-order ones at the ends, ``(f[1] - f[0]) / h``, in float64 (ints are read as
  doubles first, as numpy casts them), IEEE division (a zero ``h`` gives infinities and
  NaN, as numpy's); numpy's ValueError for fewer than two elements.
- ``np.histogram(a, bins=10, range=None)`` of an int ``bins`` and a ``range`` pair of
  numbers (or none): the pair ``(counts, edges)``, int64 counts and the float64 edges of
  ``np.linspace(first, last, bins + 1)``, computed as numpy's ``_histograms_impl`` does:
  its ValueErrors (``bins`` below 1; a range whose low end passes its high end, or that
  is not finite; an array whose minimum or maximum is not finite, NaN included; edges
  that do not increase: "Too many bins"), the range of an empty array ``(0, 1)``, an
  empty range widened to ``(lo - 0.5, hi + 0.5)``; the values outside the range (and NaN)
  left out by numpy's comparisons (ints against int bounds exactly, otherwise as
  doubles); the bin of ``x`` from ``((x - first) / width) * bins`` truncated, with
  ``width`` numpy's ``_unsigned_subtract`` (exact for two int bounds, then rounded to a
  double), then corrected by the edges themselves (``x < edges[i]``: one down;
  ``x >= edges[i + 1]`` but for the last bin: one up), so ``last`` falls in the last bin
  and every count is numpy's bit for bit.  Bools count as numpy's ``uint8`` (it warns).
  Where numpy's own answer depends on the machine son raises ``NotImplementedError``:
  a bin index that is NaN or past int64 (numpy's cast of it to intp: a range of width
  infinity), and an automatic range whose maximum is a zero where ``0.0`` and ``-0.0``
  both occur (which one ``a.max()`` returns depends on numpy's kernels; it is the last
  edge).
- Methods: ``a.repeat``, ``a.round``, ``a.clip``, ``a.cumprod``, ``a.nonzero``,
  ``a.searchsorted``, ``a.trace`` and ``a.take`` are the numpy functions they name, ``a`` first
  (evaluated once), the other arguments and keywords as written.

Refused with a located error: keywords son does not read (``axis=``, ``density=``,
``weights=``, ``edge_order=2``...), a ``mode`` that is not one of the three strings,
``np.gradient`` of bools (numpy's TypeError: bools do not subtract) and with an array
of coordinates, ``np.histogram`` of bin edges as an array or a string estimator, of a
``bins`` that is not an int or bool, of bool bounds.  The functions at the end are written
in the Python son compiles and inlined.  O(1) nodes per call plus the inlined body;
``np.convolve`` takes O(len(a) * len(v)) time, the others O(n) (``np.histogram``
O(n + bins))."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import Node, kept
from ..nodes.types import TOP
from .arrayfns import linspace
from .arraymore import ieee_divide
from .core import _kind, dtype_of, is_array_value, promoted
from .scope import Grid, Pack

#: a dtype -> the zero of its kind
_ZERO = {"float64": 0.0, "int64": 0, "bool": False}
#: np.convolve's modes -> numpy's numbers for them (``_pyarray_correlate``)
_MODES = {"valid": 0, "same": 1, "full": 2}
#: array methods that are the numpy function of the same name, the array first
_AS_FUNCTIONS = {"repeat": np.repeat, "round": np.round, "clip": np.clip, "cumprod": np.cumprod,
                 "nonzero": np.nonzero, "searchsorted": np.searchsorted, "trace": np.trace,
                 "take": np.take}


class ArrayExtra:
    """FunctionParser's ``np.convolve``, ``np.gradient``, ``np.histogram`` and the method
    forms of numpy functions (a mixin ahead of ArrayFunctions: it takes their names)."""

    def array_method(self, e: ast.Call, a: Node | None = None) -> Node | None:
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr in _AS_FUNCTIONS and self.is_value(f.value)):
            return super().array_method(e, a)
        a = self.expr_any(f.value) if a is None else a
        if not (isinstance(a, Grid) or is_array_value(a)):
            return None
        tmp = self.temp()
        self.scope.set(tmp, a)
        receiver = ast.copy_location(ast.Name(tmp, ast.Load()), f.value)
        call = ast.copy_location(ast.Call(f, [receiver, *e.args], e.keywords), e)
        v = self.call_object(call, _AS_FUNCTIONS[f.attr], ast.unparse(f))
        with kept(v):
            self.scope.remove(tmp)
        return v

    # -- np.convolve ---------------------------------------------------------------------
    def call_np_convolve(self, e: ast.Call, name: str, correlate: bool = False) -> Node:
        """``np.convolve(a, v, mode='full')``, or with ``correlate`` ``np.correlate(a, v,
        mode='valid')``: numpy's ``correlate2``, the same loops on ``v`` reversed (the
        operands swapped where ``v`` is longer, the result then reversed)."""
        if len(e.args) == 3 and not e.keywords:
            mode = e.args[2]
        elif len(e.args) == 2 and len(e.keywords) <= 1 and all(k.arg == "mode" for k in e.keywords):
            mode = e.keywords[0].value if e.keywords else None
        else:
            raise self.error(e, f"{name}() takes two arrays and mode=", name)
        if mode is None:
            code = _MODES["valid" if correlate else "full"]
        elif isinstance(mode, ast.Constant) and mode.value in _MODES:
            code = _MODES[mode.value]
        else:
            raise self.unsupported(mode, f"{name}() with a mode that is not 'full', 'same' or 'valid' "
                                         "written as a string")
        a, v = self.exprs(e.args[:2])
        with kept(a, v):
            for x, at in zip((a, v), e.args):
                self.one_d(at, x, name)
            out = promoted(dtype_of(a), dtype_of(v))
            if out == "bool":
                helper = correlated_bools if correlate else convolved_bools
                return self.inline(e, helper, [a, v, self.con(code)])
            # numpy reads both operands in the result's dtype first (PyArray_Correlate)
            a, v = (x if dtype_of(x) == out else self.converted(at, x, out) for x, at in zip((a, v), e.args))
            with kept(a, v):
                return self.inline(e, correlated if correlate else convolved,
                                   [a, v, self.con(code), self.con(_ZERO[out])])

    # -- np.gradient ---------------------------------------------------------------------
    def call_np_gradient(self, e: ast.Call, name: str) -> Node:
        for k in e.keywords:
            if k.arg != "edge_order" or not (isinstance(k.value, ast.Constant) and k.value.value == 1
                                              and type(k.value.value) is int):
                raise self.unsupported(k.value if k.arg else e, f"{name}() with {k.arg}= (son reads "
                                                                "edge_order=1 only)")
        if not 1 <= len(e.args) <= 2:
            raise self.error(e, f"{name}() takes an array and one spacing (son reads one axis)", name)
        f = self.expr(e.args[0])
        with kept(f):
            self.one_d(e.args[0], f, name)
            if dtype_of(f) == "bool":
                raise self.unsupported(e.args[0], f"{name}() of bools (numpy's TypeError: bools do not "
                                                  "subtract)")
            h = self.expr(e.args[1]) if len(e.args) == 2 else self.con(1.0)
            with kept(h):
                if isinstance(h, Grid) or is_array_value(h):
                    raise self.unsupported(e.args[1], f"{name}() with coordinates (son takes a number "
                                                      "as the spacing)")
                if h.type is not TOP and _kind(h) not in ("int", "float", "bool"):
                    raise self.error(e.args[1], f"{name}() with a {h.type.widen()} spacing", name)
                h = self.float_of(e, h)
                with kept(h):
                    return self.inline(e, gradient, [f, h])

    # -- np.histogram --------------------------------------------------------------------
    def call_np_histogram(self, e: ast.Call, name: str) -> Node:
        names = ("a", "bins", "range")
        given = dict(zip(names, e.args))
        for k in e.keywords:
            if k.arg not in names or k.arg in given:
                raise self.unsupported(k.value if k.arg else e, f"{name}() with {k.arg}= (son reads a, bins "
                                                                "and range)")
            given[k.arg] = k.value
        if len(e.args) > 3 or "a" not in given:
            raise self.error(e, f"{name}() takes an array, bins and range (son reads no density, weights)",
                             name)
        a = self.expr(given["a"])
        with kept(a):
            self.one_d(given["a"], a, name)
            bins = self.histogram_bins(given.get("bins"), name)
            with kept(bins):
                ends = self.histogram_range(given.get("range"), name)
            with kept(bins, *ends):
                self.inline(e, histogram_check_bins, [bins])  # numpy's order: bins, then the range
                if ends:
                    self.inline(e, histogram_check_range, ends)
                return self.histogram_counts(e, a, bins, ends)

    def histogram_bins(self, at: ast.expr | None, name: str) -> Node:
        if at is None:
            return self.con(10)
        if isinstance(at, ast.Constant) and isinstance(at.value, str):
            raise self.unsupported(at, f"{name}() with a bin estimator (son takes a number of bins)")
        bins = self.expr(at)
        if isinstance(bins, Grid) or is_array_value(bins):
            raise self.unsupported(at, f"{name}() of bin edges (son takes a number of bins)")
        if bins.type is not TOP and _kind(bins) not in ("int", "bool"):
            raise self.unsupported(at, f"{name}() of {bins.type.widen()} bins (numpy's TypeError: "
                                       "`bins` must be an integer)")
        with kept(bins):
            return self.int_of(at, bins)

    def histogram_range(self, at: ast.expr | None, name: str) -> list[Node]:
        """The range's two numbers as written, or [] for none."""
        if at is None or (isinstance(at, ast.Constant) and at.value is None):
            return []
        if isinstance(at, (ast.Tuple, ast.List)):
            if len(at.elts) != 2:
                raise self.error(at, f"{name}(): range must be a pair (lo, hi)", name)
            ends = self.exprs(at.elts)
        else:
            v = self.expr_any(at)
            if not isinstance(v, Pack) or len(v.elems) != 2:
                raise self.unsupported(at, f"{name}() of a range that is not a pair of numbers")
            ends = list(v.elems)
        with kept(*ends):
            for x in ends:
                if isinstance(x, (Pack, Grid)) or is_array_value(x) or (
                        x.type is not TOP and _kind(x) not in ("int", "float")):
                    raise self.unsupported(at, f"{name}() of a range of anything but two ints or floats")
        return ends

    def histogram_counts(self, e: ast.Call, a: Node, bins: Node, lo_hi: list[Node]) -> Node:
        floats = dtype_of(a) == "float64"
        if lo_hi:
            lo, hi = lo_hi
            ints = [_kind(x) == "int" for x in lo_hi]
            exact = [k and not floats for k in ints]
            return self.inline(e, histogram, [a, bins, lo, hi, self.con(exact[0]), self.con(exact[1]),
                                              self.con(all(ints))])
        ends = self.inline(e, histogram_extremes, [a, self.con(floats)])
        with kept(ends):
            lo, hi = ends.elems
            return self.inline(e, histogram, [a, bins, lo, hi, self.con(not floats), self.con(not floats),
                                              self.con(not floats)])


    # -- np.triu, np.tril -------------------------------------------------------
    def call_np_triangle(self, e: ast.Call, name: str, lower: bool) -> Node:
        """``np.triu(a, k=0)``, ``np.tril(a, k=0)`` of a 2-D array: a copy with zeros of its
        dtype below (above) the k-th diagonal."""
        if len(e.args) not in (1, 2) or any(k.arg != "k" for k in e.keywords) or \
                len(e.args) + len(e.keywords) > 2:
            raise self.error(e, f"{name}() takes an array and k", name)
        a = self.expr(e.args[0])
        if not (isinstance(a, Grid) and a.ndim == 2):
            what = f"a {a.ndim}-D array" if isinstance(a, Grid) else f"a {a.type.widen()} value"
            raise self.unsupported(e.args[0], f"{name}() of {what} (son takes 2-D arrays)")
        with kept(a):
            k = self.expr((e.args[1:] or [kw.value for kw in e.keywords] or [ast.Constant(0)])[0])
            if k.type is not TOP and _kind(k) not in ("int", "bool"):
                raise self.error(e, f"{name}() of a k that is not an int", name)
            zero = {"float64": 0.0, "int64": 0, "bool": False}[dtype_of(a.base)]
            with kept(k):
                return self.inline(e, triangle, [a, k, self.con(zero), self.con(lower)])


    def call_np_kron(self, e: ast.Call, name: str) -> Node:
        """``np.kron(a, b)`` of 1-D arrays: ``np.outer(a, b)`` in C order, its dtype and
        values (each element one product)."""
        if len(e.args) != 2 or e.keywords:
            raise self.error(e, f"{name}() takes two arrays", name)
        a, b = self.exprs(e.args)
        with kept(a, b):
            for v, at in ((a, e.args[0]), (b, e.args[1])):
                if not (is_array_value(v) or (isinstance(v, Grid) and v.ndim == 2)):
                    what = f"a {v.ndim}-D array" if isinstance(v, Grid) else f"a {v.type.widen()} value"
                    raise self.unsupported(at, f"{name}() of {what} (son takes 1-D and 2-D arrays)")
            if not (isinstance(a, Grid) or isinstance(b, Grid)):
                return self.inline(e, kron_1d, [a, b])
            grids: list[Grid] = []
            for v in (a, b):
                with kept(*grids):
                    grids.append(v if isinstance(v, Grid) else self.as_2d(e, v, column=False))
            dtype = promoted(dtype_of(grids[0].base), dtype_of(grids[1].base))
            with kept(*grids):
                return self.inline(e, kron_2d, [*grids, self.con(_ZERO[dtype])])


EXTRA_CALLS = {
    np.kron: lambda p, e, n: p.call_np_kron(e, n),
    np.triu: lambda p, e, n: p.call_np_triangle(e, n, lower=False),
    np.tril: lambda p, e, n: p.call_np_triangle(e, n, lower=True),
    np.convolve: lambda p, e, n: p.call_np_convolve(e, n),
    np.correlate: lambda p, e, n: p.call_np_convolve(e, n, correlate=True),
    np.gradient: lambda p, e, n: p.call_np_gradient(e, n),
    np.histogram: lambda p, e, n: p.call_np_histogram(e, n),
}


# ---------------------------------------------------------------- inlined (son's Python)
def _convolve_bounds(na, nv, mode):
    """The longer operand's and the shorter's lengths, the shift of the first output
    element and the output's length of numpy's ``convolve`` (``mode``: 0 valid, 1 same,
    2 full), after its ValueErrors for an empty operand."""
    n1 = max(na, nv)
    n = min(na, nv)
    if n1 == 0:
        raise ValueError("a cannot be empty")
    if n == 0:
        raise ValueError("v cannot be empty")
    if mode == 0:
        return n1, n, 0, n1 - n + 1
    if mode == 1:
        return n1, n, n // 2, n1
    return n1, n, n - 1, n1 + n - 1


def convolved(a, v, mode, zero):
    """numpy's ``convolve(a, v, mode)`` of two arrays of the dtype of ``zero`` (int or
    float): each element summed over the longer operand's indices in order from zero,
    as numpy's dot loops (the shorter one reversed)."""
    swap = len(v) > len(a)
    n1, n, left, length = _convolve_bounds(len(a), len(v), mode)
    out = np.full(length, zero)
    for o in range(length):
        s = zero
        for i in range(max(0, o - left), min(n1, o - left + n)):
            j = n - 1 - i + o - left
            if swap:
                s = s + v[i] * a[j]
            else:
                s = s + a[i] * v[j]
        out[o] = s
    return out


def convolved_bools(a, v, mode):
    """numpy's ``convolve`` of two bool arrays: each element the or of the ands."""
    swap = len(v) > len(a)
    n1, n, left, length = _convolve_bounds(len(a), len(v), mode)
    out = np.full(length, False)
    for o in range(length):
        for i in range(max(0, o - left), min(n1, o - left + n)):
            j = n - 1 - i + o - left
            if (v[i] and a[j]) if swap else (a[i] and v[j]):
                out[o] = True
                break
    return out


def _correlate_nonempty(na, nv):
    if na == 0:
        raise ValueError("first array argument cannot be empty")
    if nv == 0:
        raise ValueError("second array argument cannot be empty")


def _reversed_copy(r):
    n = len(r)
    out = r.copy()
    for i in range(n):
        out[i] = r[n - 1 - i]
    return out


def correlated(a, v, mode, zero):
    """numpy's ``correlate(a, v, mode)``: ``convolve(a, v[::-1])``; where ``v`` is longer,
    numpy correlates ``v`` with ``a`` and reverses the result (a new array)."""
    _correlate_nonempty(len(a), len(v))
    if len(v) > len(a):
        return _reversed_copy(convolved(v, a[::-1], mode, zero))
    return convolved(a, v[::-1], mode, zero)


def correlated_bools(a, v, mode):
    _correlate_nonempty(len(a), len(v))
    if len(v) > len(a):
        return _reversed_copy(convolved_bools(v, a[::-1], mode))
    return convolved_bools(a, v[::-1], mode)


def gradient(f, h):
    """numpy's ``gradient(f, h)`` of a 1-D ``f``, ``edge_order=1``, ``h`` a float."""
    n = len(f)
    if n < 2:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                         "(edge_order + 1) elements are required.")
    out = np.empty(n)
    twice = 2.0 * h
    for i in range(1, n - 1):
        out[i] = ieee_divide(float(f[i + 1]) - float(f[i - 1]), twice)
    out[0] = ieee_divide(float(f[1]) - float(f[0]), h)
    out[n - 1] = ieee_divide(float(f[n - 1]) - float(f[n - 2]), h)
    return out


def histogram_check_bins(bins):
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")


def histogram_check_range(lo, hi):
    if lo > hi:
        raise ValueError("max must be larger than min in range parameter.")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("supplied range is not finite")


def histogram_extremes(a, floats):
    """numpy's automatic range: ``(a.min(), a.max())`` (``(0, 1)`` for an empty ``a``),
    ints for an int or bool ``a``; its ValueError where one is not finite."""
    n = len(a)
    if floats:
        lo = 0.0
        hi = 1.0
        zeros = 0
        for i in range(n):
            x = a[i]
            if x != x:
                raise ValueError("autodetected range is not finite")
            if i == 0 or x < lo:
                lo = x
            if i == 0 or x > hi:
                hi = x
            if x == 0.0:
                zeros |= 1 if math.copysign(1.0, x) > 0 else 2
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError("autodetected range is not finite")
        if zeros == 3 and hi == 0.0 and lo < hi:
            raise NotImplementedError("np.histogram of an array whose maximum is a zero where 0.0 and -0.0 "
                                      "both occur (which one a.max() gives is numpy's kernels' choice)")
        return lo, hi
    lo = 0
    hi = 1
    for i in range(n):
        x = int(a[i])
        if i == 0 or x < lo:
            lo = x
        if i == 0 or x > hi:
            hi = x
    return lo, hi


def _width_of_ints(lo, hi):
    """numpy's ``_unsigned_subtract(hi, lo)`` of int64 bounds ``lo < hi``, divided by: the
    exact difference (an unsigned 64-bit number) rounded to a double."""
    d = hi - lo
    if d >= 0:
        return float(d)
    e = d + 9223372036854775807 + 1  # the difference less 2**63 (wrapped, no overflow)
    q = e // 2048  # the doubles there are 2048 apart: round half to even
    r = e % 2048
    if r > 1024 or (r == 1024 and q % 2 == 1):
        q += 1
    return 9223372036854775808.0 + float(q) * 2048.0


def histogram(a, bins, lo, hi, lo_exact, hi_exact, ints):
    """numpy's ``histogram(a, bins, (lo, hi))`` of checked bounds: ``lo_exact``/``hi_exact``
    compare the elements with that bound as ints, ``ints``: both bounds are ints."""
    first = float(lo)
    last = float(hi)
    if lo == hi:
        first = first - 0.5
        last = last + 0.5
        width = last - first
    elif ints:
        width = _width_of_ints(lo, hi)
    else:
        width = last - first
    edges = linspace(first, last, bins + 1, True)
    for i in range(bins):
        if edges[i] >= edges[i + 1]:
            raise ValueError("Too many bins for data range. Cannot create finite-sized bins.")
    counts = np.full(bins, 0)
    scale = float(bins)
    for i in range(len(a)):
        x = a[i]
        y = float(x)
        above = x >= lo if lo_exact and lo != hi else y >= first
        below = x <= hi if hi_exact and lo != hi else y <= last
        if above and below:
            f = ieee_divide(y - first, width) * scale
            if not f < 9.223372036854775807e18:
                raise NotImplementedError("np.histogram of a bin index numpy's cast to intp leaves to the "
                                          "machine (NaN or past int64)")
            k = int(f)
            if k == bins:
                k -= 1
            if y < edges[k]:
                k -= 1
            if y >= edges[k + 1] and k != bins - 1:
                k += 1
            if k < 0 or k >= bins:
                raise ValueError("np.histogram: a bin index outside the histogram (numpy's bincount)")
            counts[k] += 1
    return counts, edges


def triangle(a, k, zero, lower):
    """``np.tril(a, k)`` (``lower``) or ``np.triu(a, k)`` of a 2-D array: a C-order copy,
    ``zero`` where the column is past (before) row + k."""
    out = a.copy()
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if (j > i + k) if lower else (j < i + k):
                out[i, j] = zero
    return out


def kron_1d(a, b):
    """``np.kron`` of 1-D arrays."""
    return np.outer(a, b).ravel()


def kron_2d(a, b, zero):
    """``np.kron`` of 2-D arrays (a 1-D one seen as one row): block ``(i, j)`` is
    ``a[i, j] * b``, each element one product (a bool's: numpy's logical and)."""
    m, n = b.shape
    out = np.full((a.shape[0] * m, a.shape[1] * n), zero)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(m):
                for q in range(n):
                    out[i * m + k, j * n + q] = a[i, j] * b[k, q]
    return out

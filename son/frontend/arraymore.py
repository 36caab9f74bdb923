"""More of numpy's functions on 1-D arrays, each with numpy's exact result: ``np.repeat``,
``np.tile``, ``np.unique``, ``np.interp``, ``np.argwhere``, ``np.cross``,
``np.percentile``/``np.quantile`` and ``np.arange(..., dtype=)``.

Of 1-D arrays and views (n-D arrays are refused where written, but by ``np.repeat``,
``np.argwhere`` and ``np.cross``):

- ``np.repeat(a, k)``: each element ``k`` times (an n-D ``a`` flattened in C order), ``k``
  an int or an int or bool array of one count per element (or of one count for all);
  numpy's ValueError for a negative count (none for an empty ``a`` and a negative number)
  and for a count array of another length.  ``np.tile(a, k)``: ``a`` ``k`` times; numpy's
  ValueError for a negative ``k`` unless ``a`` is empty.  A total past int64 is ValueError
  (numpy's "array is too big", or its wrapped "negative dimensions").
- ``np.unique(a)``: the sorted distinct elements (son/frontend/sorting.py's sort) of ``a``
  flattened (an n-D array's elements in C order; numpy 2 gives the inverse its shape), one
  NaN for all of them (numpy's ``equal_nan``); where ``0.0`` and ``-0.0`` both occur,
  which one numpy keeps depends on its kernels: ``NotImplementedError``.  With constant
  ``return_index``, ``return_inverse``, ``return_counts`` and ``equal_nan``: numpy's
  ``_unique1d`` on son's stable order of the indices (``argsort(kind='mergesort')``, which
  numpy uses with ``return_index``, so each value is its first occurrence, 0.0 or -0.0
  alike), a tuple of the values and the int64 arrays asked for (the inverse of the
  input's length); without ``return_index`` numpy's sort is not stable, and where both
  zeros occur son raises ``NotImplementedError`` as above.
- ``np.interp(x, xp, fp, left=None, right=None)``: numpy's C loop (``arr_interp``): ``x``,
  ``xp`` and ``fp`` as floats, its ``binary_search_with_guess`` (so an unsorted ``xp``
  gives numpy's answers too), ``fp[j]`` at a sample point, the slope the other way
  where one way gives NaN, NaN for NaN, IEEE division (``ieee_divide``); its ValueErrors
  for an empty ``xp`` and for ``fp`` of another length.  A number ``x`` gives a float.
- ``np.argwhere(a)``: the indices of the true elements as a new ``(k, 1)`` int64 array;
  of an n-D array numpy's ``transpose(nonzero(a))``, a ``(k, ndim)`` Fortran-order view.
- ``np.cross(a, b)`` of 3-vectors: ``a1*b2 - a2*b1, a2*b0 - a0*b2, a0*b1 - a1*b0`` in
  numpy's result dtype (ints wrap); numpy's ValueError for lengths other than 2 or 3;
  2-vectors (deprecated by numpy, a 0-D result for two of them) are NotImplementedError.
  Of 2-D arrays, the rows' cross products, a 1-D vector or a single row broadcast down
  the other's rows (numpy's ValueError where the rows do not broadcast).
- ``np.percentile(a, q)`` and ``np.quantile(a, q)`` of a number ``q``, numpy's default
  "linear" method as its ``_quantile`` computes it: the virtual index ``(n - 1) * q``,
  the two neighbours of the sorted array, ``_lerp`` (``a + d*t``, ``b - d*(1 - t)`` from
  ``t >= 0.5``; ``t`` is ``index + 1`` at the last element, as numpy's), NaN where the
  array holds one, of ints the difference in int64; ``np.quantile`` of an int or bool
  ``q`` is the element itself (numpy's "take" path, the array's dtype).  numpy's
  ValueError for ``q`` outside its range, IndexError for an empty array;
  NotImplementedError where a chosen element is a zero and the array holds both zeros.
  A 1-D array of int or float ``q`` gives one number per ``q`` (float64, or the array's
  dtype for ``np.quantile`` of int ``q``), every ``q`` checked before any is taken.
- ``np.arange(..., dtype=)``: ``int`` of ints is ``np.arange``; ``float`` of floats too,
  and of ints numpy's float fill from its length ``ceil((stop - start) / step)``.

Refused with a located error: keywords son does not read (``axis=``, ``sorted=False``,
``period=``, ``method=``...), n-D arrays, a tuple of reps, float repeats, bool arrays
where numpy raises TypeError (``np.cross``, ``np.percentile``), an array ``q``, ``dtype=bool``.
The functions at the end are written in the Python son compiles and inlined.  O(1) nodes
per call plus the inlined body; ``np.unique``/``np.percentile`` sort in O(n log n), the
others are O(n) (``np.interp`` O(len(x) log len(xp)))."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import IEEEDiv, Node, kept
from ..nodes.types import TOP
from .arrayfns import arange_filled
from .arrayops import flatnonzero, nonzero2, nonzero3, stacked2, stacked3
from .core import _kind, dtype_of, is_array_value, promoted
from .scope import Grid
from .sorting import _zeros_of_both_signs, index_order, sort_bool, sort_float, sort_int

#: a dtype -> the zero of its kind (``np.full(n, zero)`` makes an array of that dtype)
_ZERO = {"float64": 0.0, "int64": 0, "bool": False}
_SORT = {"float64": sort_float, "int64": sort_int, "bool": sort_bool}
#: numpy 2 gives ``np.unique``'s inverse of an n-D array the array's shape, numpy 1 a 1-D one
_INVERSE_SHAPED = np.unique(np.zeros((1, 1)), return_inverse=True)[1].ndim == 2


class ArrayMore:
    """FunctionParser's ``np.repeat``, ``np.tile``, ``np.unique``, ``np.interp``,
    ``np.argwhere``, ``np.cross``, ``np.percentile``/``np.quantile`` and
    ``np.arange(dtype=)`` (a mixin)."""

    def one_d(self, at: ast.expr, v: Node, name: str) -> Node:
        """``v``, the argument ``at`` of ``name``, which must be a 1-D array or view."""
        if isinstance(v, Grid):
            raise self.unsupported(at, f"{name}() of a {v.ndim}-D array (son takes 1-D arrays here)")
        if not is_array_value(v):
            raise self.error(at, f"{name}() of a {v.type.widen()} value (son takes a 1-D array)", name)
        return v

    def no_keywords(self, e: ast.Call, name: str, lo: int, hi: int, what: str) -> None:
        if e.keywords:
            k = e.keywords[0]
            raise self.unsupported(k.value, f"{name}() with {k.arg}= (son reads {what})")
        if not lo <= len(e.args) <= hi:
            raise self.error(e, f"{name}() takes {what}", name)

    # -- np.repeat, np.tile --------------------------------------------------------------
    def call_np_repeat(self, e: ast.Call, name: str, tile: bool) -> Node:
        self.no_keywords(e, name, 2, 2, "an array and " + ("reps" if tile else "repeats"))
        reps = e.args[1]
        if tile and isinstance(reps, (ast.Tuple, ast.List)):
            if len(reps.elts) != 1:
                raise self.unsupported(reps, f"{name}() of a tuple of reps (an n-D result; son tiles 1-D "
                                             "arrays by a number)")
            reps = reps.elts[0]
        a, k = self.exprs([e.args[0], reps])
        if isinstance(a, Grid) and not tile:  # numpy repeats the flattened array (C order)
            with kept(k):
                a = self.flat_view(e, a, name, any_order=True)
        with kept(a, k):
            self.one_d(e.args[0], a, name)
            zero = self.con(_ZERO[dtype_of(a)])
            if is_array_value(k) and not tile:
                if dtype_of(k) == "float64":
                    raise self.unsupported(e.args[1], f"{name}() of float repeats (numpy's TypeError)")
                return self.inline(e, repeat_each, [a, k, zero])
            if isinstance(k, Grid) or is_array_value(k) or (
                    k.type is not TOP and _kind(k) not in ("int", "bool")):
                raise self.unsupported(e.args[1], f"{name}() of {'reps' if tile else 'repeats'} that are not "
                                                  f"an int{'' if tile else ' or a 1-D array of ints'}")
            return self.inline(e, tiled if tile else repeated, [a, k, zero])

    # -- np.unique -----------------------------------------------------------------------
    def call_np_unique(self, e: ast.Call, name: str) -> Node:
        """``np.unique(ar, return_index, return_inverse, return_counts, equal_nan=)`` with
        constant flags: the sorted distinct elements, or the tuple of them and the arrays
        asked for (``_unique1d``'s steps on son's stable order of the elements)."""
        params = ["ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", "sorted"]
        if len(e.args) > 5:
            raise self.error(e, f"{name}() takes at most 5 positional arguments ({len(e.args)} given)", name)
        got = self.call_arguments(e, name, params, optional=set(params[1:]))
        flags = {}
        for word, default in (("return_index", False), ("return_inverse", False), ("return_counts", False),
                              ("equal_nan", True), ("axis", None), ("sorted", True)):
            if default is None:
                v = self.expr(got[word]) if word in got else self.con(None)
                if not (v.type.is_constant and v.type.con is None):
                    raise self.unsupported(got[word], f"{name}() with axis= (son takes the distinct "
                                                      "elements of a 1-D array)")
                continue
            flags[word] = self.constant_flag(got.get(word), default, name, word)
            if word == "sorted" and not flags[word]:
                raise self.unsupported(got[word], f"{name}() with sorted=False (numpy's order is then "
                                                  "its hash table's)")
        a = self.expr(got["ar"])
        shape = a if isinstance(a, Grid) else None
        if shape is not None:  # numpy flattens an n-D array first (axis=None)
            with kept(shape):
                a = self.raveled(got["ar"], shape)
        with kept(a, *([shape] if shape is not None else [])):
            self.one_d(got["ar"], a, name)
            zero = self.con(_ZERO[dtype_of(a)])
            index, inverse, counts = flags["return_index"], flags["return_inverse"], flags["return_counts"]
            if not (index or inverse or counts) and flags["equal_nan"]:
                s = self.inline(e, _SORT[dtype_of(a)], [a, self.con(True)])
                with kept(s):
                    return self.inline(e, unique_sorted, [s, zero])
            # numpy sorts the indices (stably where return_index), so the first of each run
            # is the first occurrence; without return_index its sort is not stable, and of
            # 0.0 and -0.0 which one it keeps is its kernels' choice (checked at run time)
            order = self.inline(e, unique_order, [a, self.con(not index and dtype_of(a) == "float64")])
            with kept(order):
                starts = self.inline(e, unique_runs, [a, order, self.con(flags["equal_nan"])])
                with kept(starts):
                    outs = [self.inline(e, unique_values, [a, order, starts, zero])]
                    with kept(*outs):
                        if index:
                            outs.append(self.inline(e, unique_index, [order, starts]))
                    with kept(*outs):
                        if inverse:
                            inv = self.inline(e, unique_inverse, [order, starts])
                            if shape is not None and _INVERSE_SHAPED:  # numpy >= 2: the input's shape
                                with kept(inv):
                                    inv = self.c_order(e, inv, self.con(0), shape.dims, self.con(1))
                            outs.append(inv)
                    with kept(*outs):
                        if counts:
                            outs.append(self.inline(e, unique_counts, [order, starts]))
                    return outs[0] if len(outs) == 1 else self.pack(outs)

    # -- np.interp -----------------------------------------------------------------------
    def call_np_interp(self, e: ast.Call, name: str) -> Node:
        names = ("x", "xp", "fp", "left", "right")
        given = dict(zip(names, e.args))
        for k in e.keywords:
            if k.arg not in names or k.arg in given:
                raise self.unsupported(k.value, f"{name}() with {k.arg}= (son reads x, xp, fp, left and "
                                                "right)")
            given[k.arg] = k.value
        if len(e.args) > 5 or not {"x", "xp", "fp"} <= given.keys():
            raise self.error(e, f"{name}() takes x, xp, fp, left and right", name)
        vals: list[Node] = []
        try:
            for n in names[:3]:
                v = self.expr(given[n])
                with kept(v):
                    if n != "x" or is_array_value(v) or isinstance(v, Grid):
                        v = self.one_d(given[n], v, name)
                        if dtype_of(v) != "float64":  # numpy reads them as doubles
                            v = self.converted(given[n], v, "float64")
                    elif v.type is not TOP and _kind(v) not in ("int", "float", "bool"):
                        raise self.error(given[n], f"{name}() of a {v.type.widen()} x", name)
                    else:
                        v = self.float_of(given[n], v)
                vals.append(v.keep())
            for n in names[3:]:
                x = given.get(n)
                if x is None or (isinstance(x, ast.Constant) and x.value is None):
                    vals += [self.con(0.0).keep(), self.con(False).keep()]
                    continue
                v = self.expr(x)
                if v.type is not TOP and _kind(v) not in ("int", "float", "bool"):
                    raise self.unsupported(x, f"{name}() with {n} of {v.type.widen()} (son takes a number)")
                vals += [self.float_of(x, v).keep(), self.con(True).keep()]
            fn = interp_many if is_array_value(vals[0]) else interp_one
            return self.inline(e, fn, vals)
        finally:
            for v in vals:
                v.unkeep()

    def call_np_ieee_divide(self, e: ast.Call, name: str) -> Node:
        """``ieee_divide(x, y)`` in son's Python: C's division of doubles."""
        x, y = self.exprs(e.args)
        with kept(x, y):
            x = self.float_of(e, x)
            with kept(x):
                return self.op(e, IEEEDiv, x, self.float_of(e, y))

    # -- np.argwhere, np.cross -----------------------------------------------------------
    def call_np_argwhere(self, e: ast.Call, name: str) -> Node:
        self.no_keywords(e, name, 1, 1, "one array")
        a = self.expr(e.args[0])
        with kept(a):
            if isinstance(a, Grid):  # numpy's transpose(nonzero(a)): a view in Fortran order
                idx = self.inline(e, nonzero2 if a.ndim == 2 else nonzero3, [a])
                with kept(idx):
                    return self.inline(e, stacked2 if a.ndim == 2 else stacked3, list(idx.elems))
            self.one_d(e.args[0], a, name)
            idx = self.inline(e, flatnonzero, [a])
        with kept(idx):
            return self.c_order(e, idx, self.con(0), [self.length(e, idx), self.con(1)])

    def call_np_cross(self, e: ast.Call, name: str) -> Node:
        self.no_keywords(e, name, 2, 2, "two 1-D arrays: no axisa, axisb, axisc, axis")
        a, b = self.exprs(e.args)
        with kept(a, b):
            for v, at in zip((a, b), e.args):
                if isinstance(v, Grid) and v.ndim != 2:
                    raise self.unsupported(at, f"{name}() of a {v.ndim}-D array (son takes 1-D and 2-D "
                                               "arrays)")
                if not isinstance(v, Grid):
                    self.one_d(at, v, name)
                if dtype_of(v.base if isinstance(v, Grid) else v) == "bool":
                    raise self.unsupported(at, f"{name}() of bools (numpy's TypeError)")
            dtypes = [dtype_of(v.base if isinstance(v, Grid) else v) for v in (a, b)]
            zero = self.con(_ZERO[promoted(*dtypes)])
            if not (isinstance(a, Grid) or isinstance(b, Grid)):
                return self.inline(e, cross3, [a, b, zero])
            grids: list[Grid] = []  # rows of vectors, a 1-D one a single row, broadcast as numpy's
            for v in (a, b):
                with kept(zero, *grids):
                    grids.append(v if isinstance(v, Grid) else self.as_2d(e, v, column=False))
            with kept(zero, *grids):
                return self.inline(e, cross_rows, [*grids, zero])

    # -- np.percentile, np.quantile ------------------------------------------------------
    def call_np_quantile(self, e: ast.Call, name: str, percent: bool) -> Node:
        self.no_keywords(e, name, 2, 2, "an array and a number q: no axis, method, weights")
        a, q = self.exprs(e.args)
        with kept(a, q):
            self.one_d(e.args[0], a, name)
            if dtype_of(a) == "bool":
                raise self.unsupported(e.args[0], f"{name}() of bools (numpy's TypeError)")
            floats = dtype_of(a) == "float64"
            if is_array_value(q) and dtype_of(q) != "bool":  # one number per q, as numpy's
                if percent or dtype_of(q) == "float64":
                    return self.inline(e, quantiles_lerp, [a, q, self.con(percent), self.con(floats)])
                return self.inline(e, quantiles_taken, [a, q, self.con(_ZERO[dtype_of(a)]), self.con(floats)])
            if isinstance(q, Grid) or is_array_value(q) or (q.type is not TOP and _kind(q) not in
                                                               ("int", "float", "bool")):
                raise self.unsupported(e.args[1], f"{name}() of a q that is neither a number nor a 1-D "
                                                  "array of ints or floats")
            if not percent and q.type is not TOP and _kind(q) != "float":  # numpy's take: the element
                return self.inline(e, quantile_element, [a, q, self.con(floats)])
            return self.inline(e, quantile_lerp, [a, q, self.con(percent), self.con(floats)])

    # -- np.arange(dtype=) ---------------------------------------------------------------
    def call_np_arange(self, e: ast.Call, name: str) -> Node:
        if not e.keywords:
            return self.call_arange(e, name)
        if any(k.arg != "dtype" for k in e.keywords) or not 1 <= len(e.args) <= 3:
            raise self.error(e, f"{name}() takes 1 to 3 numbers and dtype=", name)
        dtype = self.dtype_arg(e.keywords[0].value, name)
        plain = ast.copy_location(ast.Call(e.func, e.args, []), e)
        if dtype == "bool":
            raise self.unsupported(e.keywords[0].value, f"{name}() of bools (numpy's TypeError past two "
                                                        "elements)")
        vals = self.exprs(e.args)
        kinds = {_kind(v) for v in vals if v.type is not TOP}
        with kept(*vals):
            if not kinds <= {"int", "bool", "float"}:
                raise self.unsupported(e, f"{name}() of values that may be ints or floats (the result's "
                                          "dtype would depend on them)")
            if dtype == "int64":
                if "float" in kinds:
                    raise self.unsupported(e.keywords[0].value, f"{name}() of floats as ints (numpy casts "
                                                                "its first two values)")
                return self.call_arange(plain, name)
            if "float" in kinds:
                return self.call_arange(plain, name)
            if len(vals) == 1:
                vals = [self.con(0), vals[0]]
            if len(vals) == 2:
                vals.append(self.con(1))
            with kept(*vals):
                return self.inline(e, arange_ints_as_floats, vals)


MORE_CALLS = {
    np.repeat: lambda p, e, n: p.call_np_repeat(e, n, tile=False),
    np.tile: lambda p, e, n: p.call_np_repeat(e, n, tile=True),
    np.unique: lambda p, e, n: p.call_np_unique(e, n),
    np.interp: lambda p, e, n: p.call_np_interp(e, n),
    np.argwhere: lambda p, e, n: p.call_np_argwhere(e, n),
    np.cross: lambda p, e, n: p.call_np_cross(e, n),
    np.percentile: lambda p, e, n: p.call_np_quantile(e, n, percent=True),
    np.quantile: lambda p, e, n: p.call_np_quantile(e, n, percent=False),
    np.arange: lambda p, e, n: p.call_np_arange(e, n),
}


# ---------------------------------------------------------------- inlined (son's Python)
def ieee_divide(x, y):
    """C's ``x / y`` of doubles (an infinity or NaN, never an exception); parsed, an
    ``IEEEDiv`` node (``MORE_CALLS``)."""
    with np.errstate(all="ignore"):
        return float(np.float64(x) / np.float64(y))


MORE_CALLS[ieee_divide] = lambda p, e, n: p.call_np_ieee_divide(e, n)


def copies(n, k, zero):
    """The zero-filled result of ``k`` copies of ``n`` elements, numpy's errors for a
    negative ``k`` (none where ``n`` is 0) and a total past int64."""
    if n == 0:
        return np.full(0, zero)
    if k < 0:
        raise ValueError("negative dimensions are not allowed")
    if k > 0 and n > 9223372036854775807 // k:
        raise ValueError("array is too big")
    return np.full(n * k, zero)


def repeated(a, k, zero):
    n = len(a)
    out = copies(n, k, zero)
    for i in range(n):
        x = a[i]
        for j in range(i * k, i * k + k):
            out[j] = x
    return out


def repeat_each(a, counts, zero):
    n = len(a)
    m = len(counts)
    if m != n and m != 1:
        raise ValueError("operands could not be broadcast together")
    if m == 1:  # one count for all: numpy's scalar path (no error for an empty a)
        return repeated(a, counts[0], zero)
    total = 0
    for i in range(m):
        c = counts[i]
        if c < 0:
            raise ValueError("repeats may not contain negative values.")
        if total > 9223372036854775807 - c:
            raise ValueError("array is too big")
        total += c
    out = np.full(total, zero)
    at = 0
    for i in range(n):
        x = a[i]
        for j in range(at, at + counts[i]):
            out[j] = x
        at += counts[i]
    return out


def tiled(a, k, zero):
    n = len(a)
    out = copies(n, k, zero)
    for r in range(k if n else 0):  # an empty array tiled 10**18 times: nothing to copy
        for i in range(n):
            out[r * n + i] = a[i]
    return out


def unique_sorted(s, zero):
    """The distinct elements of the sorted ``s`` (NaN last): the first of each run of
    equal ones, one NaN for all."""
    n = len(s)
    k = 0
    for i in range(n):
        if i == 0 or (s[i] != s[i - 1] and s[i - 1] == s[i - 1]):
            k += 1
    out = np.full(k, zero)
    k = 0
    for i in range(n):
        if i == 0 or (s[i] != s[i - 1] and s[i - 1] == s[i - 1]):
            out[k] = s[i]
            k += 1
    return out


def unique_order(a, check_zeros):
    """The indices of ``a`` in son's stable sorted order (NaN last), which is numpy's
    ``argsort(kind='mergesort')``; NotImplementedError where numpy's sort is not stable
    (``check_zeros``) and ``a`` holds both zeros."""
    if check_zeros and _zeros_of_both_signs(a):
        raise NotImplementedError("np.unique of 0.0 and -0.0 without return_index (which of them numpy "
                                  "keeps depends on its sort kernels)")
    return index_order(a, True)


def _run_starts(a, order, i, equal_nan):
    """Does a run start at position ``i`` of the sorted order: the first element, or one
    unequal to the one before, unless that one is a NaN and NaNs are equal."""
    if i == 0:
        return True
    prev = a[order[i - 1]]
    return a[order[i]] != prev and (not equal_nan or prev == prev)


def unique_runs(a, order, equal_nan):
    """The positions in ``order`` where a run of equal elements starts (numpy's ``mask``):
    with ``equal_nan`` all the NaNs (last) are one run."""
    n = len(order)
    k = 0
    for i in range(n):
        if _run_starts(a, order, i, equal_nan):
            k += 1
    starts = np.empty(k, dtype=np.int64)
    k = 0
    for i in range(n):
        if _run_starts(a, order, i, equal_nan):
            starts[k] = i
            k += 1
    return starts


def unique_values(a, order, starts, zero):
    out = np.full(len(starts), zero)
    for j in range(len(starts)):
        out[j] = a[order[starts[j]]]
    return out


def unique_index(order, starts):
    """The index in ``a`` of the first element of each run (``perm[mask]``)."""
    out = np.empty(len(starts), dtype=np.int64)
    for j in range(len(starts)):
        out[j] = order[starts[j]]
    return out


def unique_inverse(order, starts):
    """For each element of ``a``, the number of its run (``cumsum(mask) - 1`` put back)."""
    n = len(order)
    out = np.empty(n, dtype=np.int64)
    run = -1
    j = 0
    for i in range(n):
        if j < len(starts) and starts[j] == i:
            run += 1
            j += 1
        out[order[i]] = run
    return out


def unique_counts(order, starts):
    """The length of each run (``np.diff`` of the starts and the size)."""
    m = len(starts)
    out = np.empty(m, dtype=np.int64)
    for j in range(m):
        end = starts[j + 1] if j + 1 < m else len(order)
        out[j] = end - starts[j]
    return out


def _search_with_guess(key, xp, n, guess):
    """numpy's ``binary_search_with_guess``: j with ``xp[j] <= key < xp[j + 1]`` for a
    sorted ``xp``, -1 below it, ``n`` above it."""
    if key > xp[n - 1]:
        return n
    if key < xp[0]:
        return -1
    if n <= 4:
        i = 1
        while i < n and key >= xp[i]:
            i += 1
        return i - 1
    if guess > n - 3:
        guess = n - 3
    if guess < 1:
        guess = 1
    imin = 0
    imax = n
    if key < xp[guess]:  # (each test as numpy writes it: NaN in xp fails it the same way)
        if not key < xp[guess - 1]:
            return guess - 1
        imax = guess - 1
        if guess > 8 and key >= xp[guess - 8]:
            imin = guess - 8
    else:
        if key < xp[guess + 1]:
            return guess
        if key < xp[guess + 2]:
            return guess + 1
        imin = guess + 2
        if guess < n - 9 and key < xp[guess + 8]:
            imax = guess + 8
    while imin < imax:
        mid = imin + ((imax - imin) >> 1)
        if key >= xp[mid]:
            imin = mid + 1
        else:
            imax = mid
    return imin - 1


def _interp_at(x, xp, fp, lval, rval, j):
    """numpy's value at ``x`` (not NaN) of ``j``, its search's answer."""
    n = len(xp)
    if j == -1:
        return lval
    if j == n:
        return rval
    if j == n - 1 or xp[j] == x:
        return fp[j]
    slope = ieee_divide(fp[j + 1] - fp[j], xp[j + 1] - xp[j])
    r = slope * (x - xp[j]) + fp[j]
    if r != r:
        r = slope * (x - xp[j + 1]) + fp[j + 1]
        if r != r and fp[j] == fp[j + 1]:
            r = fp[j]
    return r


def _interp_checks(xp, fp):
    if len(xp) == 0:
        raise ValueError("array of sample points is empty")
    if len(fp) != len(xp):
        raise ValueError("fp and xp are not of the same length.")


def _interp_one_point(x, xp, fp, lval, rval):
    if x < xp[0]:
        return lval
    if x > xp[0]:
        return rval
    return fp[0]


def interp_one(x, xp, fp, left, has_left, right, has_right):
    _interp_checks(xp, fp)
    lval = left if has_left else fp[0]
    rval = right if has_right else fp[len(fp) - 1]
    if len(xp) == 1:
        return _interp_one_point(x, xp, fp, lval, rval)
    if x != x:
        return x
    return _interp_at(x, xp, fp, lval, rval, _search_with_guess(x, xp, len(xp), 0))


def interp_many(x, xp, fp, left, has_left, right, has_right):
    _interp_checks(xp, fp)
    lval = left if has_left else fp[0]
    rval = right if has_right else fp[len(fp) - 1]
    n = len(xp)
    out = np.empty(len(x))
    j = 0
    for i in range(len(x)):
        v = x[i]
        if n == 1:
            out[i] = _interp_one_point(v, xp, fp, lval, rval)
        elif v != v:
            out[i] = v
        else:
            j = _search_with_guess(v, xp, n, j)
            out[i] = _interp_at(v, xp, fp, lval, rval, j)
    return out


def cross3(a, b, zero):
    """numpy's cross product of 3-vectors in the dtype of ``zero``."""
    if not (2 <= len(a) <= 3 and 2 <= len(b) <= 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if len(a) != 3 or len(b) != 3:
        raise NotImplementedError("np.cross of 2-vectors (deprecated by numpy; son takes 3-vectors)")
    out = np.full(3, zero)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


def _check_quantiles(a, qs, percent):
    """numpy's errors before any quantile is taken: each q in range, then ``a`` not empty."""
    for i in range(len(qs)):
        if percent and not 0.0 <= float(qs[i]) / 100.0 <= 1.0:
            raise ValueError("Percentiles must be in the range [0, 100]")
        if not percent and not 0.0 <= float(qs[i]) <= 1.0:
            raise ValueError("Quantiles must be in the range [0, 1]")
    if len(a) == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")


def quantiles_lerp(a, qs, percent, floats):
    """``np.percentile``/``np.quantile`` of a 1-D array of q: each q's number (float64)."""
    _check_quantiles(a, qs, percent)
    out = np.empty(len(qs))
    for i in range(len(qs)):
        out[i] = quantile_lerp(a, qs[i], percent, floats)
    return out


def quantiles_taken(a, qs, zero, floats):
    """``np.quantile`` of an int array of q: each q's element (numpy's take), in ``a``'s
    dtype (``zero``'s)."""
    _check_quantiles(a, qs, False)
    out = np.full(len(qs), zero)
    for i in range(len(qs)):
        out[i] = quantile_element(a, qs[i], floats)
    return out


def cross_rows(a, b, zero):
    """numpy's cross product of the rows of ``a`` and ``b`` (n x 3 each, or 1 x 3 broadcast
    down the other): numpy's dimension check first, then its broadcasting ValueError."""
    if not (2 <= a.shape[1] <= 3 and 2 <= b.shape[1] <= 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[1] != 3 or b.shape[1] != 3:
        raise NotImplementedError("np.cross of 2-vectors (deprecated by numpy; son takes 3-vectors)")
    n, m = a.shape[0], b.shape[0]
    if n != m and n != 1 and m != 1:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    rows = max(n, m) if n and m else 0
    out = np.full((rows, 3), zero)
    for i in range(rows):
        out[i] = cross3(a[i if n > 1 else 0], b[i if m > 1 else 0], zero)
    return out


def _zero_sign_unknown(s, i, floats):
    """Is sorted element ``i`` a zero whose sign numpy's partition picks (both occur)?"""
    if not floats or s[i] != 0.0:
        return False
    pos = False
    neg = False
    for k in range(len(s)):
        if s[k] == 0.0:
            if math.copysign(1.0, s[k]) > 0:
                pos = True
            else:
                neg = True
    return pos and neg


def quantile_sorted(a, q, floats):
    """``a`` sorted for its quantile ``q`` (a fraction), after numpy's errors for a ``q``
    outside [0, 1] and for an empty ``a``."""
    if not 0.0 <= q <= 1.0:
        raise ValueError("Quantiles must be in the range [0, 1]")
    if len(a) == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    return sort_float(a, False) if floats else sort_int(a, False)


def quantile_lerp(a, q, percent, floats):
    """numpy's linear quantile ``q`` (a percentage when ``percent``) of ``a``."""
    if percent:
        q = float(q) / 100.0
        if not 0.0 <= q <= 1.0:
            raise ValueError("Percentiles must be in the range [0, 100]")
    else:
        q = float(q)
    s = quantile_sorted(a, q, floats)
    n = len(s)
    if floats and s[n - 1] != s[n - 1]:
        return float(s[n - 1])
    v = (n - 1) * q
    if v >= n - 1:
        lo = n - 1
        hi = n - 1
        t = v + 1.0
    else:
        lo = int(math.floor(v))
        hi = lo + 1
        t = v - lo
    if _zero_sign_unknown(s, lo, floats) or _zero_sign_unknown(s, hi, floats):
        raise NotImplementedError("np.percentile of a zero where 0.0 and -0.0 both occur (numpy's partition "
                                  "picks one)")
    d = s[hi] - s[lo]
    if t >= 0.5:
        return float(s[hi]) - float(d) * (1.0 - t)
    return float(s[lo]) + float(d) * t


def quantile_element(a, q, floats):
    """numpy's quantile of an int ``q`` (0 or 1): the element itself."""
    s = quantile_sorted(a, q, floats)
    n = len(s)
    if floats and s[n - 1] != s[n - 1]:
        return s[n - 1]
    i = (n - 1) * q
    if _zero_sign_unknown(s, i, floats):
        raise NotImplementedError("np.quantile of a zero where 0.0 and -0.0 both occur (numpy's partition "
                                  "picks one)")
    return s[i]


def arange_ints_as_floats(start, stop, step):
    """numpy's ``arange(start, stop, step, dtype=float)`` of ints: the length from the
    quotient ``(stop - start) / step``, then numpy's float fill."""
    if step == 0:
        raise ZeroDivisionError("division by zero")
    d = stop - start
    if (stop >= start) != (d >= 0):
        raise NotImplementedError("np.arange(dtype=float) of bounds whose difference passes int64")
    return arange_filled(start, step, d / step)

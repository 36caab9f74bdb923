"""numpy functions that rearrange 1-D arrays: ``np.concatenate``, ``np.argsort``,
``np.nonzero`` and ``np.flatnonzero``, bit for bit where numpy defines the result.

- ``np.concatenate(seq, axis=0)`` of a tuple or list literal (or a tuple value) of
  arrays and views of one ndim: a new C-order array of numpy's result dtype (bool <
  int64 < float64; an int converted to a float as numpy does, rounding to nearest), the
  pieces in order along the constant axis (numpy's ValueError where the other
  dimensions differ), or raveled with ``axis=None``.  ``np.append(arr, values,
  axis=None)`` is that join of the two (a number or a list made an array first).
- ``np.argsort(a)`` and ``a.argsort()`` (``kind=``): son's stable merge sort of the
  indices (son/frontend/sorting.py's order: NaN last).  With ``kind="stable"`` or
  ``"mergesort"`` that is numpy's result.  numpy's default sort is not stable (introsort,
  or SIMD sorts on AVX-512), so where two keys are equal (``0.0`` and ``-0.0`` too, and
  two NaNs) the order numpy gives is its kernels' choice: son raises
  ``NotImplementedError`` there rather than guess; without ties every kind agrees.
- ``np.nonzero(a)`` and ``np.where(a)`` (a tuple of one array) and ``np.flatnonzero(a)``:
  the indices of the true (nonzero, NaN included) elements, int64.

Refused with a located error: other arguments (``out=``, ``kind="heapsort"``), a
non-constant axis, n-D arrays for argsort and nonzero.  The loops are written in the
Python son compiles and inlined.  O(1) nodes per call plus the inlined loops; O(n log n)
time for argsort, O(n) for the others.
"""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import NE, Add, Mul, NewArray, Node, Store, kept
from .core import _kind, dtype_of, is_array_value, promoted
from .lists import DTYPE_OF_KIND
from .scope import Grid, Pack, View
from .selection import count_true_2d
from .sorting import index_order

_STABLE = ("stable", "mergesort")


class ArrayOps:
    """FunctionParser's array rearrangements (a mixin)."""

    def call_concatenate(self, e: ast.Call, name: str) -> Node:
        """``np.concatenate(seq, axis=0)`` of a tuple or list display (or a tuple value) of
        arrays of one ndim; ``axis=None`` joins them flattened."""
        got = self.call_arguments(e, name, ["seq", "axis"], optional={"axis"})
        seq = got["seq"]
        if isinstance(seq, (ast.Tuple, ast.List)):
            pieces = self.exprs(seq.elts)
        else:
            v = self.expr_any(seq)
            if not isinstance(v, Pack):
                raise self.unsupported(seq, f"{name}() of anything but a tuple or list of arrays written "
                                            "where it is called, or a tuple")
            pieces = list(v.elems)
        if not pieces:
            raise self.error(e, "need at least one array to concatenate", name)
        places = seq.elts if isinstance(seq, (ast.Tuple, ast.List)) else [seq] * len(pieces)
        for p, at in zip(pieces, places):
            if not (isinstance(p, Grid) or is_array_value(p)):
                raise self.unsupported(at, f"{name}() of anything but arrays")
        with kept(*pieces):
            return self.joined(e, name, pieces, got.get("axis"))

    def joined(self, e: ast.Call, name: str, pieces: list[Node], axis_e: ast.expr | None) -> Node:
        """numpy's concatenation of ``pieces`` (arrays, views, n-D arrays) along the
        constant axis ``axis_e`` (None: 0; ``None``: all of them flattened in C order): a
        new C-order array of numpy's result dtype, numpy's ValueError where the other
        dimensions differ."""
        axis = self.expr(axis_e) if axis_e is not None else self.con(0)
        if axis.type.is_constant and axis.type.con is None:
            flat: list[Node] = []
            for p in pieces:
                with kept(*flat):
                    flat.append(self.raveled(e, p))
            pieces = flat
            axis = self.con(0)
        ndims = {p.ndim if isinstance(p, Grid) else 1 for p in pieces}
        if len(ndims) > 1:
            return self.fault(ValueError, "all the input arrays must have same number of dimensions")
        ndim = ndims.pop()
        if not (axis.type.is_constant and type(axis.type.con) is int):
            raise self.unsupported(axis_e, f"{name}() with an axis that is not a constant int or None")
        if not -ndim <= axis.type.con < ndim:
            raise self.error(axis_e, f"axis {axis.type.con} is out of bounds for array of dimension {ndim}",
                             "axis")
        dtype = promoted(*(dtype_of(p.base if isinstance(p, Grid) else p) for p in pieces))
        if ndim == 1:
            with kept(*pieces):
                total = self.con(0)
                for p in pieces:
                    with kept(total):
                        total = self.op(e, Add, total, self.length(e, p))
                with kept(total):
                    out = self.op(e, NewArray, self.scope.ctrl, total, dtype=dtype, fill="empty")
                at = self.con(0)
                for p in pieces:
                    with kept(out, at):
                        at = self.inline(e, put_at, [out, p, at])
                return out
        k = axis.type.con % ndim
        with kept(*pieces):
            for i in range(ndim):
                for p in pieces[1:] if i != k else ():
                    self.guard(self.op(e, NE, p.dims[i], pieces[0].dims[i]), ValueError,
                               "all the input array dimensions except for the concatenation axis must "
                               "match exactly")
            total = self.con(0)
            for p in pieces:
                with kept(total):
                    total = self.op(e, Add, total, p.dims[k])
            with kept(total):
                out = self.new_grid(e, [total if i == k else d for i, d in enumerate(pieces[0].dims)], dtype,
                                    "empty")
            at = self.con(0)
            for p in pieces:
                with kept(out, at):
                    start = self.op(e, Add, out.start, self.op(e, Mul, at, out.strides[k]))
                    with kept(start):
                        dst = Grid(self.g, out.base, start, *p.dims, *out.strides)
                    with kept(dst):
                        self.assign_grid(e, dst, p)
                        at = self.op(e, Add, at, p.dims[k])
            return out

    def raveled(self, at: ast.AST, a: Node) -> Node:
        """``np.ravel(a)`` for joining: a 1-D array or view itself, an n-D array's elements
        in C order (copied)."""
        if not isinstance(a, Grid):
            return a
        with kept(a):
            c = self.grid_copy(at, a)
        with kept(c):
            return View(self.g, c.base, self.con(0), self.con(1), self.flat_size(at, c))

    def call_append(self, e: ast.Call, name: str) -> Node:
        """``np.append(arr, values, axis=None)``: both flattened and joined, or joined
        along the axis; a number or a list of ``values`` is made an array first."""
        got = self.call_arguments(e, name, ["arr", "values", "axis"], optional={"axis"})
        pieces = []
        for x in (got["arr"], got["values"]):
            with kept(*pieces):
                v = self.expr_any(x)
                if not (isinstance(v, Grid) or is_array_value(v)):
                    with kept(v):
                        v = self.one_element(x, v) if _kind(v) in ("int", "float", "bool") else \
                            self.array_of_value(x, name, v)
                pieces.append(v)
        with kept(*pieces):
            return self.joined(e, name, pieces, got.get("axis", ast.Constant(None)))

    def one_element(self, at: ast.AST, x: Node) -> Node:
        """``np.ravel(x)`` of a number: a new array of one element, of its kind."""
        with kept(x):
            out = self.op(at, NewArray, self.scope.ctrl, self.con(1), dtype=DTYPE_OF_KIND[_kind(x)],
                          fill="empty")
            with kept(out):
                self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, out, self.con(0), x)
            return out

    def argsort(self, e: ast.Call, a: Node) -> Node:
        """``np.argsort(a)`` (``kind=``) of a 1-D array or view."""
        kind = "quicksort"
        for k in e.keywords:
            if k.arg != "kind" or not (isinstance(k.value, ast.Constant) and k.value.value in
                                       ("quicksort", "stable", "mergesort", None)):
                raise self.unsupported(k.value, "argsort() with arguments other than the array and "
                                                "kind='quicksort', 'stable' or 'mergesort'")
            kind = k.value.value or "quicksort"
        with kept(a):
            return self.inline(e, index_order, [a, self.con(kind in _STABLE)])

    def call_nonzero(self, e: ast.Call, name: str, flat: bool) -> Node:
        """``np.nonzero(a)`` (``np.where(a)``): a tuple of one int64 array of indices per
        axis, the true elements in C order; ``np.flatnonzero(a)``: their C-order
        positions.  O(size) time, two passes (count, then fill)."""
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{name}() takes one array", name)
        a = self.expr(e.args[0])
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.unsupported(e.args[0], f"{name}() of anything but an array")
        with kept(a):
            if isinstance(a, Grid) and flat:  # numpy's nonzero(ravel(a)): C order, whatever the layout
                a = self.flat_view(e, a, name, any_order=True)
            elif isinstance(a, Grid):
                return self.inline(e, nonzero2 if a.ndim == 2 else nonzero3, [a])
            with kept(a):
                idx = self.inline(e, flatnonzero, [a])
        return idx if flat else self.pack([idx])


# ---------------------------------------------------------------- inlined (son's Python)
def put_at(out, p, at):
    """``p`` copied into ``out`` from index ``at`` (converted as numpy converts it); the
    index after it."""
    for i in range(len(p)):
        out[at + i] = p[i]
    return at + len(p)


def flatnonzero(a):
    n = 0
    for i in range(len(a)):
        if a[i]:
            n += 1
    out = np.empty(n, dtype=np.int64)
    j = 0
    for i in range(len(a)):
        if a[i]:
            out[j] = i
            j += 1
    return out


def nonzero2(a):
    n = count_true_2d(a)
    r = np.empty(n, dtype=np.int64)
    c = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j]:
                r[k] = i
                c[k] = j
                k += 1
    return r, c


def nonzero3(a):
    n = 0
    for i in range(a.shape[0]):
        n += count_true_2d(a[i])
    r = np.empty(n, dtype=np.int64)
    c = np.empty(n, dtype=np.int64)
    d = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for m in range(a.shape[2]):
                if a[i, j, m]:
                    r[k] = i
                    c[k] = j
                    d[k] = m
                    k += 1
    return r, c, d


def stacked2(r, c):
    """numpy's ``argwhere``: ``transpose(nonzero(a))``, a view of the stacked indices."""
    out = np.empty((2, len(r)), dtype=np.int64)
    for k in range(len(r)):
        out[0, k] = r[k]
        out[1, k] = c[k]
    return out.T


def stacked3(r, c, d):
    out = np.empty((3, len(r)), dtype=np.int64)
    for k in range(len(r)):
        out[0, k] = r[k]
        out[1, k] = c[k]
        out[2, k] = d[k]
    return out.T


ARRAY_OPS = {
    np.concatenate: lambda p, e, n: p.call_concatenate(e, n),
    np.append: lambda p, e, n: p.call_append(e, n),
    np.nonzero: lambda p, e, n: p.call_nonzero(e, n, False),
    np.flatnonzero: lambda p, e, n: p.call_nonzero(e, n, True),
    np.where: lambda p, e, n: p.call_nonzero(e, n, False),  # np.where(c): the 3-argument one is a ufunc
}

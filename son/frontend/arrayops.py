"""numpy functions that rearrange 1-D arrays: ``np.concatenate``, ``np.argsort``,
``np.nonzero`` and ``np.flatnonzero``, bit for bit where numpy defines the result.

- ``np.concatenate(seq)`` of a tuple or list literal (or a tuple value) of 1-D arrays
  and views: a new array of numpy's result dtype (bool < int64 < float64; an int
  converted to a float as numpy does, rounding to nearest), the pieces in order.
- ``np.argsort(a)`` and ``a.argsort()`` (``kind=``): son's stable merge sort of the
  indices (son/frontend/sorting.py's order: NaN last).  With ``kind="stable"`` or
  ``"mergesort"`` that is numpy's result.  numpy's default sort is not stable (introsort,
  or SIMD sorts on AVX-512), so where two keys are equal (``0.0`` and ``-0.0`` too, and
  two NaNs) the order numpy gives is its kernels' choice: son raises
  ``NotImplementedError`` there rather than guess; without ties every kind agrees.
- ``np.nonzero(a)`` and ``np.where(a)`` (a tuple of one array) and ``np.flatnonzero(a)``:
  the indices of the true (nonzero, NaN included) elements, int64.

Refused with a located error: other arguments (``axis=``, ``out=``, ``kind="heapsort"``),
n-D arrays.  The loops are written in the Python son compiles and inlined.  O(1) nodes
per call plus the inlined loops; O(n log n) time for argsort, O(n) for the others.
"""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Add, NewArray, Node, kept
from .core import dtype_of, is_array_value, promoted
from .scope import Grid, Pack
from .sorting import index_order

_STABLE = ("stable", "mergesort")


class ArrayOps:
    """FunctionParser's array rearrangements (a mixin)."""

    def call_concatenate(self, e: ast.Call, name: str) -> Node:
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{name}() takes a tuple or list of 1-D arrays", name)
        seq = e.args[0]
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
            if isinstance(p, Grid) or not is_array_value(p):
                raise self.unsupported(at, f"{name}() of anything but 1-D arrays")
        dtype = promoted(*(dtype_of(p) for p in pieces))
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
        if len(e.args) != 1 or e.keywords:
            raise self.error(e, f"{name}() takes one array", name)
        a = self.expr(e.args[0])
        if isinstance(a, Grid) or not is_array_value(a):
            raise self.unsupported(e.args[0], f"{name}() of anything but a 1-D array")
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


ARRAY_OPS = {
    np.concatenate: lambda p, e, n: p.call_concatenate(e, n),
    np.nonzero: lambda p, e, n: p.call_nonzero(e, n, False),
    np.flatnonzero: lambda p, e, n: p.call_nonzero(e, n, True),
    np.where: lambda p, e, n: p.call_nonzero(e, n, False),  # np.where(c): the 3-argument one is a ufunc
}

"""``np.linalg.norm(x, ord=None, axis=None, keepdims=False)`` of 1-D and 2-D arrays, each
case as numpy's ``numpy/linalg/_linalg.py`` computes it, operation by operation.

``x`` is read as float64 first (numpy's ``x.astype(float)`` of ints and bools).  ``ord``,
``axis`` and ``keepdims`` are constants the parse reads.

- ``axis=None`` with ``ord=None`` (any ndim), ``'fro'``/``'f'`` (2-D) or ``2`` (1-D):
  ``sqrt(dot(v, v))`` of the elements in C order; the dot product sums in index order
  where numpy's BLAS may sum in another (the last bits may differ, as for ``np.dot``:
  son/frontend/linalg.py, docs/decisions.md).
- A vector norm (1-D, or each line of a 2-D array along an int ``axis``): ``ord=2`` (or
  None) ``sqrt(add.reduce(x*x))``, ``1`` ``add.reduce(abs(x))`` (numpy's pairwise sums
  and orders along an axis: son/frontend/axisreduce.py, so bit for bit numpy's),
  ``inf`` ``max(abs(x), initial=0)``, ``-inf`` ``min(abs(x))`` (numpy's ValueError where
  empty), ``0`` the count of nonzero elements as a float, any other number ``p``
  numpy's ``absx **= p; ret = add.reduce(absx); ret **= reciprocal(p)``: the powers as
  son's ``a ** p`` of an array (numpy's fast paths for -1 and 0.5, C's ``pow`` otherwise,
  where numpy's AVX-512 loops may differ in the last bits: docs/decisions.md), the sums
  as above, the root C's ``pow`` of a float (numpy's scalar's) or ``** (1 / p)`` of the
  sums along an axis; a string ``ord`` is numpy's ValueError.
- A matrix norm (2-D, ``axis=None``): ``1`` the largest column sum of ``abs(x)``,
  ``inf`` the largest row sum (``initial=0``), ``-1``/``-inf`` the smallest (numpy's
  ValueError where there is none); another number or string is numpy's ValueError.
- ``keepdims=True``: the reduced axes kept with length 1 (a one-element array where all
  are reduced).

``abs(x)`` and ``x * x`` are whole-array expressions (son/frontend/ufuncs.py): numpy
gives them ``x``'s memory order and sums them in that order, so an ``x`` in another order
than C's (a transpose) is refused at run time there, as for any such expression.

Refused with a located error: ``ord`` 2, -2 and ``'nuc'`` of a matrix (singular values:
son has no SVD), arrays of more than two dimensions, an ``axis`` that is not a constant int or None, and
``ord``/``keepdims`` that are not constants.  O(1) nodes per call plus the inlined loops;
O(elements) time."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import Node, kept
from .arrayfns import _empty_axis
from .core import dtype_of, is_array_value
from .scope import Grid

#: the number or string orders son reads, by what they ask for
_VECTOR_ORDERS = {math.inf: "max", -math.inf: "min", 0: "count", 1: "sum", 2: "two"}
#: a matrix norm's order: (largest or not, the axis its sums of magnitudes reduce)
_MATRIX_ORDERS = {1: (True, 0), -1: (False, 0), math.inf: (True, 1), -math.inf: (False, 1)}
#: what ``magnitudes_along`` takes of each line
_LARGEST, _SMALLEST, _COUNT = 0, 1, 2


class Norms:
    """FunctionParser's ``np.linalg.norm`` (a mixin)."""

    def call_norm(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["x", "ord", "axis", "keepdims"],
                                  optional={"ord", "axis", "keepdims"})
        order = self.norm_order(got.get("ord"), name)
        keepdims = self.constant_flag(got.get("keepdims"), False, name, "keepdims")
        (x,) = self.product_operands(e, self.operands([got["x"]]))
        if not (isinstance(x, Grid) or is_array_value(x)):
            raise self.error(got["x"], f"{name}() of a {x.type.widen()} value (son takes an array)", name)
        ndim = x.ndim if isinstance(x, Grid) else 1
        if ndim > 2:
            raise self.unsupported(got["x"], f"{name}() of a {ndim}-D array (son takes 1-D and 2-D arrays)")
        axis = None
        if "axis" in got:
            v = self.expr(got["axis"])
            if not (v.type.is_constant and (v.type.con is None or type(v.type.con) is int)):
                raise self.unsupported(got["axis"], f"{name}() with an axis that is not a constant int or "
                                                    "None")
            axis = None if v.type.con is None else self.axis_constant(got["axis"], ndim, name)
        with kept(x):
            if dtype_of(x.base if isinstance(x, Grid) else x) != "float64":
                x = self.converted(e, x, "float64")
            with kept(x):
                if axis is None and (order is None or (order in ("f", "fro") and ndim == 2)
                                     or (order == 2 and ndim == 1)):
                    flat = self.flat_view(e, x, "norm") if isinstance(x, Grid) else x
                    with kept(flat):
                        out = self.inline_list_helper(e, norm_of_floats, [flat])
                elif ndim == 2 and axis is None:
                    out = self.matrix_norm(e, name, got.get("ord"), x, order)
                else:
                    out = self.vector_norm(e, name, got.get("ord"), x, order, axis if ndim == 2 else None)
                    if ndim == 2:
                        return self.with_axis_kept(e, out, axis, name) if keepdims else out
                return self.filled_with(e, out, ndim) if keepdims else out

    def norm_order(self, x: ast.expr | None, name: str):
        """``ord``: None, a string, or a constant number (an int where it is one)."""
        if x is None or isinstance(x, ast.Constant) and isinstance(x.value, str):
            return None if x is None else x.value
        v = self.expr(x)
        if not (v.type.is_constant and type(v.type.con) in (int, float, bool, type(None))):
            raise self.unsupported(x, f"{name}() with an ord= that is not a constant number, string or None")
        return v.type.con  # (1.0 and True are 1 to numpy's comparisons, and to the tables' keys)

    def vector_norm(self, e: ast.Call, name: str, at: ast.expr | None, x: Node, order,
                    axis: int | None) -> Node:
        """A vector norm of the 1-D ``x`` (``axis`` None) or of each line of the 2-D ``x``
        along ``axis``."""
        if isinstance(order, str):
            return self.fault(ValueError, f"Invalid norm order '{order}' for vectors")
        how = "two" if order is None else _VECTOR_ORDERS.get(order)
        if how is None:  # numpy's general order: absx **= ord; add.reduce; **= reciprocal(ord)
            p, r = self.con(order), self.con(1.0 / float(order))  # numpy's reciprocal in float64
            if axis is None:
                return self.inline_list_helper(e, power_sum_root, [x, p, r])
            return self.inline_list_helper(e, power_sums_roots_along, [x, self.con(axis), p, r])
        if axis is None:
            fn = {"two": sum_of_squares_root, "sum": sum_of_magnitudes, "max": largest_magnitude,
                  "min": smallest_magnitude, "count": nonzero_count}[how]
            return self.inline_list_helper(e, fn, [x])
        fn = {"two": root_sums_of_squares_along, "sum": sums_of_magnitudes_along}.get(how)
        if fn is not None:
            return self.inline_list_helper(e, fn, [x, self.con(axis)])
        how = {"max": _LARGEST, "min": _SMALLEST, "count": _COUNT}[how]
        return self.inline_list_helper(e, magnitudes_along, [x, self.con(axis), self.con(how)])

    def matrix_norm(self, e: ast.Call, name: str, at: ast.expr | None, x: Grid, order) -> Node:
        """A matrix norm of the 2-D ``x`` (``axis=None``) other than Frobenius'."""
        if order in (2, -2, "nuc"):
            raise self.unsupported(at, f"{name}() of a matrix with ord={order!r} (its singular values: son "
                                       "has no SVD; write ord=None, 'fro', 1, -1, inf or -inf)")
        if isinstance(order, str) or order not in _MATRIX_ORDERS:
            return self.fault(ValueError, "Invalid norm order for matrices.")
        largest, axis = _MATRIX_ORDERS[order]
        return self.inline_list_helper(e, line_sums_extreme, [x, self.con(axis), self.con(largest)])


NORM_CALLS = {np.linalg.norm: lambda p, e, n: p.call_norm(e, n)}


# ---------------------------------------------------------------- inlined (son's Python)
def norm_of_floats(v):
    """``sqrt(dot(v, v))``: numpy's norm of the elements (``ord`` None, 2 or 'fro')."""
    return math.sqrt(np.dot(v, v))


def sum_of_squares_root(x):
    """``sqrt(add.reduce(x * x))`` of a 1-D ``x`` (an axis given: numpy's pairwise sum)."""
    return math.sqrt(np.sum(x * x))


def sum_of_magnitudes(x):
    return np.sum(np.abs(x))


def largest_magnitude(x):
    """``abs(x).max(initial=0)``: NaN where ``x`` holds one."""
    m = 0.0
    for i in range(len(x)):
        v = abs(x[i])
        if v > m or v != v:
            m = v
    return m


def smallest_magnitude(x):
    """``abs(x).min()``: NaN where ``x`` holds one, numpy's ValueError where empty."""
    _empty_axis(len(x), False)
    m = abs(x[0])
    for i in range(len(x)):
        v = abs(x[i])
        if v < m or v != v:
            m = v
    return m


def nonzero_count(x):
    """``(x != 0).astype(float).sum()``: every partial sum is an exact integer."""
    return float(np.count_nonzero(x))


def power_sum_root(x, p, r):
    """``add.reduce(abs(x) ** p) ** r`` of a 1-D ``x``, ``r`` numpy's ``1 / p``: the powers
    with ``p`` a constant (numpy's ``a ** p`` of an array), the last one C's ``pow`` of
    floats, as numpy's scalar."""
    return np.float_power(np.sum(np.abs(x) ** p), r)


def power_sums_roots_along(x, axis, p, r):
    return np.sum(np.abs(x) ** p, axis=axis) ** r


def root_sums_of_squares_along(x, axis):
    s = x * x
    return np.sqrt(np.sum(s, axis=axis))


def sums_of_magnitudes_along(x, axis):
    return np.sum(np.abs(x), axis=axis)


def magnitudes_along(x, axis, how):
    """Each line's ``largest_magnitude``, ``smallest_magnitude`` or ``nonzero_count``
    (``how`` 0, 1 or 2: a constant the parse folds) along ``axis`` of the 2-D ``x``."""
    out = np.zeros(x.shape[1 - axis])
    if how == 1:
        _empty_axis(x.shape[axis], False)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            k = i if axis == 1 else j
            first = j == 0 if axis == 1 else i == 0
            v = abs(x[i, j])
            if how == 2:
                if v != 0.0:
                    out[k] += 1.0
            elif how == 0:
                if v > out[k] or v != v:
                    out[k] = v
            elif first or v < out[k] or v != v:
                out[k] = v
    return out


def line_sums_extreme(x, axis, largest):
    """``add.reduce(abs(x), axis=axis)`` then its largest (from 0, numpy's ``initial=0``)
    or smallest element (numpy's ValueError where there is none)."""
    sums = np.sum(np.abs(x), axis=axis)
    if largest:
        return largest_magnitude(sums)
    return smallest_magnitude(sums)

"""Selection: a 1-D array (or view) indexed by a boolean mask or by an array of
indices, and a 2-D or 3-D array by a boolean mask of its dimensions (its elements in C
order), numpy's "advanced" indexing.

- ``a[mask]`` (a bool array or view of ``a``'s length, often a comparison,
  ``a[a > 0]``) is a new array of the selected elements in order; ``a[idx]`` (an int
  array or view) a new array of ``a[idx[j]]``, negative indices counting from the end.
  Both are new arrays, never views, as in numpy.
- ``a[mask] = v`` and ``a[idx] = v``: a number stored in every selected element (with
  the conversions of ``a[i] = v``), or an array of as many elements as are selected
  (or of one, broadcast).  With repeated indices the last write wins (numpy's order).  ``a[m] += x``
  reads the selection, adds, and stores it back (each repeated index once, as numpy).
- numpy's errors first, before any element is read or written: IndexError for a
  mask of another length or an index out of bounds (son's message is numpy's without
  the sizes), ValueError for a value array of another length, IndexError for an
  index array of floats.

An array value that shares memory with ``a`` (a view of it, the same array passed
twice) is a NotImplementedError at run time (an ``Overlaps`` test, skipped for an
array the function made): numpy's result then depends on the order its loops read
it (measured: ``a[m] = a[::-1]`` reads the value as it writes, ``a[m] = a[:-1]`` as
if copied first), which son does not model.  Refused with a located error: an array
value of another dtype than ``a``'s (numpy casts whole arrays by other rules than
single elements), an index array with more than one dimension, a mask of fewer
dimensions than an n-D array (numpy then selects rows).  The loops are
written in the Python son compiles and inlined (as son/frontend/arrayfns.py's).
O(1) nodes per use plus the inlined loops, O(len) at run time.
"""

from __future__ import annotations

import ast

from ..nodes import EQ, NE, BitAnd, NewArray, Node, Overlaps, kept
from ..nodes.types import ArrayType, ListType
from .core import _kind, dtype_of, is_array_value
from .scope import Aggregate, Grid, View, base_of


def is_selector(idx: Node) -> bool:
    """Is index ``idx`` an array, a view or a list (a selection), not a number?"""
    return isinstance(idx, (View, Grid)) or not isinstance(idx, Aggregate) and isinstance(
        idx.type, (ArrayType, ListType))


def _fresh(value: Node, a: Node) -> bool:
    """Is array ``value`` surely not ``a``'s memory: an array this function made
    (``NewArray``), not ``a``'s base?"""
    return type(base_of(value)) is NewArray and base_of(value) is not base_of(a)


def _dtype(x: Node) -> str:
    return x.type.dtype if isinstance(x.type, ListType) else dtype_of(x)


#: numpy's ValueError for a value array of another length (without the sizes), for a
#: mask and for indices
_MISMATCH = {True: "NumPy boolean array indexing assignment cannot assign the input values to the "
                   "output values where the mask is true",
             False: "shape mismatch: value array could not be broadcast to indexing result"}


class Selection:
    """FunctionParser's advanced indexing of 1-D arrays (a mixin)."""

    def selected(self, at: ast.Subscript, a: Node, idx: Node) -> Node:
        """``a[idx]``: a new array of the selected elements."""
        kind = self.selector_kind(at, a, idx)
        mask = kind != "int"
        e = _call_at(at, "select")
        with kept(a, idx):
            count = self.inline(e, _COUNT.get(kind, mask_count) if mask else check_indices, [a, idx])
            with kept(count):
                out = self.op(e, NewArray, self.scope.ctrl, count, dtype=dtype_of(a), fill="empty")
            with kept(out):
                if kind == "bool":
                    return self.inline(e, take_masked, [out, a, idx])
                if kind == "int":
                    return self.inline(e, take_indexed, [out, a, idx])
                self.inline(e, _TAKE[kind], [out, self.con(0), a, idx])
                return out

    def store_selection(self, at: ast.Subscript, a: Node, idx: Node, value: Node) -> None:
        """``a[idx] = value``, numpy's errors in numpy's order: for a mask its length, then
        the value (a number converted to ``a``'s dtype; an array's length), then, for
        indices, their bounds."""
        kind = self.selector_kind(at, a, idx)
        mask = kind != "int"
        target = _call_at(at, "store_selection")
        if isinstance(value, Aggregate) and not isinstance(value, View) or isinstance(value, Grid):
            raise self.unsupported(target, "assignment of anything but a number or a 1-D array to "
                                           "selected elements")
        number = not (isinstance(value, View) or is_array_value(value))
        if number and _kind(value) is None:
            raise self.unsupported(target, f"storing a {value.type.widen()} value in selected elements")
        if not number and dtype_of(value) != dtype_of(a):
            raise self.unsupported(target, f"assignment of a {dtype_of(value)} array to selected elements "
                                           f"of a {dtype_of(a)} array (numpy casts whole arrays by other "
                                           "rules than single elements)")
        with kept(a, idx, value):
            count = self.inline(target, _COUNT.get(kind, mask_count), [a, idx]) if mask else \
                self.length(target, idx)
            with kept(count):
                if number:
                    value = self.as_element(target, dtype_of(a), value)
                else:
                    self.check_value(target, a, value, count, mask)
            with kept(value):
                if not mask:
                    self.inline(target, check_indices, [a, idx])
                if (kind, number) in _PUT:  # an n-D mask
                    if number:
                        self.inline(target, _PUT[kind, number], [a, idx, value])
                        return
                    one = self.op(target, EQ, self.length(target, value), self.con(1))
                    with kept(one):
                        self.inline(target, _PUT[kind, number], [a, idx, value, self.con(0), one])
                    return
                put = {(True, True): put_masked_number, (True, False): put_masked,
                       (False, True): put_indexed_number, (False, False): put_indexed}[mask, number]
                self.inline(target, put, [a, idx, value])

    def as_element(self, at: ast.Call, dtype: str, x: Node) -> Node:
        """Number ``x`` as an element of ``dtype``, converted as numpy stores it (its
        ValueError for NaN into ints, say), before anything is selected."""
        if _kind(x) == {"float64": "float", "int64": "int", "bool": "bool"}[dtype]:
            return x
        with kept(x):
            one = self.op(at, NewArray, self.scope.ctrl, self.con(1), dtype=dtype, fill="empty")
        with kept(one):
            return self.inline(at, as_element, [one, x])

    def check_value(self, at: ast.Call, a: Node, value: Node, count: Node, mask: bool) -> None:
        """numpy's ValueError unless array ``value`` has ``count`` elements or one; then,
        unless the function made it, NotImplementedError where it shares ``a``'s memory:
        numpy's result then depends on the order it reads it, which son does not model."""
        n = self.length(at, value)
        with kept(n):
            bad = self.op(at, BitAnd, self.op(at, NE, n, count), self.op(at, NE, n, self.con(1)))
            self.guard(bad, ValueError, _MISMATCH[mask])
        if not _fresh(value, a):
            self.guard(self.op(at, Overlaps, base_of(a), base_of(value)), NotImplementedError,
                       "son does not assign an array to selected elements of an array it shares memory "
                       "with (numpy's result depends on the order it reads it): assign a copy")

    def aug_selection(self, s: ast.AugAssign, a: Node, idx: Node) -> None:
        """``a[idx] op= x``: the selection read (a new array), ``op x`` applied to it as a
        whole-array expression, stored back."""
        cur = self.selected(s.target, a, idx)
        name = self.temp()
        self.scope.set(name, cur)
        new = self.expr(ast.copy_location(ast.BinOp(ast.Name(name, ast.Load()), s.op, s.value), s))
        self.scope.remove(name)
        with kept(new):
            self.store_selection(s.target, a, idx, new)

    def selector_kind(self, at: ast.Subscript, a: Node, idx: Node) -> str:
        """'bool' for a mask, 'int' for indices, 'bool2'/'bool3' for a mask of a 2-D or
        3-D array of its dimensions, or a located error."""
        if isinstance(a, Grid) and isinstance(idx, Grid) and a.ndim == idx.ndim and _dtype(idx) == "bool":
            return f"bool{a.ndim}"
        if isinstance(a, Grid) or isinstance(idx, Grid):
            raise self.unsupported(at, "indexing by an array with more than one dimension, or of an "
                                       "n-D array (son selects from 1-D arrays, and from n-D arrays "
                                       "by a bool mask of their dimensions)")
        if not is_array_value(a):
            raise self.error(at.value, f"subscript of a {a.type.widen()} value by an array (son selects "
                                       "elements of 1-D numpy arrays)", "subscript")
        dtype = _dtype(idx)
        if dtype not in ("int64", "bool"):
            raise self.error(at.slice, "arrays used as indices must be of integer (or boolean) type",
                             "subscript")
        return "bool" if dtype == "bool" else "int"


def _call_at(at: ast.AST, name: str) -> ast.Call:
    """A call of ``name`` where ``at`` is: what ``inline`` takes for the loops inlined
    for a subscript (its errors and the trace name ``at``'s position)."""
    return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), [], []), at)


# ---------------------------------------------------------------- inlined (son's Python)
def mask_count(a, m):
    """numpy's IndexError for a mask of another length (an empty mask selects nothing
    from any array: measured), else how many it selects."""
    if len(m) != len(a) and len(m) != 0:
        raise IndexError("boolean index did not match indexed array along axis 0")
    k = 0
    for i in range(len(m)):
        if m[i]:
            k += 1
    return k


def check_indices(a, idx):
    """numpy's IndexError for any index out of bounds, before anything is read or
    written; else how many there are."""
    n = len(a)
    for j in range(len(idx)):
        if idx[j] < -n or idx[j] >= n:
            raise IndexError("index out of bounds for axis 0")
    return len(idx)


def take_masked(out, a, m):
    j = 0
    for i in range(len(m)):
        if m[i]:
            out[j] = a[i]
            j += 1
    return out


def take_indexed(out, a, idx):
    for j in range(len(idx)):
        out[j] = a[idx[j]]
    return out


def put_masked(a, m, v):
    one = len(v) == 1
    j = 0
    for i in range(len(m)):
        if m[i]:
            a[i] = v[0] if one else v[j]
            j += 1


def put_indexed(a, idx, v):
    one = len(v) == 1
    for j in range(len(idx)):
        a[idx[j]] = v[0] if one else v[j]


def as_element(one, x):
    one[0] = x
    return one[0]


def put_masked_number(a, m, x):
    for i in range(len(m)):
        if m[i]:
            a[i] = x


def put_indexed_number(a, idx, x):
    for j in range(len(idx)):
        a[idx[j]] = x


# n-D masks of the array's dimensions: the elements in C order.  A mask's axis of
# another length than the array's is numpy's IndexError, unless it has length 0 (it
# then selects nothing: measured, axis by axis, as the 1-D mask_count).
def mask_count_2d(a, m):
    if m.shape[0] != a.shape[0] and m.shape[0] != 0:
        raise IndexError("boolean index did not match indexed array along axis 0")
    if m.shape[1] != a.shape[1] and m.shape[1] != 0:
        raise IndexError("boolean index did not match indexed array along axis 1")
    return count_true_2d(m)


def mask_count_3d(a, m):
    if m.shape[0] != a.shape[0] and m.shape[0] != 0:
        raise IndexError("boolean index did not match indexed array along axis 0")
    if m.shape[1] != a.shape[1] and m.shape[1] != 0:
        raise IndexError("boolean index did not match indexed array along axis 1")
    if m.shape[2] != a.shape[2] and m.shape[2] != 0:
        raise IndexError("boolean index did not match indexed array along axis 2")
    k = 0
    for i in range(m.shape[0]):
        k += count_true_2d(m[i])
    return k


def count_true_2d(m):
    k = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j]:
                k += 1
    return k


def take_masked_2d(out, k, a, m):
    """The selected elements of ``a`` into ``out`` from ``k`` on; the next free place."""
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j]:
                out[k] = a[i, j]
                k += 1
    return k


def take_masked_3d(out, k, a, m):
    for i in range(m.shape[0]):
        k = take_masked_2d(out, k, a[i], m[i])
    return k


def put_number_2d(a, m, x):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j]:
                a[i, j] = x


def put_number_3d(a, m, x):
    for i in range(m.shape[0]):
        put_number_2d(a[i], m[i], x)


def put_array_2d(a, m, v, k, one):
    """Array ``v`` (read from ``k`` on, or its one element where ``one``) into the
    selected elements of ``a``; the next place of ``v``."""
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j]:
                a[i, j] = v[0] if one else v[k]
                k += 1
    return k


def put_array_3d(a, m, v, k, one):
    for i in range(m.shape[0]):
        k = put_array_2d(a[i], m[i], v, k, one)
    return k


_COUNT = {"bool2": mask_count_2d, "bool3": mask_count_3d}
_TAKE = {"bool2": take_masked_2d, "bool3": take_masked_3d}
#: (kind, a number?) -> the n-D mask's store
_PUT = {("bool2", True): put_number_2d, ("bool3", True): put_number_3d,
        ("bool2", False): put_array_2d, ("bool3", False): put_array_3d}

"""More of numpy's array functions with one exact result: ``a.sort()`` in place,
``np.count_nonzero``, ``np.trace``, ``np.searchsorted``, ``np.eye`` and ``np.identity``.

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

Refused with a located error: ``a.sort()`` of an n-D array or with arguments, ``axis=``,
``sorter=`` and other keywords.  The functions at the end are written in the Python son
compiles and inlined, like son/frontend/arrayfns.py's.  O(1) nodes per call plus the
inlined body."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Add, Min, Node, kept
from .core import dtype_of, is_array_value
from .scope import Grid, View
from .sorting import sort_bool, sort_float, sort_int

_DTYPES = {float: "float64", np.float64: "float64", int: "int64", np.int64: "int64",
           bool: "bool", np.bool_: "bool"}


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
        a = self.one_array(e, name)
        if not isinstance(a, Grid) or a.ndim != 2:
            raise self.unsupported(e.args[0], f"{name}() of anything but a 2-D array")
        with kept(a):
            n = self.op(e, Min, a.dims[0], a.dims[1])
            with kept(n):
                step = self.op(e, Add, a.strides[0], a.strides[1])
            diagonal = View(self.g, a.base, a.start, step, n)
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

    def call_eye(self, e: ast.Call, name: str, identity: bool) -> Node:
        most = 1 if identity else 3
        if not 1 <= len(e.args) <= most or any(k.arg not in (("dtype",) if identity else ("M", "k", "dtype"))
                                               for k in e.keywords):
            raise self.error(e, f"{name}() takes {'n' if identity else 'n, m, k'} and dtype=", name)
        args = list(e.args) + [None] * (most - len(e.args))
        dtype = "float64"
        for k in e.keywords:
            if k.arg == "dtype":
                dtype = _DTYPES.get(self.resolve(k.value))
                if dtype is None:
                    raise self.error(k.value, f"unsupported dtype {ast.unparse(k.value)} (use float, int, "
                                              "bool or the numpy equivalents)", name)
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


SEARCH_CALLS = {
    np.count_nonzero: lambda p, e, n: p.call_count_nonzero(e, n),
    np.trace: lambda p, e, n: p.call_trace(e, n),
    np.searchsorted: lambda p, e, n: p.call_searchsorted(e, n),
    np.eye: lambda p, e, n: p.call_eye(e, n, identity=False),
    np.identity: lambda p, e, n: p.call_eye(e, n, identity=True),
}


# ---------------------------------------------------------------- inlined (son's Python)
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


def search_one(a, key, right, floats):
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if (not _before(key, a[mid], floats)) if right else _before(a[mid], key, floats):
            lo = mid + 1
        else:
            hi = mid
    return lo


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
        while lo < hi:
            mid = lo + ((hi - lo) >> 1)
            if (not _before(key, a[mid], floats)) if right else _before(a[mid], key, floats):
                lo = mid + 1
            else:
                hi = mid
        out[j] = lo
    return out


def eye_fill(base, n, m, k, one):
    for i in range(n):
        j = i + k
        if 0 <= j < m:
            base[i * m + j] = one

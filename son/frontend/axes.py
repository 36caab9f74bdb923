"""Views that add, remove or exchange axes: ``a[:, None]``, ``a[None]``, ``a[..., 0]``,
``np.expand_dims``, ``np.atleast_1d/2d/3d``, ``np.squeeze`` and ``a.squeeze()``,
``np.swapaxes`` and ``a.swapaxes()``, ``np.moveaxis``, ``np.transpose`` and
``a.transpose()`` (any order of the axes); and diagonals: ``np.diag`` and
``np.diagonal``/``a.diagonal()`` of a 2-D array (a strided view, as numpy's, which
is read-only there: son does not refuse a write to it), ``np.diag`` of a 1-D array (a
new square array with it on a diagonal).

Each is a view of the same base as its operand, as in numpy (son/frontend/ndarrays.py:
a ``Grid`` of dims and strides, a ``View`` when one axis is left): a new axis has
length 1 and stride 0, so nothing is copied and a write through the view is a write
to its base.  A constant axis out of range is numpy's AxisError as a located error.  An
int axis known only at run time is numpy's AxisError when the call runs (``axis_value``,
``axis_values``; its message without the axis's value; for a tuple then numpy's
ValueError for a repeated axis).  ``np.flip`` and ``np.roll``, whose result has the
operand's shape whatever the axis, flip or shift each axis by a factor ``axis == i`` of 0
or 1; ``np.swapaxes``, ``np.moveaxis``, ``np.expand_dims`` and ``np.transpose`` with such
axes branch once per axis (``by_axis``, ``by_axes``) and merge the views, which have the
same number of dimensions on every arm.  A diagonal's offset may be known only at run
time too (``diagonal_view``: its start and length are min/max arithmetic on it); numpy's
OverflowError for an offset outside a C int.  ``np.squeeze`` without
``axis=`` removes the axes the parse knows have length 1 and is refused where an
axis's length is known only at run time (the result's number of dimensions would
depend on it); with ``axis=`` it checks the length at run time (numpy's ValueError).
A result of 0 or more than 3 dimensions is refused (son's arrays are 1-D to 3-D).
O(ndim) nodes each (a tuple of t run-time axes: O(t * ndim + t²)).
"""

from __future__ import annotations

import ast

import numpy as np
from numpy.exceptions import AxisError

from ..nodes import (
    EQ,
    GE,
    GT,
    LT,
    NE,
    Abs,
    Add,
    BitAnd,
    FloorDiv,
    Max,
    Min,
    Mod,
    Mul,
    Node,
    Shr,
    Sub,
    ToInt,
    kept,
)
from .core import _kind, dtype_of, is_array_value
from .scope import Grid, Pack, View


def _is_none(x: ast.expr) -> bool:
    return isinstance(x, ast.Constant) and x.value is None


def is_new_axis(p, x: ast.expr) -> bool:
    """``None`` or ``np.newaxis`` as an index."""
    if isinstance(x, ast.Constant):
        return x.value is None
    return isinstance(x, ast.Attribute) and x.attr == "newaxis" and p.resolve_quiet(x) is None


def expand_items(p, at: ast.AST, items: list[ast.expr], ndim: int) -> list[ast.expr]:
    """An index's items with ``...`` replaced by the full slices it stands for."""
    dots = [i for i, x in enumerate(items) if isinstance(x, ast.Constant) and x.value is Ellipsis]
    if not dots:
        return items
    if len(dots) > 1:
        raise p.error(at, "an index can only have a single ellipsis ('...')", "subscript")
    used = sum(1 for x in items if not is_new_axis(p, x)) - 1
    full = [ast.copy_location(ast.Slice(None, None, None), at) for _ in range(max(ndim - used, 0))]
    return items[:dots[0]] + full + items[dots[0] + 1:]


class Axes:
    """FunctionParser's axis views (a mixin)."""

    def shaped(self, at: ast.AST, base: Node, start: Node, dims: list[Node], strides: list[Node]):
        """The view of ``base`` with these dims and strides: a ``View`` for one axis."""
        if not 1 <= len(dims) <= 3:
            raise self.unsupported(at, f"an array of {len(dims)} dimensions (son takes 1-D to 3-D arrays)")
        if len(dims) == 1:
            return View(self.g, base, start, strides[0], dims[0])
        return Grid(self.g, base, start, *dims, *strides)

    def grid_of(self, at: ast.AST, a: Node, what: str) -> Grid:
        """``a`` (an array, a view or an n-D array) as a ``Grid`` of its own ndim."""
        if isinstance(a, Grid):
            return a
        if is_array_value(a):
            return self.as_grid(at, a)
        raise self.unsupported(at, f"{what} of {a.type.widen()} (son takes arrays here)")

    def axis_constant(self, e: ast.expr, ndim: int, what: str, v: Node | None = None) -> int:
        """A constant axis in ``[-ndim, ndim)``, made non-negative (``v``: ``e`` already
        evaluated)."""
        v = self.expr(e) if v is None else v
        if not (v.type.is_constant and type(v.type.con) is int):
            raise self.unsupported(e, f"{what} with an axis that is not a constant int")
        k = v.type.con
        if not -ndim <= k < ndim:
            raise self.error(e, f"axis {k} is out of bounds for array of dimension {ndim}", "axis")
        return k % ndim

    def axis_value(self, e: ast.expr, ndim: int, what: str, v: Node | None = None) -> int | Node:
        """A constant axis (``axis_constant``), or an int axis known only at run time: numpy's
        AxisError there unless ``-ndim <= axis < ndim``, then the axis made non-negative (a
        node, kept: the caller unkeeps it).  Only for functions whose result's shape does
        not depend on the axis.  ``v``: ``e`` already evaluated."""
        v = self.expr(e) if v is None else v
        if v.type.is_constant:
            return self.axis_constant(e, ndim, what, v)
        if _kind(v) != "int":
            raise self.unsupported(e, f"{what} with an axis of {v.type.widen()} (son takes an int)")
        message = f"axis is out of bounds for array of dimension {ndim}"
        with kept(v):
            self.guard(self.op(e, LT, v, self.con(-ndim)), AxisError, message)
            self.guard(self.op(e, GE, v, self.con(ndim)), AxisError, message)
            return self.op(e, Mod, v, self.con(ndim)).keep()

    def by_axis(self, at: ast.AST, e: ast.expr, ndim: int, what: str, build, v: Node | None = None) -> Node:
        """``build(k)`` for the axis ``e`` of an ``ndim``-D array: for a constant, that
        axis's; for an int known only at run time, numpy's AxisError out of range
        (``axis_value``), then one arm per axis, a branch on it, whose results (of one
        kind: arrays of one dtype, n-D arrays of one rank) merge as an ``if`` does: what
        makes a function's result shape depend on its axis.  O(ndim) arms."""
        k = self.axis_value(e, ndim, what, v)
        if isinstance(k, int):
            return build(k)
        tmp = self.temp()
        arms = []
        try:
            for j in range(ndim - 1):
                t, f = self.branch(self.op(at, EQ, k, self.con(j)))
                other = self.scope.dup()
                other.ctrl = f
                self.scope.ctrl = t
                out = build(j)  # may replace self.scope
                self.scope.set(tmp, out)
                arms.append(self.scope)
                self.scope = other
            out = build(ndim - 1)
            self.scope.set(tmp, out)
            arms.append(self.scope)
            self.scope = self.merge(arms)
        finally:
            k.unkeep()
        out = self.scope.get(tmp)
        with kept(out):
            self.scope.remove(tmp)
        return out

    def by_axes(self, at: ast.AST, items: list[ast.expr], vals: list[Node], ndims: list[int], what: str,
                build) -> Node:
        """``build([k1, k2, ...])`` for several axes, the ``i``-th of ``items`` (already
        evaluated: ``vals``, in CPython's order) an axis of an ``ndims[i]``-D array: each
        as ``by_axis`` does it, the arms of one nested in those of the one before, so
        numpy's AxisError comes for the first axis out of range.  O(prod(ndims)) arms; the
        nesting is as deep as there are axes (at most three), not as the user's program."""
        def step(i: int, chosen: list[int]) -> Node:
            if i == len(items):
                return build(chosen)
            with kept(*vals[i + 1:]):
                return self.by_axis(at, items[i], ndims[i], what, lambda k: step(i + 1, chosen + [k]),
                                    vals[i])
        return step(0, [])

    def axis_values(self, e: ast.Tuple, ndim: int, what: str, distinct: bool = True,
                    vals: list[Node] | None = None, repeated: str = "repeated axis",
                    each_in_turn: bool = False) -> list[int | Node]:
        """A tuple of axes, each constant or known only at run time, in numpy's order
        (``normalize_axis_tuple``): every item evaluated, as CPython builds the tuple; then
        each checked in turn (``axis_value``: AxisError); then, if ``distinct``, numpy's
        ValueError "repeated axis" where two name the same axis, a located error where
        both are constants.  ``each_in_turn``: an item is compared with those before it
        as soon as it is checked, before the next is (``np.transpose``'s order, so
        ``(0, 0, 3)`` is a repeated axis, not an AxisError).  The run-time axes are
        nodes, kept: the caller unkeeps them.  O(items²) nodes.  ``vals``: the items
        already evaluated (``e`` a tuple value's syntax, one item per element)."""
        vals = [v.keep() for v in (self.exprs(e.elts) if vals is None else vals)]
        places = e.elts if isinstance(e, ast.Tuple) and len(e.elts) == len(vals) else [e] * len(vals)
        axes: list[int | Node] = []
        try:
            for x, v in zip(places, vals):
                with kept(*vals, *(k for k in axes if not isinstance(k, int))):
                    axes.append(self.axis_value(x, ndim, what, v))
                    if distinct and each_in_turn:
                        self._distinct(e, axes, len(axes) - 1, repeated)
        finally:
            for v in vals:
                v.unkeep()
        for j in range(len(axes) if distinct and not each_in_turn else 0):
            self._distinct(e, axes, j, repeated)
        return axes

    def _distinct(self, e: ast.expr, axes: list[int | Node], j: int, repeated: str):
        """numpy's ValueError ``repeated`` where ``axes[j]`` is one of ``axes[:j]`` (a
        located error where both are constants).  O(j) nodes."""
        b = axes[j]
        for a in axes[:j]:
            if isinstance(a, int) and isinstance(b, int):
                if a == b:
                    raise self.error(e, repeated, "axis")
                continue
            with kept(*(k for k in axes if not isinstance(k, int))):
                same = self.op(e, EQ, *(self.con(k) if isinstance(k, int) else k for k in (a, b)))
                self.guard(same, ValueError, repeated)

    def axes_argument(self, e: ast.expr, ndim: int, what: str) -> list[int]:
        """One constant axis or a tuple of them, distinct, made non-negative."""
        items = e.elts if isinstance(e, ast.Tuple) else [e]
        axes = [self.axis_constant(x, ndim, what) for x in items]
        if len(set(axes)) != len(axes):
            raise self.error(e, "repeated axis", "axis")
        return axes

    # -- numpy's functions ------------------------------------------------------------
    def call_expand_dims(self, e: ast.Call, name: str):
        a, axis = self.axis_call(e, name, ["a", "axis"])
        g = self.grid_of(e, a, name)
        with kept(g):
            def widened(new: list[int]):
                dims, strides = list(g.dims), list(g.strides)
                for k in sorted(new):
                    dims.insert(k, self.con(1))
                    strides.insert(k, self.con(0))
                return self.shaped(e, g.base, g.start, dims, strides)
            if isinstance(axis, ast.Tuple):
                return widened(self.axes_argument(axis, g.ndim + len(axis.elts), name))
            if g.ndim == 3:  # the result would have four axes, whatever the axis
                raise self.unsupported(e, "an array of 4 dimensions (son takes 1-D to 3-D arrays)")
            return self.by_axes(e, [axis], self.exprs([axis]), [g.ndim + 1], name, widened)

    def call_atleast(self, e: ast.Call, name: str):
        """``np.atleast_1d/2d/3d(a)``: views with axes of length 1 added; a number is a new
        1-element array (float64, int64 or bool, as ``np.array(x)``)."""
        (a,) = self.axis_call(e, name, ["arys"])
        if a.type.kind in ("int", "float", "bool"):
            with kept(a):
                a = self.inline(e, one_element, [a])
        g = self.grid_of(e, a, name)
        want = int(name[-2])
        if g.ndim >= want:
            return a
        with kept(g):
            one, zero = self.con(1), self.con(0)
            dims, strides = list(g.dims), list(g.strides)
            if g.ndim == 1:  # (n,) -> (1, n) -> (1, n, 1)
                dims, strides = [one] + dims, [zero] + strides
            if want == 3:
                dims, strides = dims + [one], strides + [zero]
            return self.shaped(e, g.base, g.start, dims, strides)

    def call_squeeze(self, e: ast.Call, name: str, a: Node | None = None):
        names = ["axis"] if a is not None else ["a", "axis"]
        got = self.axis_call(e, name, names, optional={"axis"}, given=a)
        a, axis = got if len(got) == 2 else (got[0], None)
        g = self.grid_of(e, a, name)
        with kept(g):
            if axis is None:
                drop = []
                for k, d in enumerate(g.dims):
                    if not d.type.is_constant:
                        raise self.unsupported(e, f"{name}() of an axis whose length is known only at "
                                                  "run time (the result's dimensions would depend on it)",
                                               instead="name the axes: squeeze(axis=...)")
                    if d.type.con == 1:
                        drop.append(k)
            else:
                drop = self.axes_argument(axis, g.ndim, name)
                for k in drop:
                    self.guard(self.op(e, NE, g.dims[k], self.con(1)), ValueError,
                               "cannot select an axis to squeeze out which has size not equal to one")
            keep = [k for k in range(g.ndim) if k not in drop]
            return self.shaped(e, g.base, g.start, [g.dims[k] for k in keep], [g.strides[k] for k in keep])

    def call_swapaxes(self, e: ast.Call, name: str, a: Node | None = None):
        names = ["axis1", "axis2"] if a is not None else ["a", "axis1", "axis2"]
        got = self.axis_call(e, name, names, given=a)
        g = self.grid_of(e, got[0], name)
        with kept(g):
            vals = self.exprs(got[1:])

            def swapped(ij: list[int]):
                order = list(range(g.ndim))
                order[ij[0]], order[ij[1]] = order[ij[1]], order[ij[0]]
                return self.permuted(e, g, order)
            return self.by_axes(e, got[1:], vals, [g.ndim, g.ndim], name, swapped)

    def call_transpose(self, e: ast.Call, name: str, a: Node | None = None):
        """``np.transpose(a, axes=None)``, ``a.transpose()``, ``a.transpose(1, 0, 2)`` and
        ``a.transpose((1, 0, 2))``: a view with the axes in that order (reversed by
        default); a 1-D array's transpose is itself.  numpy's errors for axes that are no
        permutation."""
        if a is not None and len(e.args) > 1:  # the method also takes the axes one by one
            got, axes = [a], list(e.args)
        else:
            got = self.axis_call(e, name, ["axes"] if a is not None else ["a", "axes"], optional={"axes"},
                                 given=a)
            axes = got[1] if len(got) > 1 else None
            if isinstance(axes, (ast.Tuple, ast.List)):
                axes = list(axes.elts)
            elif axes is not None:
                with kept(got[0]):
                    v = self.expr(axes)
                if isinstance(v, Pack):
                    return self.transposed_at_run_time(e, name, got[0], axes, list(v.elems))
                if not (v.type.is_constant and v.type.con is None):
                    raise self.unsupported(axes, f"{name}() with axes that are neither a tuple nor None")
                axes = None
        if axes is not None and not all(isinstance(x, ast.Constant) for x in axes):
            with kept(got[0]):
                vals = self.exprs(axes)
            place = ast.copy_location(ast.Tuple(axes, ast.Load()), e)
            return self.transposed_at_run_time(e, name, got[0], place, vals)
        g = got[0]
        if not isinstance(g, Grid):
            if not is_array_value(g):
                raise self.error(e, f"{name}() of a {g.type.widen()} value (son takes arrays here)", name)
            g = self.as_grid(e, g)
        with kept(g):
            if axes is None:
                order = list(reversed(range(g.ndim)))
            else:
                if len(axes) != g.ndim:
                    raise self.error(e, "axes don't match array", name)
                order = [self.axis_constant(x, g.ndim, name) for x in axes]
                if sorted(order) != list(range(g.ndim)):
                    raise self.error(e, "repeated axis in transpose", name)
            if g.ndim == 1:
                return got[0]
            return self.permuted(e, g, order)

    def transposed_at_run_time(self, e: ast.Call, name: str, a: Node, place: ast.expr, vals: list[Node]):
        """``np.transpose(a, axes)`` with axes that are ints known only at run time (a
        tuple value, or a display of non-constants; ``vals`` evaluated): numpy's errors
        (AxisError, ValueError for a repeated axis), then one arm per choice of the axes.
        O(ndim ** ndim) arms (27 for a 3-D array)."""
        with kept(*vals):
            g = self.grid_of(e, a, name)
        with kept(g, *vals):
            if len(vals) != g.ndim:
                raise self.error(e, "axes don't match array", name)
            if any(_kind(v) != "int" for v in vals):
                raise self.unsupported(place, f"{name}() with axes that are not ints")
        with kept(g):
            axes = self.axis_values(place, g.ndim, name, vals=vals, repeated="repeated axis in transpose",
                                    each_in_turn=True)
        try:
            with kept(g):
                nodes = [self.con(k) if isinstance(k, int) else k for k in axes]
                items = [place] * len(nodes)
                return self.by_axes(e, items, nodes, [g.ndim] * g.ndim, name,
                                    lambda order: self.permuted(e, g, order))
        finally:
            for k in axes:
                if not isinstance(k, int):
                    k.unkeep()

    def call_moveaxis(self, e: ast.Call, name: str):
        a, src, dst = self.axis_call(e, name, ["a", "source", "destination"])
        g = self.grid_of(e, a, name)
        with kept(g):
            vals = self.exprs([src, dst])

            def moved(ij: list[int]):
                order = [k for k in range(g.ndim) if k != ij[0]]
                order.insert(ij[1], ij[0])
                return self.permuted(e, g, order)
            return self.by_axes(e, [src, dst], vals, [g.ndim, g.ndim], name, moved)

    def call_diag(self, e: ast.Call, name: str, a: Node | None = None):
        """``np.diag(v, k)`` (a 1-D ``v``: a new array; 2-D: its diagonal, a view),
        ``np.diagonal(a, offset)`` and ``a.diagonal(offset)`` (2-D only)."""
        diag = a is None and name.endswith("diag")
        params = (["v", "k"] if diag else ["a", "offset"])[1 if a is not None else 0:]
        got = self.axis_call(e, name, params, optional=set(params[-1:]), given=a)
        a = got[0]
        with kept(a):
            k = self.expr(got[1]) if len(got) > 1 else self.con(0)
            if _kind(k) != "int":
                raise self.unsupported(e, f"{name}() with an offset of {k.type.widen()} (son takes an int)")
            if isinstance(a, Grid) and a.ndim == 2:
                with kept(k):
                    self.c_int(e, k, "signed integer is greater than maximum",
                               "signed integer is less than minimum")
                    return self.read_only(e, self.diagonal_view(e, a, k), name)
            if not (diag and is_array_value(a)):
                what = "a 3-D array" if isinstance(a, Grid) else a.type.widen()
                raise self.unsupported(e, f"{name}() of {what} (son takes a 2-D array, or a 1-D one for "
                                          "np.diag)")
            with kept(k):
                size = self.op(e, Add, self.length(e, a), self.op(e, Abs, k))
                with kept(size):
                    out = self.new_grid(e, [size, size], dtype_of(a), "zeros")
                    with kept(out):
                        self.inline(e, diag_fill, [out.base, a, size, k])
            return out

    def c_int(self, at: ast.AST, k: Node, too_big: str, too_small: str) -> None:
        """numpy's OverflowError where the int ``k`` does not fit the C int it converts
        it to (an offset: ``np.diagonal``, ``np.trace``)."""
        with kept(k):
            self.guard(self.op(at, GT, k, self.con(2**31 - 1)), OverflowError, too_big)
            self.guard(self.op(at, LT, k, self.con(-2**31)), OverflowError, too_small)

    def diagonal_view(self, at: ast.AST, g: Grid, k: Node) -> View:
        """Diagonal ``k`` (an int node, constant or not) of the 2-D ``g`` (above the main
        one for ``k > 0``): elements ``g[i - min(k, 0), i + max(k, 0)]``,
        ``max(0, min(n + min(k, 0), m - max(k, 0)))`` of them.  Neither sum can wrap (the
        dims are non-negative); the first element's offset may, but only where the
        diagonal is empty and nothing is read."""
        (n, m), (s0, s1) = g.dims, g.strides
        with kept(g, k):
            below = self.op(at, Min, k, self.con(0)).keep()
            above = self.op(at, Max, k, self.con(0)).keep()
        try:
            with kept(g):
                first = self.op(at, Sub, self.op(at, Add, g.start, self.op(at, Mul, above, s1)),
                                self.op(at, Mul, below, s0))
                with kept(first):
                    length = self.op(at, Min, self.op(at, Add, n, below), self.op(at, Sub, m, above))
                    length = self.op(at, Max, length, self.con(0))
                    with kept(length):
                        return View(self.g, g.base, first, self.op(at, Add, s0, s1), length)
        finally:
            below.unkeep()
            above.unkeep()

    # -- flips and rolls -----------------------------------------------------------------
    def call_flip(self, e: ast.Call, name: str):
        """``np.flip(m, axis=None)`` (every axis, one, or a tuple), ``np.fliplr`` (axis 1)
        and ``np.flipud`` (axis 0): the view that reads those axes backwards."""
        params = ["m", "axis"] if name.endswith("flip") else ["m"]
        got = self.axis_call(e, name, params, optional={"axis"})
        g = self.grid_of(e, got[0], name)
        with kept(g):
            if name.endswith("fliplr") or name.endswith("flipud"):
                if g.ndim < 2 - name.endswith("flipud"):
                    raise self.error(e, f"{name}() of a 1-D array (numpy's ValueError: the array must be "
                                        "at least 2-D)", name)
                axes = [1 if name.endswith("fliplr") else 0]
            elif len(got) < 2 or _is_none(got[1]):
                axes = list(range(g.ndim))
            elif not isinstance(got[1], ast.Tuple):
                k = self.axis_value(got[1], g.ndim, name)
                if not isinstance(k, int):
                    try:
                        return self.flipped_at_run_time(e, g, k)
                    finally:
                        k.unkeep()
                axes = [k]
            else:
                ks = self.axis_values(got[1], g.ndim, name)
                axes = [k for k in ks if isinstance(k, int)]
                late = [k for k in ks if not isinstance(k, int)]
                try:
                    out = self.flipped_view(e, g, axes)
                    for k in late:  # distinct axes, so one flip after another
                        with kept(out):
                            out = self.flipped_at_run_time(e, self.grid_of(e, out, name), k)
                    return out
                finally:
                    for k in late:
                        k.unkeep()
            return self.flipped_view(e, g, axes)

    def flipped_view(self, at: ast.AST, g: Grid, axes: list[int]):
        start, dims, strides = g.start, list(g.dims), list(g.strides)
        for k in axes:  # element i of the axis is element d - 1 - i of g's
            with kept(start, *strides):
                last = self.op(at, Sub, dims[k], self.con(1))
                with kept(last):
                    start = self.op(at, Add, start, self.op(at, Mul, last, strides[k]))
                with kept(start):
                    strides[k] = self.op(at, Sub, self.con(0), strides[k])
        with kept(start, *strides):
            return self.shaped(at, g.base, start, dims, strides)

    def flipped_at_run_time(self, at: ast.AST, g: Grid, k: Node):
        """``flipped_view`` of the one axis ``k`` in ``[0, ndim)`` known at run time: each
        axis's start offset and stride sign taken with a factor ``k == i`` (0 or 1), no
        branch, so the view's shape is ``g``'s whatever the axis."""
        start, strides = g.start, list(g.strides)
        for i in range(g.ndim):
            with kept(start, *strides):
                hit = self.op(at, ToInt, self.op(at, EQ, k, self.con(i)))
                with kept(hit):
                    step = self.op(at, Mul, hit, strides[i])  # the stride where axis i is flipped, else 0
                    with kept(step):
                        last = self.op(at, Sub, g.dims[i], self.con(1))
                        start = self.op(at, Add, start, self.op(at, Mul, last, step))
                        with kept(start):
                            strides[i] = self.op(at, Sub, strides[i], self.op(at, Add, step, step))
        with kept(start, *strides):
            return self.shaped(at, g.base, start, list(g.dims), strides)

    def call_rot90(self, e: ast.Call, name: str):
        """``np.rot90(m, k=1, axes=(0, 1))``: numpy's flips and transposes, a view (``k``
        and ``axes`` constants)."""
        got = self.axis_call(e, name, ["m", "k", "axes"], optional={"k", "axes"})
        g = self.grid_of(e, got[0], name)
        with kept(g):
            k = 1
            if len(got) > 1 and got[1] is not None:
                v = self.expr(got[1])
                if not (v.type.is_constant and type(v.type.con) is int):
                    raise self.unsupported(e, f"{name}() with a k that is not a constant int")
                k = v.type.con
            given = dict(zip(["m", "k", "axes"], e.args)) | {x.arg: x.value for x in e.keywords}
            if "axes" in given:
                if not (isinstance(given["axes"], ast.Tuple) and len(given["axes"].elts) == 2):
                    raise self.error(e, "len(axes) must be 2.", name)
                i, j = (self.axis_constant(x, g.ndim, name) for x in given["axes"].elts)
            elif g.ndim < 2:
                raise self.error(e, "Axes must be different.", name)
            else:
                i, j = 0, 1
            if i == j:
                raise self.error(e, "Axes must be different.", name)
            k %= 4
            if k == 0:
                return self.shaped(e, g.base, g.start, list(g.dims), list(g.strides))
            if k == 2:
                return self.flipped_view(e, g, [i, j])
            order = list(range(g.ndim))
            order[i], order[j] = order[j], order[i]
            if k == 1:
                flipped = self.flipped_view(e, g, [j])
                with kept(flipped):
                    return self.permuted(e, self.grid_of(e, flipped, name), order)
            swapped = self.permuted(e, g, order)
            with kept(swapped):
                return self.flipped_view(e, self.grid_of(e, swapped, name), [j])

    def call_roll(self, e: ast.Call, name: str):
        """``np.roll(a, shift, axis=None)``: a new array (C order), element ``i`` of a
        rolled axis from element ``(i - shift) % n`` of ``a``; without an axis, the
        elements in C order rolled as one sequence (numpy's roll of ``a.ravel()``).
        ``shift`` and ``axis`` may be tuples, broadcast together as numpy does, shifts
        of one axis adding up.  An element chain over ``a``: one loop nest, no copy of
        ``a``, no modulo per element."""
        a, shift, *rest = self.axis_call(e, name, ["a", "shift", "axis"], optional={"axis"})
        g = self.grid_of(e, a, name)
        with kept(g):
            flat = not rest or _is_none(rest[0])
            axis_items = [] if flat else rest[0].elts if isinstance(rest[0], ast.Tuple) else [rest[0]]
            items = shift.elts if isinstance(shift, ast.Tuple) else [shift]
            if len(items) != len(axis_items) and 1 not in (len(items), len(axis_items)) and not flat:
                raise self.error(e, "shape mismatch: objects cannot be broadcast to a single shape", name)
            vals: list[Node] = []  # each shift evaluated once, left to right
            for x in items:
                with kept(*vals):
                    v = self.expr(x)
                    if _kind(v) not in ("int", "bool"):
                        raise self.unsupported(x, f"{name}() with a shift of {v.type.widen()} (son takes "
                                                  "ints)")
                    with kept(v):
                        vals.append((self.op(x, ToInt, v) if _kind(v) == "bool" else v).keep())
            with kept(*vals):  # the axes after the shifts, as CPython evaluates them
                axes: list[int | Node] = [0] if flat else [self.axis_value(rest[0], g.ndim, name)] \
                    if not isinstance(rest[0], ast.Tuple) else self.axis_values(rest[0], g.ndim, name, False)
            by_axis: dict[int, list[Node]] = {}
            for v, k in (zip(vals * len(axes), axes * len(vals)) if 1 in (len(vals), len(axes))
                         else zip(vals, axes)):
                if isinstance(k, int):
                    by_axis.setdefault(k, []).append(v)
                    continue
                for i in range(g.ndim):  # an axis known at run time: the shift times (k == i)
                    with kept(*vals):
                        hit = self.op(e, ToInt, self.op(e, EQ, k, self.con(i)))
                        vals.append(self.op(e, Mul, v, hit).keep())  # (released with vals)
                    by_axis.setdefault(i, []).append(vals[-1])
            for k in axes:
                if not isinstance(k, int):
                    k.unkeep()
            shift_of: dict[int, tuple[Node, Node]] = {}
            for k, shifts in by_axis.items():  # numpy adds an axis's shifts as Python ints: mod n first
                n = self.flat_size(e, g) if flat else g.dims[k]
                with kept(n):
                    m = self.op(e, Max, n, self.con(1))
                    with kept(m):
                        total = None
                        for v in shifts:
                            with kept(*([total] if total is not None else [])):
                                r = self.op(e, Mod, v, m)
                                total = r if total is None else self.op(e, Mod, self.op(e, Add, total, r), m)
                shift_of[k] = (total.keep(), n.keep())
            for v in vals:
                v.unkeep()
            lz = self.leaf(e, g)
            lz.held += [x for pair in shift_of.values() for x in pair]  # released with the chain
            read = lz.item

            def wrapped(p, i: Node, s: Node, n: Node) -> Node:
                """``(i - s) % n`` for ``i`` and ``s`` in ``[0, n)``: ``n`` added where the
                difference is negative (its sign bit spread by ``>> 63``, no branch)."""
                j = p.op(e, Sub, i, s)
                with kept(j):
                    return p.op(e, Add, j, p.op(e, BitAnd, n, p.op(e, Shr, j, p.con(63))))

            def item(p, idx):
                if flat:
                    with kept(f := self.c_flat(p, e, idx, list(g.dims))):
                        j = wrapped(p, f, *shift_of[0])
                    with kept(j):
                        return read(p, self.unravel(p, e, j, list(g.dims)))
                moved: list[Node] = []
                try:
                    for k, i in enumerate(idx):
                        moved.append((wrapped(p, i, *shift_of[k]) if k in shift_of else i).keep())
                    return read(p, moved)
                finally:
                    for x in moved:
                        x.unkeep()

            lz.item, lz.is_leaf = item, False
            return self.materialize(e, lz, escapes=not flat)

    def flat_size(self, at: ast.AST, g: Grid) -> Node:
        size = g.dims[0]
        for d in g.dims[1:]:
            with kept(size):
                size = self.op(at, Mul, size, d)
        return size

    @staticmethod
    def c_flat(p, at: ast.AST, idx: list[Node], dims: list[Node]) -> Node:
        """The C-order position of the element at ``idx`` of an array of ``dims``."""
        f = idx[0]
        for i, d in zip(idx[1:], dims[1:]):
            with kept(f):
                f = p.op(at, Add, p.op(at, Mul, f, d), i)
        return f

    @staticmethod
    def unravel(p, at: ast.AST, f: Node, dims: list[Node]) -> list[Node]:
        """The index of the element at C-order position ``f`` (in range) of ``dims``."""
        out: list[Node] = []
        rest = f
        for d in reversed(dims[1:]):
            with kept(rest, *out):
                m = p.op(at, Mod, rest, d)
                with kept(m):
                    rest = p.op(at, FloorDiv, rest, d)
                out.insert(0, m)
        return [rest, *out]

    def permuted(self, at: ast.AST, g: Grid, order: list[int]):
        return self.shaped(at, g.base, g.start, [g.dims[k] for k in order], [g.strides[k] for k in order])

    def constant_flag(self, x: ast.expr | None, default: bool, name: str, word: str) -> bool:
        """A keyword that must be a constant bool (or int), as a Python bool."""
        if x is None:
            return default
        v = self.expr(x)
        if not (v.type.is_constant and type(v.type.con) in (bool, int)):
            raise self.unsupported(x, f"{name}() with {word}= that is not a constant bool")
        return bool(v.type.con)

    def call_arguments(self, e: ast.Call, name: str, params: list[str],
                       optional=frozenset()) -> dict[str, ast.expr]:
        """The syntax of a call's arguments by parameter name, given by position or
        keyword; a located error for a missing, unexpected or repeated one."""
        if any(isinstance(x, ast.Starred) for x in e.args):
            raise self.unsupported(e, f"{name}() with *args")
        got: dict[str, ast.expr] = dict(zip(params, e.args))
        if len(e.args) > len(params):
            raise self.error(e, f"{name}() takes {len(params)} arguments ({len(e.args)} given)", name)
        for k in e.keywords:
            if k.arg not in params or k.arg in got:
                raise self.error(e, f"{name}() got an unexpected or repeated argument {k.arg!r}", name)
            got[k.arg] = k.value
        missing = [x for x in params if x not in got and x not in optional]
        if missing:
            raise self.error(e, f"{name}() missing argument {missing[0]!r}", name)
        return got

    def axis_call(self, e: ast.Call, name: str, params: list[str], optional=frozenset(),
                  given: Node | None = None) -> list:
        """The array (evaluated; ``given`` for a method's ``self``) and the other
        arguments' syntax, by position or keyword, as numpy names them."""
        got = self.call_arguments(e, name, params, optional)
        out = [given if given is not None else None]
        rest = params if given is not None else params[1:]
        if given is None:
            out[0] = self.expr(got[params[0]])
        out += [got[x] for x in rest if x in got]
        return out


AXES_CALLS = {
    np.expand_dims: lambda p, e, n: p.call_expand_dims(e, n),
    np.atleast_1d: lambda p, e, n: p.call_atleast(e, n),
    np.atleast_2d: lambda p, e, n: p.call_atleast(e, n),
    np.atleast_3d: lambda p, e, n: p.call_atleast(e, n),
    np.squeeze: lambda p, e, n: p.call_squeeze(e, n),
    np.swapaxes: lambda p, e, n: p.call_swapaxes(e, n),
    np.transpose: lambda p, e, n: p.call_transpose(e, n),
    np.moveaxis: lambda p, e, n: p.call_moveaxis(e, n),
    np.diag: lambda p, e, n: p.call_diag(e, n),
    np.diagonal: lambda p, e, n: p.call_diag(e, n),
    np.flip: lambda p, e, n: p.call_flip(e, n),
    np.fliplr: lambda p, e, n: p.call_flip(e, n),
    np.flipud: lambda p, e, n: p.call_flip(e, n),
    np.rot90: lambda p, e, n: p.call_rot90(e, n),
    np.roll: lambda p, e, n: p.call_roll(e, n),
}
#: methods of an array: name -> ``(parser, call, the array) -> view``
AXES_METHODS = {
    "squeeze": lambda p, e, a: p.call_squeeze(e, "squeeze", a),
    "swapaxes": lambda p, e, a: p.call_swapaxes(e, "swapaxes", a),
    "transpose": lambda p, e, a: p.call_transpose(e, "transpose", a),
    "diagonal": lambda p, e, a: p.call_diag(e, "diagonal", a),
}


# ---------------------------------------------------------------- inlined (son's Python)
def one_element(x):
    return np.array([x])


def diag_fill(base, v, size, k):
    """``v`` on diagonal ``k`` of a zero ``size`` x ``size`` array in C order."""
    for i in range(len(v)):
        if k >= 0:
            base[i * size + i + k] = v[i]
        else:
            base[(i - k) * size + i] = v[i]

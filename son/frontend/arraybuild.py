"""numpy functions that son builds from what it already compiles: ``np.meshgrid``,
``np.column_stack``, ``np.stack``/``np.vstack``/``np.hstack`` of n-D arrays, ``np.bincount``,
``np.digitize``, ``np.take``, ``np.trapezoid``, ``np.average(weights=)``,
``np.unravel_index``, ``np.vander`` and
``np.split``/``np.array_split``/``np.hsplit``/``np.vsplit``/``np.dsplit``, each as numpy composes it.

- ``np.meshgrid(x, y[, z], indexing='xy')`` of 1-D arrays: a tuple of new C-order arrays
  (numpy's default ``copy=True``), each its input broadcast along the other axes (with
  ``'xy'`` the first two axes are swapped: ``len(y)`` rows of ``x``).
- ``np.stack(seq, axis=0)``: each array seen with a new axis of length 1 there, joined
  along it.  ``np.column_stack(seq)``: 1-D pieces as columns, 2-D pieces as they are, joined along
  axis 1; ``np.vstack`` joins ``np.atleast_2d`` of each along axis 0, ``np.hstack``
  along axis 1 (axis 0 for 1-D pieces): ``np.concatenate``'s rules (son/frontend/arrayops.py).
- ``np.bincount(x, weights=None, minlength=0)`` of an int array: counts (int64) or sums
  of the weights as floats, in the order of ``x``; numpy's ValueErrors for a negative
  element, a negative ``minlength`` and weights of another length.  With weights, an
  empty ``x`` raises NotImplementedError: numpy then returns int64 zeros, a dtype that
  depends on the length.
- ``np.digitize(x, bins, right=False)``: numpy's Python code, its monotonicity check
  (``check_array_monotonic``, ported) then ``np.searchsorted`` on the bins or their
  reverse.
- ``np.take(a, indices)``: ``a.ravel()[indices]`` (numpy's default ``mode='raise'``).
- ``np.trapezoid(y, x=None, dx=1.0)`` of a 1-D ``y``: ``(d * (y[1:] + y[:-1]) / 2.0).sum()``
  with ``d`` ``dx`` or ``np.diff(x)``, numpy's own expression (``np.trapz`` too where numpy
  still has it).
- ``np.average(a, weights=w, returned=False)`` of 1-D arrays: numpy's steps, the
  weights summed as floats (``np.mean``'s buffered sum for ints), ZeroDivisionError for a
  zero sum, the products taken as floats and summed pairwise.
- ``np.unravel_index(i, shape)`` of an int and a tuple of up to three dims: the tuple of
  indices, numpy's ValueError for an index outside the array.
- ``np.vander(x, N=None, increasing=False)`` of a 1-D array: numpy's ``multiply.accumulate``
  along each row, a running product from 1 (so column k is ``((x * x) * x) ...``, not a
  power), the columns reversed unless ``increasing``; float64 for a float array, int64
  (wrapping) for ints and bools; numpy's ValueError for a negative ``N``.
- ``np.split(a, k, axis=0)`` and ``np.array_split``: numpy's ``array_split``, the views
  ``a[div[i]:div[i + 1]]`` along the constant axis, the points from ``divmod(n, k)`` for a
  constant int ``k`` or ``[0] + indices + [n]`` for a list or tuple of indices; numpy's
  errors at run time (``n % k``: ZeroDivisionError for 0, ValueError for an unequal
  division or ``k <= 0``).  numpy's list of them is an ``ArrayList`` (son/frontend/scope.py).
  ``np.hsplit``/``vsplit``/``dsplit(a, k)``: ``np.split`` along axis 1 (0 of a 1-D array), 0
  and 2; numpy's ValueError at run time where ``a`` has fewer than 1, 2 or 3 axes.

Refused with a located error: other keywords, n-D operands where a 1-D one is read,
arrays of indices for ``unravel_index``, ``sparse=``/``copy=False`` for ``meshgrid``, a
section count not known while parsing or an array of indices for ``split``.
O(1) nodes per call plus the inlined loops; O(elements) time."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Node, kept
from .arrayfns import sum_as_floats
from .arrayutils import average
from .core import _kind, dtype_of, is_array_value
from .scope import ArrayList, Grid, Pack


class ArrayBuilds:
    """FunctionParser's numpy functions composed of others (a mixin)."""

    def array_piece(self, at: ast.expr, v: Node, name: str) -> Node:
        if not (isinstance(v, Grid) or is_array_value(v)):
            raise self.unsupported(at, f"{name}() of a {v.type.widen()} value (son takes arrays here)")
        return v

    def sequence_of_arrays(self, e: ast.Call, name: str, seq: ast.expr) -> list[Node]:
        """The arrays of a tuple or list display (or a tuple value) ``seq``."""
        if isinstance(seq, (ast.Tuple, ast.List)):
            pieces, places = self.exprs(seq.elts), seq.elts
        else:
            v = self.expr_any(seq)
            if not isinstance(v, Pack):
                raise self.unsupported(seq, f"{name}() of anything but a tuple or list of arrays written "
                                            "where it is called, or a tuple")
            pieces, places = list(v.elems), [seq] * len(v.elems)
        if not pieces:
            raise self.error(e, "need at least one array to concatenate", name)
        with kept(*pieces):
            return [self.array_piece(at, p, name) for p, at in zip(pieces, places)]

    def as_2d(self, at: ast.AST, v: Node, column: bool) -> Grid:
        """A 1-D array or view seen as one row ``(1, n)`` (``np.atleast_2d``) or one column
        ``(n, 1)``; an n-D array as it is."""
        if isinstance(v, Grid):
            return v
        g = self.as_grid(at, v)
        one, zero = self.con(1), self.con(0)
        if column:
            return Grid(self.g, g.base, g.start, g.dims[0], one, g.strides[0], zero)
        return Grid(self.g, g.base, g.start, one, g.dims[0], zero, g.strides[0])

    def call_stack_along(self, e: ast.Call, name: str, how: str) -> Node:
        """``np.vstack``, ``np.hstack`` and ``np.column_stack`` of a sequence of arrays."""
        got = self.call_arguments(e, name, ["tup"])
        pieces = self.sequence_of_arrays(e, name, got["tup"])
        with kept(*pieces):
            if how == "h" and all(not isinstance(p, Grid) for p in pieces):
                return self.joined(e, name, pieces, None)
            if how in ("v", "column"):
                grids = []
                for p in pieces:
                    with kept(*grids):
                        grids.append(self.as_2d(e, p, column=how == "column"))
                pieces = grids
            with kept(*pieces):
                return self.joined(e, name, pieces, ast.Constant(0 if how == "v" else 1))

    def call_np_stack(self, e: ast.Call, name: str) -> Node:
        """``np.stack(arrays, axis=0)``: each array seen with a new axis of length 1 at the
        constant ``axis``, joined along it (numpy's ValueError for arrays of other shapes)."""
        got = self.call_arguments(e, name, ["arrays", "axis"], optional={"axis"})
        pieces = self.sequence_of_arrays(e, name, got["arrays"])
        with kept(*pieces):
            grids = [self.as_grid(e, p) if not isinstance(p, Grid) else p for p in pieces]
            ndim = grids[0].ndim
            if any(g.ndim != ndim for g in grids):
                return self.fault(ValueError, "all input arrays must have the same shape")
            k = self.axis_constant(got["axis"], ndim + 1, name) if "axis" in got else 0
            wide = []
            for g in grids:
                dims, strides = list(g.dims), list(g.strides)
                dims.insert(k, self.con(1))
                strides.insert(k, self.con(0))
                wide.append(self.shaped(e, g.base, g.start, dims, strides))
            with kept(*wide):
                return self.joined(e, name, wide, ast.Constant(k))

    def call_meshgrid(self, e: ast.Call, name: str) -> Node:
        if any(k.arg not in ("indexing", "copy", "sparse") for k in e.keywords):
            raise self.error(e, f"{name}() with arguments other than the arrays, indexing=, copy= and "
                                "sparse=", name)
        words = {k.arg: k.value for k in e.keywords}
        indexing = words.get("indexing", ast.Constant("xy"))
        if not (isinstance(indexing, ast.Constant) and indexing.value in ("xy", "ij")):
            raise self.error(indexing, f"{name}(): indexing must be 'xy' or 'ij'", name)
        for word, default in (("copy", True), ("sparse", False)):
            v = words.get(word)
            if v is not None and not (isinstance(v, ast.Constant) and v.value == default):
                raise self.unsupported(v, f"{name}() with {word}={not default} (son makes new arrays)")
        if not 2 <= len(e.args) <= 3:
            raise self.unsupported(e, f"{name}() of {len(e.args)} arrays (son takes two or three)")
        xs = self.exprs(e.args)
        with kept(*xs):
            for x, at in zip(xs, e.args):
                self.one_d(at, x, name)
            lengths = [self.length(e, x) for x in xs]
            with kept(*lengths):
                axes = list(range(len(xs)))
                if indexing.value == "xy":
                    axes[0], axes[1] = 1, 0  # input k varies along axis axes[k]
                dims = [None] * len(xs)
                for k, ax in enumerate(axes):
                    dims[ax] = lengths[k]
                outs: list[Node] = []
                for x, ax in zip(xs, axes):
                    with kept(*outs):
                        out = self.new_grid(e, dims, dtype_of(x), "empty")
                        with kept(out):  # x broadcast along the other axes: x's axis last
                            order = [i for i in range(len(xs)) if i != ax] + [ax]
                            self.assign_grid(e, self.permuted(e, out, order), x)
                        outs.append(out)
                return self.pack(outs)

    def call_bincount(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["x", "weights", "minlength"], optional={"weights", "minlength"})
        x = self.expr(got["x"])
        with kept(x):
            self.one_d(got["x"], x, name)
            if dtype_of(x) != "int64":
                raise self.unsupported(got["x"], f"{name}() of a {dtype_of(x)} array (son counts int arrays)")
            w = self.expr(got["weights"]) if "weights" in got else self.con(None)
            with kept(w):
                if not (w.type.is_constant and w.type.con is None):
                    self.one_d(got["weights"], w, name)
                n = self.int_value(got["minlength"]) if "minlength" in got else self.con(0)
                with kept(n):
                    if w.type.is_constant and w.type.con is None:
                        return self.inline(e, counts, [x, n])
                    return self.inline(e, weighted_counts, [x, w, n])

    def call_digitize(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["x", "bins", "right"], optional={"right"})
        right = self.constant_flag(got.get("right"), False, name, "right")
        x, bins = self.expr(got["x"]), self.expr(got["bins"])
        with kept(x, bins):
            self.one_d(got["bins"], bins, name)
            if isinstance(x, Grid):
                raise self.unsupported(got["x"], f"{name}() of an n-D array (son takes 1-D arrays here)")
            if not is_array_value(x) and _kind(x) not in ("int", "float", "bool"):
                raise self.error(got["x"], f"{name}() of a {x.type.widen()} value", name)
            return self.inline(e, digitize, [x, bins, self.con(right)])

    def call_take(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["a", "indices"])
        a = self.expr(got["a"])
        with kept(a):
            self.array_piece(got["a"], a, name)
            i = self.expr(got["indices"])
            with kept(i):
                return self.inline(e, take, [a, i])

    def call_trapezoid(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["y", "x", "dx"], optional={"x", "dx"})
        vals = [self.expr(got[k]) if k in got else self.con(None if k == "x" else 1.0)
                for k in ("y", "x", "dx")]
        with kept(*vals):
            self.one_d(got["y"], vals[0], name)
            if "x" in got and not (vals[1].type.is_constant and vals[1].type.con is None):
                self.one_d(got["x"], vals[1], name)
            if _kind(vals[2]) not in ("int", "float", "bool"):
                raise self.unsupported(got.get("dx", e), f"{name}() with a dx= that is not a number")
            if vals[1].type.is_constant and vals[1].type.con is None:
                return self.inline(e, trapezoid_dx, [vals[0], vals[2]])
            return self.inline(e, trapezoid_x, vals[:2])

    def call_weighted_average(self, e: ast.Call, name: str) -> Node:
        """``np.average`` with ``weights=`` (without: ``np.mean``, son/frontend/arrayutils.py)."""
        got = self.call_arguments(e, name, ["a", "axis", "weights", "returned"],
                                  optional={"axis", "weights", "returned"})
        if "weights" not in got:
            return self.call_with_helper(e, name, average, flat=True)
        if "axis" in got:
            raise self.unsupported(got["axis"], f"{name}() with axis= and weights=")
        returned = self.constant_flag(got.get("returned"), False, name, "returned")
        a, w = self.expr(got["a"]), self.expr(got["weights"])
        with kept(a, w):
            self.one_d(got["a"], a, name)
            self.one_d(got["weights"], w, name)
            helper = weighted_average_returned if returned else weighted_average
            return self.inline(e, helper, [a, w, self.con(dtype_of(w) == "float64")])

    def call_vander(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["x", "N", "increasing"], optional={"N", "increasing"})
        increasing = self.constant_flag(got.get("increasing"), False, name, "increasing")
        x = self.expr(got["x"])
        with kept(x):
            self.one_d(got["x"], x, name)
            n = self.expr(got["N"]) if "N" in got else self.con(None)
            with kept(n):
                if not (n.type.is_constant and n.type.con is None) and _kind(n) not in ("int", "bool"):
                    raise self.error(got["N"], f"{name}() with N= that is not an int", name)
                floats = self.con(dtype_of(x) == "float64")
                return self.inline(e, vander, [x, n, self.con(increasing), floats])

    def call_unravel_index(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["indices", "shape"])
        i = self.expr(got["indices"])
        with kept(i):
            if _kind(i) not in ("int", "bool"):
                raise self.unsupported(got["indices"], f"{name}() of a {i.type.widen()} value (son takes one "
                                                       "int index)")
            shape = self.expr_any(got["shape"])
            if _kind(shape) in ("int", "bool"):
                dims = [shape]
            elif isinstance(shape, Pack) and 1 <= len(shape.elems) <= 3 \
                    and all(_kind(d) in ("int", "bool") for d in shape.elems):
                dims = list(shape.elems)
            else:
                raise self.unsupported(got["shape"], f"{name}() with a shape that is not a tuple of one to "
                                                     "three ints")
            with kept(*dims):
                return self.inline(e, (unravel1, unravel2, unravel3)[len(dims) - 1], [i, *dims])

    def call_split(self, e: ast.Call, name: str, equal: bool, along: str | None = None) -> Node:
        """``np.split`` (``equal``) and ``np.array_split`` of an array along a constant axis
        into a constant number of sections or at a list or tuple of indices: numpy's list
        of views, held as an ``ArrayList``.  ``along`` ``"h"``, ``"v"`` or ``"d"`` is
        ``np.hsplit``, ``vsplit`` or ``dsplit``: ``np.split`` along the axis numpy picks from
        the array's ndim (its ValueError where the array has too few axes)."""
        params = ["ary", "indices_or_sections"] + ([] if along else ["axis"])
        got = self.call_arguments(e, name, params, optional={"axis"})
        a = self.expr(got["ary"])
        with kept(a):
            self.array_piece(got["ary"], a, name)
            ndim = a.ndim if isinstance(a, Grid) else 1
            axis = self.axis_constant(got["axis"], ndim, name) if "axis" in got else 0
            where = got["indices_or_sections"]
            k = None
            if isinstance(where, (ast.Tuple, ast.List)):
                points = self.exprs(where.elts)
                places = where.elts
            else:
                v = self.expr_any(where)
                if isinstance(v, Pack):
                    points, places = list(v.elems), [where] * len(v.elems)
                elif v.type.is_constant and type(v.type.con) is int:
                    points, places, k = [], [], v.type.con
                else:
                    raise self.unsupported(where, f"{name}() with sections that are not a constant int, nor "
                                                  "a list or tuple of indices (son needs the number of "
                                                  "pieces when it parses)")
            with kept(*points):
                if along is not None:  # the arguments evaluated first, as CPython does
                    least, axis = _SPLIT_AXES[along]
                    if ndim < least:
                        return self.fault(ValueError, f"{along}split only works on arrays of {least} or more "
                                                      "dimensions")
                    axis = min(axis, ndim - 1)  # hsplit: axis 1, or 0 of a 1-D array
                if k is not None:
                    return self.sections(e, a, axis, k, equal)
                for x, at in zip(points, places):
                    if _kind(x) not in ("int", "bool"):
                        raise self.unsupported(at, f"{name}() at an index that is not an int")
                n = a.dims[axis] if isinstance(a, Grid) else self.length(e, a)
                with kept(n):
                    return self.pieces(e, a, axis, [self.con(0), *points, n])

    def sections(self, e: ast.Call, a: Node, axis: int, k: int, equal: bool) -> Node:
        """``a`` cut into ``k`` sections along ``axis`` (numpy's ``array_split``: the first
        ``n % k`` one longer), numpy's errors first."""
        n = a.dims[axis] if isinstance(a, Grid) else self.length(e, a)
        with kept(n):
            self.inline(e, check_sections, [n, self.con(k), self.con(equal)])
            if k <= 0:  # the check raised
                return self.dead_value()
            starts: list[Node] = []
            for i in range(k + 1):
                with kept(*starts):
                    starts.append(self.inline(e, section_start, [n, self.con(k), self.con(i)]))
            with kept(*starts):
                return self.pieces(e, a, axis, starts)

    def pieces(self, e: ast.Call, a: Node, axis: int, points: list[Node]) -> Node:
        """The views ``a[points[i]:points[i + 1]]`` along ``axis`` (Python's slice rules)."""
        out: list[Node] = []
        with kept(a, *points):
            for i in range(len(points) - 1):
                with kept(*out):
                    out.append(self.inline(e, _PIECE[axis], [a, points[i], points[i + 1]]))
        return ArrayList(self.g, *out)


BUILD_CALLS = {
    np.meshgrid: lambda p, e, n: p.call_meshgrid(e, n),
    np.stack: lambda p, e, n: p.call_np_stack(e, n),
    np.column_stack: lambda p, e, n: p.call_stack_along(e, n, "column"),
    np.vstack: lambda p, e, n: p.call_stack_along(e, n, "v"),
    np.hstack: lambda p, e, n: p.call_stack_along(e, n, "h"),
    np.bincount: lambda p, e, n: p.call_bincount(e, n),
    np.digitize: lambda p, e, n: p.call_digitize(e, n),
    np.take: lambda p, e, n: p.call_take(e, n),
    np.trapezoid: lambda p, e, n: p.call_trapezoid(e, n),
    np.average: lambda p, e, n: p.call_weighted_average(e, n),
    np.unravel_index: lambda p, e, n: p.call_unravel_index(e, n),
    np.vander: lambda p, e, n: p.call_vander(e, n),
    np.split: lambda p, e, n: p.call_split(e, n, equal=True),
    np.array_split: lambda p, e, n: p.call_split(e, n, equal=False),
    np.hsplit: lambda p, e, n: p.call_split(e, n, equal=True, along="h"),
    np.vsplit: lambda p, e, n: p.call_split(e, n, equal=True, along="v"),
    np.dsplit: lambda p, e, n: p.call_split(e, n, equal=True, along="d"),
}
#: ``np.hsplit``/``vsplit``/``dsplit``: (the fewest axes numpy takes, the axis they split)
_SPLIT_AXES = {"h": (1, 1), "v": (2, 0), "d": (3, 2)}
if hasattr(np, "trapz"):  # numpy < 2.4
    BUILD_CALLS[np.trapz] = BUILD_CALLS[np.trapezoid]


# ---------------------------------------------------------------- inlined (son's Python)
def _bins(x, minlength):
    """How many bins ``np.bincount`` makes; numpy's ValueErrors."""
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    n = minlength
    for i in range(len(x)):
        if x[i] < 0:
            raise ValueError("'list' argument must have no negative elements")
        if x[i] >= n:
            n = x[i] + 1
    return n


def counts(x, minlength):
    """``np.bincount(x, minlength=minlength)``."""
    out = np.zeros(_bins(x, minlength), dtype=np.int64)
    for i in range(len(x)):
        out[x[i]] += 1
    return out


def weighted_counts(x, weights, minlength):
    """``np.bincount(x, weights, minlength)``: the weights of each bin added as floats."""
    n = _bins(x, minlength)
    if len(x) == 0:
        raise NotImplementedError("np.bincount(x, weights) of an empty x (numpy's result is then int64 "
                                  "zeros, not the float64 sums of weights)")
    if len(weights) != len(x):
        raise ValueError("The weights and list don't have the same length.")
    sums = np.zeros(n)
    for i in range(len(x)):
        sums[x[i]] += float(weights[i])
    return sums


def _monotonicity(bins):
    """numpy's ``check_array_monotonic`` on the bins as floats: 1 increasing (or all
    equal), -1 decreasing, 0 neither."""
    n = len(bins)
    if n == 0:
        return 1
    last = float(bins[0])
    i = 1
    while i < n and float(bins[i]) == last:
        i += 1
    if i == n:
        return 1
    nxt = float(bins[i])
    if last < nxt:
        for j in range(i + 1, n):
            last, nxt = nxt, float(bins[j])
            if last > nxt:
                return 0
        return 1
    for j in range(i + 1, n):
        last, nxt = nxt, float(bins[j])
        if last < nxt:
            return 0
    return -1


def digitize(x, bins, right):
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    if mono == -1:
        if right:
            return len(bins) - np.searchsorted(bins[::-1], x, side="left")
        return len(bins) - np.searchsorted(bins[::-1], x, side="right")
    if right:
        return np.searchsorted(bins, x, side="left")
    return np.searchsorted(bins, x, side="right")


def take(a, indices):
    return a.ravel()[indices]


def trapezoid_dx(y, dx):
    return (dx * (y[1:] + y[:-1]) / 2.0).sum()


def trapezoid_x(y, x):
    return (np.diff(x) * (y[1:] + y[:-1]) / 2.0).sum()


def _weighted(a, w, floats):
    """numpy's ``average``: ``wgt.sum(dtype=float64)`` (a float array's own pairwise sum,
    else the buffered sum of the ints as floats), then the products as floats, summed."""
    if len(a) != len(w):
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    scl = np.sum(w) if floats else sum_as_floats(w)
    if scl == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    p = np.empty(len(a))
    for i in range(len(a)):
        p[i] = float(a[i]) * float(w[i])
    return np.sum(p) / scl, scl


def weighted_average(a, w, floats):
    return _weighted(a, w, floats)[0]


def weighted_average_returned(a, w, floats):
    return _weighted(a, w, floats)


def vander(x, n, increasing, floats):
    n = len(x) if n is None else n
    out = np.empty((len(x), n)) if floats else np.empty((len(x), n), dtype=np.int64)
    for i in range(len(x)):
        p = 1.0 if floats else 1
        for k in range(n):
            out[i, k if increasing else n - 1 - k] = p
            p = p * x[i]
    return out


def _index_error(i, size):
    if i < 0 or i >= size:
        raise ValueError("index is out of bounds for array")


def unravel1(i, n0):
    _index_error(i, n0)
    return (i,)


def unravel2(i, n0, n1):
    _index_error(i, n0 * n1)
    return i // n1, i % n1


def unravel3(i, n0, n1, n2):
    _index_error(i, n0 * n1 * n2)
    return i // (n1 * n2), i // n2 % n1, i % n2


def check_sections(n, k, equal):
    """numpy's errors for ``k`` sections of ``n`` elements: ``np.split``'s ``n % k`` (a
    ZeroDivisionError for 0) and unequal division, ``np.array_split``'s ``k <= 0``."""
    if equal and n % k != 0:
        raise ValueError("array split does not result in an equal division")
    if k <= 0:
        raise ValueError("number sections must be larger than 0.")


def section_start(n, k, i):
    """Where section ``i`` of ``k`` starts (numpy's ``divmod``: the first ``n % k`` sections
    one longer)."""
    return i * (n // k) + min(i, n % k)


def piece0(a, i, j):
    return a[i:j]


def piece1(a, i, j):
    return a[:, i:j]


def piece2(a, i, j):
    return a[:, :, i:j]


_PIECE = (piece0, piece1, piece2)

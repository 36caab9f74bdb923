"""Reductions over one axis of an array: ``np.sum``, ``np.mean``, ``np.prod``, ``np.max``
and ``np.min`` (``np.any``, ``np.all``, ``np.var``, ``np.std``) with ``axis=`` (and
``keepdims=``), as functions and as methods, of 1-D, 2-D and 3-D arrays and views, in
numpy's order of operations.  ``keepdims=True`` over every axis (no axis, ``None``, a
tuple of all of them, or a 1-D array's one) is the reduction of all the elements in a
new array of shape ``(1,) * ndim`` (``filled_with``), as numpy's.

numpy reduces with an iterator that drops the axes of length 1 and makes the last
remaining axis its inner loop.  Where that inner axis is the reduced one, each result
is the pairwise sum of its line (``pairwise_blocks``, numpy's ``pairwise_sum``);
otherwise the kept axes are the inner loop and the lines are added in index order into
zeros.  So ``a.sum(axis=-1)`` is a pairwise sum per row, ``a.sum(axis=0)`` the rows
added in order, unless every kept axis has length 1 (``(n, 1)`` summed over axis 0 is
one pairwise sum).  Measured against numpy on every shape of up to 3 per axis, views
with reversed axes included (numpy reduces them in index order, not memory order).
Products (``np.prod``) multiply in index order from one, any layout (no pairwise
scheme for products); int and bool sums wrap as int64 in any order; a max or min
reduces each line by ``np.max``'s own rules (NaN wins; both zeros: NotImplementedError).
The mean is the sum divided by the count; numpy sums ints and bools in float buffers
its iterator sizes, so son adds them as floats where every order gives the same float
(magnitudes adding up to less than 2**53) and raises NotImplementedError at run time
otherwise.  The operand must be in C-like order at run
time (``require_c_like_order``), as the iterator would otherwise reorder the axes.

The functions at the end are written in the Python son compiles and inlined (their
axis argument a constant the parse folds).  O(1) nodes per call plus the inlined body;
the loops are O(elements).
"""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import EQ, IEEEDiv, Max, NewArray, Node, Sub, ToFloat, kept
from ..nodes.pairwise import pairwise_blocks
from ..nodes.types import TOP
from .arrayfns import (
    _empty_axis,
    _extreme_exact,
    _extreme_float,
    argmax,
    argmin,
    cumsum_float,
    cumsum_int,
    diff_bool,
    diff_float,
    diff_int,
)
from .core import _kind, dtype_of, is_array_value
from .scope import Grid, View
from .sorting import _zeros_of_both_signs, index_order, sort_bool, sort_float, sort_int


class AxisReductions:
    """FunctionParser's reductions over one axis (a mixin ahead of ArrayFunctions)."""

    def axis_reduction(self, e: ast.Call, fn, name: str, a: Node, rest: list[ast.expr],
                       keywords: list[ast.keyword]) -> Node:
        """``np.sum(a, axis=k)``, ``a.mean(k)``, ``np.prod(a, k, keepdims=True)``,
        ``np.var(a, axis=k, ddof=1)``, ``a.max(keepdims=True)``: over all of a 1-D array (k
        0 or -1), or over axis k of an n-D array; no axis, ``axis=None`` or a tuple of every
        axis over all the elements; with ``keepdims=True`` the result is seen with the axis
        kept (length 1), or, over all the axes, as an array of one element with every axis
        kept (numpy's shape ``(1,) * a.ndim``)."""
        given = list(rest) + [k.value for k in keywords if k.arg == "axis"]
        words = ("axis", "keepdims", "ddof") if fn in (np.var, np.std) else ("axis", "keepdims")
        if len(given) > 1 or any(k.arg not in words for k in keywords):
            raise self.error(e, f"{name}() with arguments other than the array and "
                                f"{'=, '.join(words)}=", name)
        ddof = [k for k in keywords if k.arg == "ddof"]
        ndim = a.ndim if isinstance(a, Grid) else 1
        keep = [x.value for x in keywords if x.arg == "keepdims"]
        flag = self.constant_flag(keep[0] if keep else None, False, name, "keepdims")
        v = self.expr(given[0]) if given and not isinstance(given[0], ast.Tuple) else None
        if v is not None and not v.type.is_constant and _kind(v) == "int":  # known at run time
            with kept(v):
                return self.by_axis(e, given[0], ndim, name,
                                    lambda k: self.reduce_along(e, fn, name, a, ndim, k, ddof, flag), v)
        return self.reduce_along(e, fn, name, a, ndim, self.reduced_axis(given[0], ndim, name, v)
                                 if given else None, ddof, flag)

    def reduce_along(self, e: ast.Call, fn, name: str, a: Node, ndim: int, k: int | None,
                     ddof: list[ast.keyword], flag: bool) -> Node:
        """``axis_reduction`` over the constant axis ``k`` (None: every element)."""
        if k is None or ndim == 1:  # all the elements, in C order
            flat = self.flat_view(e, a, name) if isinstance(a, Grid) else a
            with kept(flat):
                out = self.array_function(e, fn, name, flat, [], ddof)
            return self.filled_with(e, out, ndim) if flag else out
        if fn in (np.var, np.std):
            d = self.ddof_of(ddof)
            with kept(d):
                return self.inline(e, variance_along,
                                   [a, self.con(k), d, self.con(flag), self.con(fn is np.std)])
        out = self.reduce_axis(e, fn, name, a, ndim, k)
        return self.with_axis_kept(e, out, k, name) if flag else out

    def with_axis_kept(self, e: ast.AST, out: Node, k: int, name: str) -> Node:
        """A reduction's result over axis ``k`` seen with that axis kept, of length 1
        (``keepdims=True``)."""
        with kept(out):
            g = self.grid_of(e, out, name)
            with kept(g):
                dims, strides = list(g.dims), list(g.strides)
                dims.insert(k, self.con(1))
                strides.insert(k, self.con(0))
                return self.shaped(e, g.base, g.start, dims, strides)

    def filled_with(self, e: ast.AST, v: Node, ndim: int) -> Node:
        """A one-element array of ``ndim`` axes holding the number ``v``, of its kind
        (``keepdims=True`` where every axis is reduced)."""
        if v.type is TOP:  # dead code
            return v
        out = self.one_element(e, v)
        if ndim == 1:
            return out
        with kept(out):
            ones = [self.con(1)] * ndim
            return self.shaped(e, out, self.con(0), ones, ones)

    def reduced_axis(self, axis_e: ast.expr, ndim: int, name: str, v: Node | None = None) -> int | None:
        """The constant axis a reduction takes, made non-negative; None for ``None`` or a
        tuple naming every axis once (numpy reduces both over all the elements).  ``v``:
        ``axis_e`` already evaluated."""
        parts = [self.expr(x) for x in axis_e.elts] if isinstance(axis_e, ast.Tuple) else \
            [v if v is not None else self.expr(axis_e)]
        cons = [p.type.con if p.type.is_constant else ... for p in parts]
        if cons == [None]:
            return None
        if all(type(c) is int and -ndim <= c < ndim for c in cons):
            axes = sorted(c % ndim for c in cons)
            if len(axes) == 1:
                return axes[0]
            if axes == list(range(ndim)):
                return None
        raise self.unsupported(axis_e, f"{name}() with an axis that is not a constant of this {ndim}-D "
                                       "array's axes (or None, or all of them)")

    def reduce_axis(self, e: ast.Call, fn, name: str, a: Grid, ndim: int, k: int) -> Node:
        dtype = dtype_of(a.base)  # (float64 for a value of dead code)
        kept_dims = [d for i, d in enumerate(a.dims) if i != k]
        if fn in (np.any, np.all):  # each line's or (and) of its truths, into a new array
            out = self.new_array(e, kept_dims, "bool", "zeros" if fn is np.any else "ones")
            with kept(out):
                op = self.con(AND if fn is np.all else OR)
                self.inline(e, fold_axis3 if ndim == 3 else fold_axis, [a, self.con(k), out, op])
            return out
        if fn in (np.max, np.min):  # each line's extreme, into a new array
            out = self.new_array(e, kept_dims, dtype, "empty")
            with kept(out):
                self.inline(e, extreme_axis3 if ndim == 3 else extreme_axis,
                            [a, out, self.con(k), self.con(fn is np.max), self.con(dtype == "float64")])
            return out
        self.require_c_like_order(e, [a])
        floats = dtype == "float64"
        product = fn is np.prod
        as_floats = fn is np.mean and not floats
        out = self.new_array(e, kept_dims, "float64" if as_floats else dtype if floats else "int64",
                             "ones" if product else "zeros")
        with kept(out):
            if as_floats:
                self.inline(e, exact_float_sums3 if ndim == 3 else exact_float_sums, [a, self.con(k), out])
            elif product or not floats:  # in index order (ints wrap: any order would do)
                fold = fold_axis3 if ndim == 3 else fold_axis
                self.inline(e, fold, [a, self.con(k), out, self.con(MUL if product else ADD)])
            else:
                helper = (sum_first_axis3, sum_middle_axis3, sum_last_axis3)[k] if ndim == 3 else \
                    (sum_columns, sum_rows)[k]
                self.inline(e, helper, [a, out])
            if fn is not np.mean:
                return out
            count = self.op(e, ToFloat, a.dims[k])
            chain = self.combine(e, [self.leaf(e, out), count], "float64",
                                 lambda p, x, y: self.op(e, IEEEDiv, x, y))
            return self.materialize(e, chain)

    def new_array(self, at: ast.AST, dims: list[Node], dtype: str, fill: str) -> Node:
        """A new C-order array of ``dims``: a 1-D array for one, else a ``Grid``."""
        if len(dims) > 1:
            return self.new_grid(at, dims, dtype, fill)
        return self.op(at, NewArray, self.scope.ctrl, dims[0], dtype=dtype, fill=fill)

    # -- numpy's 1-D functions line by line ---------------------------------------------
    def line_function(self, e: ast.Call, fn, name: str, a: Node, rest: list[ast.expr]) -> Node:
        """``np.argmax(a, axis=k)``/``argmin``, ``np.median(a, axis=k)``, ``np.cumsum(a,
        axis=k)``, ``np.diff(a, n=1, axis=-1)``, ``np.sort(a, axis=-1)`` and
        ``np.argsort(a, axis=-1, kind=)`` (as methods too): the 1-D function of each line
        of ``a`` along axis k, the lines in C order, into a new array (the axis dropped for
        argmax/argmin/median, one shorter for diff).  numpy's ValueError for argmax/argmin
        of an empty axis; ``axis=None`` of ``sort``, ``median``, ``argmax`` and ``argmin``
        takes the elements in C order.  ``np.median(..., keepdims=True)`` (``argmax``,
        ``argmin``) sees the result with the reduced axes kept, of length 1."""
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.error(e, f"{name}() of a {a.type.widen()} value (son takes arrays here)", name)
        params = {np.diff: ["n", "axis"], np.sort: ["axis", "kind"],
                  np.argsort: ["axis", "kind"]}.get(fn, ["axis"])
        given = dict(zip(params, rest))
        if len(rest) > len(params):
            raise self.error(e, f"{name}() takes {len(params)} arguments besides the array", name)
        keeps = fn in (np.median, np.argmax, np.argmin)  # the functions that take keepdims=
        keepdims = [k.value for k in e.keywords if k.arg == "keepdims" and keeps]
        keep = self.constant_flag(keepdims[-1], False, name, "keepdims") if keepdims else False
        for k in e.keywords:
            if k.arg == "keepdims" and keepdims:
                continue
            if k.arg not in params or k.arg in given:
                words = params + ["keepdims"] if keeps else params
                raise self.error(e, f"{name}() with arguments other than the array and {'=, '.join(words)}=",
                                 name)
            given[k.arg] = k.value
        kind = given.get("kind")
        if kind is not None and not (isinstance(kind, ast.Constant) and kind.value in _KINDS):
            raise self.unsupported(kind, f"{name}() with kind= other than 'quicksort', 'stable' or "
                                         "'mergesort'")
        stable = kind is not None and kind.value in ("stable", "mergesort")
        times = self.diff_order(given["n"], name) if "n" in given else 1
        if isinstance(times, Node):  # an order known only at run time: numpy's loop, in son
            with kept(a, times):
                axis = self.expr(given["axis"]) if "axis" in given else self.con(-1)
                with kept(axis):
                    return self.inline(e, diff_times, [a, times, axis])
        if times < 0:
            return self.fault(ValueError, f"order must be non-negative but got {times}")
        ndim = a.ndim if isinstance(a, Grid) else 1
        axis_e = given.get("axis")
        if axis_e is None and fn in (np.diff, np.sort, np.argsort):
            k = ndim - 1
        else:
            axis = self.expr(axis_e) if axis_e is not None else self.con(None)
            if axis.type.is_constant and axis.type.con is None and fn in (np.sort, np.median, np.argmax,
                                                                              np.argmin):
                flat = self.flat_view(e, a, name) if isinstance(a, Grid) else a
                with kept(flat):
                    out = self.one_line(e, fn, flat, stable)
                return self.filled_with(e, out, ndim) if keep else out
            if not axis.type.is_constant and _kind(axis) == "int":  # known at run time
                with kept(axis):
                    return self.by_axis(e, axis_e, ndim, name, lambda k: self.along_lines(
                        e, fn, name, a, ndim, k, times, stable, keep), axis)
            if not (axis.type.is_constant and type(axis.type.con) is int and -ndim <= axis.type.con < ndim):
                raise self.unsupported(axis_e or e, f"{name}() with an axis that is not a constant of this "
                                                    f"{ndim}-D array's axes")
            k = axis.type.con % ndim
        return self.along_lines(e, fn, name, a, ndim, k, times, stable, keep)

    def along_lines(self, e: ast.Call, fn, name: str, a: Node, ndim: int, k: int, times: int, stable: bool,
                    keep: bool) -> Node:
        """``line_function`` along the constant axis ``k``."""
        for _ in range(times):  # np.diff(a, n) is diff applied n times (n = 0: a itself)
            with kept(a):
                a = self.lines(e, fn, a, k, stable) if isinstance(a, Grid) else \
                    self.one_line(e, fn, a, stable)
        if keep:  # np.median(a, axis=k, keepdims=True), np.argmax(a, axis=k, keepdims=True)
            return self.with_axis_kept(e, a, k, name) if ndim > 1 else self.filled_with(e, a, 1)
        return a

    def diff_order(self, n_e: ast.expr, name: str) -> int | Node:
        """``np.diff``'s ``n``: a constant int (or bool), or an int node known only at run
        time."""
        n = self.expr(n_e)
        if n.type.is_constant and type(n.type.con) in (int, bool):
            return int(n.type.con)
        if _kind(n) not in ("int", "bool"):
            raise self.unsupported(n_e, f"{name}() with n= of {n.type.widen()} (son takes an int)")
        return n

    def one_line(self, e: ast.AST, fn, v: Node, stable: bool) -> Node:
        """numpy's 1-D ``fn`` of the array or view ``v``."""
        dtype = dtype_of(v)
        if fn is np.sort:
            return self.inline(e, {"float64": sort_float, "int64": sort_int, "bool": sort_bool}[dtype],
                               [v, self.con(True)])
        if fn is np.argsort:
            return self.inline(e, index_order, [v, self.con(stable)])
        if fn is np.median:
            return self.array_function(e, np.median, "median", v, [], [])
        helper = {np.argmax: argmax, np.argmin: argmin,
                  np.cumsum: cumsum_float if dtype == "float64" else cumsum_int,
                  np.diff: {"float64": diff_float, "int64": diff_int, "bool": diff_bool}[dtype]}[fn]
        return self.inline(e, helper, [v])

    def lines(self, e: ast.AST, fn, g: Grid, k: int, stable: bool) -> Node:
        """``one_line`` of each line of ``g`` along axis ``k``, into a new C-order array."""
        dtype = dtype_of(g.base)
        n, step = g.dims[k], g.strides[k]
        others = [i for i in range(g.ndim) if i != k]
        scalar = fn in (np.argmax, np.argmin, np.median)
        if fn in (np.argmax, np.argmin):
            self.guard(self.op(e, EQ, n, self.con(0)), ValueError,
                       f"attempt to get {fn.__name__} of an empty sequence")
        indices = fn in (np.argmax, np.argmin, np.argsort)
        out_dtype = "int64" if indices or (fn is np.cumsum and dtype == "bool") else \
            "float64" if fn is np.median else dtype
        with kept(g):
            m = self.op(e, Max, self.op(e, Sub, n, self.con(1)), self.con(0)) if fn is np.diff else n
            with kept(m):
                dims = [g.dims[i] for i in others] if scalar else \
                    [m if i == k else g.dims[i] for i in range(g.ndim)]
                out = self.new_array(e, dims, out_dtype, "empty")
                out_g = self.grid_of(e, out, fn.__name__).keep()

                def line(idx):
                    start = self.offset(e, g.start, idx, [g.strides[i] for i in others])
                    with kept(start):
                        src = View(self.g, g.base, start, step, n)
                    with kept(src):
                        if scalar:
                            self.store_at(e, out_g, idx, self.one_line(e, fn, src, stable))
                            return
                        dest = self.offset(e, out_g.start, idx, [out_g.strides[i] for i in others])
                        with kept(dest):  # written in place: no array made inside the loop
                            self.inline(e, self.into_helper(fn, dtype), [
                                src, View(self.g, out_g.base, dest, out_g.strides[k], m),
                                self.con(stable if fn is np.argsort else dtype == "float64")])

                try:
                    self.grid_loops(e, [g.dims[i] for i in others], line)
                finally:
                    out_g.unkeep()
        return out

    @staticmethod
    def into_helper(fn, dtype: str):
        """The helper that writes ``fn`` of a line into a view of the result."""
        if fn is np.cumsum:
            return cumsum_float_into if dtype == "float64" else cumsum_int_into
        if fn is np.diff:
            return diff_bool_into if dtype == "bool" else diff_into
        return sort_into if fn is np.sort else argsort_into


#: argsort's kinds
_KINDS = ("quicksort", "stable", "mergesort", None)


# ---------------------------------------------------------------- inlined (son's Python)
def cumsum_float_into(a, out, flag):
    """numpy's cumulative sum of floats into ``out``: in order, the first element as it
    is (-0.0)."""
    s = 0.0
    for i in range(len(a)):
        s = a[i] if i == 0 else s + a[i]
        out[i] = s


def cumsum_int_into(a, out, flag):
    s = 0
    for i in range(len(a)):
        s += int(a[i])
        out[i] = s


def diff_times(a, n, axis):
    """``np.diff(a, n, axis)`` for an ``n`` known only at run time: numpy's loop (``n = 0``:
    ``a`` itself, its axis unchecked).  numpy's message also names ``n``."""
    if n < 0:
        raise ValueError("order must be non-negative")
    out = a
    for _ in range(n):
        out = np.diff(out, axis=axis)
    return out


def diff_into(a, out, flag):
    for i in range(len(a) - 1):
        out[i] = a[i + 1] - a[i]


def diff_bool_into(a, out, flag):
    for i in range(len(a) - 1):
        out[i] = a[i + 1] != a[i]


def sort_into(a, out, floats):
    """``a`` sorted into ``out`` (np.sort's rules: NaN last; 0.0 and -0.0 together are
    refused, numpy's kernels deciding their order)."""
    if floats and _zeros_of_both_signs(a):
        raise NotImplementedError("np.sort of 0.0 and -0.0 (their order depends on numpy's sort kernels)")
    order = index_order(a, True)
    for i in range(len(a)):
        out[i] = a[order[i]]


def argsort_into(a, out, stable):
    order = index_order(a, stable)
    for i in range(len(a)):
        out[i] = order[i]


def sum_rows(a, out):
    """``a.sum(axis=1)`` of a 2-D float array into ``out``: numpy's pairwise sum of each
    row (the reduced axis is the inner loop)."""
    sums = np.empty(64)
    for i in range(a.shape[0]):
        out[i] = pairwise_blocks(a[i], sums)


def sum_columns(a, out):
    """``a.sum(axis=0)`` of a 2-D float array into zeros ``out``: the rows added in order
    (the kept axis is the inner loop); of one column, its pairwise sum (numpy drops the
    kept axis of length 1, and the reduced one becomes its inner loop: measured).  The
    pairwise sum's buffer is made before the branch: reverse mode differentiates no
    array made inside one."""
    sums = np.empty(64)
    if a.shape[1] == 1 and a.shape[0] > 0:
        out[0] = pairwise_blocks(a[:, 0], sums)
    else:
        fold_axis(a, 0, out, ADD)


def sum_last_axis3(a, out):
    """``a.sum(axis=2)`` of a 3-D float array into ``out``: each line's pairwise sum."""
    sums = np.empty(64)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = pairwise_blocks(a[i, j], sums)


def sum_middle_axis3(a, out):
    """``a.sum(axis=1)`` of a 3-D float array into zeros ``out``: the lines added in
    order, or, where the last axis has length 1 (numpy drops it), each line's pairwise sum."""
    sums = np.empty(64)
    if a.shape[2] == 1 and a.shape[1] > 0:
        for i in range(a.shape[0]):
            out[i, 0] = pairwise_blocks(a[i, :, 0], sums)
    else:
        fold_axis3(a, 1, out, ADD)


def sum_first_axis3(a, out):
    """``a.sum(axis=0)`` of a 3-D float array into zeros ``out``: the planes added in
    order, or, where both other axes have length 1, the pairwise sum of the one line."""
    sums = np.empty(64)
    if a.shape[1] == 1 and a.shape[2] == 1 and a.shape[0] > 0:
        out[0, 0] = pairwise_blocks(a[:, 0, 0], sums)
    else:
        fold_axis3(a, 0, out, ADD)


#: how ``fold_axis`` combines an element into its line's result
ADD, MUL, OR, AND = 0, 1, 2, 3


def fold_axis(a, axis, out, op):
    """Each line of the 2-D ``a`` along ``axis`` folded into ``out`` in index order by
    ``op`` (a constant the parse folds): added or multiplied (into zeros or ones of the
    result's dtype: int64 for ints and bools, which wrap), or its truths or-ed or and-ed
    (into False or True; NaN is true)."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            k = i if axis == 1 else j
            if op == ADD:
                out[k] += a[i, j]
            elif op == MUL:
                out[k] *= a[i, j]
            elif op == OR:
                out[k] = out[k] or a[i, j] != 0
            else:
                out[k] = out[k] and a[i, j] != 0


def fold_axis3(a, axis, out, op):
    """``fold_axis`` of a 3-D array into the 2-D ``out``."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                p = j if axis == 0 else i
                q = j if axis == 2 else k
                if op == ADD:
                    out[p, q] += a[i, j, k]
                elif op == MUL:
                    out[p, q] *= a[i, j, k]
                elif op == OR:
                    out[p, q] = out[p, q] or a[i, j, k] != 0
                else:
                    out[p, q] = out[p, q] and a[i, j, k] != 0


def exact_float_sums(a, axis, out):
    """The sums of the 2-D int or bool ``a`` along ``axis`` as floats, into zeros
    ``out``, where every order of adding gives the same float: numpy adds such sums
    (``np.mean``'s) in float buffers whose order its iterator chooses, and while the
    magnitudes add up to less than 2**53 every partial sum is an exact integer.  Larger
    ones are refused (NotImplementedError) rather than rounded in another order."""
    total = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            x = float(a[i, j])
            out[i if axis == 1 else j] += x
            total += abs(x)
    _exact_below(total)


def exact_float_sums3(a, axis, out):
    """``exact_float_sums`` of a 3-D array into the 2-D ``out``."""
    total = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                x = float(a[i, j, k])
                out[j if axis == 0 else i, j if axis == 2 else k] += x
                total += abs(x)
    _exact_below(total)


def _exact_below(total):
    if total >= 9007199254740992.0:
        raise NotImplementedError("the mean along an axis of ints whose magnitudes add up to 2**53 "
                                  "or more (numpy rounds its float sums in an order its buffers decide)")


def variance_along(a, axis, ddof, keepdims, std):
    """``np.var(a, axis=axis, ddof=ddof, keepdims=keepdims)`` (``np.std``: ``std``) of an
    n-D array, numpy's steps: the mean along the axis (kept), the squared deviations as
    a new array, their sum along the axis over ``max(n - ddof, 0)``, its square root."""
    x = a - np.mean(a, axis=axis, keepdims=True)
    x = x * x
    v = np.sum(x, axis=axis, keepdims=keepdims) / max(a.shape[axis] - ddof, 0)
    if std:
        return np.sqrt(v)
    return v


def extreme_axis(a, out, axis, largest, floats):
    """``np.max(a, axis=axis)`` (``np.min``) of a 2-D array into ``out``: each row's (axis
    1) or column's (axis 0) extreme by ``_extreme_float``'s rules (``floats``, a constant
    the parse folds) or ``_extreme_exact``'s; numpy's ValueError where the reduced axis is
    empty, even for an empty result."""
    _empty_axis(a.shape[axis], largest)
    for k in range(a.shape[1 - axis]):
        row = a[k, :] if axis == 1 else a[:, k]
        out[k] = _extreme_float(row, largest) if floats else _extreme_exact(row, largest)


def extreme_axis3(a, out, axis, largest, floats):
    """``np.max(a, axis=axis)`` (``np.min``) of a 3-D array into the 2-D ``out``: each
    line's extreme, as ``extreme_axis``."""
    _empty_axis(a.shape[axis], largest)
    for p in range(out.shape[0]):
        for q in range(out.shape[1]):
            line = a[:, p, q] if axis == 0 else a[p, :, q] if axis == 1 else a[p, q, :]
            out[p, q] = _extreme_float(line, largest) if floats else _extreme_exact(line, largest)

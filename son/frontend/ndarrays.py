"""n-D arrays (2-D and 3-D) as views of a 1-D base, as numpy holds them.

An n-D array is a ``Grid`` of the parse (son/frontend/scope.py): a 1-D base array of
the graph, the index of element ``(0, 0, ...)`` in it, the dimensions and the strides
(in elements).  A C-contiguous n-D parameter is its elements as one 1-D parameter and
its dimensions as int parameters (``control.array_form``); ``np.zeros((n, m))`` is a
1-D ``NewArray`` of ``n * m`` elements seen in C order.  So the graph, its passes, the
interpreter and the kernels see only 1-D arrays and ints, and every view of one array
(``a[i]`` a row, ``a[:, j]`` a column, ``a[1:-1, ::2]``, ``a.T``) reads and writes the
one base in memory order: aliasing is exact.  A returned n-D array or view is rebuilt
as numpy's view of the base (``control.grid_form``).

Indexing follows numpy: an int index per axis wraps once if negative and raises
``IndexError`` out of range; fewer indices than dimensions, or slices, give a view (a
1-D one is the arrays' ``View``).  O(ndim) nodes per access, one loop per row iterated.
"""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import (
    EQ,
    GT,
    LT,
    NE,
    Add,
    BitAnd,
    BitOr,
    FloorDiv,
    IsFloat,
    Load,
    Max,
    Mod,
    Mul,
    NewArray,
    Node,
    Not,
    OutOfBounds,
    Store,
    Sub,
    ToInt,
    kept,
)
from ..nodes.types import ArrayType
from .axes import expand_items, is_new_axis
from .core import _kind, dtype_of
from .iteration import Counted
from .scope import Aggregate, Grid, Pack, View, may_alias
from .selection import is_selector


class Selected:
    """What ``grid_pick`` gives for an n-D array indexed by an array (a mask): the index,
    for son/frontend/selection.py."""

    __slots__ = ("idx",)

    def __init__(self, idx: Node):
        self.idx = idx


class NDArrays:
    """FunctionParser's n-D arrays (a mixin)."""

    # -- making ---------------------------------------------------------------------
    def new_grid(self, at: ast.AST, dims: list[Node], dtype: str, fill: str) -> Grid:
        """``np.zeros((n, m, ...))`` and its kin: a new C-order array.  numpy's checks, axis
        by axis: ValueError for a negative dimension, and "array is too big" where the
        bytes of the non-zero dimensions so far pass int64 (so the element count, their
        product, cannot wrap: without the check a wrapped count allocated too little)."""
        with kept(*dims):
            nbytes = self.con(1 if dtype == "bool" else 8)
            for d in dims:
                with kept(nbytes):
                    self.guard(self.op(at, LT, d, self.con(0)), ValueError,
                               "negative dimensions are not allowed")
                    step = self.op(at, Max, d, self.con(1)).keep()  # numpy skips a zero dimension
                    room = self.op(at, FloorDiv, self.con(2**63 - 1), step)
                    self.guard(self.op(at, GT, nbytes, room), ValueError,
                               "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                               "possible size.")
                nbytes = self.op(at, Mul, nbytes, step.unkeep())
            size = dims[0]
            for d in dims[1:]:
                size = self.op(at, Mul, size, d)
            with kept(size):
                base = self.op(at, NewArray, self.scope.ctrl, size, dtype=dtype, fill=fill)
            with kept(base):
                return self.c_order(at, base, self.con(0), dims)

    def grid_copy(self, at: ast.AST, a: Grid) -> Grid:
        """``a.copy()``: a new C-order array of ``a``'s elements (a view's too), one
        nested loop per dimension."""
        out = self.new_grid(at, list(a.dims), dtype_of(a.base), "empty").keep()

        def copy_one(idx):
            x = self.op(at, Load, self.scope.ctrl, self.scope.mem, a.base, self.flat_index(at, a, idx))
            with kept(x):
                to = self.flat_index(at, out, idx)
                with kept(to):
                    self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, out.base, to, x)

        self.grid_loops(at, list(a.dims), copy_one)
        return out.unkeep()

    def flat_index(self, at: ast.AST, a: Grid, idx: list[Node]) -> Node:
        """``start + i*s0 + j*s1 + ...`` for in-range indices ``idx``."""
        return self.offset(at, a.start, idx, list(a.strides))

    def offset(self, at: ast.AST, start: Node, idx: list[Node], strides: list[Node]) -> Node:
        """``start + idx[0] * strides[0] + ...``."""
        for i, s in zip(idx, strides):
            with kept(start):
                start = self.op(at, Add, start, self.op(at, Mul, i, s))
        return start

    def grid_loops(self, at: ast.AST, dims: list[Node], body, idx: tuple = ()) -> None:
        """``body(indices)`` for every index tuple within ``dims``, in C order."""
        if len(idx) == len(dims):
            with kept(*idx):
                body(list(idx))
            return
        counter = self.temp()
        names = [counter]

        def inner():
            k = self.scope.get(counter)
            self.grid_loops(at, dims, body, idx + (k,))

        self.range_loop(at, at, self.con(0).keep(), dims[len(idx)].keep(), self.con(1).keep(),
                        bind=lambda k: self.scope.set(counter, k), body=inner, names=names)
        self.scope.remove(counter)

    def c_order(self, at: ast.AST, base: Node, start: Node, dims: list[Node],
                step: Node | None = None) -> Grid:
        """``dims`` over ``base`` from ``start`` in C order, the last axis ``step`` apart (1)."""
        strides = [(step or self.con(1)).keep()]  # each kept, as the products are, and released below
        with kept(base, start, *dims):
            for d in reversed(dims[1:]):
                strides.insert(0, self.op(at, Mul, d, strides[0]).keep())
            for x in strides:
                x.unkeep()
            return Grid(self.g, base, start, *dims, *strides)

    # -- reshaping ------------------------------------------------------------------
    def reshape_call(self, e: ast.Call, a: Node, method: str, shape: list[ast.expr]) -> Node:
        """``a.reshape(n, m)``, ``np.reshape(a, (n, -1))``, ``a.ravel()`` (views of ``a``'s
        base), ``a.flatten()`` (a copy).  A 1-D array or view reshapes as a view whatever
        its step (numpy splits its one axis without a copy).  ``ravel`` is numpy's: a view
        of a C-contiguous array, else a C-order copy, chosen at run time.  An n-D array
        reshapes only where it is C-contiguous at run time: numpy returns a view of some
        other layouts and copies the rest (its no-copy attempt), which son does not follow,
        so that is refused there (``NotImplementedError``)."""
        if method == "flatten":
            with kept(a):
                c = self.grid_copy(e, a) if isinstance(a, Grid) else None
            if c is None:
                return self.array_function(e, np.copy, "flatten", a, [])
            with kept(c):
                return self.flat_view(e, c).base  # a new C array: its base is the result
        with kept(a):
            if isinstance(a, Grid) or method == "ravel":
                flat = self.flat_view(e, a if isinstance(a, Grid) else self.as_grid(e, a), method,
                                      copy_otherwise=method == "ravel")
            else:
                flat = a if isinstance(a, View) else View(self.g, a, self.con(0), self.con(1),
                                                          self.length(e, a))
        if method == "ravel":
            return flat
        if len(shape) == 1 and isinstance(shape[0], ast.Tuple):
            shape = shape[0].elts
        with kept(flat):
            given = self.expr_any(shape[0]) if len(shape) == 1 else None
        if isinstance(given, Pack):  # a tuple value: a.reshape(shape), np.reshape(a, m.shape)
            places, values = [shape[0]] * len(given.elems), list(given.elems)
        else:
            places, values = shape, [given] if given is not None else [None] * len(shape)
        if not 1 <= len(places) <= 3:
            raise self.unsupported(e, f"reshape to {len(places)} dimensions (son takes 1-D to 3-D arrays)")
        with kept(flat, *[v for v in values if v is not None]):
            dims = []
            for d, v in zip(places, values):
                with kept(*dims):
                    dims.append((self.int_value(d) if v is None else self.as_int_argument(d, v)).keep())
            # numpy: any negative dimension is the unknown one (at most one), the length
            # over the product of the others; decided at run time, folded for constants
            neg = [self.op(e, ToInt, self.op(e, LT, d, self.con(0))).keep() for d in dims]
            count, known = self.con(0), self.con(1)
            for d, n in zip(dims, neg):
                with kept(count, known):
                    count = self.op(e, Add, count, n)
                with kept(count, known):  # d where known, else 1
                    known = self.op(e, Mul, known, self.op(e, Add, d, self.op(e, Mul, n, self.op(
                        e, Sub, self.con(1), d))))
            with kept(count, known):
                self.guard(self.op(e, GT, count, self.con(1)), ValueError,
                           "can only specify one unknown dimension")
                some = self.op(e, NE, count, self.con(0)).keep()
                safe = self.op(e, Max, known, self.con(1)).keep()
                bad_unknown = self.op(e, BitOr, self.op(e, EQ, known, self.con(0)),
                                      self.op(e, NE, self.op(e, Mod, flat.length, safe), self.con(0)))
                bad = self.op(e, BitOr, self.op(e, BitAnd, some, bad_unknown), self.op(
                    e, BitAnd, self.op(e, Not, some), self.op(e, NE, known, flat.length)))
                self.guard(bad, ValueError, "cannot reshape array into the shape")
                q = self.op(e, FloorDiv, flat.length, safe, ctrl=self.scope.ctrl).keep()
                some.unkeep()
                safe.unkeep()
            for j, n in enumerate(neg):
                with kept(q):
                    d = self.op(e, Add, dims[j], self.op(e, Mul, n, self.op(e, Sub, q, dims[j]))).keep()
                dims[j].unkeep()
                n.unkeep()
                dims[j] = d
            q.unkeep()
            for d in dims:
                d.unkeep()
            if len(dims) == 1:
                return View(self.g, flat.base, flat.start, flat.step, dims[0])
            return self.c_order(e, flat.base, flat.start, dims, flat.step)

    def as_grid(self, at: ast.AST, a: Node) -> Grid:
        """A 1-D array or view as a 1-D ``Grid`` (for what treats both alike)."""
        if isinstance(a, View):
            return Grid(self.g, a.base, a.start, a.length, a.step)
        with kept(a):
            return Grid(self.g, a, self.con(0), self.length(at, a), self.con(1))

    # -- attributes -----------------------------------------------------------------
    def grid_attribute(self, e: ast.Attribute, a: Grid) -> Node:
        name = e.attr
        if name == "ndim":
            return self.con(a.ndim)
        if name == "shape":
            return self.pack(list(a.dims))
        if name == "size":
            size = a.dims[0]
            for d in a.dims[1:]:
                size = self.op(e, Mul, size, d)
            return size
        if name == "T":
            return self.transposed(a)
        raise self.unsupported(e, f"attribute .{name} of a {a.ndim}-D array",
                               instead="son reads .shape, .ndim, .size and .T")

    def transposed(self, a: Grid) -> Grid:
        return Grid(self.g, a.base, a.start, *reversed(a.dims), *reversed(a.strides))

    # -- subscripts -----------------------------------------------------------------
    def grid_subscript(self, e: ast.Subscript, a: Grid) -> Node:
        """``a[i, j]`` (an element), ``a[i]``, ``a[i, :]``, ``a[1:, ::2]`` (views)."""
        with kept(a):
            picked = self.grid_pick(e, a)
        if isinstance(picked, Selected):
            with kept(picked.idx):
                return self.selected(e, a, picked.idx)
        if isinstance(picked, tuple):
            ctrl, flat = picked
            with kept(flat):
                return self.op(e, Load, ctrl, self.scope.mem, a.base, flat)
        return picked

    def grid_pick(self, e: ast.Subscript, a: Grid) -> tuple[Node, Node] | Node:
        """The guard's control and the element's index in the base, for as many int
        indices as dimensions; else the view the indices and slices select."""
        items = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        if any(isinstance(x, ast.Starred) for x in items):
            raise self.unsupported(e.slice, "a starred index of an n-D array",
                                   instead="index every axis with an int or a slice")
        dotted = any(isinstance(x, ast.Constant) and x.value is Ellipsis for x in items)
        lone = None  # a lone index evaluated here: an int, or an array selecting elements
        if not (isinstance(e.slice, (ast.Tuple, ast.Slice)) or dotted or is_new_axis(self, e.slice)):
            with kept(a):
                lone = self.expr_any(e.slice)
            if is_selector(lone):
                return Selected(lone)
            if isinstance(lone, Pack):  # a[idx] with idx a tuple value: its items index the axes
                return self.grid_pick_tuple(e, a, lone)
            lone.keep()
        items = expand_items(self, e, items, a.ndim)
        used = sum(1 for x in items if not is_new_axis(self, x))
        if used > a.ndim:
            raise self.error(e, f"too many indices for a {a.ndim}-D array ({used})", "subscript")
        start, dims, strides = a.start, [], []
        held = [a, start]
        for x in held:
            x.keep()
        axis = 0
        try:
            for item in items:
                if is_new_axis(self, item):  # numpy's new axis: length 1, stride 0
                    dims.append(self.con(1).keep())
                    strides.append(self.con(0).keep())
                    held += [dims[-1], strides[-1]]
                    continue
                d, s = a.dims[axis], a.strides[axis]
                axis += 1
                if isinstance(item, ast.Slice):
                    first, step, length = self.axis_slice(item, d)
                    start = self.op(e, Add, start, self.op(e, Mul, first, s)).keep()
                    held.append(start)
                    dims.append(length)
                    strides.append(self.op(e, Mul, step, s).keep())
                    held += [length.keep(), strides[-1]]
                    continue
                i = self.axis_index(item, d, lone if item is e.slice else None)
                start = self.op(e, Add, start, self.op(e, Mul, i, s)).keep()
                held.append(start)
            dims += a.dims[axis:]
            strides += a.strides[axis:]
            if not dims:
                if dotted:  # a[..., 0] of a 1-D a: numpy's 0-d view of the element
                    raise self.unsupported(e.slice, "an index with ... that selects one element (numpy "
                                                    "gives a 0-d array, a view, which son does not have)",
                                           instead="index the element without ...")
                return self.scope.ctrl, start
            return self.shaped(e, a.base, start, dims, strides)
        finally:
            for x in held:
                x.unkeep()

    def grid_pick_tuple(self, e: ast.Subscript, a: Grid, idx: Pack) -> tuple[Node, Node] | Node:
        """``grid_pick`` of a tuple value ``idx`` of ints (``for idx in np.ndindex(a.shape):
        a[idx]``): one int per leading axis, as the display ``a[i, j]`` would."""
        elems = list(idx.elems)
        if len(elems) > a.ndim:
            raise self.error(e, f"too many indices for a {a.ndim}-D array ({len(elems)})", "subscript")
        start = a.start
        with kept(a, idx):
            for x, d, s in zip(elems, a.dims, a.strides):
                with kept(start):
                    i = self.axis_index(e.slice, d, x.keep())
                    start = self.op(e, Add, start, self.op(e, Mul, i, s))
            if len(elems) == a.ndim:
                return self.scope.ctrl, start
            with kept(start):
                return self.shaped(e, a.base, start, a.dims[len(elems):], a.strides[len(elems):])

    def axis_index(self, item: ast.expr, d: Node, i: Node | None = None) -> Node:
        """An int index on an axis of length ``d`` (``i``, the value of ``item`` where
        evaluated already): guarded (IndexError for a float or out of range, as numpy),
        made non-negative."""
        if i is None:
            i = self.expr(item)
        else:
            i.unkeep()
        if _kind(i) not in ("int", "bool", "number"):
            raise self.error(item, f"array index must be an int, not {i.type.widen()}", "subscript")
        with kept(i, d):
            if i.type.kind == "number":
                self.guard(self.op(item, IsFloat, i), IndexError, "only integers are valid array indices")
            self.guard(self.op(item, OutOfBounds, i, d), IndexError, "index out of bounds for its axis")
            neg = self.op(item, ToInt, self.op(item, LT, i, self.con(0)))
            return self.op(item, Add, i, self.op(item, Mul, neg, d))

    def axis_slice(self, sl: ast.Slice, d: Node) -> tuple[Node, Node, Node]:
        """The first index, step and length of a slice of an axis of length ``d``, as
        numpy computes them (``slice_parts``)."""
        return self.slice_parts(sl, d)

    def store_grid(self, target: ast.Subscript, a: Grid, value: Node) -> None:
        """``a[i, j] = v`` (a view of it assigned: a number or an array, as slices)."""
        with kept(value, a):
            picked = self.grid_pick(target, a)
        if isinstance(picked, Selected):
            with kept(picked.idx):
                self.store_selection(target, a, picked.idx, value)
            return
        if not isinstance(picked, tuple):
            with kept(picked):
                if isinstance(picked, View):
                    self.assign_view(target, picked, value)
                else:
                    self.assign_grid(target, picked, value)
            return
        ctrl, flat = picked
        if _kind(value) is None:
            raise self.error(target, f"cannot store a {value.type} value in an array", "store")
        with kept(flat, value):
            self.scope.mem = self.op(target, Store, ctrl, self.scope.mem, a.base, flat, value)

    def assign_grid(self, target: ast.Subscript, view: Grid, value: Node) -> None:
        """``view[...] = value`` for an n-D view: a number in every element, or an array
        broadcast to the view's shape as numpy's assignment does (its dimensions aligned
        on the right, a dimension of 1 stretched; numpy's ValueError otherwise).  A value
        that may share memory with the view is copied first, as numpy does where the two
        overlap.  One loop per dimension, C order; each element stored as ``Store``
        converts it (``a[i] = x``'s rules)."""
        if isinstance(value, Aggregate) and not isinstance(value, (View, Grid)):
            raise self.unsupported(target, "assignment of anything but a number or an array to an n-D view")
        if not (isinstance(value, (View, Grid)) or isinstance(value.type, ArrayType)):
            if _kind(value) is None:
                raise self.error(target, f"cannot store a {value.type} value in an array", "store")
            self.grid_loops(target, list(view.dims),
                            lambda idx: self.store_at(target, view, idx, value))
            return
        part = self.leaf(target, value)
        if may_alias(view, part.bases[0]):
            part = self.temporary(target, part)  # read before any write, as numpy does
        if len(part.dims) > view.ndim:
            part.release()
            raise self.unsupported(target, f"assignment of a {len(part.dims)}-D array to a "
                                           f"{view.ndim}-D view")
        factors = []
        try:
            for j, d in enumerate(part.dims):
                want = view.dims[view.ndim - len(part.dims) + j]
                if d is want:
                    factors.append(None)
                    continue
                with kept(d, want):
                    stretch = self.op(target, EQ, d, self.con(1)).keep()
                    bad = self.op(target, BitAnd, self.op(target, NE, d, want), self.op(target, Not, stretch))
                    self.guard(bad, ValueError, "could not broadcast input array into the view's shape")
                    factors.append(self.op(target, ToInt, self.op(target, Not, stretch)).keep())
                    stretch.unkeep()

            def store(idx):
                own = idx[view.ndim - len(part.dims):]
                scaled = [(i if f is None else self.op(target, Mul, i, f)).keep()
                          for i, f in zip(own, factors)]
                try:
                    x = part.item(self, scaled)
                finally:
                    for i in scaled:
                        i.unkeep()
                self.store_at(target, view, idx, x)

            self.grid_loops(target, list(view.dims), store)
        finally:
            for f in factors:
                if f is not None:
                    f.unkeep()
            part.release()

    def store_at(self, at: ast.AST, view: Grid, idx: list[Node], x: Node) -> None:
        """Element ``idx`` (in range) of ``view`` set to ``x``."""
        with kept(x):
            k = self.flat_index(at, view, idx)
            with kept(k):
                self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, view.base, k, x)

    def aug_grid(self, s: ast.AugAssign, a: Grid) -> None:
        """``a[i, j] += v``: the element read once, the value, then the store."""
        with kept(a):
            picked = self.grid_pick(s.target, a)
        if isinstance(picked, Selected):
            with kept(picked.idx):
                self.aug_selection(s, a, picked.idx)
            return
        if not isinstance(picked, tuple):
            raise self.unsupported(s.target, "augmented assignment to an n-D array's view")
        ctrl, flat = picked
        with kept(flat):
            cur = self.op(s, Load, ctrl, self.scope.mem, a.base, flat)
            new = self.binop(s, type(s.op), cur, s.value)
            with kept(new):
                if _kind(new) is None:
                    raise self.error(s, f"cannot store a {new.type} value in an array", "store")
                self.scope.mem = self.op(s, Store, self.scope.ctrl, self.scope.mem, a.base, flat, new)

    # -- iteration ------------------------------------------------------------------
    def grid_rows(self, at: ast.AST, a: Grid) -> Counted:
        """``for row in a``: the views ``a[k]``, read when the loop reaches them."""
        a.keep()
        n = a.dims[0].keep()

        def row(k):
            with kept(k):
                start = self.op(at, Add, a.start, self.op(at, Mul, k, a.strides[0]))
            with kept(start):
                if a.ndim == 2:
                    return View(self.g, a.base, start, a.strides[1], a.dims[1])
                return Grid(self.g, a.base, start, *a.dims[1:], *a.strides[1:])

        return Counted(n, row, [a, n])

    def flat_items(self, at: ast.AST, g: Grid, enumerated: bool = False) -> Counted:
        """``for x in a.flat`` (``a`` n-D): its elements in C order, each read when the loop
        reaches it; ``np.ndenumerate(a)``: ``(index tuple, element)`` pairs."""
        g.keep()
        n = self.flat_size(at, g).keep()

        def item(k):
            with kept(k):
                idx = self.unravel(self, at, k, g.dims)
            with kept(*idx):
                offset = self.offset(at, g.start, idx, g.strides)
                with kept(offset):
                    x = self.op(at, Load, self.scope.ctrl, self.scope.mem, g.base, offset)
                if not enumerated:
                    return x
                with kept(x):
                    return self.pack([self.pack(idx), x])

        return Counted(n, item, [g, n])

    def index_items(self, at: ast.Call, dims: list[Node]) -> Counted:
        """``np.ndindex(*shape)``: the index tuples of an array of ``dims`` in C order;
        numpy's ValueError for a negative dimension, son's NotImplementedError for more
        than ``2**63 - 1`` tuples (numpy runs out of memory).  O(len(dims)) nodes."""
        for d in dims:
            with kept(*dims):
                self.guard(self.op(at, LT, d, self.con(0)), ValueError, "negative dimensions are not allowed")
        n = self.con(1)
        for d in dims:
            with kept(n, *dims):
                room = self.op(at, FloorDiv, self.con(2**63 - 1), self.op(at, Max, d, self.con(1)))
                self.guard(self.op(at, GT, n, room), NotImplementedError,
                           "np.ndindex of more than 2**63 - 1 index tuples (son counts them in an int64)")
                n = self.op(at, Mul, n, d)
        n.keep()
        for d in dims:
            d.keep()

        def item(k):
            with kept(k):
                return self.pack(self.unravel(self, at, k, dims) if dims else [])

        return Counted(n, item, [n, *dims])


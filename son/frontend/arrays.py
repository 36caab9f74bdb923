"""Arrays: subscripts, loads and stores with their bounds guards, ``len`` and
``.shape``, the allocation calls (``np.zeros``, ``np.ones``, ``np.empty``), and slices.

Every access is guarded: a float index raises ``IndexError``, and so does an index
outside the array (``OutOfBounds`` wraps a negative index once, as Python does).
The guards are ordinary nodes that the optimizer may fold.  O(1) nodes per access.

A basic slice ``a[i:j:k]`` is a ``View`` of the parse (son/frontend/scope.py): the
base array and the view's start, step and length, computed as numpy computes them
(``pylib.slice_of``, CPython's slice adjustment; closed forms for constant bounds,
``slice_parts``).  Element k of a view is
``base[start + k * step]``: a view is never copied, so writes through it are writes
to its base, and the one memory state orders them with every other access.  A slice
of a view is a view of the base; assigning to a slice copies the source first (numpy's
result when source and target overlap) and broadcasts a scalar or a one-element array.
O(1) nodes per slice, one or two loops per slice assignment."""

from __future__ import annotations

import ast
import math

from ..nodes import (
    GT,
    LT,
    NE,
    Add,
    ArrayLen,
    BitAnd,
    IsFloat,
    Load,
    Loop,
    Max,
    Min,
    Mul,
    NewArray,
    Node,
    Not,
    OutOfBounds,
    Phi,
    Store,
    Sub,
    ToInt,
    kept,
)
from ..nodes.types import NONE, ArrayType
from . import pylib
from .axes import is_new_axis
from .core import DTYPES, _is_array, _kind, array_hint, dtype_of, is_array_value
from .iteration import Counted
from .lists import _a, is_list
from .scope import Aggregate, Chain, Grid, Opt, Pack, Rng, TupleList, View
from .selection import is_selector


class Arrays:
    """FunctionParser's arrays (a mixin)."""

    def expr_Subscript(self, e):
        spelled = self.spelled_slices(e)  # x[s] of a slice value s: x[lo:hi:step]
        if spelled is not e:
            try:
                return self.expr_Subscript(spelled)
            finally:
                self.drop_spelled(spelled)
        v = e.value
        if isinstance(v, ast.Attribute) and v.attr == "shape" and isinstance(v.value, ast.Name) \
                and not isinstance(self.scope.get(v.value.id), Grid):
            arr = self.read(v.value.id, v.value)
            if (isinstance(arr.type, ArrayType) or isinstance(arr, View)) \
                    and isinstance(e.slice, ast.Constant) and e.slice.value in (0, -1):
                return self.length(e, arr)
            raise self.unsupported(e, "shape of anything but a 1-D array")
        arr = self.expr(e.value)
        if arr.type is NONE and not isinstance(arr, Aggregate):  # CPython's TypeError where reached
            if not isinstance(e.slice, ast.Slice):
                with kept(arr):
                    self.expr_any(e.slice)
            return self.fault(TypeError, "'NoneType' object is not subscriptable")
        if isinstance(arr, Grid):
            return self.grid_subscript(e, arr)
        if is_array_value(arr) and (isinstance(e.slice, ast.Tuple) or is_new_axis(self, e.slice) or (
                isinstance(e.slice, ast.Constant) and e.slice.value is Ellipsis)):
            with kept(arr):  # a[i, None], a[:, None], a[...]: indexed as a 1-D grid
                return self.grid_subscript(e, self.as_grid(e, arr))
        if isinstance(arr, Chain):
            return self.chain_item(e, arr)
        if isinstance(arr, Pack):
            return self.tuple_subscript(e, arr)
        if isinstance(arr, Rng):
            return self.range_item(e, arr)
        if isinstance(arr, TupleList):
            return self.rows_subscript(e, arr)
        if isinstance(e.slice, ast.Slice) and is_list(arr):
            return self.list_slice(e, arr)
        if isinstance(e.slice, ast.Slice):
            return self.slice_view(e, arr)
        arr, idx = self.subscript_parts(e, arr, selections=True)
        return self.selected(e, arr, idx) if is_selector(idx) else self.load(e, arr, idx)

    def loop_hint(self, name: ast.expr, v: Node) -> str:
        """Why a loop variable may be a number where its body reads it as a tuple: it was
        one when the loop started, and son gives a variable one type around a loop."""
        if not (isinstance(name, ast.Name) and type(v) is Phi and type(v.inputs[0]) is Loop):
            return ""
        return (f"; {name.id!r} is {_a(str(v.inputs[1].type.widen()))} where the loop starts, and son keeps "
                "one type per variable around a loop: if the body makes it a tuple, bind it to a "
                "tuple (or None) before the loop")

    def subscript_parts(self, e: ast.Subscript, arr: Node | None = None,
                        selections: bool = False) -> tuple[Node, Node]:
        """The array and the index of ``arr[idx]`` (``arr`` when already evaluated); with
        ``selections``, the index may be an array or a list (son/frontend/selection.py)."""
        if isinstance(e.slice, (ast.Slice, ast.Tuple)):
            raise self.unsupported(e.slice, "slice" if isinstance(e.slice, ast.Slice)
                                   else "multi-dimensional index")
        if arr is None:
            arr, idx = self.exprs([e.value, e.slice], any_value=True)
        else:
            with kept(arr):
                idx = self.expr_any(e.slice)
        if selections and is_selector(idx) and not is_list(arr):
            return arr, idx
        if isinstance(idx, Pack) and is_array_value(arr):  # a[idx], idx a tuple value: a[(i,)] is a[i]
            if len(idx.elems) != 1:
                raise self.error(e.slice, f"an index of {len(idx.elems)} items for a 1-D array (son takes "
                                          "one)", "subscript")
            idx = idx.elems[0]
        if not (is_array_value(arr) or is_list(arr)):
            hint = array_hint(arr) + self.loop_hint(e.value, arr)
            raise self.error(e.value, f"subscript of {_a(str(arr.type.widen()))} value (son indexes 1-D "
                                      f"numpy arrays and lists){hint}", "subscript")
        if isinstance(idx, Opt) or idx.type is NONE:
            # numpy reads a[None] as a new axis (a 2-D array): refused where the code may run.
            # The raw parse cannot tell unreachable code (after an inlined call, say), so
            # there the index is read behind the TypeError of any other None operand.
            if self.peephole.enabled and not self.dead(self.scope):
                raise self.unsupported(e.slice, "an array index that is or may be None (numpy reads "
                                                "a[None] as a new axis: a 2-D array)")
            with kept(arr):
                idx = self.unwrap(idx, e.slice) if isinstance(idx, Opt) else \
                    self.none_operand(e.slice, "index")
        if _kind(idx) not in ("int", "number"):
            raise self.error(e.slice, f"array index must be an int, not {idx.type.widen()}", "subscript")
        return arr, idx

    def bounds_guard(self, at, arr: Node, idx: Node, message: str = "index out of range") -> Node | None:
        with kept(arr, idx):
            guarded = False
            if idx.type.kind == "number":
                guarded = self.guard(self.op(at, IsFloat, idx), IndexError if not is_list(arr) else TypeError,
                                     "only integers are valid array indices" if not is_list(arr) else
                                     "list indices must be integers or slices, not float")
            n = self.length(at, arr)
            if is_list(arr) and message == "index out of range":
                message = "list index out of range"
            guarded |= self.guard(self.op(at, OutOfBounds, idx, n), IndexError, message)
        return self.scope.ctrl if guarded else None

    def length(self, at, arr: Node) -> Node:
        """``len`` of an array, a view or a list (the list's length now)."""
        if is_list(arr):
            return self.list_len(at, arr)
        return arr.length if isinstance(arr, View) else self.op(at, ArrayLen, arr)

    def element(self, at, arr: Node, idx: Node,
                message: str = "index out of range") -> tuple[Node, Node, Node]:
        """The guard's control, the array and the index in it of ``arr[idx]``; for a view,
        its base and ``start + i * step`` with i the index made non-negative."""
        ctrl = self.bounds_guard(at, arr, idx, message) or self.scope.ctrl
        if not isinstance(arr, View):
            return ctrl, arr, idx
        with kept(ctrl, arr, idx):
            neg = self.op(at, ToInt, self.op(at, LT, idx, self.con(0)))
            i = self.op(at, Add, idx, self.op(at, Mul, neg, arr.length))
            return ctrl, arr.base, self.view_index(at, arr, i)

    def view_index(self, at, v: View, k: Node) -> Node:
        """The index in ``v``'s base of its element ``k`` (``0 <= k < len(v)``)."""
        return self.op(at, Add, v.start, self.op(at, Mul, k, v.step))

    def load(self, at, arr: Node, idx: Node) -> Node:
        ctrl, arr, idx = self.element(at, arr, idx)
        return self.op(at, Load, ctrl, self.scope.mem, arr, idx)

    def store(self, at, arr: Node, idx: Node, value: Node) -> None:
        if is_list(arr):
            with kept(arr, idx, value):
                value = self.check_element(at, arr, value)
        if isinstance(value, Opt) or value.type is NONE:
            value = self.stored_none(at, arr, idx, value)
        if _kind(value) is None:
            raise self.error(at, f"cannot store a {value.type} value in an array", "store")
        with kept(value):
            ctrl, arr, idx = self.element(at, arr, idx)
        self.scope.mem = self.op(at, Store, ctrl, self.scope.mem, arr, idx, value)

    def stored_none(self, at, arr: Node, idx: Node, value: Node) -> Node:
        """The element numpy stores for None or a value that may be None, after the index
        is checked (IndexError comes first)."""
        with kept(arr, idx, value):
            self.bounds_guard(at, arr, idx)
            return self.none_as_element(at, dtype_of(arr, "int64"), value)

    def none_as_element(self, at, dtype: str, value: Node) -> Node:
        """What numpy stores for None or a value that may be None in an array of
        ``dtype``: NaN in a float array, False in a bool array, TypeError in an int array."""
        with kept(value):
            if dtype == "int64":
                return self.unwrap(value, at) if isinstance(value, Opt) else \
                    self.none_operand(at, "array element")
            fill = self.con(math.nan if dtype == "float64" else False)
            if not isinstance(value, Opt):
                return fill
            return self.choose(value.is_none, fill, value.value)

    def call_new_array(self, e, name, fill):
        if len(e.args) != 1:
            raise self.error(e, f"{name}() takes one length argument", name)
        dtype = "float64"
        for k in e.keywords:
            if k.arg != "dtype":
                raise self.error(e, f"{name}() got an unsupported keyword argument {k.arg!r}", name)
            obj = self.resolve(k.value)
            dtype = DTYPES.get(obj)
            if dtype is None:
                raise self.error(k.value, f"unsupported dtype {ast.unparse(k.value)} (use float, "
                                          "int, bool or the numpy equivalents)", name)
        dims = self.shape_argument(e.args[0])
        if len(dims) > 1:
            return self.new_grid(e, dims, dtype, fill)
        n = dims[0]
        with kept(n):
            self.guard(self.op(e, LT, n, self.con(0)), ValueError, "negative dimensions are not allowed")
        return self.op(e, NewArray, self.scope.ctrl, n, dtype=dtype, fill=fill)

    def shape_argument(self, shape: ast.expr) -> list[Node]:
        """The dimensions a shape argument gives: ``n``, ``(n, m)`` or a tuple value
        (``a.shape``), each an int (CPython's TypeError for a float where reached); 1 to 3
        of them."""
        if isinstance(shape, ast.Tuple):
            items: list = shape.elts
        else:
            v = self.expr(shape)
            items = list(v.elems) if isinstance(v, Pack) else [v]
        if not 1 <= len(items) <= 3:
            raise self.unsupported(shape, f"a {len(items)}-D array (son takes 1-D to 3-D arrays)")
        dims: list[Node] = []
        with kept(*[x for x in items if isinstance(x, Node)]):
            for d in items:
                with kept(*dims):
                    x = self.int_value(d) if isinstance(d, ast.expr) else self.as_int_argument(shape, d)
                    dims.append(x.keep())
        for d in dims:
            d.unkeep()
        return dims

    def call_len(self, e, name):
        (a,) = self.args(e, name, 1, 1)
        if isinstance(a, Grid):
            return a.dims[0]
        if isinstance(a, Chain):
            return a.lazy.dims[0]
        if isinstance(a, TupleList):
            return self.list_len(e, a)
        if not (is_array_value(a) or is_list(a)):
            raise self.error(e, f"len() of a {a.type.widen()} value{array_hint(a)}", "len")
        return self.length(e, a)

    # -- slices -------------------------------------------------------------------------
    def slice_view(self, e: ast.Subscript, arr: Node) -> View:
        """``arr[lower:upper:step]`` of an array or a view: a view of the base."""
        sl = e.slice
        if not (is_array_value(arr) or is_list(arr)):
            raise self.error(sl, f"slice of a {arr.type.widen()} value (son slices 1-D numpy "
                                 f"arrays and tuples){array_hint(arr)}", "slice")
        with kept(arr):
            n = self.length(sl, arr)
            start, step, length = self.slice_parts(sl, n)
            with kept(start, step, length):
                if not isinstance(arr, View):
                    return View(self.g, arr, start, step, length)
                at = self.view_index(sl, arr, start)
                with kept(at):
                    return View(self.g, arr.base, at, self.op(sl, Mul, step, arr.step), length)

    def slice_parts(self, sl: ast.Slice, n: Node) -> tuple[Node, Node, Node]:
        """The first index, step and length of slice ``sl`` of a sequence of length ``n``,
        as numpy computes them (``pylib.slice_of``, CPython's slice adjustment).  Bounds
        that are constants with no step give closed forms instead (``_constant_slice``),
        so ``a[:-2]``, ``a[1:-1]`` and ``a[2:]`` have one length node, ``max(n - 2, 0)``,
        and a loop over one of them needs no bounds check on the others."""
        vals = [n.keep()]
        for j, b in enumerate((sl.lower, sl.upper, sl.step)):
            v, present = self.slice_bound(b, 1 if j == 2 else 0)
            vals.append(v.keep())
            if j < 2:  # slice_of takes no flag for the step (absent, it is 1)
                vals.append(present.keep())
        try:
            closed = _constant_slice([v.type for v in vals[1:]])
            if closed is not None:
                return self.closed_slice(sl, n, *closed)
            call = ast.copy_location(ast.Call(ast.copy_location(ast.Name("slice", ast.Load()), sl),
                                              [], []), sl)
            return tuple(self.inline(call, pylib.slice_of, vals).elems)
        finally:
            for v in vals:
                v.unkeep()

    def closed_slice(self, at: ast.AST, n: Node, lower: int | None,
                     upper: int | None) -> tuple[Node, Node, Node]:
        """``[lower:upper]`` of a length ``n >= 0`` (a bound None where absent, every bound
        small): a non-negative bound is ``min(b, n)``, a negative one ``max(n + b, 0)``,
        and the length ``max(stop - start, 0)``, written ``max(n - (s + t), 0)`` for
        ``[s:-t]`` (equal: for ``n < s + t`` both sides are 0)."""
        op, con = self.op, self.con

        def bound(b):
            return n if b is None else op(at, Min, con(b), n) if b >= 0 \
                else op(at, Max, op(at, Add, n, con(b)), con(0))

        s = 0 if lower is None else lower
        if s >= 0 and (upper is None or upper < 0):
            length = op(at, Max, op(at, Add, n, con(-s + (upper or 0))), con(0))
            with kept(length):
                return bound(lower) if s else con(0), con(1), length
        first = (con(0) if lower is None else bound(lower)).keep()
        try:
            return first, con(1), op(at, Max, op(at, Sub, bound(upper), first), con(0))
        finally:
            first.unkeep()

    def slice_bound(self, b: ast.expr | None, default: int) -> tuple[Node, Node]:
        """A slice bound as an int and whether it is present: an absent bound or None is
        ``default``, absent; one that may be None is absent where it is None."""
        if b is None or (isinstance(b, ast.Constant) and b.value is None):
            return self.con(default), self.con(False)
        v = self.expr_any(b)
        if v.type is NONE and not isinstance(v, Aggregate):  # a name bound to None: absent
            return self.con(default), self.con(False)
        if not isinstance(v, Opt):
            return self.as_int_argument(b, v), self.con(True)
        with kept(v):
            present = self.op(b, Not, v.is_none)
            with kept(present):
                x = self.as_int_argument(b, v.value)
                with kept(x):
                    return self.choose(present, x, self.con(default)), present

    def store_slice(self, target: ast.Subscript, value: Node, base: Node) -> None:
        """``a[i:j:k] = value`` (``base`` is ``a``)."""
        if is_list(base):
            raise self.unsupported(target, "assignment to a slice of a list (assign the items in "
                                           "a loop, or build a new list)")
        with kept(value):
            view = self.slice_view(target, base)
        with kept(view):
            self.assign_view(target, view, value)

    def assign_view(self, target: ast.Subscript, view: View, value: Node) -> None:
        """``view[:] = value``: a number in every element; an array or a view of the
        view's length (or of one element, broadcast) copied first, as numpy does where the
        two overlap; numpy's ValueError for any other length."""
        if isinstance(value, Opt) or value.type is NONE:  # converted once, as numpy does
            with kept(view):
                value = self.none_as_element(target, dtype_of(view, "int64"), value)
        if isinstance(value, Aggregate) and not isinstance(value, View):
            raise self.unsupported(target, "slice assignment of anything but a number or an array")
        with kept(view, value):
            if _kind(value) is not None and not _is_array(value):
                self.fill(target, view, lambda k: value)
                return
            n = self.length(target, value)
            with kept(n):
                bad = self.op(target, BitAnd, self.op(target, NE, n, view.length),
                              self.op(target, NE, n, self.con(1)))
                self.guard(bad, ValueError, "could not broadcast input array into the slice")
                copy = self.op(target, NewArray, self.scope.ctrl, n, dtype=dtype_of(value),
                               fill="empty").keep()
                self.fill(target.slice, View(self.g, copy, self.con(0), self.con(1), n).keep(),
                          lambda k: self.load(target, value, k))
                every = self.op(target, ToInt, self.op(target, GT, n, self.con(1))).keep()
                self.fill(target, view, lambda k: self.op(target, Load, self.scope.ctrl, self.scope.mem,
                                                          copy, self.op(target, Mul, k, every)))
                every.unkeep()
                copy.unkeep()

    def fill(self, anchor: ast.AST, view: View, item) -> None:
        """Store ``item(k)`` in element k of ``view``, for every k (a counted loop)."""
        def body():
            k = self.scope.get(counter)
            with kept(k):
                x = item(k)
                with kept(x):
                    i = self.view_index(anchor, view, k)
                    with kept(i):
                        self.scope.mem = self.op(anchor, Store, self.scope.ctrl, self.scope.mem,
                                                 view.base, i, x)

        counter = self.temp()
        count = Counted(view.length.keep(), lambda k: k, [view.length])
        self.counted_loop(anchor, anchor, count, lambda k: self.scope.set(counter, k), body, [counter])
        self.scope.remove(counter)

    def view_items(self, at: ast.AST, v: View) -> Counted:
        """A view's elements, read when the loop reaches them (as ``array_items``)."""
        v.keep()
        return Counted(v.length.keep(), lambda k: self.op(
            at, Load, self.scope.ctrl, self.scope.mem, v.base, self.view_index(at, v, k)), [v, v.length])


def _constant_slice(types: list) -> tuple[int | None, int | None] | None:
    """``(lower, upper)`` of a slice whose bound types (value, present; value, present;
    step) are constants with step 1 and bounds of at most 2**60 in size, or None."""
    if not all(t.is_constant and t.kind in ("int", "bool") for t in types):
        return None
    lo, has_lo, hi, has_hi, step = (int(t.con) for t in types)
    if step != 1 or max(abs(lo), abs(hi)) > 1 << 60:
        return None
    return (lo if has_lo else None), (hi if has_hi else None)

"""Arrays: subscripts, loads and stores with their bounds guards, ``len`` and
``.shape``, and the allocation calls (``np.zeros``, ``np.ones``, ``np.empty``).

Every access is guarded: a float index raises ``IndexError``, and so does an index
outside the array (``OutOfBounds`` wraps a negative index once, as Python does).
The guards are ordinary nodes that the optimizer may fold.  O(1) nodes per access."""

from __future__ import annotations

import ast
import math

import numpy as np

from ..nodes import LT, ArrayLen, IsFloat, Load, NewArray, Node, OutOfBounds, Store, kept
from ..nodes.types import NONE, ArrayType
from .core import _is_array, _kind
from .scope import Opt, Pack, Rng

_DTYPES = {float: "float64", np.float64: "float64", int: "int64", np.int64: "int64",
           bool: "bool", np.bool_: "bool"}


class Arrays:
    """FunctionParser's arrays (a mixin)."""

    def expr_Subscript(self, e):
        v = e.value
        if isinstance(v, ast.Attribute) and v.attr == "shape" and isinstance(v.value, ast.Name):
            arr = self.read(v.value.id, v.value)
            if isinstance(arr.type, ArrayType) and isinstance(e.slice, ast.Constant) \
                    and e.slice.value in (0, -1):
                return self.op(e, ArrayLen, arr)
            raise self.unsupported(e, "shape of anything but a 1-D array")
        arr = self.expr(e.value)
        if isinstance(arr, Pack):
            return self.tuple_subscript(e, arr)
        if isinstance(arr, Rng):
            return self.range_item(e, arr)
        arr, idx = self.subscript_parts(e, arr)
        return self.load(e, arr, idx)

    def subscript_parts(self, e: ast.Subscript, arr: Node | None = None) -> tuple[Node, Node]:
        """The array and the index of ``arr[idx]`` (``arr`` when already evaluated)."""
        if isinstance(e.slice, (ast.Slice, ast.Tuple)):
            raise self.unsupported(e.slice, "slice" if isinstance(e.slice, ast.Slice)
                                   else "multi-dimensional index")
        if arr is None:
            arr, idx = self.exprs([e.value, e.slice], any_value=True)
        else:
            with kept(arr):
                idx = self.expr_any(e.slice)
        if not _is_array(arr):
            raise self.error(e.value, f"subscript of a {arr.type.widen()} value (son indexes 1-D "
                                      "numpy arrays)", "subscript")
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

    def bounds_guard(self, at, arr: Node, idx: Node) -> Node | None:
        with kept(arr, idx):
            guarded = False
            if idx.type.kind == "number":
                guarded = self.guard(self.op(at, IsFloat, idx), IndexError,
                                     "only integers are valid array indices")
            n = self.op(at, ArrayLen, arr)
            guarded |= self.guard(self.op(at, OutOfBounds, idx, n), IndexError, "index out of range")
        return self.scope.ctrl if guarded else None

    def load(self, at, arr: Node, idx: Node) -> Node:
        ctrl = self.bounds_guard(at, arr, idx) or self.scope.ctrl
        return self.op(at, Load, ctrl, self.scope.mem, arr, idx)

    def store(self, at, arr: Node, idx: Node, value: Node) -> None:
        if isinstance(value, Opt) or value.type is NONE:
            value = self.stored_none(at, arr, idx, value)
        if _kind(value) is None:
            raise self.error(at, f"cannot store a {value.type} value in an array", "store")
        with kept(value):
            ctrl = self.bounds_guard(at, arr, idx) or self.scope.ctrl
        self.scope.mem = self.op(at, Store, ctrl, self.scope.mem, arr, idx, value)

    def stored_none(self, at, arr: Node, idx: Node, value: Node) -> Node:
        """The element numpy stores for None or a value that may be None, after the index
        is checked (IndexError comes first): NaN in a float array, False in a bool array,
        TypeError in an int array."""
        dtype = arr.type.dtype if isinstance(arr.type, ArrayType) else "int64"
        with kept(arr, idx, value):
            self.bounds_guard(at, arr, idx)
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
            dtype = _DTYPES.get(obj)
            if dtype is None:
                raise self.error(k.value, f"unsupported dtype {ast.unparse(k.value)} (use float, "
                                          "int, bool or the numpy equivalents)", name)
        shape = e.args[0]
        if isinstance(shape, ast.Tuple):
            if len(shape.elts) != 1:
                raise self.unsupported(shape, "multi-dimensional array")
            shape = shape.elts[0]
        n = self.int_value(shape)
        with kept(n):
            self.guard(self.op(e, LT, n, self.con(0)), ValueError, "negative dimensions are not allowed")
        return self.op(e, NewArray, self.scope.ctrl, n, dtype=dtype, fill=fill)

    def call_len(self, e, name):
        (a,) = self.args(e, name, 1, 1)
        if not _is_array(a):
            raise self.error(e, f"len() of a {a.type.widen()} value", "len")
        return self.op(e, ArrayLen, a)

"""Arrays made from other values and arrays converted: ``np.array``/``np.asarray`` of lists,
tuples and arrays, and ``a.astype(dtype)``.

- ``np.array(x)`` is a new array: of a list (its dtype), of a tuple of numbers
  (numpy's: bool if all are bools, float64 if one is a float, else int64), of an
  array, a view or an n-D array (a C-order copy).  ``np.asarray(x)`` is the same
  except for an array or a view, which it returns itself (numpy returns the same
  object: a write through either is seen by the other).  ``dtype=`` converts as
  ``astype`` does.
- ``a.astype(dtype)`` is a new array of ``a``'s shape (C order), each element converted
  as numpy does: to float64 rounded to nearest, to int64 truncated toward zero, to bool
  ``x != 0`` (NaN is True).  A NaN, an infinity or a float outside int64 converted to
  int64 is what the machine's C cast gives (x86: INT64_MIN; others saturate), so son
  raises ``NotImplementedError`` there instead of guessing a machine.  The conversion
  is an elementwise chain (son/frontend/ufuncs.py): one loop, fused with what feeds it.

Refused with a located error: other dtypes, ``np.array`` of a number (a 0-D array), of
nested lists or of a list of tuples, ``copy=``/``order=`` and other keywords.
O(1) nodes per call plus one loop (nest) of O(1) nodes per element."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import EQ, GE, LT, NE, Add, BitOr, IsNan, Mul, NewArray, Node, Store, ToInt, kept
from ..nodes.types import TOP
from .arrayfns import copy_bool, copy_float64, copy_int64
from .core import DTYPES, _kind, dtype_of, is_array_value, is_list
from .scope import Grid, Pack, TupleList, View

#: the float limits of int64: [-2**63, 2**63)
_INT64_LIMIT = 2.0 ** 63
#: why a float that does not fit converts to no int son can name
CAST_UNDEFINED = "numpy's cast of NaN, an infinity or a float outside int64 to int64 depends on the machine"


class ArrayConversions:
    """FunctionParser's ``np.array``, ``np.asarray`` and ``astype`` (a mixin ahead of
    ArrayFunctions: it takes the ``astype`` method)."""

    # -- a.astype(dtype) ---------------------------------------------------------------
    def array_method(self, e: ast.Call, a: Node | None = None) -> Node | None:
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr == "astype" and self.is_value(f.value)):
            return super().array_method(e, a)
        if len(e.args) + len(e.keywords) != 1 or any(k.arg != "dtype" for k in e.keywords):
            raise self.error(e, "astype() takes one dtype (son reads no other keyword)", "astype")
        a = self.expr(f.value) if a is None else a
        if not (isinstance(a, Grid) or is_array_value(a)):
            return None
        with kept(a):
            dtype = self.dtype_arg(e.args[0] if e.args else e.keywords[0].value, "astype")
            if a.type is TOP and not isinstance(a, View):  # no value yet (a recursive call's in
                return self.dead_value()                   # the first parse) or dead code
            return self.converted(e, a, dtype)

    def dtype_arg(self, x: ast.expr, name: str) -> str:
        dtype = DTYPES.get(self.resolve(x))
        if dtype is None:
            raise self.error(x, f"unsupported dtype {ast.unparse(x)} (use float, int, bool or the numpy "
                                "equivalents)", name)
        return dtype

    def converted(self, at: ast.AST, a: Node, dtype: str) -> Node:
        """A new C-order array of ``a``'s elements converted to ``dtype``."""
        part = self.as_part(at, a)
        return self.materialize(at, self.combine(at, [part], dtype, lambda p, x: p.cast_value(at, x, dtype)))

    def cast_value(self, at: ast.AST, v: Node, dtype: str) -> Node:
        """A number as numpy stores it in an array of ``dtype`` (``astype``, ``fill``,
        ``full_like``): to float64 rounded, to bool ``v != 0``, a float to int64 truncated
        (``float_to_int64``).  A value of dead code (TOP) stays as it is."""
        k = v.type.kind
        if v.type is TOP:
            return v
        if k not in ("int", "float", "bool"):
            raise self.error(at, f"a {v.type.widen()} value where numpy stores a number", "array")
        if dtype == "float64":
            return self.float_of(at, v)
        if dtype == "bool":
            return v if k == "bool" else self.op(at, NE, v, self.con(0.0 if k == "float" else 0))
        return self.float_to_int64(at, v) if k == "float" else self.int_of(at, v)

    def float_to_int64(self, at: ast.AST, x: Node) -> Node:
        """numpy's cast of one float to int64 (truncated), NotImplementedError where the
        machine decides (the two guards of ``int(x)``, with that exception)."""
        with kept(x):
            self.guard(self.op(at, IsNan, x), NotImplementedError, CAST_UNDEFINED)
            out = self.op(at, BitOr, self.op(at, LT, x, self.con(-_INT64_LIMIT)),
                          self.op(at, GE, x, self.con(_INT64_LIMIT)))
            self.guard(out, NotImplementedError, CAST_UNDEFINED)
        return self.op(at, ToInt, x, ctrl=self.scope.ctrl)

    # -- np.array, np.asarray ------------------------------------------------------------
    def call_array(self, e: ast.Call, name: str, copy: bool) -> Node:
        if len(e.args) != 1 or any(k.arg != "dtype" for k in e.keywords) or len(e.keywords) > 1:
            raise self.error(e, f"{name}() takes one value and a dtype (son reads no other keyword)", name)
        x = e.args[0]
        literal = _literal(x)
        dtype = self.dtype_arg(e.keywords[0].value, name) if e.keywords else None
        if literal:
            items = self.exprs(x.elts) if not any(_literal(y) for y in x.elts) else None
            with kept(*(items or [])):
                if items is None or not all(_number(v) for v in items):
                    return self.nested_array(x, name, dtype, items)
                out = self.array_of_numbers(x, name, items)  # numpy's elements, whatever list son would make
        else:
            v = self.expr_any(x)
            with kept(v):
                if isinstance(v, Grid) or is_array_value(v):
                    have = dtype_of(v.base if isinstance(v, Grid) else v)
                    return v if not copy and dtype in (None, have) else self.converted(e, v, dtype or have)
                out = self.array_of_value(x, name, v, typed=dtype is not None)
        if dtype is None or dtype == dtype_of(out):
            return out
        with kept(out):
            return self.converted(e, out, dtype)

    def array_of_value(self, at: ast.expr, name: str, v: Node, typed: bool = False) -> Node:
        """A new 1-D array of a list's items or a tuple's numbers.  Without a dtype
        (``typed``), an empty list of ints or bools is a NotImplementedError at run time:
        numpy's array of no items is float64, as the list has no kind in CPython."""
        if isinstance(v, Pack):
            return self.array_of_numbers(at, name, v.elems)
        if is_list(v) and isinstance(v.type.dtype, str):
            if v.type.dtype != "float64" and not typed:
                self.refuse_at_run_time(self.op(at, EQ, self.length(at, v), self.con(0)),
                                        f"{name}() of an empty list (numpy's array of no items is float64, "
                                        "son's list holds ints or bools): give dtype=")
            fn = {"float64": copy_float64, "int64": copy_int64, "bool": copy_bool}[v.type.dtype]
            return self.inline_list_helper(at, fn, [v])
        if is_list(v) or isinstance(v, TupleList):
            raise self.unsupported(at, f"{name}() of a list of {'lists' if is_list(v) else 'tuples'} (a 2-D "
                                       "array: build it with np.zeros((n, m)) and assignments)")
        number = _kind(v) in ("int", "float", "bool")
        what = "a number (a 0-D array)" if number else f"a {v.type.widen()} value"
        raise self.unsupported(at, f"{name}() of {what} (son builds arrays from lists, tuples of numbers "
                                   "and arrays)")

    def nested_array(self, x: ast.expr, name: str, dtype: str | None, first: list[Node] | None) -> Node:
        """``np.array`` of a list (tuple) display whose items are displays, tuples of
        numbers or 1-D arrays: a new 2-D or 3-D array in C order.  Items are evaluated as
        Python does, depth first; the shape is the displays' lengths, then the arrays'
        length.  numpy's ValueError where the shape is not rectangular: decided while
        parsing for displays (raised where the call runs), at run time for the arrays'
        lengths; ``first``: the items of ``x`` already evaluated."""
        leaves: list[tuple[int, Node]] = []  # (position over the displays' axes, value), kept
        try:
            tree = [self.nested_item(y, leaves, v) for y, v in zip(x.elts, first or [None] * len(x.elts))]
            shape, bad = _nested_shape(tree)
            if bad is not None:
                return self.fault(ValueError, _inhomogeneous(bad))
            arrays = shape[-1:] == ("array",)
            lengths = [d for d in shape if d != "array"]
            if len(lengths) + arrays > 3:
                raise self.unsupported(x, f"{name}() of {len(lengths) + arrays} dimensions (son takes 1-D to "
                                          "3-D arrays)")
            cells = _flat(tree)
            kinds = {_KIND_OF_DTYPE[dtype_of(v)] if is_array_value(v) else _kind(v) or "int" for v in cells}
            dtype = dtype or ("bool" if kinds == {"bool"} else "int64" if kinds and "float" not in kinds
                              else "float64")
            dims = [self.con(n) for n in lengths]
            if arrays:
                length = self.length(x, cells[0]) if cells else self.con(0)
                with kept(length):
                    for v in cells[1:]:
                        self.guard(self.op(x, NE, self.length(x, v), length), ValueError,
                                   _inhomogeneous(tuple(lengths)))
                dims.append(length)
            out = self.new_grid(x, dims, dtype, "empty").keep()
            try:
                for p, v in enumerate(cells):
                    if arrays:
                        self.copy_into(x, out.base, p, dims[-1], v, dtype)
                    else:
                        with kept(c := self.cast_value(x, v, dtype)):
                            self.scope.mem = self.op(x, Store, self.scope.ctrl, self.scope.mem, out.base,
                                                     self.con(p), c)
            finally:
                out.unkeep()
            return out
        finally:
            for v in leaves:
                v.unkeep()

    def nested_item(self, y: ast.expr, leaves: list[Node], v: Node | None = None):
        """An item (syntax ``y``) of a nested display: a list of items for a display or a
        tuple value, else the value (kept, in ``leaves``)."""
        if v is None and _literal(y):
            return [self.nested_item(z, leaves) for z in y.elts]
        if v is None:
            (v,) = self.exprs([y])
        leaves.append(v.keep())
        if isinstance(v, Pack):
            return [self.nested_item(y, leaves, z) for z in v.elems]
        if isinstance(v, Grid) or not (is_array_value(v) or _number(v)):
            what = "n-D arrays" if isinstance(v, Grid) else f"{v.type.widen()} values"
            raise self.unsupported(y, f"np.array() of a display holding {what} (son takes numbers, tuples "
                                      "of numbers and 1-D arrays)")
        return v

    def copy_into(self, at: ast.AST, base: Node, p: int, length: Node, v: Node, dtype: str) -> None:
        """Array ``v``'s elements, cast to ``dtype``, at ``base[p * length:]``."""
        part = self.leaf(at, v)
        with kept(start := self.op(at, Mul, self.con(p), length)):
            def store(idx):
                with kept(c := self.cast_value(at, part.item(self, idx), dtype)):
                    with kept(k := self.op(at, Add, start, idx[0])):
                        self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, base, k, c)

            self.grid_loops(at, [length], store)
        part.release()

    def array_of_numbers(self, at: ast.AST, name: str, items: list[Node]) -> Node:
        kinds = [_kind(v) for v in items]
        if not set(kinds) <= {"int", "float", "bool"}:
            raise self.unsupported(at, f"{name}() of a tuple holding something but ints, floats and bools")
        dtype = "bool" if set(kinds) == {"bool"} else "float64" if "float" in kinds else "int64"
        convert = {"float64": self.float_of, "int64": self.int_of, "bool": lambda _, v: v}[dtype]
        out = self.op(at, NewArray, self.scope.ctrl, self.con(len(items)), dtype=dtype, fill="empty").keep()
        try:
            for i, v in enumerate(items):
                x = convert(at, v)
                with kept(x):
                    self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, out, self.con(i), x)
        finally:
            out.unkeep()
        return out


_KIND_OF_DTYPE = {"float64": "float", "int64": "int", "bool": "bool"}


def _number(v: Node) -> bool:
    return _kind(v) in ("int", "float", "bool") or v.type is TOP  # (TOP: a value of dead code)


def _literal(x) -> bool:
    return isinstance(x, (ast.List, ast.Tuple)) and not any(isinstance(y, ast.Starred) for y in x.elts)


def _nested_shape(tree: list) -> tuple[tuple, tuple | None]:
    """The shape of a nested display (``"array"`` last for 1-D arrays at the bottom), and
    the shape numpy detected before it found items of different shapes (None: none)."""
    shapes = []
    for t in tree:
        if isinstance(t, list):
            s, bad = _nested_shape(t)
            if bad is not None:
                return (), (len(tree),) + bad
            shapes.append(s)
        else:
            shapes.append(("array",) if is_array_value(t) else ())
    if any(s != shapes[0] for s in shapes):
        return (), (len(tree),)
    return (len(tree),) + (shapes[0] if shapes else ()), None


def _flat(tree) -> list[Node]:
    """The values of a nested display in C order."""
    out, stack = [], [tree]
    while stack:
        t = stack.pop()
        if isinstance(t, list):
            stack.extend(reversed(t))
        else:
            out.append(t)
    return out


def _inhomogeneous(shape: tuple) -> str:
    return ("setting an array element with a sequence. The requested array has an inhomogeneous shape after "
            f"{len(shape)} dimensions. The detected shape was {shape} + inhomogeneous part.")


CONVERSION_CALLS = {
    np.array: lambda p, e, n: p.call_array(e, n, copy=True),
    np.asarray: lambda p, e, n: p.call_array(e, n, copy=False),
}

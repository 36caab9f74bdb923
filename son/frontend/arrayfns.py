"""numpy's functions and methods on arrays whose result numpy defines exactly:
``np.zeros_like``/``ones_like``/``empty_like``, ``np.copy`` and ``a.copy()``, ``np.arange``
(of floats as numpy fills it), ``np.argmax``/``argmin`` (the first extreme, the first
NaN), ``np.any``/``all``, ``np.sum`` (of ints: int64 wrap-around does not depend on
the order; of floats: numpy's pairwise sum, bit for bit), ``np.mean`` (of ints and
bools: numpy's cast in buffers of 8192, each buffer's pairwise sum added in order),
``np.max``/``min`` (NaN if any element is; where the extreme is a zero and both zeros
occur, which one numpy returns depends on its SIMD kernels: NotImplementedError there
instead of a guess), ``np.prod`` and ``np.cumsum`` (in order, as numpy's), ``np.diff``,
``np.var``/``np.std`` (``ddof=``; numpy's ``_var``: ``variance``), ``np.linspace``,
``np.full``, ``np.sort`` and ``np.median`` (son/frontend/sorting.py), each as a method
too (``a.argmax()``), on arrays, views and C-contiguous n-D arrays (flattened; ``np.diff``
of 1-D arrays only).

For the derivative transforms (a parse under ``gradient_surrogates()``), a float sum of
an array or a view is ``GradVia(PairwiseSum, sum in order)`` (son/nodes/pairwise.py):
the value stays numpy's, and the derivative, the same for both (1 for every element),
is taken through the plain loop, which reverse mode records cheaply, instead of
through the pairwise sum's explicit stack.  A whole-array chain is made an array there
first (ufuncs.py's ``fused_reduction``).

The functions at the end of this module are written in the Python son compiles and
inlined where they are called, like son/frontend/pylib.py's: their loops are the
graph's loops.  Reductions over one axis: son/frontend/axisreduce.py.  Refused with a
located error: keywords son does not know.
O(1) nodes per call plus the inlined body."""

from __future__ import annotations

import ast
import contextlib
import contextvars
import math

import numpy as np

from ..nodes import (
    LT,
    MATH_NODES,
    NE,
    GradVia,
    IEEEDiv,
    Load,
    Max,
    Mul,
    NewArray,
    Node,
    PairwiseSum,
    Sub,
    ToFloat,
    kept,
)
from ..nodes.pairwise import pairwise_blocks, pairwise_sum
from ..nodes.types import TOP
from .axes import AXES_CALLS, AXES_METHODS
from .core import DTYPES, _kind, dtype_of, is_array_value
from .scope import Grid, View
from .sorting import median_float, median_int, sort_bool, sort_float, sort_int

#: array methods son compiles -> the numpy function they are
_METHODS = {"copy": np.copy, "argmax": np.argmax, "argmin": np.argmin, "any": np.any, "all": np.all,
            "sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
            "cumsum": np.cumsum, "var": np.var, "std": np.std, "argsort": np.argsort}
#: methods that see an array's elements in another shape (son/frontend/ndarrays.py)
_RESHAPES = ("reshape", "ravel", "flatten")
#: reductions over all of an n-D array's elements, in C order
_FLAT = (np.sum, np.mean, np.any, np.all, np.argmax, np.argmin, np.max, np.min, np.prod, np.cumsum, np.var,
         np.std, np.median)
#: of ``_FLAT``, those whose result does not depend on the order numpy reads the elements
#: in: for every dtype (numpy's argmax, cumsum and median read a C-order ravel), and for
#: int and bool arrays (whose sums wrap around in any order; a float max is not, for -0.0)
_ANY_ORDER = (np.any, np.all, np.argmax, np.argmin, np.cumsum, np.median)
_ANY_ORDER_EXACT = (np.sum, np.prod, np.max, np.min)


#: of ``_FLAT``, those whose float result depends on the order numpy's reduction iterator
#: reads the elements in: son reads an array that iterator reads as one run of memory as
#: that run (``flat_view``), so a transpose or an F-order argument is no refusal
_MEMORY_ORDER = (np.sum, np.mean, np.prod, np.max, np.min, np.var, np.std)


def _any_order(fn, a: Grid) -> bool:
    return fn in _ANY_ORDER or fn in _ANY_ORDER_EXACT and dtype_of(a.base) != "float64"


#: reductions that take ``axis=`` and ``keepdims=`` (son/frontend/axisreduce.py)
AXIS_REDUCTIONS = (np.sum, np.mean, np.max, np.min, np.prod, np.any, np.all, np.var, np.std)
#: numpy's 1-D functions son applies line by line along an axis (son/frontend/axisreduce.py)
LINE_FUNCTIONS = (np.argmax, np.argmin, np.cumsum, np.diff, np.sort, np.argsort, np.median)
#: functions that take keywords: name -> the keywords son reads
_KEYWORDS = {np.var: ("ddof",), np.std: ("ddof",), np.argsort: ("kind",)}


def _along_axis(fn, rest: list[ast.expr], keywords: list[ast.keyword]) -> bool:
    """Does a reduction's call give an axis (or keepdims)?  (``ddof=`` alone does not.)"""
    return bool(rest) or any(k.arg not in _KEYWORDS.get(fn, ()) for k in keywords)


def _by_line(fn, a) -> bool:
    """Does ``fn`` of ``a`` without arguments work along the last axis (numpy's default
    for ``np.sort``, ``np.argsort`` and ``np.diff`` of an n-D array)?"""
    return isinstance(a, Grid) and fn in (np.diff, np.sort, np.argsort)


#: set while a graph is parsed for the derivative transforms (``gradient_surrogates``)
_SURROGATES = contextvars.ContextVar("son_gradient_surrogates", default=False)


def gradient_parse() -> bool:
    """Is this parse for the derivative transforms (``gradient_surrogates``)?"""
    return _SURROGATES.get()


@contextlib.contextmanager
def gradient_surrogates():
    """Parse for the derivative transforms: each float sum a ``GradVia`` whose derivative
    is a sum in order (son.grad, son.value_and_grad and son.jvp parse so)."""
    token = _SURROGATES.set(True)
    try:
        yield
    finally:
        _SURROGATES.reset(token)


class ArrayFunctions:
    """FunctionParser's numpy array functions (a mixin)."""

    def float_sum(self, e: ast.expr, a: Node, surrogate: Node | None = None) -> Node:
        """numpy's sum of float array, view or chain ``a`` (``pairwise_sum`` inlined); under
        ``gradient_surrogates()``, for an array or a view, ``GradVia(PairwiseSum node, sum in
        order)``, the sum in order over ``surrogate`` (a chain of the same elements) if
        given, else over ``a``."""
        if not _SURROGATES.get() or not (isinstance(a, View) or is_array_value(a)):
            return self.inline(e, pairwise_sum, [a])
        view = (a.base, a.start, a.step, a.length) if isinstance(a, View) else (
            a, self.con(0), self.con(1), self.length(e, a))
        with kept(*view):
            total = self.op(e, PairwiseSum, self.scope.ctrl, self.scope.mem, *view)
        with kept(total):
            order = self.inline(e, sum_in_order, [a if surrogate is None else surrogate])
        with kept(total, order):
            return self.op(e, GradVia, total, order)

    def array_method(self, e: ast.Call, a: Node | None = None) -> Node | None:
        """``a.copy()``, ``a.argmax()``, ...: the numpy function on ``a`` (given when the
        caller evaluated it); None where ``e`` calls no such method on a value."""
        f = e.func
        if isinstance(f, ast.Attribute) and f.attr in _RESHAPES and self.is_value(f.value) and not e.keywords:
            a = self.expr(f.value) if a is None else a
            if not (isinstance(a, Grid) or is_array_value(a)):
                return None
            with kept(a):
                return self.reshape_call(e, a, f.attr, e.args)
        if isinstance(f, ast.Attribute) and f.attr in AXES_METHODS and self.is_value(f.value):
            a = self.expr(f.value) if a is None else a
            if not (isinstance(a, Grid) or is_array_value(a)):
                return None
            with kept(a):
                return AXES_METHODS[f.attr](self, e, a)
        if isinstance(f, ast.Attribute) and f.attr == "item" and self.is_value(f.value) and not e.args \
                and not e.keywords:
            a = self.expr(f.value) if a is None else a
            if not (isinstance(a, Grid) or is_array_value(a)):
                return None
            with kept(a):
                return self.only_item(e, a)
        if not (isinstance(f, ast.Attribute) and f.attr in _METHODS
                and self.is_value(f.value)):
            return None
        if f.attr in ("sum", "mean") and any(k.arg == "dtype" for k in e.keywords):
            a = self.expr(f.value) if a is None else a
            with kept(a):
                return self.dtype_reduction(e, _METHODS[f.attr], ast.unparse(f), a, e.args, e.keywords)
        if _METHODS[f.attr] in AXIS_REDUCTIONS and _along_axis(_METHODS[f.attr], e.args, e.keywords):
            a = self.expr(f.value) if a is None else a
            with kept(a):
                return self.axis_reduction(e, _METHODS[f.attr], ast.unparse(f), a, e.args, e.keywords)
        if a is None and f.attr in ("sum", "mean") and not e.args and not e.keywords:
            total, a = self.fused_reduction(e, _METHODS[f.attr], f.value)
            if total is not None:
                return total
        a = self.expr(f.value) if a is None else a
        if _METHODS[f.attr] in LINE_FUNCTIONS and (e.args or e.keywords or _by_line(_METHODS[f.attr], a)):
            with kept(a):
                return self.line_function(e, _METHODS[f.attr], ast.unparse(f), a, e.args)
        if isinstance(a, Grid) and f.attr == "copy" and not e.args and not e.keywords:
            with kept(a):
                return self.grid_copy(e, a)
        if isinstance(a, Grid) and _METHODS.get(f.attr) in _FLAT:
            with kept(a):
                a = self.flat_view(e, a, any_order=_any_order(_METHODS[f.attr], a),
                                   memory_order=_METHODS[f.attr] in _MEMORY_ORDER)
        if not is_array_value(a):
            what = f"a {a.ndim}-D array" if isinstance(a, Grid) else str(a.type.widen())
            raise self.error(e, f"{what} has no method {f.attr}() in son", ast.unparse(f))
        with kept(a):
            return self.array_function(e, _METHODS[f.attr], ast.unparse(f), a, e.args)

    def only_item(self, e: ast.Call, a: Node) -> Node:
        """``a.item()``: the one element of an array of size 1 (any rank), numpy's
        ValueError for another size."""
        g = a if isinstance(a, Grid) else self.as_grid(e, a)
        with kept(g):
            size = g.dims[0]
            for d in g.dims[1:]:
                size = self.op(e, Mul, size, d)
            self.guard(self.op(e, NE, size, self.con(1)), ValueError,
                       "can only convert an array of size 1 to a Python scalar")
            return self.op(e, Load, self.scope.ctrl, self.scope.mem, g.base, g.start)

    def call_numpy_on_array(self, e: ast.Call, name: str, fn) -> Node:
        """``np.copy(a)``, ``np.argmax(a)``, ...: the array, then the function."""
        if not e.args:
            raise self.error(e, f"{name}() takes an array", name)
        if fn in (np.sum, np.mean) and any(k.arg == "dtype" for k in e.keywords):
            a = self.expr(e.args[0])
            with kept(a):
                return self.dtype_reduction(e, fn, name, a, e.args[1:], e.keywords)
        if fn in AXIS_REDUCTIONS and _along_axis(fn, e.args[1:], e.keywords):
            a = self.expr(e.args[0])
            with kept(a):
                return self.axis_reduction(e, fn, name, a, e.args[1:], e.keywords)
        if fn in (np.sum, np.mean) and len(e.args) == 1 and not e.keywords:
            total, a = self.fused_reduction(e, fn, e.args[0])
            if total is not None:
                return total
        else:
            a = self.expr(e.args[0])
        if fn in LINE_FUNCTIONS and (len(e.args) > 1 or e.keywords or _by_line(fn, a)):
            with kept(a):
                return self.line_function(e, fn, name, a, e.args[1:])
        if isinstance(a, Grid) and fn is np.copy and len(e.args) == 1 and not e.keywords:
            with kept(a):
                return self.grid_copy(e, a)
        if isinstance(a, Grid) and fn in _FLAT:
            with kept(a):
                a = self.flat_view(e, a, any_order=_any_order(fn, a), memory_order=fn in _MEMORY_ORDER)
        if not is_array_value(a):
            what = f"a {a.ndim}-D array" if isinstance(a, Grid) else f"a {a.type.widen()} value"
            raise self.error(e.args[0], f"{name}() of {what} (son takes 1-D arrays here)", name)
        with kept(a):
            return self.array_function(e, fn, name, a, e.args[1:])

    def dtype_reduction(self, e: ast.Call, fn, name: str, a: Node, rest: list[ast.expr],
                        keywords: list[ast.keyword]) -> Node:
        """``np.sum(a, dtype=...)``, ``a.mean(dtype=np.float64)``: numpy's accumulator.
        float64 for an int or bool sum is numpy's buffered sum of them as floats (over all
        the elements, ``keepdims=True`` as ``axis_reduction``'s); a dtype the reduction has
        anyway (int64 for int and bool sums, float64 for float sums and for every mean)
        changes nothing; others are refused."""
        word = next(k for k in keywords if k.arg == "dtype")
        dtype = self.dtype_arg(word.value, name)
        others = [k for k in keywords if k.arg != "dtype"]
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.error(e, f"{name}() of a {a.type.widen()} value (son takes arrays here)", name)
        have = dtype_of(a.base if isinstance(a, Grid) else a)
        along = bool(rest or others)
        if fn is np.sum and dtype == "float64" and have != "float64":
            ndim = a.ndim if isinstance(a, Grid) else 1
            axis = rest + [k.value for k in others if k.arg == "axis"]
            if len(axis) > 1 or any(k.arg not in ("axis", "keepdims") for k in others) or (
                    axis and ndim > 1 and self.reduced_axis(axis[0], ndim, name) is not None):
                raise self.unsupported(e, f"{name}(dtype=float64) of a {have} array along an axis")
            keep = [k.value for k in others if k.arg == "keepdims"]
            flag = self.constant_flag(keep[0] if keep else None, False, name, "keepdims")
            flat = self.flat_view(e, a, name) if isinstance(a, Grid) else a
            with kept(flat):
                total = self.inline(e, sum_as_floats, [flat])
            return self.filled_with(e, total, ndim) if flag else total
        same = dtype == "float64" if fn is np.mean else \
            (dtype == have == "float64" or (dtype == "int64" and have != "float64"))
        if not same:
            raise self.unsupported(word.value, f"{name}() with dtype={dtype} of a {have} array")
        if along:
            return self.axis_reduction(e, fn, name, a, rest, others)
        flat = self.flat_view(e, a, name) if isinstance(a, Grid) else a
        with kept(flat):
            return self.array_function(e, fn, name, flat, [], others)

    def array_function(self, e: ast.Call, fn, name: str, a: Node, rest: list[ast.expr],
                       keywords: list[ast.keyword] | None = None) -> Node:
        """numpy's ``fn`` of the 1-D array or view ``a``; ``keywords`` (default: the call's)
        the ones it reads."""
        keywords = e.keywords if keywords is None else keywords
        if rest or any(k.arg not in _KEYWORDS.get(fn, ()) for k in keywords):
            raise self.error(e, f"{name}() with arguments other than the array"
                                + (f" and {', '.join(_KEYWORDS[fn])}=" if fn in _KEYWORDS else ""), name)
        dtype = dtype_of(a)
        if fn is np.argsort:
            return self.argsort(e, a)
        if fn in (np.var, np.std):
            return self.variance(e, a, dtype, fn is np.std, keywords)
        if fn is np.mean:
            with kept(a):
                total = self.float_sum(e, a) if dtype == "float64" else self.inline(e, sum_as_floats, [a])
                with kept(total):
                    n = self.op(e, ToFloat, self.length(e, a))
                    return self.op(e, IEEEDiv, total, n)  # numpy's nan for an empty array
        if fn is np.sum and dtype == "float64":
            return self.float_sum(e, a)
        if fn in (np.max, np.min):
            impl = {(np.max, True): max_float, (np.min, True): min_float,
                    (np.max, False): max_exact, (np.min, False): min_exact}[fn, dtype == "float64"]
            return self.inline(e, impl, [a])
        floats = dtype == "float64"
        if fn in (np.sort, np.median):
            order = {"float64": sort_float, "int64": sort_int, "bool": sort_bool}[dtype]
            if fn is np.sort:
                return self.inline(e, order, [a, self.con(True)])
            if dtype == "bool":
                raise self.unsupported(e, f"{name}() of a bool array")
            with kept(a):
                s = self.inline(e, order, [a, self.con(False)])
            with kept(s):
                return self.inline(e, median_float if floats else median_int, [s])
        impl = {np.copy: {"float64": copy_float64, "int64": copy_int64, "bool": copy_bool}[dtype],
                np.argmax: argmax, np.argmin: argmin, np.any: any_true, np.all: all_true,
                np.sum: sum_ints, np.prod: prod_float if floats else prod_int,
                np.cumsum: cumsum_float if floats else cumsum_int,
                np.diff: {"float64": diff_float, "int64": diff_int, "bool": diff_bool}[dtype]}[fn]
        return self.inline(e, impl, [a])

    def variance(self, e: ast.Call, a: Node, dtype: str, std: bool, keywords: list[ast.keyword]) -> Node:
        """``np.var``/``np.std`` (``ddof=``) as numpy computes them: the mean (ints and
        bools summed as floats), the squared deviations as a new array, their pairwise sum
        over ``max(n - ddof, 0)`` (IEEE: nan or inf where that is 0), its square root."""
        ddof = self.ddof_of(keywords)
        with kept(a, ddof):
            total = self.float_sum(e, a) if dtype == "float64" else self.inline(e, sum_as_floats, [a])
            with kept(total):
                n = self.length(e, a)
                with kept(n):
                    mean = self.op(e, IEEEDiv, total, self.op(e, ToFloat, n))
                    with kept(mean):
                        sq = self.float_sum(e, self.inline(e, squared_deviations, [a, mean]))
                    with kept(sq):
                        rest = self.op(e, Max, self.op(e, Sub, n, ddof), self.con(0))
                        var = self.op(e, IEEEDiv, sq, self.op(e, ToFloat, rest))
        if not std:
            return var
        with kept(var):
            return self.op(e, MATH_NODES["Sqrt"], var, np=True)

    def ddof_of(self, keywords: list[ast.keyword]) -> Node:
        """``ddof=`` of ``np.var``/``np.std`` among ``keywords`` (default 0): an int."""
        ddof = self.con(0)
        for k in keywords:
            if k.arg == "ddof":
                ddof = self.expr(k.value)
                if _kind(ddof) not in ("int", "bool"):
                    raise self.error(k.value, f"ddof= of a {ddof.type.widen()} value (son takes an int)",
                                     "ddof")
        return ddof

    def call_reshape(self, e: ast.Call, name: str) -> Node:
        """``np.reshape(a, shape)``, ``np.ravel(a)``."""
        want = 2 if name.endswith("reshape") else 1
        if len(e.args) != want or e.keywords:
            raise self.error(e, f"{name}() takes {'an array and a shape' if want == 2 else 'an array'}", name)
        a = self.expr(e.args[0])
        if not (isinstance(a, Grid) or is_array_value(a)):
            raise self.error(e.args[0], f"{name}() of a {a.type.widen()} value", name)
        with kept(a):
            return self.reshape_call(e, a, "reshape" if want == 2 else "ravel", e.args[1:])

    def call_like(self, e: ast.Call, name: str, fill: str) -> Node:
        """``np.zeros_like(a)``, ``np.ones_like(a)``, ``np.empty_like(a)`` (``dtype=``)."""
        if len(e.args) != 1 or any(k.arg != "dtype" for k in e.keywords):
            raise self.error(e, f"{name}() takes an array and a dtype", name)
        a = self.expr(e.args[0])
        if not (is_array_value(a) or isinstance(a, Grid)):
            raise self.error(e.args[0], f"{name}() of a {a.type.widen()} value", name)
        dtype = dtype_of(a.base if isinstance(a, Grid) else a)
        for k in e.keywords:
            dtype = DTYPES.get(self.resolve(k.value))
            if dtype is None:
                raise self.error(k.value, f"unsupported dtype {ast.unparse(k.value)} (use float, int, "
                                          "bool or the numpy equivalents)", name)
        if isinstance(a, Grid):
            with kept(a):
                return self.new_grid(e, list(a.dims), dtype, fill)
        with kept(a):
            n = self.length(e, a)
        return self.op(e, NewArray, self.scope.ctrl, n, dtype=dtype, fill=fill)

    def call_arange(self, e: ast.Call, name: str) -> Node:
        """``np.arange``: ``ceil((stop - start) / step)`` values (numpy's ZeroDivisionError
        for a zero step); of ints ``start + k * step``, of floats numpy's fill."""
        if e.keywords or not 1 <= len(e.args) <= 3:
            raise self.error(e, f"{name}() takes 1 to 3 int arguments", name)
        vals = self.exprs(e.args)
        kinds = {_kind(v) for v in vals if v.type is not TOP}  # TOP: a value of dead code
        if not kinds <= {"int", "bool", "float"}:
            raise self.unsupported(e, f"{name}() of values that may be ints or floats (the result's "
                                      "dtype would depend on them)")
        if len(vals) == 1:
            vals = [self.con(0), vals[0]]
        if len(vals) == 2:
            vals.append(self.con(1))
        with kept(*vals):
            return self.inline(e, arange_float if "float" in kinds else arange, vals)


    def call_linspace(self, e: ast.Call, name: str) -> Node:
        """``np.linspace(start, stop, num=50, endpoint=True)`` of numbers: numpy's fill."""
        names = ("start", "stop", "num", "endpoint")
        given = dict(zip(names, e.args))
        for k in e.keywords:
            if k.arg not in names[2:] or k.arg in given or len(e.args) > 4:
                raise self.error(e, f"{name}() takes start, stop, num and endpoint", name)
            given[k.arg] = k.value
        if not {"start", "stop"} <= given.keys():
            raise self.error(e, f"{name}() takes start and stop", name)
        vals = self.exprs([given[n] for n in names if n in given])
        with kept(*vals):
            args = dict(zip([n for n in names if n in given], vals))
            for n, kinds in (("start", ("int", "bool", "float")), ("stop", ("int", "bool", "float")),
                             ("num", ("int", "bool")), ("endpoint", ("int", "bool"))):
                if n in args and args[n].type is not TOP and _kind(args[n]) not in kinds:
                    raise self.unsupported(given[n], f"{name}() with {n} of {args[n].type.widen()} "
                                                     f"(son takes {' or '.join(kinds)})")
            num = args["num"] if "num" in args else self.con(50)
            endpoint = args["endpoint"] if "endpoint" in args else self.con(True)
            return self.inline(e, linspace, [args["start"], args["stop"], num, endpoint])


    def call_full(self, e: ast.Call, name: str) -> Node:
        """``np.full(shape, value)`` (``dtype=``): the dimensions, then the value (CPython's
        order), numpy's ValueError for a negative dimension, a new array filled with the
        value; its dtype is the value's kind, or ``dtype=`` where the value converts
        exactly (an int or bool to float64, a bool to int64)."""
        if len(e.args) != 2 or any(k.arg != "dtype" for k in e.keywords):
            raise self.error(e, f"{name}() takes a shape, a value and a dtype", name)
        dims = self.shape_argument(e.args[0])
        with kept(*dims):
            v = self.expr(e.args[1])
        kind = "int" if v.type is TOP else _kind(v)  # (TOP: a value of dead code)
        dtype = {"int": "int64", "float": "float64", "bool": "bool"}.get(kind)
        if dtype is None:
            raise self.unsupported(e.args[1], f"{name}() of a {v.type.widen()} value (son fills arrays "
                                              "with ints, floats or bools)")
        for k in e.keywords:
            want = DTYPES.get(self.resolve(k.value))
            if want != dtype and (want, dtype) not in (("float64", "int64"), ("float64", "bool"),
                                                        ("int64", "bool")):
                raise self.unsupported(k.value, f"{name}() of a {kind} value as {ast.unparse(k.value)} (son "
                                                "converts only ints and bools to floats and bools to ints)")
            dtype = want
        with kept(v, *dims):
            if len(dims) == 1:
                self.guard(self.op(e, LT, dims[0], self.con(0)), ValueError,
                           "negative dimensions are not allowed")
                out = base = self.op(e, NewArray, self.scope.ctrl, dims[0], dtype=dtype, fill="empty")
            else:
                out = self.new_grid(e, dims, dtype, "empty")
                base = out.base
            with kept(out):
                fill = {"float64": fill_float, "int64": fill_int, "bool": fill_bool}[dtype]
                self.inline(e, fill, [base, v])
        return out


NUMPY_CALLS = {
    np.zeros_like: lambda p, e, n: p.call_like(e, n, "zeros"),
    np.ones_like: lambda p, e, n: p.call_like(e, n, "ones"),
    np.empty_like: lambda p, e, n: p.call_like(e, n, "empty"),
    np.arange: lambda p, e, n: p.call_arange(e, n),
    np.linspace: lambda p, e, n: p.call_linspace(e, n),
    np.full: lambda p, e, n: p.call_full(e, n),
    **{fn: (lambda fn: lambda p, e, n: p.call_numpy_on_array(e, n, fn))(fn)
       for fn in (np.copy, np.argmax, np.argmin, np.any, np.all, np.sum, np.mean, np.max, np.min, np.prod,
                  np.cumsum, np.var, np.std, np.diff, np.sort, np.median, np.argsort)},
    np.reshape: lambda p, e, n: p.call_reshape(e, n),
    np.ravel: lambda p, e, n: p.call_reshape(e, n),
    np.amax: lambda p, e, n: p.call_numpy_on_array(e, n, np.max),
    np.amin: lambda p, e, n: p.call_numpy_on_array(e, n, np.min),
    **AXES_CALLS,
}


# ---------------------------------------------------------------- inlined (son's Python)
def copy_float64(a):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = a[i]
    return out


def copy_int64(a):
    out = np.empty(len(a), dtype=np.int64)
    for i in range(len(a)):
        out[i] = a[i]
    return out


def copy_bool(a):
    out = np.empty(len(a), dtype=np.bool_)
    for i in range(len(a)):
        out[i] = a[i]
    return out


def argmax(a):
    return _arg_extreme(a, True)


def argmin(a):
    return _arg_extreme(a, False)


def _arg_extreme(a, largest):
    """The index of the first largest (smallest) element, or of the first NaN."""
    if len(a) == 0:
        if largest:
            raise ValueError("attempt to get argmax of an empty sequence")
        raise ValueError("attempt to get argmin of an empty sequence")
    at = 0
    best = a[0]
    if best != best:
        return 0
    for i in range(1, len(a)):
        x = a[i]
        if x != x:
            return i  # the first NaN
        if (x > best) if largest else (x < best):
            best = x
            at = i
    return at


def any_true(a):
    for x in a:
        if x:
            return True
    return False


def all_true(a):
    for x in a:
        if not x:
            return False
    return True


def sum_in_order(a):
    """The float sum of ``a`` from left to right: the derivative's surrogate of
    ``pairwise_sum`` (``ArrayFunctions.float_sum``)."""
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def prod_float(a):
    """numpy's product of a float array: in order (measured: numpy's multiply reduction
    is not pairwise), from 1.0, which leaves the first element as it is."""
    p = 1.0
    for i in range(len(a)):
        p *= a[i]
    return p


def prod_int(a):
    """Of an int or bool array: an int64, wrapping as numpy's."""
    p = 1
    for i in range(len(a)):
        p *= int(a[i])
    return p


def cumsum_float(a):
    """numpy's cumulative sum of floats: in order, the first element as it is (-0.0)."""
    n = len(a)
    out = np.empty(n)
    s = 0.0
    for i in range(n):
        s = a[i] if i == 0 else s + a[i]
        out[i] = s
    return out


def cumsum_int(a):
    """Of an int or bool array: int64, wrapping."""
    out = np.empty(len(a), dtype=np.int64)
    s = 0
    for i in range(len(a)):
        s += int(a[i])
        out[i] = s
    return out


def diff_float(a):
    out = np.empty(max(len(a) - 1, 0))
    for i in range(len(a) - 1):
        out[i] = a[i + 1] - a[i]
    return out


def diff_int(a):
    out = np.empty(max(len(a) - 1, 0), dtype=np.int64)
    for i in range(len(a) - 1):
        out[i] = a[i + 1] - a[i]
    return out


def diff_bool(a):
    """numpy's diff of booleans is ``!=`` of neighbours."""
    out = np.empty(max(len(a) - 1, 0), dtype=np.bool_)
    for i in range(len(a) - 1):
        out[i] = a[i + 1] != a[i]
    return out


def squared_deviations(a, m):
    """``(a - m) ** 2`` as a new float array, as numpy's var makes it (an int element
    becomes a float first)."""
    out = np.empty(len(a))
    for i in range(len(a)):
        x = a[i] - m
        out[i] = x * x
    return out


def sum_as_floats(a):
    """``np.add.reduce(a, dtype=np.float64)`` of an int or bool array, what ``np.mean``
    sums: numpy casts the elements to floats in buffers of 8192 and adds each buffer's
    pairwise sum to the total in order (measured: bit for bit on 1,200 random int64
    arrays of up to 50,000 elements with strides 1, 2, 3 and -1, and on bool arrays).
    One buffer of up to 8192 floats."""
    n = len(a)
    buf = np.empty(min(n, 8192))
    sums = np.empty(64)
    total = 0.0
    for k in range(0, n, 8192):
        m = min(8192, n - k)
        for i in range(m):
            buf[i] = float(a[k + i])
        total = total + pairwise_blocks(buf[:m], sums)
    return total


def max_float(a):
    return _extreme_float(a, True)


def min_float(a):
    return _extreme_float(a, False)


def _extreme_float(a, largest):
    """``np.max`` (``np.min``) of floats: NaN if any element is NaN; numpy's ValueError
    if empty.  Which of two equal zeros numpy returns depends on its SIMD kernels
    (``np.max([0.0, -0.0])`` is -0.0, ``np.max([-0.0, 0.0])`` 0.0): a zero result where
    both zeros occur raises NotImplementedError instead of guessing."""
    m = _first(a, largest)
    for i in range(len(a)):
        x = a[i]
        if x != x:
            return x
        if (x > m) if largest else (x < m):
            m = x
    if m == 0.0:
        negative = False
        positive = False
        for i in range(len(a)):
            if a[i] == 0.0:
                if math.copysign(1.0, a[i]) < 0.0:
                    negative = True
                else:
                    positive = True
        if negative and positive:
            raise NotImplementedError("which of two equal zeros numpy's max and min return depends on "
                                      "its SIMD kernels")
    return m


def max_exact(a):
    return _extreme_exact(a, True)


def min_exact(a):
    return _extreme_exact(a, False)


def _extreme_exact(a, largest):
    """``np.max`` (``np.min``) of ints or bools."""
    m = _first(a, largest)
    for i in range(len(a)):
        if (a[i] > m) if largest else (a[i] < m):
            m = a[i]
    return m


def _empty_axis(n, largest):
    if n == 0:
        if largest:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        raise ValueError("zero-size array to reduction operation minimum which has no identity")


def _first(a, largest):
    """``a[0]``, after numpy's ValueError for an empty array."""
    _empty_axis(len(a), largest)
    return a[0]


def sum_ints(a):
    s = 0
    for x in a:
        s += x
    return s


def arange(start, stop, step):
    if step == 0:
        raise ZeroDivisionError("division by zero")
    d = stop - start
    if (stop >= start) != (d >= 0):
        raise ValueError("Maximum allowed size exceeded")  # the length passes int64
    n = -(-d // step)
    if n < 0:
        n = 0
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = start + i * step
    return out


def fill_float(a, v):
    x = float(v)
    for i in range(len(a)):
        a[i] = x


def fill_int(a, v):
    x = int(v)
    for i in range(len(a)):
        a[i] = x


def fill_bool(a, v):
    for i in range(len(a)):
        a[i] = v


def linspace(start, stop, num, endpoint):
    """numpy's linspace of floats: ``i * step + start`` (``(i / div) * delta + start``
    where the step underflows to 0; ``i * delta + start`` for fewer than two points), the
    last point ``stop`` itself."""
    if num < 0:
        raise ValueError("Number of samples must be non-negative.")
    a = float(start)
    b = float(stop)
    div = num - 1 if endpoint else num
    delta = b - a
    y = np.empty(num)
    if div > 0:
        step = delta / div
        if step == 0:
            for i in range(num):
                y[i] = (i / div) * delta + a
        else:
            for i in range(num):
                y[i] = i * step + a
    else:
        for i in range(num):
            y[i] = i * delta + a
    if endpoint and num > 1:
        y[num - 1] = b
    return y


def arange_float(start, stop, step):
    """numpy's float arange: the length from the quotient in doubles, the first element
    ``start``, the second ``start + step``, the others ``first + i * (second - first)``
    (numpy's DOUBLE_fill)."""
    q = (stop - start) / step
    if q != q:
        raise ValueError("arange: cannot compute length")
    return arange_filled(start, step, q)


def arange_filled(start, step, q):
    """numpy's float arange of ``ceil(q)`` elements from ``start`` by ``step``."""
    if q >= 9.223372036854775807e18:
        raise ValueError("Maximum allowed size exceeded")
    n = math.ceil(q)
    if n < 0:
        n = 0
    out = np.empty(n)
    if n > 0:
        first = float(start)
        out[0] = first
        if n > 1:
            second = float(start + step)
            out[1] = second
            delta = second - first
            for i in range(2, n):
                out[i] = first + i * delta
    return out

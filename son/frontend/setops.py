"""numpy's set routines and array edits: ``np.ediff1d``, ``np.extract``, ``np.array_equal``,
``np.isin``, ``np.union1d``, ``np.intersect1d``, ``np.setdiff1d``, ``np.delete``,
``np.insert`` and ``np.count_nonzero(a, axis=)``, each with numpy's values, result dtype
and errors.  numpy flattens the operands of all but ``np.array_equal``: an n-D array is
read in C order (copied), a list or tuple made an array first (son/frontend/arrayconv.py).

- ``np.ediff1d(ary, to_end=None, to_begin=None)``: ``ary[1:] - ary[:-1]`` in ``ary``'s dtype
  (ints wrap), ``to_begin`` before and ``to_end`` after (numbers, arrays, lists), converted
  to that dtype; numpy's TypeErrors: a ``to_begin``/``to_end`` of a higher kind (numpy's
  ``same_kind`` rule: bool < int < float), a bool ``ary`` (numpy's bool subtract).
- ``np.extract(condition, arr)``: the elements of ``arr`` where ``condition`` is truthy
  (NaN is, -0.0 is not), in ``arr``'s dtype; numpy's IndexError where a truthy position
  is past the end of ``arr``.
- ``np.array_equal(a1, a2, equal_nan=False)``: a bool; False for other shapes; elements
  compared as numpy's ``==`` does (an int and a float as doubles), NaN equal to NaN with
  ``equal_nan``.
- ``np.isin(element, test_elements, invert=False)`` of a 1-D ``element``: a bool array, an
  element in when it is ``==`` to one of the test elements (so NaN never is, -0.0 is 0.0),
  compared in numpy's promoted dtype; son sorts the test elements once (its stable merge
  sort, NaN last) and binary-searches each element.  numpy compares an int ``element`` with
  float test elements in doubles, and where two ints round to one double, its answer
  depends on which of its three algorithms it picks: son raises ``NotImplementedError``
  there (an int element of magnitude past 2**53 against floats).  (numpy 2.4 has no
  ``np.in1d``; where an older numpy has it, it is the same function.)
- ``np.union1d(ar1, ar2)``: ``np.unique`` of both joined (numpy's promoted dtype).
  ``np.intersect1d(ar1, ar2)``: numpy's steps, the two ``np.unique`` joined, sorted, and
  each element equal to the next; ``np.setdiff1d(ar1, ar2)``: ``np.unique(ar1)`` less the
  elements ``==`` to one of ``ar2`` (``np.isin``'s comparison and refusal), ``ar1``'s
  dtype.  Where ``0.0`` and ``-0.0`` meet in one sort, which one numpy keeps depends on its
  sort kernels: ``NotImplementedError``, as ``np.unique``'s (son/frontend/arraymore.py).
- ``np.delete(arr, obj, axis=None)``: a new array without the elements ``obj`` names: an int
  (numpy's IndexError outside ``-n <= obj < n``), a ``slice(...)`` written in the call (Python's
  slice rules; ValueError for a zero step), an int array or list (each index so checked;
  duplicates delete once), a bool array of ``len(arr)`` (numpy's ValueError for another
  length) or a bool number (ValueError); a float index is numpy's IndexError.
- ``np.insert(arr, obj, values, axis=None)`` of an int ``obj``: the values (a number, or each
  element of a 1-D array or list) before position ``obj`` (numpy's IndexError outside
  ``-n <= obj <= n``), in ``arr``'s dtype.
- ``np.count_nonzero(a, axis=k, keepdims=False)`` (``k`` known only at run time too):
  ``np.sum(a != 0, axis=k)`` as numpy sums
  ``a.astype(bool)``, an int or int64 array (without ``axis``: son/frontend/arraymethods.py).

Refused with a located error: operands that are not arrays, lists or tuples (numpy's 0-D
arrays), an n-D ``element`` for ``np.isin`` (its result keeps the shape), ``assume_unique=True``
(numpy's answer for operands that are not unique depends on its algorithm), ``kind=``,
``return_indices=True``, ``axis=`` of an n-D array for ``np.delete``/``np.insert``, an
``obj`` of ``np.insert`` that is not an int, ``values`` of a higher kind than ``arr`` (numpy
casts a float to an int array unsafely, NaN included) or n-D, an ``axis`` that is not a
constant int.  The functions at the end are written in the Python son compiles and
inlined.  O(1) nodes per call plus the inlined body; ``np.isin``/``np.setdiff1d`` take
O((n + m) log m) time, ``np.union1d``/``np.intersect1d`` O((n + m) log(n + m)), the others
O(n) (``np.delete`` of indices O(n + len(obj)))."""

from __future__ import annotations

import ast

import numpy as np

from ..nodes import Node, kept
from ..nodes.types import NONE
from .arraymore import unique_order, unique_runs, unique_values
from .core import BOOL_SUBTRACT, _kind, dtype_of, is_array_value, is_list, promoted
from .scope import Grid, Pack
from .selection import take_masked
from .sorting import index_order

#: a dtype -> the zero of its kind (``np.full(n, zero)`` makes an array of that dtype)
_ZERO = {"float64": 0.0, "int64": 0, "bool": False}
#: numpy's ``same_kind`` casting among son's dtypes: the rank of a kind
_RANK = {"bool": 0, "int64": 1, "float64": 2}
#: numpy's IndexError for a float index (``keep[obj,] = False``)
_FLOAT_INDEX = "arrays used as indices must be of integer (or boolean) type"


class SetOps:
    """FunctionParser's numpy set routines and array edits (a mixin)."""

    def flat_operand(self, at: ast.expr, v: Node, name: str) -> Node:
        """numpy's ``np.asarray(v).ravel()`` of an operand: a 1-D array or view itself, an
        n-D array copied in C order, a list or tuple a new array."""
        if isinstance(v, Grid):
            return self.raveled(at, v)
        if is_array_value(v):
            return v
        if is_list(v) or isinstance(v, Pack):
            return self.array_of_value(at, name, v)
        raise self.unsupported(at, f"{name}() of a {v.type.widen()} value (son takes arrays, lists and "
                                   "tuples here)")

    def flat_operands(self, e: ast.Call, name: str, got: dict, params: list[str]) -> list[Node]:
        """The operands ``params`` evaluated in order, then flattened."""
        vals: list[Node] = []
        for k in params:
            with kept(*vals):
                vals.append(self.expr_any(got[k]))
        flat: list[Node] = []
        with kept(*vals):
            for k, v in zip(params, vals):
                with kept(*flat):
                    flat.append(self.flat_operand(got[k], v, name))
        return flat

    def no_flag(self, got: dict, name: str, word: str, why: str) -> None:
        if self.constant_flag(got.get(word), False, name, word):
            raise self.unsupported(got[word], f"{name}() with {word}=True ({why})")

    # -- np.ediff1d ----------------------------------------------------------------------
    def call_ediff1d(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["ary", "to_end", "to_begin"], optional={"to_end", "to_begin"})
        ary = self.flat_operands(e, name, got, ["ary"])[0]
        with kept(ary):
            dt = dtype_of(ary)
            ends: dict[str, Node] = {}
            for word in ("to_end", "to_begin"):
                with kept(*ends.values()):
                    ends[word] = self.ediff1d_end(got, word, name)
            with kept(*ends.values()):
                for word in ("to_begin", "to_end"):  # numpy checks to_begin first
                    v = ends[word]
                    if not _is_none(v) and _RANK[dtype_of(v)] > _RANK[dt]:
                        return self.fault(TypeError, f"dtype of `{word}` must be compatible with input `ary` "
                                                     "under the `same_kind` rule.")
                if dt == "bool":
                    return self.fault(TypeError, BOOL_SUBTRACT)
                return self.inline(e, ediff1d, [ary, ends["to_end"], ends["to_begin"], self.con(_ZERO[dt])])

    def ediff1d_end(self, got: dict, word: str, name: str) -> Node:
        """``to_end`` or ``to_begin``: None, or numpy's ``np.asanyarray(x).ravel()``."""
        if word not in got:
            return self.con(None)
        v = self.expr_any(got[word])
        if _is_none(v):
            return v
        if _kind(v) in ("int", "float", "bool"):
            with kept(v):
                return self.one_element(got[word], v)
        with kept(v):
            return self.flat_operand(got[word], v, name)

    # -- np.extract, np.array_equal --------------------------------------------------------
    def call_extract(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["condition", "arr"])
        cond, arr = self.flat_operands(e, name, got, ["condition", "arr"])
        with kept(cond, arr):
            return self.inline(e, extract, [cond, arr, self.con(_ZERO[dtype_of(arr)])])

    def call_array_equal(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["a1", "a2", "equal_nan"], optional={"equal_nan"})
        equal_nan = self.constant_flag(got.get("equal_nan"), False, name, "equal_nan")
        vals: list[Node] = []
        for k in ("a1", "a2"):
            with kept(*vals):
                v = self.expr_any(got[k])
                if not (isinstance(v, Grid) or is_array_value(v)):
                    raise self.unsupported(got[k], f"{name}() of a {v.type.widen()} value (son compares "
                                                   "arrays)")
                vals.append(v)
        a, b = vals
        with kept(a, b):
            ndims = [x.ndim if isinstance(x, Grid) else 1 for x in (a, b)]
            if ndims[0] != ndims[1]:
                return self.con(False)  # numpy's shapes differ
            dts = (dtype_of(a), dtype_of(b))
            helper = array_equal if dts[0] == dts[1] else \
                equal_as_floats if "float64" in dts else equal_as_ints  # bools as numpy's 0 and 1
            return self.inline(e, helper, [a, b, self.con(equal_nan)])

    # -- np.isin and the set routines ----------------------------------------------------
    def compared(self, e: ast.Call, x: Node, t: Node) -> tuple[Node, Node, bool]:
        """``x`` and ``t`` converted to the dtype numpy compares them in (bools as ints), and
        whether ``x``'s ints are compared with floats (son's run-time refusal)."""
        dts = (dtype_of(x), dtype_of(t))
        common = promoted(*dts)
        if common == "bool":
            common = "int64"
        out = []
        for v, dt in zip((x, t), dts):
            with kept(*out):
                out.append(v if dt == common else self.inline(e, _CONVERT[common], [v]))
        return out[0], out[1], dts[0] == "int64" and common == "float64"

    def membership(self, e: ast.Call, x: Node, t: Node, invert: bool) -> Node:
        """A bool array: is each element of ``x`` ``==`` to one of ``t``'s (xor ``invert``)."""
        with kept(x, t):
            cx, ct, wide = self.compared(e, x, t)
            with kept(cx, ct):
                if wide:
                    self.inline(e, refuse_wide_ints, [x])
                return self.inline(e, membership, [cx, ct, self.con(invert)])

    def call_isin(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["element", "test_elements", "assume_unique", "invert", "kind"],
                                  optional={"assume_unique", "invert", "kind"})
        self.no_flag(got, name, "assume_unique", "numpy's answer for elements that are not unique "
                                                 "depends on its algorithm")
        invert = self.constant_flag(got.get("invert"), False, name, "invert")
        if "kind" in got and not (isinstance(got["kind"], ast.Constant) and got["kind"].value is None):
            raise self.unsupported(got["kind"], f"{name}() with kind= (son reads no algorithm choice)")
        x = self.expr_any(got["element"])
        with kept(x):
            if not is_array_value(x):
                what = f"a {x.ndim}-D array" if isinstance(x, Grid) else f"a {x.type.widen()} value"
                raise self.unsupported(got["element"], f"{name}() of {what} (son takes a 1-D array of "
                                                       "elements; numpy's result has their shape)")
            t = self.flat_operand(got["test_elements"], self.expr_any(got["test_elements"]), name)
            with kept(t):
                return self.membership(e, x, t, invert)

    def call_union1d(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["ar1", "ar2"])
        a, b = self.flat_operands(e, name, got, ["ar1", "ar2"])
        with kept(a, b):
            return self.inline(e, union1d, [a, b])

    def call_intersect1d(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["ar1", "ar2", "assume_unique", "return_indices"],
                                  optional={"assume_unique", "return_indices"})
        self.no_flag(got, name, "assume_unique", "numpy's answer for arrays that are not unique depends "
                                                 "on its sort")
        self.no_flag(got, name, "return_indices", "son returns the values only")
        a, b = self.flat_operands(e, name, got, ["ar1", "ar2"])
        with kept(a, b):
            zero = self.con(_ZERO[promoted(dtype_of(a), dtype_of(b))])
            return self.inline(e, intersect1d, [a, b, zero])

    def call_setdiff1d(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["ar1", "ar2", "assume_unique"], optional={"assume_unique"})
        self.no_flag(got, name, "assume_unique", "numpy's answer for arrays that are not unique depends "
                                                 "on its algorithm")
        a, b = self.flat_operands(e, name, got, ["ar1", "ar2"])
        with kept(a, b):
            u = self.inline(e, unique_of, [a, self.con(_ZERO[dtype_of(a)])])
            with kept(u):
                keep = self.membership(e, u, b, True)
                with kept(keep):
                    return self.inline(e, selected, [u, keep])

    # -- np.count_nonzero along an axis --------------------------------------------------
    def call_count_nonzero_axis(self, e: ast.Call, name: str) -> Node:
        if len(e.args) > 2 or any(k.arg not in ("axis", "keepdims") for k in e.keywords):
            raise self.error(e, f"{name}() takes an array, axis= and keepdims=", name)
        words = {k.arg: k.value for k in e.keywords}
        axis_e = e.args[1] if len(e.args) == 2 else words.get("axis")
        keepdims = self.constant_flag(words.get("keepdims"), False, name, "keepdims")
        if (axis_e is None or isinstance(axis_e, ast.Constant) and axis_e.value is None) and not keepdims:
            plain = ast.copy_location(ast.Call(e.func, e.args[:1], []), e)
            return self.call_count_nonzero(plain, name)
        a = self.expr_any(e.args[0]) if e.args else None
        if a is None or not (isinstance(a, Grid) or is_array_value(a)):
            raise self.error(e, f"{name}() of anything but an array", name)
        with kept(a):
            if axis_e is None or isinstance(axis_e, ast.Constant) and axis_e.value is None:
                axis = self.con(None)
            else:
                axis = self.expr(axis_e)
                if axis.type is not NONE and (axis.type.is_constant or _kind(axis) != "int"):  # else np.sum's
                    axis = self.con(self.axis_constant(axis_e, a.ndim if isinstance(a, Grid) else 1, name,
                                                       axis))
            with kept(axis):
                return self.inline(e, count_along, [a, axis, self.con(keepdims)])

    # -- np.delete, np.insert ------------------------------------------------------------
    def edited(self, e: ast.Call, name: str, got: dict) -> Node:
        """The array of ``np.delete``/``np.insert``: flattened, or a 1-D array along its one
        axis."""
        arr = self.expr_any(got["arr"])
        with kept(arr):
            if "axis" in got and not (isinstance(got["axis"], ast.Constant) and got["axis"].value is None):
                if isinstance(arr, Grid):
                    raise self.unsupported(got["axis"], f"{name}() along an axis of an n-D array (son edits "
                                                        "it flattened: axis=None)")
                self.axis_constant(got["axis"], 1, name)
            return self.flat_operand(got["arr"], arr, name)

    def call_delete(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["arr", "obj", "axis"], optional={"axis"})
        arr = self.edited(e, name, got)
        with kept(arr):
            obj = got["obj"]
            if isinstance(obj, ast.Call) and self.resolve_quiet(obj.func) is slice:
                return self.delete_slice(e, name, arr, obj)
            v = self.expr_any(obj)
            with kept(v):
                kind = _kind(v)
                if kind == "bool":
                    return self.fault(ValueError, "boolean array argument obj to delete must be one "
                                                  "dimensional and match the axis length")
                if kind == "float":
                    return self.fault(IndexError, _FLOAT_INDEX)
                if kind == "int":
                    return self.inline(e, delete_one, [arr, v])
                if isinstance(v, Grid):
                    raise self.unsupported(obj, f"{name}() of an n-D array of indices")
                idx = self.flat_operand(obj, v, name)
                with kept(idx):
                    dt = dtype_of(idx)
                    if dt == "float64":
                        return self.fault(IndexError, _FLOAT_INDEX)
                    return self.inline(e, delete_mask if dt == "bool" else delete_many, [arr, idx])

    def delete_slice(self, e: ast.Call, name: str, arr: Node, obj: ast.Call) -> Node:
        if obj.keywords or not 1 <= len(obj.args) <= 3:
            raise self.error(obj, "slice() takes one to three arguments", "slice")
        bounds: list[Node] = []
        for x in obj.args:
            with kept(*bounds):
                v = self.expr_any(x)
                if not (_is_none(v) or _kind(v) == "int"):
                    raise self.unsupported(x, f"{name}() of a slice whose bounds are not ints or None")
                bounds.append(v)
        if len(bounds) == 1:
            bounds = [self.con(None), bounds[0]]
        with kept(*bounds):
            while len(bounds) < 3:
                bounds.append(self.con(None))
            with kept(*bounds):
                return self.inline(e, delete_slice, [arr, *bounds])

    def call_insert(self, e: ast.Call, name: str) -> Node:
        got = self.call_arguments(e, name, ["arr", "obj", "values", "axis"], optional={"axis"})
        arr = self.edited(e, name, got)
        with kept(arr):
            i = self.expr_any(got["obj"])
            if _kind(i) != "int":
                raise self.unsupported(got["obj"], f"{name}() at an obj that is not an int (son inserts at "
                                                   "one index)")
            with kept(i):
                v = self.expr_any(got["values"])
                if isinstance(v, Grid):
                    raise self.unsupported(got["values"], f"{name}() of n-D values")
                with kept(v):
                    v = self.one_element(got["values"], v) if _kind(v) in ("int", "float", "bool") else \
                        self.flat_operand(got["values"], v, name)
                with kept(v):
                    dt = dtype_of(arr)
                    if _RANK[dtype_of(v)] > _RANK[dt]:
                        raise self.unsupported(got["values"], f"{name}() of {dtype_of(v)} values into a {dt} "
                                                              "array (numpy casts them unsafely)")
                    return self.inline(e, insert_at, [arr, i, v, self.con(_ZERO[dt])])


def _is_none(v: Node) -> bool:
    return v.type.is_constant and v.type.con is None


SETOPS_CALLS = {
    np.ediff1d: lambda p, e, n: p.call_ediff1d(e, n),
    np.extract: lambda p, e, n: p.call_extract(e, n),
    np.array_equal: lambda p, e, n: p.call_array_equal(e, n),
    np.isin: lambda p, e, n: p.call_isin(e, n),
    np.union1d: lambda p, e, n: p.call_union1d(e, n),
    np.intersect1d: lambda p, e, n: p.call_intersect1d(e, n),
    np.setdiff1d: lambda p, e, n: p.call_setdiff1d(e, n),
    np.count_nonzero: lambda p, e, n: p.call_count_nonzero_axis(e, n),
    np.delete: lambda p, e, n: p.call_delete(e, n),
    np.insert: lambda p, e, n: p.call_insert(e, n),
}
if hasattr(np, "in1d"):  # numpy < 2.4
    SETOPS_CALLS[np.in1d] = SETOPS_CALLS[np.isin]


# ---------------------------------------------------------------- inlined (son's Python)
def ediff1d(ary, to_end, to_begin, zero):
    lb = 0 if to_begin is None else len(to_begin)
    le = 0 if to_end is None else len(to_end)
    n = max(len(ary) - 1, 0)
    out = np.full(lb + n + le, zero)
    if to_begin is not None:
        for i in range(lb):
            out[i] = to_begin[i]
    for i in range(n):
        out[lb + i] = ary[i + 1] - ary[i]
    if to_end is not None:
        for i in range(le):
            out[lb + n + i] = to_end[i]
    return out


def extract(condition, arr, zero):
    """``np.take(arr, np.nonzero(condition)[0])``: numpy checks every index first."""
    k = 0
    for i in range(len(condition)):
        if condition[i]:
            if i >= len(arr):
                raise IndexError("index is out of bounds for axis 0")
            k += 1
    return take_masked(np.full(k, zero), arr, condition)


def array_equal(a, b, equal_nan):
    if a.shape != b.shape:
        return False
    x = a.ravel()
    y = b.ravel()
    for i in range(len(x)):
        p = x[i]
        q = y[i]
        if p != q and not (equal_nan and p != p and q != q):
            return False
    return True


def equal_as_floats(a, b, equal_nan):
    """numpy's ``==`` of an int (or bool) and a float array: both as doubles."""
    return array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan)


def equal_as_ints(a, b, equal_nan):
    return array_equal(a.astype(np.int64), b.astype(np.int64), equal_nan)


def as_floats(a):
    return a.astype(np.float64)


def as_ints(a):
    return a.astype(np.int64)


_CONVERT = {"float64": as_floats, "int64": as_ints}


def refuse_wide_ints(a):
    """numpy compares ints with floats as doubles; two ints past 2**53 may round to one,
    and then its answer depends on the algorithm it picks."""
    for i in range(len(a)):
        if a[i] > 9007199254740992 or a[i] < -9007199254740992:
            raise NotImplementedError("np.isin/np.setdiff1d of an int past 2**53 against floats (numpy's "
                                      "answer depends on its algorithm)")


def _found(x, t, order):
    """Is ``x`` ``==`` to an element of ``t``, whose indices ``order`` sorts (NaN last)?  The
    first position whose element is not below ``x``, then one test of equality."""
    lo = 0
    hi = len(order)
    while lo < hi:
        mid = (lo + hi) // 2
        if t[order[mid]] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(order) and t[order[lo]] == x


def membership(x, t, invert):
    order = index_order(t, True)
    out = np.empty(len(x), dtype=np.bool_)
    for i in range(len(x)):
        out[i] = _found(x[i], t, order) != invert
    return out


def unique_of(a, zero):
    """``np.unique(a)`` of a 1-D array (son/frontend/arraymore.py's steps)."""
    order = unique_order(a, True)
    return unique_values(a, order, unique_runs(a, order, True), zero)


def union1d(a, b):
    return np.unique(np.concatenate((a, b)))


def intersect1d(a, b, zero):
    """numpy's: both ``np.unique``, joined, sorted; each element equal to the next one."""
    aux = np.sort(np.concatenate((np.unique(a), np.unique(b))))
    k = 0
    for i in range(len(aux) - 1):
        if aux[i + 1] == aux[i]:
            k += 1
    out = np.full(k, zero)
    k = 0
    for i in range(len(aux) - 1):
        if aux[i + 1] == aux[i]:
            out[k] = aux[i]
            k += 1
    return out


def selected(a, keep):
    return a[keep]


def count_along(a, axis, keepdims):
    """numpy's ``a.astype(bool).sum(axis=axis, dtype=np.intp, keepdims=keepdims)``."""
    return np.sum(a != 0, axis=axis, keepdims=keepdims)


def _deleted_at(keep, i):
    """numpy's IndexError outside ``-n <= i < n`` (checked here, not left to the bounds
    checks a kernel may be compiled without)."""
    n = len(keep)
    if i < -n or i >= n:
        raise IndexError("index is out of bounds for axis 0")
    keep[i if i >= 0 else i + n] = False


def delete_one(a, i):
    keep = np.ones(len(a), dtype=np.bool_)
    _deleted_at(keep, i)
    return a[keep]


def delete_many(a, idx):
    keep = np.ones(len(a), dtype=np.bool_)
    for j in range(len(idx)):
        _deleted_at(keep, idx[j])
    return a[keep]


def delete_mask(a, m):
    if len(m) != len(a):
        raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis "
                         "length")
    keep = np.empty(len(a), dtype=np.bool_)
    for i in range(len(a)):
        keep[i] = not m[i]
    return a[keep]


def delete_slice(a, start, stop, step):
    keep = np.ones(len(a), dtype=np.bool_)
    keep[start:stop:step] = False
    return a[keep]


def insert_at(a, i, values, zero):
    n = len(a)
    if i < -n or i > n:
        raise IndexError("index is out of bounds for axis 0")
    if i < 0:
        i += n
    m = len(values)
    out = np.full(n + m, zero)
    for k in range(i):
        out[k] = a[k]
    for k in range(m):
        out[i + k] = values[k]
    for k in range(i, n):
        out[m + k] = a[k]
    return out

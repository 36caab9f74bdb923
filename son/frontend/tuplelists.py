"""Lists of tuples: a list of k-tuples of numbers as k lists changed in lockstep.

A list whose items are tuples (``[(1, 2.0), (3, 4.0)]``, ``list(zip(a, b))``, ``[]``
appended pairs) is a ``TupleList`` of the parse (son/frontend/scope.py): its elements
are k ordinary lists of the graph, its *columns*, one per tuple position, each of one
element kind.  Every operation is k operations on the columns, which son already
compiles, in one order through the one memory state: ``append((a, b))`` appends ``a``
to the first column and ``b`` to the second, ``xs[i]`` is the tuple of the columns'
items i behind one bounds guard, ``pop`` removes item i from each column.  So the
columns always have one length, a tuple never enters the graph (as everywhere in son,
son/frontend/tuples.py), and two names for one list (``ys = xs``, an inlined helper's
parameter) hold the same columns and see each other's changes, as in CPython.  Merges
at branches and loops are a Phi per column (``Aggregate``).

What CPython does that this keeps: item order and lengths; the index, pop and insert
rules and their IndexError messages (the first column's guards, the others' are
redundant); CPython's iterator over a list (the length read again before each step).
Equality (``==``, ``in``, ``index``, ``count``, ``remove``) compares tuples position by
position as CPython's tuple comparison does (``x is y or x == y``); two NaNs meeting
raise ``NotImplementedError``, as for lists of numbers, since son cannot tell whether
they are one object.  ``sort()``/``sorted()`` order tuples lexicographically and stably:
a stable sort of the row numbers by the last column, then by the one before, ..., then
the first (least significant position first, as an LSD radix sort), each a stable
merge sort (listops.sort_by_keys), each followed by a permutation of every column;
a NaN in a float column raises ``NotImplementedError`` first (CPython's order then
depends on timsort's comparisons).  ``key=`` sorts run listops's key sort on the
list of tuples itself.  O(k) nodes per operation; a sort is O(k (n log n + k n)).

The kind of an empty list that is appended tuples is learned as for other empty lists
(son/frontend/lists.py: the first tuple's kinds, by parsing again), or given by an
annotation ``xs: list[tuple[int, float]] = []``.  Refused, each with a located error:
tuples of other kinds or lengths than the list's, tuples holding tuples, lists or
None, lists of tuples inside lists, ordering comparisons of lists of tuples, and
slice assignment (write a loop, or build a new list).
"""

from __future__ import annotations

import ast

from ..nodes import EQ, GE, GT, LE, LT, NE, Add, BitAnd, ListOp, Load, NewList, Node, Not, Store, kept
from ..nodes.types import NONE, TOP
from .core import _kind, is_list
from .iteration import Counted
from .listops import sort_by_keys
from .lists import _LEARNED, LIST_GUESSES, ListKindLearned, _origins
from .scope import Aggregate, Opt, Pack, TupleList

_ORDERS = (LT, LE, GT, GE)
_NAMES = {"float64": "float", "int64": "int", "bool": "bool"}


def rows_name(dtypes: tuple) -> str:
    """``list[tuple[int, float]]``: how a message names a list of tuples of ``dtypes``."""
    return "list[tuple[" + ", ".join(_NAMES.get(d, "float") for d in dtypes) + "]]"


class TupleLists:
    """FunctionParser's lists of tuples (a mixin, before ``Lists`` and ``Arrays`` in the
    parser's bases: it takes their operations over where a list of tuples is met)."""

    # -- making -----------------------------------------------------------------------
    def new_rows(self, at: ast.AST, dtypes: tuple) -> TupleList:
        """A new empty list of tuples of ``dtypes``: k new empty columns."""
        cols: list[Node] = []
        for d in dtypes:
            with kept(*cols):
                cols.append(super().empty_list(at, d))
        return TupleList(self.g, *cols)

    def empty_list(self, at: ast.AST, dtype=None) -> Node:
        site = (_LEARNED, self.path, at.lineno, at.col_offset)
        want = dtype if dtype is not None else self.learned.get(site)
        if isinstance(want, tuple):
            return self.new_rows(at, want)
        return super().empty_list(at, dtype)

    def list_display(self, e: ast.List, vals: list[Node]) -> Node:
        live = [v for v in vals if isinstance(v, Aggregate) or v.type is not TOP]
        if not live or not isinstance(live[0], Pack):
            return super().list_display(e, vals)
        with kept(*vals):
            kinds = [self.element_dtype(e, v) for v in live if isinstance(v, Pack)]
            known = [[_kind(x) != "number" for x in v.elems] for v in live if isinstance(v, Pack)]
            dtypes = kinds[0]  # each position's kind: the first item's, unless it is an int-or-float
            if all(len(k) == len(dtypes) for k in kinds):
                dtypes = tuple(next((k[j] for k, ok in zip(kinds, known) if ok[j]), d)
                               for j, d in enumerate(dtypes))
            out = self.new_rows(e, dtypes).keep()
            for v in vals:
                self.append(e, out, v)
        return out.unkeep()

    def element_dtype(self, at: ast.AST, v: Node):
        if isinstance(v, TupleList):
            raise self.unsupported(at, "a list of tuples in a list (son's lists of tuples hold tuples "
                                       "of numbers)", instead="keep the lists of tuples apart")
        if not isinstance(v, Pack):
            return super().element_dtype(at, v)
        if not v.elems:
            raise self.unsupported(at, "an empty tuple in a list (son's lists of tuples hold tuples of "
                                       "one or more numbers)")
        out = []
        for x in v.elems:
            if isinstance(x, Aggregate) or is_list(x) or x.type is NONE or _kind(x) is None:
                what = ("a tuple" if isinstance(x, Pack) else "None" if isinstance(x, Opt) or x.type is NONE
                        else "a list" if is_list(x) else f"a {x.type.widen()} value")
                raise self.unsupported(at, f"a tuple holding {what} in a list (son's lists of tuples "
                                           "hold tuples of ints, floats and bools)",
                                       instead="flatten the tuple: (a, b, c) instead of (a, (b, c))")
            out.append(super().element_dtype(at, x))
        return tuple(out)

    def check_element(self, at: ast.AST, lst: Node, v: Node) -> Node:
        """A tuple put into a list of numbers: an empty list whose kind was a guess
        learns to be a list of tuples (parsed again), else a located error."""
        if not isinstance(v, Pack) or self.dead(self.scope):
            return super().check_element(at, lst, v)
        dtypes = self.element_dtype(at, v)
        made = [self.learned.get(LIST_GUESSES, {}).get(n) for n in _origins(lst)]
        sites = [site for site, guess in filter(None, made) if guess]
        if any(site[1] == "parameter" for site in sites):
            raise self.error(at, f"cannot put a tuple into the list parameter given as an empty list: "
                                 f"annotate it, xs: {rows_name(dtypes)}, or give argtypes=", "list")
        if sites:
            for site in sites:
                self.learned[site] = dtypes
                self.learned[(site, "from")] = f"line {at.lineno + self.src.line0}"
            raise ListKindLearned()
        raise self.error(at, f"cannot put a tuple into a {lst.type}: son's lists hold one kind of "
                             f"element; annotate an empty list, xs: {rows_name(dtypes)} = []", "list")

    def row_values(self, at: ast.AST, lst: TupleList, v: Node) -> list[Node]:
        """The elements of tuple ``v`` as they go into the columns of ``lst``: of its
        length and kinds (an int-or-float value checked where it is put), else a located
        error."""
        want = lst.dtype
        if isinstance(v, Opt) or v.type is NONE:
            raise self.unsupported(at, f"None (or a value that may be None) in a {rows_name(want)}")
        if not isinstance(v, Pack):
            what = "a list" if is_list(v) else f"a {v.type.widen()} value"
            raise self.error(at, f"cannot put {what} into a {rows_name(want)} (son's lists of tuples "
                                 "hold tuples of one length and kinds)", "list")
        if len(v.elems) != len(want):
            raise self.error(at, f"cannot put a tuple of {len(v.elems)} into a {rows_name(want)} (son's "
                                 "lists of tuples hold tuples of one length)", "list")
        have = self.element_dtype(at, v)
        for j, (x, h, w) in enumerate(zip(v.elems, have, want)):
            if h != w and x.type is not TOP and not (_kind(x) == "number" and w != "bool"):
                raise self.error(at, f"cannot put a tuple holding {_NAMES[h]} at "
                                     f"position {j} into a {rows_name(want)}: son's lists of tuples hold "
                                     f"one kind per position; convert it with {_NAMES[w]}(...), or "
                                     f"annotate an empty list: xs: list[tuple[...]] = []", "list")
        return list(v.elems)

    def append(self, at: ast.AST, lst: Node, v: Node) -> None:
        if not isinstance(lst, TupleList):
            super().append(at, lst, v)
            return
        if self.dead(self.scope) or (v.type is TOP and not isinstance(v, Aggregate)):
            return  # dead code: nothing is put anywhere
        with kept(lst, v):
            for col, x in zip(lst.lists, self.row_values(at, lst, v)):
                super().append(at, col, x)

    # -- reading ----------------------------------------------------------------------
    def list_len(self, at: ast.AST, lst: Node) -> Node:
        return super().list_len(at, lst.lists[0] if isinstance(lst, TupleList) else lst)

    def row_at(self, at: ast.AST, lst: TupleList, k: Node, ctrl: Node | None = None) -> Pack:
        """The tuple at index ``k`` (already checked): the columns' items."""
        vals: list[Node] = []
        with kept(k):
            for col in lst.lists:
                vals.append(self.op(at, Load, ctrl or self.scope.ctrl, self.scope.mem, col, k).keep())
        for v in vals:
            v.unkeep()
        return self.pack(vals)

    def list_items(self, at: ast.AST, lst: Node) -> Counted:
        if not isinstance(lst, TupleList):
            return super().list_items(at, lst)
        lst.keep()
        return Counted(None, lambda k: self.row_at(at, lst, k), [lst],
                       alive=lambda k: self.op(at, LT, k, self.list_len(at, lst)), lst=lst)

    def _value_source(self, it: ast.expr, v: Node):
        if isinstance(v, TupleList):
            return self.list_items(it, v)
        return super()._value_source(it, v)

    def rows_subscript(self, e: ast.Subscript, lst: TupleList) -> Node:
        """``xs[i]`` (a tuple) and ``xs[i:j:k]`` (a new list of tuples)."""
        if not isinstance(e.slice, ast.Slice):
            arr, idx = self.subscript_parts(e, lst)
            return self.load(e, arr, idx)
        with kept(lst):
            v = self.slice_view(e, lst.lists[0])
        with kept(v, lst):
            src = Counted(v.length.keep(), lambda k: self.row_at(e, lst, self.view_index(e, v, k)),
                          [v.length])
            return self.list_of(e, src, lst.dtype)

    def subscript_parts(self, e: ast.Subscript, arr: Node | None = None, selections: bool = False):
        if arr is None and not isinstance(e.slice, (ast.Slice, ast.Tuple)):
            arr = self.expr_any(e.value)
        if not isinstance(arr, TupleList):
            return super().subscript_parts(e, arr, selections)
        if isinstance(e.slice, (ast.Slice, ast.Tuple)):
            raise self.unsupported(e.slice, "a slice or a tuple index of a list of tuples here",
                                   instead="read xs[i:j] into a new list, or index with one int")
        with kept(arr):
            idx = self.expr(e.slice)
        if _kind(idx) not in ("int", "number") or isinstance(idx, Aggregate):
            raise self.error(e.slice, f"list indices must be integers or slices, not {idx.type.widen()}",
                             "subscript")
        return arr, idx

    def load(self, at, arr: Node, idx: Node) -> Node:
        if not isinstance(arr, TupleList):
            return super().load(at, arr, idx)
        with kept(arr, idx):
            ctrl = self.bounds_guard(at, arr.lists[0], idx) or self.scope.ctrl
            with kept(ctrl):
                return self.row_at(at, arr, idx, ctrl)

    def store(self, at, arr: Node, idx: Node, value: Node) -> None:
        if not isinstance(arr, TupleList):
            super().store(at, arr, idx, value)
            return
        with kept(arr, idx, value):
            vals = [self.check_element(at, col, x).keep()
                    for col, x in zip(arr.lists, self.row_values(at, arr, value))]
            ctrl = self.bounds_guard(at, arr.lists[0], idx, "list assignment index out of range") \
                or self.scope.ctrl
            for col, x in zip(arr.lists, vals):
                self.scope.mem = self.op(at, Store, ctrl, self.scope.mem, col, idx, x)
                x.unkeep()

    def store_slice(self, target: ast.Subscript, value: Node, base: Node) -> None:
        if isinstance(base, TupleList):
            raise self.unsupported(target, "slice assignment to a list of tuples",
                                   instead="assign the items in a loop, or build a new list")
        super().store_slice(target, value, base)

    def remove_at(self, at, lst: Node, i: Node, message: str) -> Node:
        if not isinstance(lst, TupleList):
            return super().remove_at(at, lst, i, message)
        vals: list[Node] = []
        with kept(lst, i):
            for col in lst.lists:
                vals.append(super().remove_at(at, col, i, message).keep())
        for v in vals:
            v.unkeep()
        return self.pack(vals)

    def truth(self, v: Node, at: ast.AST) -> Node:
        if isinstance(v, TupleList):  # not empty
            with kept(v):
                return self.op(at, Not, self.op(at, EQ, self.list_len(at, v), self.con(0)))
        return super().truth(v, at)

    # -- methods ----------------------------------------------------------------------
    def list_method(self, e: ast.Call, lst: Node) -> Node:
        if not isinstance(lst, TupleList):
            return super().list_method(e, lst)
        name = e.func.attr
        with kept(lst):
            if name in ("insert", "clear", "reverse"):
                return getattr(self, "_rows_" + name)(e, lst)
            return getattr(self, "_list_" + name)(e, lst)  # written for any list

    def _rows_insert(self, e, lst):
        i, v = self.exprs(self._arity_checked(e, 2, 2))
        with kept(i, v):
            i = self.as_int_argument(e.args[0], i)
            with kept(i):
                vals = [self.check_element(e, col, x).keep() for col, x in zip(lst.lists,
                                                                               self.row_values(e, lst, v))]
                for col, x in zip(lst.lists, vals):
                    self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, col, i, x,
                                             method="insert")
                    x.unkeep()
        return self.con(None)

    def _rows_clear(self, e, lst):
        return self._each_column(e, lst, "clear")

    def _rows_reverse(self, e, lst):
        return self._each_column(e, lst, "reverse")

    def _each_column(self, e, lst, method: str) -> Node:
        self._arity_checked(e, 0, 0)
        for col in lst.lists:
            self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, col, method=method)
        return self.con(None)

    def sort_rows(self, e: ast.Call, lst: TupleList, flip: Node) -> None:
        """``lst.sort(reverse=flip)``: lexicographic and stable (see the module doc)."""
        with kept(lst, flip):
            for col in lst.lists:
                if col.type.dtype == "float64":
                    self.no_nan_sort(e, col, "son does not sort a list of tuples that holds a NaN "
                                             "(CPython's order then depends on its sort algorithm's "
                                             "comparisons)")
            self.inline_list_helper(e, reverse_if, [lst, flip])
            for key in reversed(lst.lists):
                self.inline_list_helper(e, sort_rows_by, [lst, key])
            self.inline_list_helper(e, reverse_if, [lst, flip])

    # -- operators --------------------------------------------------------------------
    def arith(self, at, cls, a: Node, b: Node) -> Node:
        """``xs + ys`` (a new list) and ``xs += ys`` (in place: every name for the list
        sees it) of lists of tuples."""
        if not (isinstance(a, TupleList) or isinstance(b, TupleList)):
            return super().arith(at, cls, a, b)
        rows = a if isinstance(a, TupleList) else b
        if cls is Add and _fresh_empty(b if rows is a else a):  # xs + [], [] + xs, xs += []
            if isinstance(at, ast.AugAssign) and rows is a:
                return a
            with kept(a, b):
                return self.list_of(at, self.list_items(at, rows), rows.dtype)
        if cls is not Add or not (isinstance(a, TupleList) and isinstance(b, TupleList)):
            raise self.unsupported(at, f"this operator on a list of tuples ({ast.unparse(at)[:40]})",
                                   instead="build the list with append or extend")
        with kept(a, b):
            if isinstance(at, ast.AugAssign):
                self.extend(at, a, self.list_items(at, b))
                return a
            out = self.list_of(at, self.list_items(at, a), a.dtype).keep()
            self.extend(at, out, self.list_items(at, b))
        return out.unkeep()

    # -- comparisons ------------------------------------------------------------------
    def element_equal(self, at, x: Node, y: Node, lst: Node) -> Node:
        if not (isinstance(x, Pack) or isinstance(y, Pack)):
            return super().element_equal(at, x, y, lst)
        if not (isinstance(x, Pack) and isinstance(y, Pack) and len(x.elems) == len(y.elems)):
            return self.con(False)  # a tuple never equals a number or a tuple of another length
        r = self.con(True)
        with kept(x, y):
            for a, b in zip(x.elems, y.elems):
                with kept(r):
                    eq = self.element_equal(at, a, b, lst)
                r = self.op(at, BitAnd, r, eq)
        return r

    def compare(self, at, cls, a: Node, b: Node) -> Node:
        if cls not in _ORDERS + (EQ, NE) or not (isinstance(a, TupleList) or isinstance(b, TupleList)):
            return super().compare(at, cls, a, b)  # 'in', 'is' and the others
        if cls in (EQ, NE):
            return self.list_equal(at, a, b, cls is NE)
        raise self.unsupported(at, "ordering comparison of lists of tuples",
                               instead="compare their items: xs[i] < ys[i]")

    def list_equal(self, at, a: Node, b: Node, negate: bool) -> Node:
        if not (isinstance(a, TupleList) or isinstance(b, TupleList)):
            return super().list_equal(at, a, b, negate)
        if not all(isinstance(x, TupleList) or is_list(x) for x in (a, b)):
            return self.con(negate)  # a list never equals a number or a tuple
        if not (isinstance(a, TupleList) and isinstance(b, TupleList) and len(a.lists) == len(b.lists)):
            with kept(a, b):  # their items never meet as equals: equal only if both are empty
                na = self.list_len(at, a).keep()
                r = self.op(at, BitAnd, self.op(at, EQ, na, self.con(0)),
                            self.op(at, EQ, self.list_len(at, b), self.con(0)))
                na.unkeep()
            return self.op(at, Not, r) if negate else r

        def pair(k):
            with kept(k):
                x = self.row_at(at, a, k).keep()
                y = self.row_at(at, b, k)
            x.unkeep()
            return self.pack([x, y])
        return self.equal_items(at, a, b, pair, negate)

    def contained(self, at: ast.AST, x: Node, container: Node) -> Node:
        if isinstance(container, TupleList):
            return self.list_contains(at, x, container)
        return super().contained(at, x, container)


# -- written in the Python son compiles, inlined where they are called -----------------

def reverse_if(xs, flip):
    """``xs.reverse()`` where ``flip`` is true (a sort's ``reverse=``)."""
    if flip:
        xs.reverse()


def sort_rows_by(xs, key):
    """A stable sort of the list of tuples ``xs`` by its column ``key`` (no NaN in it):
    the row numbers sorted by the key (listops.sort_by_keys), then the rows permuted."""
    n = len(key)
    order = list(range(n))
    keys = key.copy()
    sort_by_keys(order, keys, False)
    rows = xs.copy()
    for o in range(n):
        xs[o] = rows[order[o]]


def _fresh_empty(x) -> bool:
    """A list literal ``[]`` nothing has touched since it was made (of any kind: the
    kind of an empty list is a guess)."""
    return type(x) is NewList and x.inputs[1].type.is_con(0) and not x.outputs

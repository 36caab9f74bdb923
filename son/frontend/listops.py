"""Lists, continued: sorting by a key, slice assignment and deletion, ordering
comparisons, and the parse-time folds of lists nothing has changed.

``xs.sort(key=f)`` and ``sorted(it, key=f, reverse=r)`` do what CPython's list.sort
does with a key: the list looks empty while ``f`` runs (a key that reads the list
sees ``[]``; one that calls a list method is refused, as CPython's ValueError for a
list changed during the sort depends on its allocation), ``f`` is called once per
item in order, then a stable sort orders the items by their keys (with ``reverse``:
the list reversed, sorted, reversed again, so equal keys keep their order).  The sort
is a bottom-up merge sort written in son's Python at the end of this module and
inlined (O(n log n)); a NaN among float keys raises ``NotImplementedError`` before it
(CPython's order then depends on timsort's sequence of comparisons).  ``f`` is a name
(a function son inlines, a builtin such as ``abs``) or a lambda: any other expression
is refused, as son would evaluate it once per item.

``xs[i:j] = it`` and ``xs[i:j:k] = it`` follow CPython's list_ass_subscript: the
value first, then the list and the bounds (PySlice_AdjustIndices), then a copy of the
value's items (so ``xs[1:] = xs`` works), then the splice (a step of 1 grows or
shrinks the list; another step needs as many items as the slice has, else
ValueError).  ``del xs[i:j:k]`` keeps the other items in order.  A generator as the
value is refused (CPython runs it after the bounds: write ``list(...)``).

``<``, ``<=``, ``>``, ``>=`` between lists are CPython's lexicographic rule: the first
position where the items differ (``x is y or x == y``: two NaNs raise
``NotImplementedError``, as son cannot tell whether they are one object) decides with
the operator, else the lengths do.

With the peephole on, ``len(xs)`` and ``xs[c]`` (a constant ``c``) of a new list fold
while only stores happened since it was made (``len([a, b, c])``, ``[a, b, c][1]``,
``len([v] * n)``): the memory chain from the read back to the list's making holds
Stores only, none of which can change its length, and the stores to it are at known
positions.  O(1) nodes per operation plus the inlined loops; the folds walk the
memory chain, O(stores since the list was made)."""

from __future__ import annotations

import ast

from ..nodes import GE, GT, LE, LT, NE, ListLen, ListOp, Load, Max, Min, NewList, Node, Not, Store, kept
from ..nodes.types import NONE, TOP, ArrayType, bounds
from .core import _kind, dtype_of, is_array_value, is_list
from .iteration import Counted
from .lists import _origins_guessed
from .scope import Pack, Rng, TupleList

#: learned[MADE_AT]: each new list of the parse -> the memory state where it was made
MADE_AT = "list made at"
#: learned[LIST_OPS]: how many list methods the parse has built (a key that calls one)
LIST_OPS = "list methods built"
_OPS = {LT: "<", LE: "<=", GT: ">", GE: ">="}


class ListOps:
    """FunctionParser's key sorts, slice assignment, list ordering and list folds (a mixin)."""

    # -- parse-time folds -------------------------------------------------------------
    def peep(self, n: Node) -> Node:
        n = super().peep(n)
        t = type(n)
        if t is ListOp:
            self.learned[LIST_OPS] = self.learned.get(LIST_OPS, 0) + 1
        if not self.peephole.enabled:
            return n
        if t is NewList and self.scope is not None:
            self.learned.setdefault(MADE_AT, {})[n] = self.scope.mem
        elif t is ListLen or t is Load:
            x = self._fold_new_list_read(n)
            if x is not None:
                with kept(x):
                    if n.is_unused():
                        n.kill()
                return x
        return n

    def _fold_new_list_read(self, n: Node) -> Node | None:
        """The length or item a read of a new list gives where only Stores happened
        since it was made; None where that is not known."""
        lst = n.inputs[2]
        made = self.learned.get(MADE_AT, {}).get(lst)
        if made is None or type(lst) is not NewList:
            return None
        length = lst.inputs[1]
        b = bounds(length.type)
        if b is None or b[0] < 0:
            return None
        want = None
        if type(n) is Load:
            if not (n.inputs[3].type.is_constant and b[0] == b[1]):
                return None
            want = _position(n.inputs[3].type.con, b[0])
            if want is None:
                return None
        m = n.inputs[1]
        while m is not made:
            if type(m) is not Store:
                return None
            base = m.inputs[2]
            if want is not None:
                if base is lst:
                    if not m.inputs[3].type.is_constant:
                        return None
                    if _position(m.inputs[3].type.con, b[0]) == want:
                        return m.inputs[4]
                elif type(base) is not NewList and not isinstance(base.type, ArrayType):
                    return None  # a list that may be this one
            m = m.inputs[1]
        return length if want is None else lst.inputs[2]

    # -- ordering ---------------------------------------------------------------------
    def list_compare(self, at, cls: type, a: Node, b: Node) -> Node:
        """``a op b`` where one side is a list: ``==``/``!=`` (lists.py) or CPython's
        lexicographic order."""
        if cls not in _OPS:
            return self.list_equal(at, a, b, cls is NE)
        if not (is_list(a) and is_list(b)):
            if a.type is TOP or b.type is TOP:
                return self.dead_value()
            return self.fault(TypeError, f"'{_OPS[cls]}' not supported between a list and another type")
        if not (isinstance(a.type.dtype, str) and isinstance(b.type.dtype, str)):
            raise self.unsupported(at, "ordering comparison of lists of lists (son compares lists of "
                                       "numbers)")
        with kept(a, b):
            na = self.list_len(at, a).keep()
            nb = self.list_len(at, b).keep()
            res, item = self.temp(), self.temp()
            self.scope.set(res, self.op(at, cls, na, nb))

            def pair(k):
                return self.pack([self.op(at, Load, self.scope.ctrl, self.scope.mem, a, k),
                                  self.op(at, Load, self.scope.ctrl, self.scope.mem, b, k)])

            def body():
                x, y = self.scope.get(item).elems
                with kept(x, y):
                    eq = self.element_equal(at, x, y, a)
                    with kept(eq):
                        r = self.choose(eq, self.scope.get(res), self.compare(at, cls, x, y))
                        self.scope.set(res, r)
                        self.break_if(self.op(at, Not, eq))

            count = self.op(at, Max, self.con(0), self.op(at, Min, na, nb)).keep()
            nb.unkeep()
            self.counted_loop(at, at, Counted(count, pair, [na, count]), lambda v: self.scope.set(item, v),
                              body, [res, item])
            r = self.scope.get(res)
            with kept(r):
                self.scope.remove(res)
                self.scope.remove(item)
            return r

    # -- sorting by a key -------------------------------------------------------------
    def key_sort(self, e: ast.Call, lst: Node, key: ast.expr, flip: Node, fresh: bool) -> None:
        """``lst.sort(key=key, reverse=flip)``; ``fresh``: ``lst`` is ``sorted``'s new
        list, which no code can see while the keys are computed."""
        if not isinstance(key, (ast.Name, ast.Attribute, ast.Lambda)):
            raise self.unsupported(key, "a key= that is not a function's name or a lambda (son would "
                                        "evaluate it once per item: bind it to a name first)")
        with kept(lst, flip):
            items = lst
            if not fresh:  # CPython's list looks empty while the keys are computed
                rows = isinstance(lst, TupleList)  # a list of tuples: its columns
                items = self.list_of(e, self.list_items(e, lst), lst.dtype if rows else lst.type.dtype).keep()
                for col in lst.lists if rows else [lst]:
                    self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, col, method="clear")
            keys = self.empty_list(key).keep()
            item = self.temp()

            def body():
                methods = self.learned.get(LIST_OPS, 0)
                kx = self.call_key(key, self.scope.get(item))
                if not fresh and self.learned.get(LIST_OPS, 0) != methods:
                    raise self.unsupported(key, "a sort key that calls a list method (CPython's list.sort "
                                                "raises ValueError if the list was changed in any way "
                                                "while the keys run, which son cannot see)")
                if kx.type is not TOP and (_kind(kx) is None or isinstance(kx, Pack) or kx.type is NONE):
                    raise self.unsupported(key, "a sort key that does not give numbers")
                self.append(key, keys, kx)

            self.counted_loop(e, e, self.list_items(e, items), lambda x: self.scope.set(item, x), body,
                              [item])
            self.scope.remove(item)
            if keys.type.dtype == "float64":
                self.no_nan_sort(e, keys, "son does not sort by float keys among which is a NaN (CPython's "
                                          "order then depends on its sort algorithm's comparisons)")
            self.inline_list_helper(e, sort_by_keys, [items, keys, flip])
            keys.unkeep()
            if not fresh:
                self.extend(e, lst, self.list_items(e, items))
                items.unkeep()

    def inline_list_helper(self, at: ast.AST, fn, vals: list[Node]) -> Node:
        name = ast.copy_location(ast.Name(fn.__name__, ast.Load()), at)
        call = ast.copy_location(ast.Call(name, [], []), at)
        with kept(*vals):
            return self.inline(call, fn, vals)

    # -- slice assignment and deletion ------------------------------------------------
    def list_store_slice(self, target: ast.Subscript, value: Node, lst: Node) -> None:
        """``lst[i:j:k] = value`` (``value`` already evaluated, as CPython does first)."""
        if not isinstance(lst.type.dtype, str):
            raise self.unsupported(target, "slice assignment to a list of lists (son cannot store a row "
                                           "through a subscript yet)")
        with kept(value, lst):
            self._reconcile(target, lst, value)
            view = self.slice_view(target, lst)
        if _kind(value) is not None and not is_array_value(value):  # after the bounds, as CPython
            self.guard(self.con(True), TypeError, "can only assign an iterable")
            return
        with kept(value, lst, view):
            copy = self._items_copy(target, lst, value).keep()
            self.inline_list_helper(target, list_assign_slice,
                                    [lst, view.start, view.step, view.length, copy])
            copy.unkeep()

    def list_delete_slice(self, target: ast.Subscript, lst: Node) -> None:
        """``del lst[i:j:k]``; for a list of tuples, the one slice (its bounds read once)
        deleted from each of its columns."""
        columns = list(lst.lists) if isinstance(lst, TupleList) else [lst]
        if not isinstance(columns[0].type.dtype, str):
            raise self.unsupported(target, "del of a slice of a list of lists (son cannot store a row "
                                           "through a subscript yet)")
        with kept(*columns):
            view = self.slice_view(target, columns[0])
        with kept(*columns, view):
            for c in columns:
                self.inline_list_helper(target, list_delete_slice, [c, view.start, view.step, view.length])

    def _reconcile(self, at, lst: Node, value: Node) -> None:
        """A list value of another kind than ``lst``: the one whose kind was a guess (an
        empty list) learns the other's, else a located refusal."""
        if isinstance(value, Pack):
            kinds = [self.element_dtype(at, v) for v in value.elems
                     if v.type is not TOP and _kind(v) != "number"]
            dtype = kinds[0] if kinds else None
        elif is_list(value):
            dtype = value.type.dtype
        elif isinstance(value, Rng):
            dtype = "int64"
        elif is_array_value(value):
            dtype = dtype_of(value)
        else:
            return
        if dtype is None or dtype == lst.type.dtype:
            return
        if is_list(value) and _origins_guessed(self, value):
            self.check_element(at, value, self.filler(at, lst.type.dtype))
        self.check_element(at, lst, self.filler(at, dtype))

    def _items_copy(self, at, lst: Node, value: Node) -> Node:
        """A new list of ``value``'s items, of ``lst``'s kind (CPython's PySequence_Fast)."""
        dtype = lst.type.dtype
        if isinstance(value, Pack):
            out = self.empty_list(at, dtype).keep()
            for v in value.elems:
                self.append(at, out, v)
            return out.unkeep()
        if value.type is TOP:
            return self.empty_list(at, dtype)
        src = self.counted(at, self._value_source(at, value))
        return self.list_of(at, src, dtype)


def _position(i: int, n: int) -> int | None:
    """Index ``i`` of a sequence of length ``n`` as a position, None out of range."""
    if type(i) is not int:
        return None
    k = i + n if i < 0 else i
    return k if 0 <= k < n else None


# -- written in the Python son compiles, inlined where they are called -----------------

def sort_by_keys(xs, ks, reverse):
    """A stable sort of ``xs`` by the keys ``ks`` (no NaN among them), both in place,
    reversed first and after with ``reverse`` (CPython's list.sort): a bottom-up
    merge sort, O(n log n)."""
    if reverse:
        xs.reverse()
        ks.reverse()
    n = len(ks)
    tx = xs.copy()
    tk = ks.copy()
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(mid + width, n)
            i = lo
            j = mid
            o = lo
            while o < hi:
                if j >= hi or (i < mid and not ks[j] < ks[i]):
                    tx[o] = xs[i]
                    tk[o] = ks[i]
                    i += 1
                else:
                    tx[o] = xs[j]
                    tk[o] = ks[j]
                    j += 1
                o += 1
            lo = hi
        for o in range(n):
            xs[o] = tx[o]
            ks[o] = tk[o]
        width *= 2
    if reverse:
        xs.reverse()


def list_assign_slice(xs, start, step, length, ys):
    """``xs[slice] = ys`` for the slice of ``length`` items from ``start`` by ``step``
    (CPython's list_ass_subscript; ``ys`` is a copy of the value's items)."""
    if step == 1:
        tail = xs[start + length:]
        while len(xs) > start:
            xs.pop()
        xs.extend(ys)
        xs.extend(tail)
    else:
        if len(ys) != length:
            raise ValueError("attempt to assign a sequence to an extended slice of another size")
        for k in range(length):
            xs[start + k * step] = ys[k]


def list_delete_slice(xs, start, step, length):
    """``del xs[slice]`` for the slice of ``length`` items from ``start`` by ``step``:
    the other items kept in order."""
    if length > 0:
        if step < 0:
            start += (length - 1) * step
            step = -step
        n = len(xs)
        w = start
        nxt = start
        removed = 0
        for i in range(start, n):
            if removed < length and i == nxt:
                removed += 1
                nxt += step
            else:
                xs[w] = xs[i]
                w += 1
        while len(xs) > w:
            xs.pop()

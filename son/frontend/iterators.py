"""Iterator objects: ``iter(x)``, ``next(it)``, ``next(it, default)``, and loops,
reductions and ``enumerate`` over an iterator.

An iterator is an ``It`` (a frontend aggregate, as a tuple is a ``Pack``): the iterable
it walks and a *cell*, a new one-element int64 array holding the index of the next
item.  The position lives in memory, not in a variable, because CPython's iterator is
one object: every name bound to it, every loop over it and every ``next`` advance the
one position, in program order, which the memory chain gives for free (a store per
item taken; the cell never escapes, so a kernel keeps it in a register).

The items are those ``for`` takes (son/frontend/iteration.py's sources): a tuple's
(each picked by the run-time index), a range's, a 1-D array's or view's, an n-D
array's rows, a list's.  Each ``next`` reads the item at the cell's index if it still
exists (below the length; a list's length read at that step, as CPython's list
iterator reads it), then stores the index after it; past the end, ``next(it)`` raises
StopIteration and ``next(it, default)`` is ``default``.  A list iterator, once past the
end, stays there (CPython drops the list): the cell becomes -1, which no item has.

Refused where written: ``iter(f, sentinel)``, ``zip`` of an iterator (CPython's zip
takes an item from one iterator before it finds another exhausted, an item son's
counted zip would not take), ``reversed`` of one (CPython's TypeError), an iterator as a
function's result or argument.  O(1) nodes per ``next`` plus the item's (a tuple's:
O(len) branches)."""

from __future__ import annotations

import ast

from ..nodes import GE, LT, Add, BitAnd, Load, Mul, NewArray, Node, Not, Store, Sub, ToInt, kept
from ..nodes.types import BOTTOM
from .iteration import Counted
from .scope import It, Pack


class Iterators:
    """FunctionParser's iterator objects (a mixin)."""

    def call_iter(self, e: ast.Call, name: str) -> Node:
        """``iter(x)``: an iterator over ``x``'s items from the first (``x`` itself if it
        is an iterator); CPython's TypeError, located, for what is not iterable."""
        if len(e.args) != 1 or e.keywords:
            raise self.unsupported(e, "iter() with a sentinel or keywords (son takes one iterable)")
        v = self.expr_any(e.args[0])
        if isinstance(v, It):
            return v
        with kept(v):
            self.iterator_items(e.args[0], v).release()  # CPython's TypeError here, not at next()
            cell = self.op(e, NewArray, self.scope.ctrl, self.con(1), dtype="int64", fill="zeros")
        return It(self.g, cell, v)

    def iterator_items(self, at: ast.AST, seq: Node) -> Counted:
        """The items of ``seq`` as a counted sequence (kept until ``release``): a tuple's
        picked by index, the others as ``for`` takes them."""
        if isinstance(seq, Pack):
            seq.keep()
            n = self.con(len(seq.elems)).keep()
            return Counted(n, lambda k: self.select(at, seq, k), [seq, n])
        return self.counted(at, self._value_source(at, seq))

    def call_next(self, e: ast.Call, name: str) -> Node:
        """``next(it)``: the item at the cell's index, the index advanced; StopIteration
        past the end.  ``next(it, default)``: ``default`` there (evaluated first, as
        CPython evaluates the arguments), a branch and a merge."""
        if not 1 <= len(e.args) <= 2 or e.keywords:
            raise self.error(e, f"next expected 1 or 2 arguments, got {len(e.args)}", "next")
        vals = self.exprs(e.args, any_value=True)
        it = vals[0]
        if not isinstance(it, It):
            with kept(*vals):
                raise self.error(e.args[0], f"a {it.type.widen()} value is not an iterator (CPython's "
                                            "TypeError; iter() makes one)", "next")
        with kept(*vals):
            src = self.iterator_items(e, it.seq)
            k = self.op(e, Load, self.scope.ctrl, self.scope.mem, it.cell, self.con(0)).keep()
            try:
                has = self.has_item(e, src, k)
                if len(vals) == 1:
                    with kept(has):
                        self.guard(self.op(e, Not, has), StopIteration, "")
                    return self.take_item(e, it, src, k)
                tmp = self.temp()
                t, f = self.branch(has)
                other = self.scope.dup()
                other.ctrl = f
                self.scope.ctrl = t
                x = self.take_item(e, it, src, k)  # (a tuple's item is a merge: a new scope)
                self.scope.set(tmp, x)
                other.set(tmp, vals[1])
                if src.lst is not None:  # a list iterator past the end stays there
                    self.scope, other = other, self.scope
                    self.set_position(e, it, self.con(-1))
                    self.scope, other = other, self.scope
                self.scope = self.merge([self.scope, other])
                v = self.scope.get(tmp)
                with kept(v):
                    self.scope.remove(tmp)
                if v.type is BOTTOM:  # an array and None, say: no value son can hold
                    raise self.error(e, "next() with a default of another kind than the items (son holds "
                                        "one kind per value)", "next")
                return v
            finally:
                k.unkeep()
                src.release()

    def has_item(self, at: ast.AST, src: Counted, k: Node) -> Node:
        """Does item ``k`` exist now?  A list iterator past the end holds -1 (``0 <= k``
        is tested for lists only: no other iterator's cell is ever negative)."""
        with kept(k):
            c = self.op(at, GE, k, self.con(0)) if src.lst is not None else self.con(True)
            if src.count is not None:
                with kept(c):
                    c = self.op(at, BitAnd, c, self.op(at, LT, k, src.count))
            if src.alive is not None:
                with kept(c):
                    c = self.op(at, BitAnd, c, src.alive(k))
            return c

    def take_item(self, at: ast.AST, it: It, src: Counted, k: Node) -> Node:
        """Item ``k`` (it exists), then the cell set to ``k + 1``."""
        x = src.item(k)
        with kept(x):
            self.set_position(at, it, self.op(at, Add, k, self.con(1)))
        return x

    def set_position(self, at: ast.AST, it: It, k: Node) -> None:
        self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, it.cell, self.con(0), k)

    def iterator_source(self, at: ast.AST, it: It) -> Counted:
        """``for x in it`` (and ``enumerate``, ``sum``, ``list``, ... of it): the items from
        the cell's index on, each taken as ``next`` takes it (so a ``break`` leaves the
        iterator after the last item the loop took); a list iterator that finds the end
        is set past it for good.  The loop's own counter is unused: the cell counts."""
        src = self.iterator_items(at, it.seq)
        it.keep()

        def position() -> Node:
            return self.op(at, Load, self.scope.ctrl, self.scope.mem, it.cell, self.con(0))

        def alive(_k: Node) -> Node:
            k = position()
            with kept(k):
                has = self.has_item(at, src, k)
                if src.lst is not None:  # k where the item exists, else -1: (k + 1) * has - 1
                    with kept(has):
                        stay = self.op(at, Mul, self.op(at, Add, k, self.con(1)), self.op(at, ToInt, has))
                        self.set_position(at, it, self.op(at, Sub, stay, self.con(1)))
            return has

        def item(_k: Node) -> Node:
            k = position()
            with kept(k):
                return self.take_item(at, it, src, k)

        return Counted(None, item, src.held + [it], alive=alive, consumes=True)


ITERATOR_CALLS = {
    iter: lambda p, e, n: p.call_iter(e, n),
    next: lambda p, e, n: p.call_next(e, n),
}

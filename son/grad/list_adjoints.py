"""Reverse mode through lists: adjoint lists, and the adjoint of each list method.

A float list that an active value reaches (a *list family*: the list and the Phis
that choose it, rooted at a ``list[float]`` parameter or at a ``NewList`` made
outside loops in a block dominating every Return: ``_check_list_root`` in
``activity.py``) gets one adjoint list.  Its items are the adjoints of the list's
items *at the current point of the backward sweep*, so the adjoint list must have the
primal list's length at that point.  It is made at the start of the backward sweep
(``J``), zeros of the list's final length, and every change of the list's length is
undone on it in reverse order:

=====================  ===========================================================
forward                backward (on the adjoint list ``lbar``)
=====================  ===========================================================
``y = xs[i]``          ``lbar[i] += ybar``                 (as an array's Load)
``xs[i] = v``          ``vbar += lbar[i]; lbar[i] = 0``     (as an array's Store)
``xs.append(v)``       ``vbar += lbar[-1]; lbar.pop()``
``xs.insert(i, v)``    ``p`` = the position CPython used (from ``i`` and the length);
                       ``vbar += lbar[p]; lbar.pop(p)``
``xs.pop(i)``          ``lbar.insert(p, 0.0)``, ``p`` = ``i`` made non-negative
                       against the longer list (the item's Load, just before, then
                       adds its adjoint there)
``xs.reverse()``       ``lbar.reverse()``
``xs.clear()``         ``lbar.grow(n, 0.0)``, ``n`` the length cleared (recorded)
``[v] * k``            ``vbar += lbar[0] + ... + lbar[k-1]`` for a constant ``k``
                       (a literal ``[a, b]``); a computed ``k`` with an active ``v``
                       is refused
=====================  ===========================================================

``sort`` (and ``sorted``) is refused: undoing it needs the permutation it took.
``remove``, ``del xs[i]``, copies, slices, ``+``, ``extend`` and iteration are built
by the frontend from these methods, Loads and Stores, so they need nothing more.  A
list parameter's gradient is its adjoint list at the end of the backward sweep (its
length at entry), a Python list.  Lists of lists (rows read from a list) are refused:
a row's adjoint would have to be found again from the table's adjoint.

Costs: O(1) nodes per list operation (O(k) for ``[v] * k``); at run time O(1) per
operation except what the list method itself costs (``pop(i)``/``insert`` move the
items after ``i``, as in the primal).  See ``son.grad.reverse``."""

from __future__ import annotations

from ..errors import SonError
from ..nodes import LT, Add, ListLen, ListOp, Load, Max, Min, Mul, NewList, Node, Sub, ToInt
from .activity import _where
from .ssa import Block

__all__ = ["ListAdjoints"]

#: the longest constant-length ``[v] * k`` whose active ``v`` gets its adjoint summed inline
_INLINE_SUM_MAX = 64


class ListAdjoints:
    """The list part of ``_Reverse``'s backward sweep (a mixin)."""

    def _make_list_adjoints(self, blk: Block) -> None:
        """At the start of the backward sweep: each active list family's adjoint list,
        zeros of the root's final length."""
        b = self.b
        for root in self.list_roots:
            n = b.raw(ListLen, blk.ctrl, b.read("mem", blk), self.fm[root])
            adj = b.raw(NewList, blk.ctrl, n, b.const(0.0), dtype="float64")
            for m in self.members[self.fam[root]]:
                self.arrays[m] = adj

    def _list_adjoint(self, n: Node, blk: Block, need: list) -> None:
        """The adjoint of list method or ``NewList`` ``n`` (see the module docstring)."""
        b = self.b
        adj = self.arrays[n.inputs[2]] if type(n) is ListOp else self.arrays[n]
        mem = b.read("mem", blk)
        if type(n) is NewList:
            fill = n.inputs[2]
            if fill not in self.adj_vars:
                return
            k = n.inputs[1].type
            if not (k.is_constant and 0 <= k.con <= _INLINE_SUM_MAX):
                raise SonError(f"grad of {self.P.name}: not yet differentiable: a list of a repeated value "
                               f"that carries a derivative, [v] * n with n computed, {_where(self.P, n)}; "
                               "write [0.0] * n and store v into it")
            for i in range(k.con):
                self._accumulate(fill, blk, b.raw(Load, blk.ctrl, mem, adj, b.const(i)))
            return
        m = n.method
        if m == "append" or m == "insert":
            last = b.node(Sub, b.raw(ListLen, blk.ctrl, mem, adj), b.const(1))
            if m == "append":
                pos = last
            else:  # where CPython put it: i wraps once if negative, then is clamped to [0, n]
                i = need[0][1]
                neg = b.node(ToInt, b.node(LT, i, b.const(0)))
                pos = b.node(Min, b.node(Max, b.node(Add, i, b.node(Mul, neg, last)), b.const(0)), last)
            v = n.inputs[-1]
            if v in self.adj_vars:
                self._accumulate(v, blk, b.raw(Load, blk.ctrl, mem, adj, pos))
            op = b.raw(ListOp, blk.ctrl, mem, adj, pos, method="pop")
        elif m == "pop":  # back where it was: a negative index counts from the longer list
            i = need[0][1]
            longer = b.node(Add, b.raw(ListLen, blk.ctrl, mem, adj), b.const(1))
            pos = b.node(Add, i, b.node(Mul, b.node(ToInt, b.node(LT, i, b.const(0))), longer))
            op = b.raw(ListOp, blk.ctrl, mem, adj, pos, b.const(0.0), method="insert")
        elif m == "reverse":
            op = b.raw(ListOp, blk.ctrl, mem, adj, method="reverse")
        elif m == "clear":
            op = b.raw(ListOp, blk.ctrl, mem, adj, need[0][1], b.const(0.0), method="grow")
        else:  # sort is refused when its partials are recorded (_list_op_needs)
            raise AssertionError(f"no adjoint for list.{m}")
        b.write("mem", blk, op)

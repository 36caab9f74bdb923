"""Tuples as values: built, bound, merged, indexed, compared and iterated while parsing.

A tuple is a ``Pack``, a frontend-only node (like ``Scope``) whose inputs are its
elements.  A variable may hold one; a merge of tuples of one shape is the tuple of the
merged elements (``ParserCore._phi``), a loop carries a tuple as one Phi per element
(``Loops``), an inlined helper takes and returns them, ``return a, b`` makes a Return
with two values.  Every use resolves at once to the elements: ``p[0]`` *is* the first
element's node, ``a, b = p`` binds the elements, ``p + q`` is a new Pack, ``p == q`` a
conjunction of element comparisons.  So a tuple never reaches the optimized graph, the
interpreter, the scheduler or a kernel: what the issue calls pack/unpack folding is done
by construction, the scalar replacement a later pass would otherwise have to do.

CPython compares tuple elements by identity before ``==`` (``t = (math.nan,); t == t``
is True), which son does not model: where CPython compares two floats that are both NaN,
son raises NotImplementedError at run time (its documented refusal, as for lists); every
other pair is equal exactly where ``==`` says so.

O(elements) nodes per operation; a subscript with an index known only at run time is a
chain of ``len - 1`` branches."""

from __future__ import annotations

import ast
import math

from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Add,
    BitAnd,
    BitOr,
    IsFloat,
    Mul,
    Node,
    Not,
    kept,
)
from ..nodes.types import NONE, TOP
from .core import _SYMBOL, _kind, is_array_value
from .loops import _LoopContext
from .scope import ArrayList, Opt, Pack


class Tuples:
    """FunctionParser's tuples (a mixin)."""

    def pack(self, elems: list[Node]) -> Pack:
        return Pack(self.g, *elems)

    # -- building -------------------------------------------------------------------
    def expr_Tuple(self, e):
        return self.pack(self.spliced(e.elts))

    def spliced(self, es: list[ast.expr]) -> list[Node]:
        """The values of ``es`` left to right, a starred tuple's elements spliced in;
        earlier values are kept alive while later ones are built."""
        vals: list[Node] = []
        try:
            for x in es:
                if isinstance(x, ast.Starred):
                    v = self.expr(x.value)
                    if not isinstance(v, Pack):
                        raise self.unsupported(x, f"starred {v.type.widen()} value (son unpacks "
                                                  "tuples only)")
                    new = v.elems
                else:
                    new = [self.expr_any(x)]
                for v in new:
                    vals.append(v.keep())
        finally:
            for v in vals:
                v.unkeep()
        return vals

    # -- reading ------------------------------------------------------------------------
    def tuple_subscript(self, e: ast.Subscript, p: Pack) -> Node:
        """``p[k]``, ``p[i]`` with an index known at run time, ``p[a:b:c]`` with constant bounds."""
        n = len(p.elems)
        if isinstance(e.slice, ast.Slice):
            bounds = []
            for b in (e.slice.lower, e.slice.upper, e.slice.step):
                v = None if b is None else self.expr(b)
                if v is not None and not (v.type.is_constant and _kind(v) in ("int", "bool")):
                    raise self.unsupported(b, "tuple slice with a bound that is not a constant int",
                                           instead="make it a list, or index the items")
                bounds.append(None if v is None else int(v.type.con))
            if bounds[2] == 0:
                self.guard(self.con(True), ValueError, "slice step cannot be zero")
                return p.rebuilt([])
            return p.rebuilt(p.elems[slice(*bounds)])
        with kept(p):
            i = self.expr(e.slice)
        k = _kind(i)
        if k not in ("int", "bool", "number"):
            raise self.error(e.slice, f"tuple indices must be integers, not {i.type.widen()}", "subscript")
        if i.type.is_constant and k != "number":
            j = int(i.type.con)
            if -n <= j < n:
                return p.elems[j]
            return self.fault(IndexError, "tuple index out of range")
        return self.select(e, p, i)

    def select(self, at, p: Pack, i: Node) -> Node:
        """``p[i]`` for an index known at run time: the guards of CPython's faults, then a
        chain of branches on ``i == k or i == k - len(p)``, merged (Phis)."""
        elems, n = p.elems, len(p.elems)
        with kept(p, i):
            if i.type.kind == "number":
                self.guard(self.op(at, IsFloat, i), TypeError, "tuple indices must be integers or "
                                                               "slices, not float")
            out = self.op(at, BitOr, self.op(at, LT, i, self.con(-n)), self.op(at, GE, i, self.con(n)))
            self.guard(out, IndexError, "tuple index out of range")
            if n == 0:
                return self.dead_value()  # the guard raised for every index
            v = elems[-1]
            for k in range(n - 2, -1, -1):
                with kept(v):
                    hit = self.op(at, BitOr, self.op(at, EQ, i, self.con(k)),
                                  self.op(at, EQ, i, self.con(k - n)))
                    v = self.choose(hit, elems[k], v)
        return v

    def unpack(self, target: ast.Tuple | ast.List, v: Node, at: ast.AST) -> None:
        """``a, (b, c) = v``: bind each target to its element, left to right.  A starred
        target (``a, *rest, z = v``) is bound to the new list of the elements between
        the others (a list of arrays where ``v`` is one)."""
        star = next((k for k, t in enumerate(target.elts) if isinstance(t, ast.Starred)), None)
        fixed = len(target.elts) - (star is not None)
        if isinstance(v, Opt):
            v = self.unwrap(v, at)
        if v.type is TOP and not isinstance(v, Pack):  # code that cannot run: any value unpacks
            v = Pack(self.g, *[self.dead_value() for _ in range(fixed)])
        if not isinstance(v, Pack):
            raise self.error(at, f"cannot unpack a {v.type.widen()} value (son unpacks tuples)", "unpack")
        n = len(v.elems)
        if star is None and fixed != n:
            raise self.error(target, f"cannot unpack {n} values into {fixed} targets", "unpack")
        if star is not None and n < fixed:
            raise self.error(target, f"not enough values to unpack (expected at least {fixed}, got {n})",
                             "unpack")
        with kept(v):
            if star is None:
                for t, x in zip(target.elts, v.elems):
                    self.assign(t, x)
                return
            after = fixed - star
            for t, x in zip(target.elts[:star], v.elems[:star]):
                self.assign(t, x)
            rest = v.elems[star:n - after]
            starred = target.elts[star]
            arrays = isinstance(v, ArrayList) or rest and all(is_array_value(x) for x in rest)
            lst = ArrayList(self.g, *rest) if arrays else self.list_display(starred, rest)
            with kept(lst):
                self.assign(starred.value, lst)
            for t, x in zip(target.elts[star + 1:], v.elems[n - after:]):
                self.assign(t, x)

    # -- None ---------------------------------------------------------------------------
    def unwrap(self, v: Opt, at) -> Node:
        """The value of ``v`` where it is used as a number: CPython's TypeError where it is
        None (the guard rebinds the variables holding ``v`` to the value after it)."""
        with kept(v):
            self.guard(v.is_none, TypeError, "'NoneType' object used as a value")
        return v.value

    def none_operand(self, at, what: str) -> Node:
        """An operator with None as an operand: CPython's TypeError when (and only if) it
        is reached; a value for the code after (dead)."""
        return self.fault(TypeError, f"unsupported {what} type: 'NoneType'")

    def is_none(self, v: Node) -> Node:
        """Whether ``v`` is None: its flag, or a constant."""
        return v.is_none if isinstance(v, Opt) else self.con(v.type is NONE)

    def identity(self, at, a: Node, b: Node, negate: bool) -> Node:
        """``a is None``, ``None is a`` (and ``is not``); identity of anything else is
        not modelled."""
        if a.type is not NONE and b.type is not NONE:
            raise self.unsupported(at, "'is' between values other than None (son compares "
                                       "identity only with None)")
        r = self.is_none(b if a.type is NONE else a)
        return self.op(at, Not, r) if negate else r

    def none_equality(self, at, a: Node, b: Node, negate: bool) -> Node:
        """``a == b`` where one side is or may be None: both None, or neither and equal
        (a number never equals None)."""
        with kept(a, b):
            na, nb = self.is_none(a).keep(), self.is_none(b).keep()
            r = self.op(at, BitAnd, na, nb)
            va = a.value if isinstance(a, Opt) else a
            vb = b.value if isinstance(b, Opt) else b
            if va.type is not NONE and vb.type is not NONE:
                with kept(r):
                    both = self.op(at, BitAnd, self.op(at, Not, na), self.op(at, Not, nb))
                    with kept(both):
                        eq = self.compare(at, EQ, va, vb)
                    r = self.op(at, BitOr, r, self.op(at, BitAnd, both, eq))
            na.unkeep()
            nb.unkeep()
        return self.op(at, Not, r) if negate else r

    # -- operators ------------------------------------------------------------------------
    def tuple_arith(self, at, cls, a: Node, b: Node) -> Node:
        """``p + q`` (concatenation) and ``p * k``, ``k * p`` with ``k`` a constant int."""
        if cls is Add and isinstance(a, Pack) and isinstance(b, Pack):
            if type(a) is not type(b):  # a list of arrays and a tuple
                x, y = ("list", "tuple") if isinstance(a, ArrayList) else ("tuple", "list")
                raise self.error(at, f'can only concatenate {x} (not "{y}") to {x}', "operator")
            return a.rebuilt(a.elems + b.elems)
        if cls is Mul:
            p, k = (a, b) if isinstance(a, Pack) else (b, a)
            if isinstance(p, Pack) and k.type.is_constant and _kind(k) in ("int", "bool"):
                return p.rebuilt(p.elems * max(int(k.type.con), 0))
            if isinstance(p, Pack) and _kind(k) in ("int", "bool", "number"):
                raise self.unsupported(at, "tuple repeated a number of times not known when parsing",
                                       instead="use a list: [v] * n")
        sym = "**" if cls is None else _SYMBOL[cls]
        raise self.error(at, f"unsupported operand type(s) for {sym}: {_name(a)} and {_name(b)}",
                         "operator")

    def element_eq(self, at, x: Node, y: Node, reached: Node | None = None) -> Node:
        """``x is y or x == y`` for two elements, as CPython compares tuple items.  Two
        floats that are both NaN are equal only if one object, which son does not model:
        where ``reached`` (CPython compares this pair: every pair before it was equal, no
        earlier item matched) holds and both are NaN, son's run-time refusal."""
        if isinstance(x, Pack) or isinstance(y, Pack):
            return self.tuple_compare(at, EQ, x, y)
        if any(isinstance(v, Opt) or v.type is NONE for v in (x, y)):
            return self.none_equality(at, x, y, False)
        if _kind(x) is None or _kind(y) is None:
            raise self.error(at, f"unsupported comparison between {x.type.widen()} and "
                                 f"{y.type.widen()}", "comparison")
        with kept(x, y):
            if _floaty(x) and _floaty(y) and not (_not_nan(x) or _not_nan(y)):
                both = self.op(at, BitAnd, self.nan_test(at, x), self.nan_test(at, y))
                if reached is not None:
                    both = self.op(at, BitAnd, reached, both)
                self.refuse_at_run_time(both, "son cannot tell whether two NaNs in a tuple comparison are "
                                              "one object (CPython's answer)")
            return self.op(at, EQ, x, y)

    def tuple_compare(self, at, cls, a: Node, b: Node) -> Node:
        """Tuple comparison: ``==``/``!=`` element-wise, orders lexicographic; a tuple is
        never equal to a number.  O(elements) nodes, and a run-time guard per pair of
        floats (``element_eq``)."""
        if not (isinstance(a, Pack) and isinstance(b, Pack)):
            if cls in (EQ, NE) and (_kind(a) is not None or _kind(b) is not None):
                return self.con(cls is NE)
            raise self.error(at, f"unsupported comparison between {_name(a)} and {_name(b)}",
                             "comparison")
        if isinstance(a, ArrayList) or isinstance(b, ArrayList):
            raise self.unsupported(at, "comparison of numpy's list of arrays (np.split's; son holds it as a "
                                       "tuple)", instead="compare its arrays")
        xs, ys = a.elems, b.elems
        with kept(a, b):
            if cls in (EQ, NE):
                r = self.con(len(xs) == len(ys))
                if len(xs) == len(ys):
                    for x, y in zip(xs, ys):
                        with kept(r):
                            eq = self.element_eq(at, x, y, r)
                        r = self.op(at, BitAnd, r, eq)
                return self.op(at, Not, r) if cls is NE else r
            if any(isinstance(v, Opt) or v.type is NONE for v in xs + ys):
                raise self.unsupported(at, "order comparison of tuples holding None (CPython orders "
                                           "only the first pair that differs, which may raise)")
            # the pairs in order (each reached where those before were the same), then
            # lexicographic: the first pair that differs decides, else the lengths do
            sames, orders = [], []
            reached = self.con(True)
            try:
                for x, y in zip(xs, ys):
                    with kept(reached):
                        sames.append(self.element_eq(at, x, y, reached).keep())
                        orders.append(self.compare(at, cls, x, y).keep())
                    reached = self.op(at, BitAnd, reached, sames[-1])
                r = self.con({LT: len(xs) < len(ys), LE: len(xs) <= len(ys), GT: len(xs) > len(ys),
                              GE: len(xs) >= len(ys)}[cls])
                for same, order in reversed(list(zip(sames, orders))):
                    with kept(r):
                        keep = self.op(at, BitAnd, same, r).keep()
                        decide = self.op(at, BitAnd, self.op(at, Not, same), order)
                    r = self.op(at, BitOr, keep.unkeep(), decide)
            finally:
                for v in sames + orders:
                    v.unkeep()
            return r

    def contains(self, at, x: Node, p: Node, negate: bool) -> Node:
        """``x in p`` for a tuple ``p``: any element equal to ``x`` (each reached where
        none before was); for an array, a range or a view, ``Iteration.contained``."""
        if not isinstance(p, Pack):
            r = self.contained(at, x, p)
            return self.op(at, Not, r) if negate else r
        r = self.con(False)
        with kept(x, p):
            for y in p.elems:
                with kept(r):
                    eq = self.element_eq(at, x, y, self.op(at, Not, r))
                r = self.op(at, BitOr, r, eq)
        return self.op(at, Not, r) if negate else r

    # -- builtins -------------------------------------------------------------------------
    def reduce_tuple(self, e: ast.Call, name: str, p: Pack) -> Node:
        """``len``, ``bool`` and ``tuple`` of one tuple argument (the other reductions are
        son/frontend/iteration.py's, over any iterable)."""
        if name == "len":
            return self.con(len(p.elems))
        if name == "tuple":
            return self.pack(p.elems) if isinstance(p, ArrayList) else p
        if name == "bool":
            return self.con(bool(p.elems))
        raise self.unsupported(e, f"{name}() of a tuple")

    def unrolled_for(self, s: ast.For, items: list[Node]) -> None:
        """``for x in <tuple>``: the body once per item, ``continue`` joining the next
        item and ``break`` the code after the loop (as the ``else`` clause is skipped)."""
        breaks = []
        with kept(*items):
            for x in items:
                if self.dead(self.scope):
                    break
                self.assign(s.target, x)
                ctx = _LoopContext()
                self.loops.append(ctx)
                self.stmts(s.body)
                self.loops.pop()
                self.scope = self.merge([self.scope, *ctx.continues])
                breaks.extend(ctx.breaks)
            if s.orelse:
                self.stmts(s.orelse)
        self.scope = self.merge([self.scope, *breaks])

    def tuple_search(self, e: ast.Call, t: Pack) -> Node:
        """``t.index(x)`` (CPython's ValueError where no item is equal) and ``t.count(x)``:
        each item compared with ``==`` in order (the loop unrolled: a tuple's length is
        known)."""
        name = ast.unparse(e.func)
        if len(e.args) != 1 or e.keywords:
            raise self.unsupported(e, f"{name}() with arguments other than the value (son reads no start or "
                                      "stop)")
        with kept(t):
            x = self.expr_any(e.args[0])
        with kept(x):
            return self.inline(e, tuple_index if e.func.attr == "index" else tuple_count, [t, x])


def _name(v: Node) -> str:
    return f"tuple of {len(v.elems)}" if isinstance(v, Pack) else str(v.type.widen())


def _floaty(x: Node) -> bool:
    """May ``x`` be a float (TOP, a value on a path proven dead, need not be)?"""
    return x.type.kind in ("float", "number")


def _not_nan(x: Node) -> bool:
    return x.type.is_constant and not (isinstance(x.type.con, float) and math.isnan(x.type.con))


# ---------------------------------------------------------------- inlined (son's Python)
def tuple_index(t, x):
    """CPython's ``x is y or x == y`` per item: two NaNs are equal only if one object,
    which son cannot tell (NotImplementedError, son's refusal where the call runs)."""
    for i, y in enumerate(t):
        if y == x:
            return i
        if y != y and x != x:
            raise NotImplementedError("son cannot tell whether two NaNs in a tuple comparison are one object "
                                      "(CPython's answer)")
    raise ValueError("tuple.index(x): x not in tuple")


def tuple_count(t, x):
    n = 0
    for y in t:
        if y == x:
            n += 1
        elif y != y and x != x:
            raise NotImplementedError("son cannot tell whether two NaNs in a tuple comparison are one object "
                                      "(CPython's answer)")
    return n

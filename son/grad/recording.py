"""What the backward sweep gets from the forward sweep, and how: used directly
(available), recomputed, or recorded (a builder variable outside loops, a tape push
inside); and the tape plan that counts the pushes and reserves room before counted
loops (``_reserve``).

**Recomputed, not recorded** (``_recomp_info``, ``_leaf``).  Inside a loop, the
adjoint of block B rebuilds a value instead of popping it when the value is built
from available values by: an int induction variable ``i = phi(i0, i + c)`` of a loop
around B (``i0 + k*c``, with ``k`` the adjoint loop's remaining trip count
``$rtrip``, which is the primal iteration's index); a Load whose array no Store
reachable from the Load's block can write (``_reloadable``: the backward sweep sees
the array's final contents, equal here; a Store into a parameter may write any
parameter); cheap pure arithmetic (``_cheap``: + - * neg, compares, casts, a float
division whose zero guard passed, rebuilt as ``IEEEDiv``), at most
``_RECOMPUTE_LIMIT`` nodes.  A cheap partial that depends on exactly one other value
records that value, the *leaf*, and is rebuilt from it (the partials of
``max(m, a[i])`` both record ``m``).

Costs: ``_recomp_info`` memoized, ``_leaf`` O(``_RECOMPUTE_LIMIT``) per value,
``_reserve`` O(blocks + edges).  See ``son.grad.reverse`` for the whole transform."""

from __future__ import annotations

from ..errors import SonError
from ..nodes import (
    LT,
    Add,
    Compare,
    Constant,
    Div,
    IEEEDiv,
    If,
    ListOp,
    Load,
    Min,
    Mul,
    Neg,
    NewArray,
    NewList,
    Node,
    Not,
    Phi,
    Proj,
    Store,
    Sub,
    ToFloat,
)
from ..nodes.memory import TapeGrow
from ..nodes.types import FLOAT, MEM
from .activity import _where
from .forward_sweep import clone_node
from .rules import PARTIALS
from .ssa import Block
from .tape import DTYPES

#: pure nodes the backward sweep rebuilds rather than tapes (with Compare subclasses)
_CHEAP = (Add, Sub, Mul, Neg, ToFloat, Not, IEEEDiv)
#: the most nodes a recomputed value may take to rebuild
_RECOMPUTE_LIMIT = 8
#: the most tape elements reserved at once before a counted loop (32 MiB)
_RESERVE_MAX = 1 << 22


def _cheap(n: Node) -> bool:
    """Pure arithmetic the backward sweep rebuilds rather than tapes; a float division
    whose zero guard passed in the forward sweep is rebuilt as ``IEEEDiv``."""
    t = type(n)
    if t is Div:
        return n.inputs[1].type.kind == "float" and n.inputs[2].type.kind == "float"
    return n.inputs[0] is None and (t in _CHEAP or isinstance(n, Compare))


class Recording:
    """What ``_Reverse`` records, recomputes and reserves (a mixin)."""

    def _available(self, v: Node) -> bool:
        """Can the backward sweep use forward value ``v`` directly?  Iterative, memoized."""
        memo = self._avail
        stack = [v]
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            if x in self.home:
                memo[x] = self.home[x] in self.glob
                stack.pop()
                continue
            t = type(x)
            if t is Constant or (t is Proj and x.inputs[0] is self.g.start):
                memo[x] = True
                stack.pop()
                continue
            if t is Phi or x.is_cfg or (x.inputs[0] is not None) or x.type is MEM:
                memo[x] = False
                stack.pop()
                continue
            pending = [y for y in x.inputs[1:] if y is not None and y not in memo]
            if pending:
                stack.extend(pending)
                continue
            memo[x] = all(memo[y] for y in x.inputs[1:] if y is not None)
            stack.pop()
        return memo[v]

    def _iv_step(self, ph: Node) -> int | None:
        """``c`` if primal Phi ``ph`` of a loop header is ``phi(init, ph + c)`` (or
        ``ph - c``) with ``c`` an int constant, else None."""
        back = ph.inputs[2] if len(ph.inputs) == 3 else None
        if back is None or ph.type.kind != "int" or type(back) not in (Add, Sub):
            return None
        x, y = back.inputs[1], back.inputs[2]
        if type(back) is Add and y is ph:
            x, y = y, x
        if x is not ph or type(y) is not Constant or not y.type.is_constant:
            return None
        c = y.type.con
        if type(c) is not int:
            return None
        return c if type(back) is Add else -c

    def _recomp_info(self, v: Node) -> tuple | None:
        """How the backward sweep can recompute forward value ``v`` instead of taping it:
        ``(loop headers whose trip index it needs, nodes to build)`` or None.  Leaves are
        available values (``_available``); an int induction variable ``i = phi(i0, i+c)``
        of a loop is ``i0 + k*c`` with ``k`` the adjoint loop's remaining trip count
        (``$rtrip``); a Load from a read-only array is re-loaded; cheap pure arithmetic
        is rebuilt.  Iterative, memoized: O(nodes visited)."""
        memo, orig, home, fm = self._recomp, self.orig, self.home, self.fm
        stack = [v]
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            t, deps, extra = type(x), None, frozenset()
            if self._available(x):
                memo[x] = (frozenset(), 0)
                stack.pop()
                continue
            if t is Phi:
                n, h = orig.get(x), home.get(x)
                if (n is not None and h is not None and h.is_loop_header and n in h.phis
                        and self._iv_step(n) is not None and n.inputs[1] in fm):
                    deps, extra = [fm[n.inputs[1]]], frozenset((h,))
            elif t is Load:
                n = orig.get(x)
                if n is not None and self._reloadable(n):
                    deps = [x.inputs[2], x.inputs[3]]
            elif _cheap(x):
                deps = [y for y in x.inputs[1:] if y is not None]
            if deps is None:
                memo[x] = None
                stack.pop()
                continue
            pending = [y for y in deps if y not in memo]
            if pending:
                stack.extend(pending)
                continue
            infos = [memo[y] for y in deps]
            if any(i is None for i in infos):
                memo[x] = None
            else:
                memo[x] = (extra.union(*(i[0] for i in infos)), 1 + sum(i[1] for i in infos))
            stack.pop()
        return memo[v]

    def _recomputable(self, v: Node, pb) -> bool:
        """Can the adjoint of block ``pb`` (inside loops) recompute ``v`` cheaply?"""
        info = self._recomp_info(v)
        return (info is not None and info[1] <= _RECOMPUTE_LIMIT
                and info[0] <= set(self._loops_of(pb)))

    def _recompute(self, v: Node, blk: Block, cache: dict) -> Node:
        """Build ``v`` again in adjoint block ``blk`` (see ``_recomp_info``)."""
        b, stack = self.b, [v]
        while stack:
            x = stack[-1]
            if x in cache:
                stack.pop()
                continue
            t = type(x)
            if self._available(x):
                cache[x] = x
                stack.pop()
                continue
            if t is Phi:
                n = self.orig[x]
                deps = [self.fm[n.inputs[1]]]
            elif t is Load:
                deps = [x.inputs[2], x.inputs[3]]
            else:
                deps = [y for y in x.inputs[1:] if y is not None]
            pending = [y for y in deps if y not in cache]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            if t is Phi:
                h = self.home[x]
                k = b.read(f"$rtrip:{h.id}", blk)
                step = self._iv_step(self.orig[x])
                cache[x] = b.node(Add, cache[deps[0]], b.node(Mul, k, b.const(step)))
            elif t is Load:
                cache[x] = b.raw(Load, blk.ctrl, b.read("mem", blk), cache[deps[0]], cache[deps[1]])
            elif t is Div:
                cache[x] = b.node(IEEEDiv, cache[deps[0]], cache[deps[1]])
            else:
                ins = [None] + [cache[y] if y is not None else None for y in x.inputs[1:]]
                cache[x] = b.pin(b.peephole.peep(clone_node(self.g, x, ins)))
        return cache[v]

    def _record(self, pb, blk: Block) -> None:
        """Build the partials of the active nodes of ``pb`` and record those the backward
        sweep cannot use directly (tape inside loops, builder variable outside)."""
        b, fm = self.b, self.fm
        slots = self.records.setdefault(pb, [])
        seen: dict[Node, tuple] = {}  # a value recorded once per block, however many need it
        for n in pb.nodes:
            if n not in self.active:
                continue
            t = type(n)
            if t is Load or t is Store:
                wanted = [(3, fm[n.inputs[3]])]
            elif t is ListOp:
                wanted = self._list_op_needs(n)
            elif t in (Proj, Constant, NewArray, Phi, TapeGrow, NewList):
                continue
            else:
                rule = PARTIALS.get(t)
                if rule is None:
                    raise SonError(f"grad of {self.P.name}: not yet differentiable: {_where(self.P, n)}")
                ins = [None] + [fm.get(x) if x is not None else None for x in n.inputs[1:]]
                parts = rule(b, n, ins, fm[n])
                wanted = [(i, p) for i, p in enumerate(parts)
                          if p is not None and n.inputs[i] in self.active]
            need = []
            partial = t not in (Load, Store, ListOp)
            for i, v in wanted:
                b.pin(v)
                need.append((i, v if self._available(v) else self._slot(v, pb, blk, seen, slots, partial)))
            self.needs[n] = need

    def _list_op_needs(self, n: Node) -> list[tuple]:
        """What the adjoint of list method ``n`` needs from the forward sweep: the index
        of an ``insert`` or a ``pop``, the length a ``clear`` removed (``append`` and
        ``reverse`` need nothing: the adjoint list's length is the primal's there).
        ``sort`` is refused: undoing it needs the permutation it took."""
        m = n.method
        if m in ("insert", "pop"):
            return [(3, self.fm[n.inputs[3]])]
        if m == "clear":
            return [(0, self.len_before[n])]
        if m in ("sort", "sort_reverse"):
            raise SonError(f"grad of {self.P.name}: not yet differentiable: sorting a list whose items "
                           f"carry derivatives, {_where(self.P, n)} (reverse mode would need the "
                           "permutation the sort took; son.jvp refuses it too)")
        if m not in ("append", "reverse"):
            raise SonError(f"grad of {self.P.name}: not yet differentiable: list.{m} of a list whose "
                           f"items carry derivatives, {_where(self.P, n)}")
        return []

    def _slot(self, v: Node, pb, blk: Block, seen: dict, slots: list, partial: bool = False) -> tuple:
        """How the adjoint of ``pb`` gets forward value ``v``: recomputed (``("re", v)``),
        recomputed from one recorded leaf (``("re", v, leaf, leaf's slot)``), popped from
        a tape (in loops) or read from a builder variable (outside loops).  A tape holds
        every value it is given exactly (``Tapes.push`` asserts it): an int-or-float
        ('number') partial is pushed as its float, the only way the adjoint uses it, and
        ``_leaf`` never picks a 'number' leaf."""
        if v in seen:
            return seen[v]
        b = self.b
        self._nvars += 1
        if pb.depth > 0 and self._recomputable(v, pb):
            slot: tuple = ("re", v)
        elif pb.depth > 0 and (leaf := self._leaf(v, pb)) is not None:
            slot = ("re", v, leaf, self._slot(leaf, pb, blk, seen, slots))
        elif pb.depth > 0:
            if v.type.kind == "number":
                assert partial, f"{v!r}: an int-or-float value that is not a partial"
                # a partial only ever multiplies a float adjoint, where an int operand
                # is converted first: float(v) is exact for that use, and a tape holds it
                v = b.pin(b.node(ToFloat, v))
            slot = ("tape", self.tapes.push(blk, v), v.type.kind == "bool", self._nvars)
        else:
            var = f"$rec:{self._nvars}"
            kind = v.type.kind
            zero = {"int": 0, "bool": False}.get(kind, 0.0)
            b.declare(var, v.type.widen() if kind else FLOAT, lambda z=zero: b.const(z))
            b.write(var, blk, v)
            slot = ("var", var)
        slots.append(slot)
        seen[v] = slot
        return slot

    def _leaf(self, v: Node, pb) -> Node | None:
        """The one value to record so that the adjoint of ``pb`` can rebuild ``v``: ``v``
        is cheap arithmetic (``_cheap``) over recomputable values and a single other
        value, the leaf (``max(m, a[i])``'s partials ``1 - (a[i] > m)`` and ``a[i] > m``
        both record ``m``; Newton's ``1/x`` and ``-(v/x)/x`` both record ``x``).  None
        if there is no such leaf or the rebuild would cost more than
        ``_RECOMPUTE_LIMIT`` nodes.  O(nodes of ``v``'s expression)."""
        leaves: set[Node] = set()
        seen, work, cost = {v}, [v], 0
        while work:
            x = work.pop()
            if x is not v and self._recomputable(x, pb):
                cost += self._recomp_info(x)[1]
            elif _cheap(x):
                cost += 1
                for y in x.inputs[1:]:
                    if y is not None and y not in seen:
                        seen.add(y)
                        work.append(y)
            else:
                leaves.add(x)
            if cost > _RECOMPUTE_LIMIT or len(leaves) > 1:
                return None
        if not leaves or v in leaves:
            return None
        leaf = leaves.pop()
        # a tape holds a float, an int or a bool exactly; an int-or-float ('number')
        # leaf would lose its kind (1.5 recorded as 1): record ``v`` itself instead
        return leaf if leaf.type.kind in ("float", "int", "bool") else None

    @property
    def pushed(self) -> dict:
        """Primal block -> number of tape pushes it makes per execution."""
        out: dict = {}
        for (pb, _), n in self._pushes().items():
            out[pb] = out.get(pb, 0) + n
        return out

    def _pushes(self) -> dict:
        """(primal block, tape) -> pushes the block makes on the tape per execution.
        O(records + edge pushes)."""
        out: dict = {}
        for pb, slots in self.records.items():
            for slot in slots:
                if slot[0] == "tape":
                    out[(pb, slot[1])] = out.get((pb, slot[1]), 0) + 1
        for pb in self.edge_pushes:
            out[(pb, "i")] = out.get((pb, "i"), 0) + 1
        return out

    def _reserve(self) -> None:
        """Before a counted loop (``i < bound`` at its header, ``i`` an induction
        variable of step 1, ``bound`` defined outside), make room on each tape for the
        pushes its own blocks make per iteration times ``bound - i0`` (at most
        ``_RESERVE_MAX`` elements; nothing if that is negative): one ``TapeGrow`` on
        the entry edge, instead of ~log2(n) copies into fresh memory as the tape
        doubles (for 10^6 iterations a doubling tape costs several times the pushes).
        Inner loops reserve at each of their entries.  O(blocks + edges)."""
        b, S = self.b, self.S
        per_loop: dict = {}
        for (pb, k), n in self._pushes().items():
            if pb.loop is not None:
                per_loop[(pb.loop, k)] = per_loop.get((pb.loop, k), 0) + n
        for h in S.blocks:
            if not h.is_loop_header or h not in self.live or type(h.term) is not If:
                continue
            cond = h.term.inputs[1]
            if type(cond) is not LT or h.succs[0].loop is not h:
                continue
            ph, bound = cond.inputs[1], cond.inputs[2]
            if ph not in h.phis or self._iv_step(ph) != 1 or bound not in self.fm \
                    or bound.type.kind != "int":
                continue
            blk = S.block_of.get(bound)
            if blk is not None and h in self._loops_of(blk):
                continue  # the bound changes in the loop
            fh, pre = self.FB[h], h.preds[0]
            trips = b.node(Sub, self.fm[bound], self.fm[ph.inputs[1]])
            for k in DTYPES:
                per = per_loop.get((h, k), 0)
                arr, n = b.read(f"$tape:{k}", fh), b.read(f"$tape:{k}:n", fh)
                if not per or type(arr) is not Phi or arr.inputs[0] is not fh.head \
                        or type(n) is not Phi or n.inputs[0] is not fh.head:
                    continue
                more = b.node(Min, b.node(Mul, trips, b.const(per)), b.const(_RESERVE_MAX))
                want = b.node(Add, n.inputs[1], more)
                mem = b.read("mem", self.FB[pre])
                arr.set_input(1, b.raw(TapeGrow, self.end[pre], mem, arr.inputs[1], want))

"""Reverse mode's backward sweep: the adjoint of every backward-live block, in reverse,
with one adjoint loop per primal loop.

**Backward sweep.**  It starts where the primal returned (several Return blocks are
joined first, recording which), seeds the returned value's adjoint with 1.0, and
builds the adjoint of each block: pop its records, propagate its nodes' adjoints in
reverse order (``xbar_i += p_i * ybar``, then ``ybar = 0`` so loop iterations start
fresh), then branch on its recorded predecessor index, moving Phi adjoints on each
reversed edge (``vbar_i += vbar; vbar = 0``).  An adjoint that is still its initial
0.0 is assigned, not added to (``_accumulate``); where that is known only once the
adjoint loops are sealed (a web of Phis whose only value is 0.0), the sum is
replaced by its other operand afterwards (``_drop_zero_sums``; adjoints do not keep
the sign of a zero), and ``phi(a, 0.0) + phi(0.0, b)`` at one merge becomes
``phi(a, b)``.  The reversed CFG of a loop with several
exits would have several entries; instead each primal loop L gets one adjoint Loop
R_L whose entry merges every reversed exit edge of L (and of inner loops leaving L),
each setting a selector; the top of R_L's body dispatches on the selector to the
adjoint of the block the primal iteration ended in (the latch for every iteration
but the last), entering inner adjoint loops the same way.  The entry of R_L sets
``$rtrip`` to L's trip count (popped, or read from ``$trip``); the adjoint of L's
header leaves R_L when it is 0, else takes R_L's back edge, decrementing it.  Every
adjoint loop body is acyclic between R_L's header and its back edge, so the result is
reducible and goes through the structured code generator.

The reversed control flow is built from abstract nodes (``J`` the join of the
Returns, ``A`` a block's adjoint, ``M`` and ``R`` an adjoint loop's entry and
header), each built once all its predecessors are (a topological order).  O(N)
nodes built, plus O(k) branches for a k-way merge and O(exits) for a loop's
dispatch.  Accumulation is ``accumulate.py``.  See ``son.grad.reverse``."""

from __future__ import annotations

from ..nodes import (
    EQ,
    Add,
    ArrayLen,
    ArrayType,
    Constant,
    ListOp,
    ListType,
    Load,
    NewArray,
    NewList,
    Node,
    Phi,
    Proj,
    Return,
    Store,
    Sub,
)
from ..nodes.types import FLOAT, INT, MEM
from .activity import is_aggregate
from .rules import is_differentiable, product
from .ssa import Block


class BackwardSweep:
    """The backward sweep of ``_Reverse`` (a mixin)."""

    def _hops(self, p, c, i: int) -> list:
        """Adjoint loops the reversed edge p -> c enters, outermost first (for a back
        edge, the header's own loop first: it is entered through its back edge)."""
        inside_c = set(self._loops_of(c))
        route = [h for h in self._loops_of(p) if h not in inside_c]
        route.reverse()
        if c.is_loop_header and i == 1:
            route.insert(0, c)
        return route

    def _backward(self) -> None:
        b, S = self.b, self.S
        live = [x for x in S.blocks if x in self.live]
        self.edges: dict[tuple, list] = {}  # (pred, block) -> hops
        self.cases: dict[object, list[tuple]] = {}  # loop header -> edges dispatched there
        for c in live:
            for i, p in enumerate(c.preds):
                hops = self._hops(p, c, i)
                self.edges[(p, c)] = hops
                for h in hops:
                    self.cases.setdefault(h, []).append((p, c))
        # the reversed CFG: abstract nodes and their out-edges (back edges of R_L excluded)
        succ: dict[tuple, list[tuple]] = {("J",): [("A", r) for r in self.rets]}
        for c in live:
            outs = []
            for i, p in enumerate(c.preds):
                hops = self.edges[(p, c)]
                if c.is_loop_header and i == 1:
                    continue
                outs.append(("M", hops[0]) if hops else ("A", p))
            succ[("A", c)] = outs
        for h, es in self.cases.items():
            succ[("M", h)] = [("R", h)]
            succ[("R", h)] = [self._next_hop(e, h)[0] for e in es]
        indeg: dict[tuple, int] = {k: 0 for k in succ}
        for outs in succ.values():
            for t in outs:
                indeg[t] = indeg.get(t, 0) + 1
        self.indeg = indeg
        self.pend: dict[tuple, list] = {k: [] for k in indeg}
        self.ready = [("J",)]
        self.RB: dict[object, Block] = {}
        self.adj_vars: dict[Node, str] = {}
        for n in self.active:
            if is_differentiable(n):
                var = f"$adj:{n.nid}"
                b.declare(var, FLOAT, lambda: b.const(0.0))
                self.adj_vars[n] = var
        for h in self.cases:
            b.declare(f"$sel:{h.id}", INT, lambda: b.const(0))
        # blocks of a loop (not inner ones) that dominate every block an iteration can
        # end in: their adjoints dominate the adjoints of the loop built after them
        self.local_glob = {c for c in live if c.loop is not None and not c.is_loop_header
                           and all(S.dominates(c, p) for p, _ in self.cases.get(c.loop, ())
                                   if p is not c.loop)}
        built = 0
        while self.ready:
            k = self.ready.pop()
            built += 1
            getattr(self, "_build_" + k[0])(*k[1:])
        assert built == len(indeg), "reverse mode: the reversed control flow was not built entirely"

    def _next_hop(self, e: tuple, h) -> tuple[tuple, int | None]:
        """Where edge ``e`` goes after the dispatch of adjoint loop ``h``, and the
        selector value to set there."""
        hops = self.edges[e]
        j = hops.index(h)
        if j + 1 < len(hops):
            nxt = hops[j + 1]
            return ("M", nxt), self.cases[nxt].index(e)
        return ("A", e[0]), None

    def _emit(self, target: tuple, blk: Block, ctrl: Node) -> None:
        if target[0] == "back":
            self.b.close_loop(self.RB[target[1]], blk, ctrl)
            return
        self.pend[target].append((blk, ctrl))
        self.indeg[target] -= 1
        if self.indeg[target] == 0:
            self.ready.append(target)

    def _fan(self, blk: Block, sel: Node | None, targets: list) -> None:
        """Branch on ``sel`` == 0, 1, ... to ``targets`` = [(target, action(block))]."""
        b = self.b
        cur = blk
        for k, (target, action) in enumerate(targets):
            if k + 1 < len(targets):
                tr, fa = b.branch(cur, b.node(EQ, sel, b.const(k)))
                bar = blk.barrier  # dominates blk, hence the blocks of its branch
                eb = b.start_block(f"{blk.name}.{k}", [(cur, tr)], in_loop=blk.in_loop, barrier=bar)
                cur = b.start_block(f"{blk.name}.not{k}", [(cur, fa)], in_loop=blk.in_loop, barrier=bar)
            else:
                eb = cur
            if action is not None:
                action(eb)
            self._emit(target, eb, eb.ctrl)

    def _build_J(self) -> None:
        b = self.b
        blk = b.start_block("J", [(self.FB[r], self.end[r]) for r in self.rets], in_loop=False,
                            barrier=b.chain[-1])
        b.add_barrier(blk)
        self.J = blk
        zero = b.const(0.0)
        for var in self.adj_vars.values():
            b.write(var, blk, zero)
        self._make_list_adjoints(blk)
        for root in self.grown:  # one adjoint for every version of a tape: its largest
            rep = self.fam[root]
            adj = b.raw(NewArray, blk.ctrl, b.read(f"$cap:{rep.nid}", blk), dtype="float64",
                        fill="zeros")
            for m in self.members[rep]:
                self.arrays[m] = adj
        izero = b.const(0)
        for h in self.cases:
            b.write(f"$sel:{h.id}", blk, izero)
        sel = b.read("$which", blk) if len(self.rets) > 1 else None
        self._fan(blk, sel, [(("A", r), None) for r in self.rets])

    def _build_M(self, h) -> None:
        b = self.b
        blk = b.start_block(f"M{h.id}", self.pend[("M", h)], in_loop=h.depth > 1,
                            barrier=b.chain[-1])
        # the loop's trip count: the adjoint loop takes that many back edges
        trips = self.tapes.pop(blk, "i") if h.depth > 1 else b.read(f"$trip:{h.id}", blk)
        b.write(f"$rtrip:{h.id}", blk, trips)
        self._emit(("R", h), blk, blk.ctrl)

    def _build_R(self, h) -> None:
        b = self.b
        blk = b.start_block(f"R{h.id}", self.pend[("R", h)], loop=True, barrier=b.chain[-1])
        self.RB[h] = blk
        es = self.cases[h]
        sel = b.read(f"$sel:{h.id}", blk) if len(es) > 1 else None
        targets = []
        for e in es:
            target, value = self._next_hop(e, h)
            targets.append((target, self._set_selector(target, value)))
        self._fan(blk, sel, targets)

    def _set_selector(self, target: tuple, value: int | None):
        if value is None:
            return None
        var = f"$sel:{target[1].id}"

        def action(blk: Block) -> None:
            self.b.write(var, blk, self.b.const(value))

        return action

    def _build_A(self, c) -> None:
        b = self.b
        # the adjoint of a loop header is also reached straight from R_c's dispatch (the
        # last iteration's exit): only R_c dominates it, not the barriers of the body
        bar = self.RB[c] if c.is_loop_header else b.chain[-1]
        blk = b.start_block(f"A{c.id}", self.pend[("A", c)], in_loop=c.depth > 0, barrier=bar)
        if c in self.glob or c in self.local_glob:  # it dominates the adjoints built after it
            b.add_barrier(blk)
        if c in self.rets:
            v = c.term.inputs[2]
            if v in self.adj_vars:
                self._accumulate(v, blk, b.const(1.0))
        got: dict[tuple, Node] = {}
        rebuilt: dict[Node, Node] = {}
        slots = self.records.get(c, ())
        for slot in reversed(slots):
            if slot[0] == "tape":
                got[slot] = self.tapes.pop(blk, slot[1], as_bool=slot[2])
            elif slot[0] == "var":
                got[slot] = b.read(slot[1], blk)
        for slot in slots:
            if slot[0] == "re":
                if len(slot) == 4:
                    rebuilt[slot[2]] = got[slot[3]]
                got[slot] = self._recompute(slot[1], blk, rebuilt)
        for n in reversed(c.nodes):
            if n in self.active:
                self._adjoint(n, blk, got)
        if c is self.S.entry:
            self._finish(blk)
            return
        k = len(c.preds)
        sel = None
        if k > 1:
            if c.is_loop_header:  # 0 back edges left: leave through the entry
                sel = b.read(f"$rtrip:{c.id}", blk)
            elif c.depth > 0:
                sel = self.tapes.pop(blk, "i")
            else:
                sel = b.read(f"$edge:{c.id}", blk)
        targets = []
        for i, p in enumerate(c.preds):
            hops = self.edges[(p, c)]
            if c.is_loop_header and i == 1:
                target: tuple = ("back", c)
                value = self.cases[c].index((p, c))
                sel_var = f"$sel:{c.id}"
            elif hops:
                target, sel_var = ("M", hops[0]), f"$sel:{hops[0].id}"
                value = self.cases[hops[0]].index((p, c))
            else:
                target, value, sel_var = ("A", p), None, None
            targets.append((target, self._edge_action(c, i, sel_var, value)))
        self._fan(blk, sel, targets)

    def _edge_action(self, c, i: int, sel_var: str | None, value: int | None):
        """On the reversed edge from ``c`` to its predecessor ``i``: move the adjoints of
        ``c``'s Phis to their ``i``-th inputs (parallel: all read, then all written) and
        set the selector of the adjoint loop entered."""
        phis = [p for p in c.phis if p in self.adj_vars]

        def action(blk: Block) -> None:
            b = self.b
            vals = [b.read(self.adj_vars[p], blk) for p in phis]
            zero = b.const(0.0)
            for p in phis:
                b.write(self.adj_vars[p], blk, zero)
            for p, v in zip(phis, vals):
                x = p.inputs[i + 1]
                if x in self.adj_vars:
                    self._accumulate(x, blk, v)
            if sel_var is not None:
                b.write(sel_var, blk, b.const(value))
            if c.is_loop_header and i == 1:
                var = f"$rtrip:{c.id}"
                b.write(var, blk, b.node(Sub, b.read(var, blk), b.const(1)))

        return action

    def _adjoint(self, n: Node, blk: Block, got: dict) -> None:
        """Propagate the adjoint of active node ``n`` to its inputs, in ``blk``."""
        b, t = self.b, type(n)
        need = [(i, got[v] if type(v) is tuple else v) for i, v in self.needs.get(n, ())]
        if t is ListOp or (t is NewList and n in self.arrays):
            self._list_adjoint(n, blk, need)
            return
        if t in (Proj, Constant, NewArray, Phi) or (n.type is not MEM and is_aggregate(n.type)):
            return
        vbar = None
        if n in self.adj_vars:
            vbar = b.read(self.adj_vars[n], blk)
            b.write(self.adj_vars[n], blk, b.const(0.0))
        if t is Load or t is Store:
            idx = need[0][1]
            abar = self.arrays[n.inputs[2]]
            mem = b.read("mem", blk)
            old = b.raw(Load, blk.ctrl, mem, abar, idx)
            if t is Load:
                new = b.node(Add, old, vbar)
            else:
                x = n.inputs[4]
                if x in self.adj_vars:
                    self._accumulate(x, blk, old)
                new = b.const(0.0)
            b.write("mem", blk, b.raw(Store, blk.ctrl, mem, abar, idx, new))
            return
        for i, p in need:
            x = n.inputs[i]
            if x not in self.adj_vars:
                continue
            self._accumulate(x, blk, product(b, p, vbar))  # a zero adjoint contributes zero

    def _finish(self, blk: Block) -> None:
        """The end of the backward sweep: return (value,) gradients."""
        b, P, g = self.b, self.P, self.g
        vals = [b.read("$ret", blk)] if self.with_value else []
        for i in self.argnums:
            p = P.param(i)
            t = P.params[i][1]
            if isinstance(t, ListType):  # the adjoint list, back to the length at entry
                vals.append(self.arrays[p] if p is not None and self.arrays.get(p) is not None else
                            b.raw(NewList, b.entry_ctrl, self.len0[i], b.const(0.0), dtype="float64"))
            elif isinstance(t, ArrayType):
                if p is not None and self.arrays.get(p) is not None:
                    vals.append(self.arrays[p])
                else:
                    arg = b.raw(Proj, g.start, 2 + i, P.params[i][0])
                    vals.append(b.raw(NewArray, b.entry_ctrl, b.node(ArrayLen, arg),
                                      dtype="float64", fill="zeros"))
            elif p is not None and p in self.adj_vars:
                vals.append(b.read(self.adj_vars[p], blk))
            else:
                vals.append(b.const(0.0))
        r = b.raw(Return, blk.ctrl, b.read("mem", blk), *vals)
        g.stop.add_input(r)

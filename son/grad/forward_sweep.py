"""Reverse mode's forward sweep: the primal cloned block by block, recording what the
backward sweep needs (what is recorded, and how, is ``recording.py``).

**Forward sweep.**  Each primal block is cloned (data Phis patched once every block
exists; memory is re-threaded in schedule order and primal memory Phis are dropped).
For every *active* node (one that depends on a differentiated parameter and reaches
the result) the local
partials are built right there from ``son.grad.rules.PARTIALS`` (``xbar += p * ybar``
needs only ``p``); Loads and Stores need their index.  Such a value is used directly
by the backward sweep when it is *available* there (it is a constant, or computed only
from values defined outside loops in blocks that dominate every Return); otherwise it
is *recorded* at the end of its block: outside loops in a builder variable (no tape,
no memory traffic: loop-free gradients stay pure and can be differentiated again),
inside loops by a push on a tape (``son.grad.tape``) unless the adjoint can rebuild
it cheaply (below).  Every edge into a merge (a block with k >= 2 predecessors)
records the predecessor index after the source block's values, so pops mirror
pushes exactly.  A loop records no index per iteration: a trip counter ``$trip``
(0 on entry, +1 on the back edge) is saved on each edge leaving the loop (pushed,
innermost loop first, after the source block's values and before a merge index;
an outermost loop's counter is simply read by the backward sweep, nothing
overwrites it).

Blocks are built in a loop-contiguous topological order (``_loop_contiguous_order``)
for the SSA builder.  O(N) nodes built.  See ``son.grad.reverse`` for the whole
transform."""

from __future__ import annotations

from ..nodes import (
    Add,
    ArrayLen,
    CProj,
    GradVia,
    Graph,
    If,
    ListLen,
    ListOp,
    ListType,
    Max,
    NewArray,
    Node,
    Phi,
    Proj,
    PyRegionMem,
    Raise,
    Return,
    Store,
)
from ..nodes.memory import TapeGrow
from ..nodes.types import BOTTOM, FLOAT, INT, MEM
from .ssa import Block

_NOT_PAYLOAD = frozenset({"graph", "nid", "inputs", "outputs", "type", "_gvn_key", "_pins"})


def clone_node(g: Graph, n: Node, inputs: list[Node | None]) -> Node:
    """A node of ``n``'s class and payload in graph ``g`` with the given inputs, typed."""
    c = object.__new__(type(n))
    for cls in type(n).__mro__:
        for s in getattr(cls, "__slots__", ()):
            if s not in _NOT_PAYLOAD and hasattr(n, s):
                setattr(c, s, getattr(n, s))
    c.graph, c.nid, c.inputs, c.outputs = g, g.new_id(), [], {}
    c._gvn_key, c._pins, c.type = None, 0, BOTTOM
    for x in inputs:
        c.add_input(x)
    c.type = c.compute()
    return c


class ForwardSweep:
    """The forward sweep of ``_Reverse`` (a mixin)."""

    def _forward(self) -> None:
        b, g, P, S = self.b, self.g, self.P, self.S
        b.declare("mem", MEM, lambda: None)
        self.fm: dict[Node, Node] = {}  # primal node -> its clone
        self.home: dict[Node, object] = {}  # clone -> primal block
        self.cfgmap: dict[Node, Node] = {P.start: g.start}
        self.FB: dict[object, Block] = {}
        self.end: dict[object, Node] = {}  # primal block -> control ending its clone
        self.projs: dict[Node, Node] = {}  # primal CProj -> its clone
        self.records: dict[object, list[tuple]] = {}  # primal block -> recording slots, in order
        self.needs: dict[Node, list] = {}  # active primal node -> [(input, value or slot)]
        self._avail: dict[Node, bool] = {}
        self._recomp: dict[Node, tuple | None] = {}
        self.orig: dict[Node, Node] = {}  # clone -> primal node
        self._store_reach: dict = {}
        self._stores: dict = {}  # alias class -> the Stores into it
        for n in P.nodes():
            if type(n) is Store or type(n) is ListOp:  # a list method moves items too
                self._stores.setdefault(self._alias_class(n.inputs[2]), []).append(n)
        self.len_before: dict[Node, Node] = {}  # active ListOp clear -> the length it cleared
        self._nvars = 0
        self.edge_pushes: list = []
        for root in self.grown:
            b.declare(f"$cap:{self.fam[root].nid}", INT, lambda: b.const(0))
        for h in S.blocks:
            if h.is_loop_header and h in self.live:
                b.declare(f"$trip:{h.id}", INT, lambda: b.const(0))
                b.declare(f"$rtrip:{h.id}", INT, lambda: b.const(0))
        phis: list[tuple[Phi, Node]] = []
        near: dict[object, object] = {}  # primal block -> nearest barrier dominating it
        for pb in self._loop_contiguous_order():
            if pb is S.entry:
                edges = []
            elif pb.is_loop_header:
                edges = [(self.FB[pb.preds[0]], self.end[pb.preds[0]])]
            elif pb.preds and type(pb.head) is not CProj:
                edges = [(self.FB[p], self.end[p]) for p in pb.preds]
            else:
                edges = [(self.FB[pb.preds[0]], self.projs[pb.head])]
            above = near.get(pb.idom) if pb.idom is not None else None
            while above is not None and not self._on_chain(self.FB[above]):
                above = near.get(above.idom) if above.idom is not None else None
            barrier = pb in self.glob or (pb in self.live and (
                pb.is_loop_header or (pb.loop is not None and S.dominates(pb, pb.loop.preds[1]))))
            near[pb] = pb if barrier else above
            blk = b.start_block(f"F{pb.id}", edges, loop=pb.is_loop_header, in_loop=pb.depth > 0,
                                barrier=self.FB[above] if above is not None else None)
            self.FB[pb] = blk
            if barrier and not pb.is_loop_header:
                b.add_barrier(blk)
            elif pb.is_loop_header and not barrier and self._on_chain(blk):
                b.chain.pop().chain_index = -1  # a loop that never returns: no barrier
                b.chain_orders.pop()
            for c in pb.cfg:
                if c is not P.start:
                    self.cfgmap[c] = blk.ctrl
            if pb is S.entry:
                b.write("mem", blk, b.raw(Proj, g.start, 1, "mem"))
                self._entry_lengths(blk)
            if type(pb.head) is CProj and pb in self.live:
                self._exit_record(pb.preds[0], pb, blk)
            for ph in pb.phis:
                if ph.type is MEM:
                    continue
                c = b.raw(Phi, blk.head, *([None] * (len(ph.inputs) - 1)), assumed=ph.type)
                self.fm[ph] = c
                self.home[c] = pb
                self.orig[c] = ph
                phis.append((ph, c))
            for n in pb.nodes:
                self._clone(n, pb, blk)
            if pb in self.live:
                self._record(pb, blk)
            self._terminate(pb, blk)
        for ph, c in phis:
            for i, v in enumerate(ph.inputs[1:]):
                c.set_input(i + 1, self.fm[v])

    def _entry_lengths(self, blk: Block) -> None:
        """The length at entry of each differentiated list parameter: its gradient's
        length where nothing active reaches it (``_finish``)."""
        b, P = self.b, self.P
        self.len0: dict[int, Node] = {}
        for i in self.argnums:
            name, t = P.params[i]
            if isinstance(t, ListType):
                arg = b.raw(Proj, self.g.start, 2 + i, name)
                self.len0[i] = b.raw(ListLen, blk.ctrl, b.read("mem", blk), arg)

    def _on_chain(self, blk: Block) -> bool:
        ch = self.b.chain
        return 0 <= blk.chain_index < len(ch) and ch[blk.chain_index] is blk

    def _loop_contiguous_order(self) -> list:
        """The primal blocks in a topological order (back edges aside) in which every
        loop's blocks, inner loops included, are contiguous: a loop is closed only when
        its whole body is built, which the SSA builder's barrier shortcut relies on.
        Kahn's algorithm with one ready list per enclosing loop, always taking from the
        innermost loop entered.  O(B + E)."""
        S = self.S
        indeg = {x: 0 for x in S.blocks}
        for x in S.blocks:
            for y in x.succs:
                if not (y.is_loop_header and y.preds[1] is x):
                    indeg[y] += 1

        def key(x):
            return x.outer if x.is_loop_header else x.loop

        ready: dict[object, list] = {}
        ready.setdefault(key(S.entry), []).append(S.entry)
        stack: list = [None]
        order = []
        while len(order) < len(S.blocks):
            while not ready.get(stack[-1]):
                stack.pop()
            x = ready[stack[-1]].pop()
            order.append(x)
            if x.is_loop_header:
                stack.append(x)
            for y in x.succs:
                if y.is_loop_header and y.preds[1] is x:
                    continue
                indeg[y] -= 1
                if indeg[y] == 0:
                    ready.setdefault(key(y), []).append(y)
        return order

    def _clone(self, n: Node, pb, blk: Block) -> None:
        b = self.b
        if type(n) is GradVia:  # its value; the surrogate serves the backward sweep only
            self.fm[n] = self.fm[n.inputs[1]]
            return
        if n.type is MEM and type(n) not in (Store, ListOp, PyRegionMem):
            return  # Start's memory: the builder threads memory
        ins: list[Node | None] = []
        for k, x in enumerate(n.inputs):
            if x is None:
                ins.append(None)
            elif k == 0 and x.is_cfg:
                ins.append(self.cfgmap[x])
            elif x.type is MEM:
                ins.append(b.read("mem", blk))
            else:
                ins.append(self.fm[x])
        if type(n) is ListOp and n.method == "clear" and n in self.active:
            self.len_before[n] = b.raw(ListLen, ins[0], ins[1], ins[2])
        c = b.pin(clone_node(self.g, n, ins))
        self.fm[n] = c
        self.home[c] = pb
        self.orig[c] = n
        if type(n) is Store or c.type is MEM:
            b.write("mem", blk, c)
        if n not in self.arrays or isinstance(n.type, ListType):
            return  # (a list's adjoint is made at the start of the backward sweep)
        rep = self.fam[n]
        if self.roots[rep][0] in self.grown:  # a tape: track its largest capacity
            var = f"$cap:{rep.nid}"
            length = b.node(ArrayLen, c)
            if type(n) is TapeGrow:
                length = b.node(Max, b.read(var, blk), length)
            if type(n) is not Phi:
                b.write(var, blk, length)
        elif type(n) is not Phi:  # the family's adjoint array, allocated next to its root
            length = b.node(ArrayLen, c)
            ctrl = c.inputs[0] if type(n) is NewArray else b.entry_ctrl
            adj = b.raw(NewArray, ctrl, length, dtype="float64", fill="zeros")
            for m in self.members[rep]:
                self.arrays[m] = adj

    def _exit_record(self, p, c, blk: Block) -> None:
        """On an edge ``p -> c`` leaving loops, save each loop's trip count for its
        adjoint loop (which runs that many back edges): pushed innermost first (popped
        outermost first, at ``M`` of each adjoint loop); an outermost loop's count is
        read from ``$trip`` itself, which nothing overwrites."""
        if c not in self.live:
            return
        inside_c = set(self._loops_of(c))
        for h in self._loops_of(p):
            if h in inside_c:
                break
            if h.depth > 1:
                self.tapes.push(blk, self.b.read(f"$trip:{h.id}", blk))
                self.edge_pushes.append(c if blk is self.FB.get(c) else p)

    def _edge_record(self, pb, blk: Block) -> None:
        """Record which predecessor of merge ``pb.succs[0]`` ``pb`` falls into; into a
        loop header, count the iterations instead (``$trip``: 0 on entry, +1 on the
        back edge), so that a loop records no predecessor index per iteration."""
        s = pb.succs[0]
        if len(s.preds) < 2 or s not in self.live:
            return
        b = self.b
        if s.is_loop_header:
            var = f"$trip:{s.id}"
            b.write(var, blk, b.const(0) if s.preds[0] is pb else
                    b.node(Add, b.read(var, blk), b.const(1)))
            return
        idx = b.const(s.preds.index(pb))
        if s.depth > 0:
            self.tapes.push(blk, idx)
            self.edge_pushes.append(pb)
        else:
            var = f"$edge:{s.id}"
            b.declare(var, INT, lambda: b.const(0))
            b.write(var, blk, idx)

    def _terminate(self, pb, blk: Block) -> None:
        b, t = self.b, pb.term
        tt = type(t)
        if tt is If and len(pb.succs) == 2:
            tr, fa = b.branch(blk, self.fm[t.inputs[1]])
            self.projs[pb.succs[0].head] = tr
            self.projs[pb.succs[1].head] = fa
        elif tt is Return:
            if self.with_value:
                b.declare("$ret", FLOAT, lambda: b.const(0.0))
                b.write("$ret", blk, self.fm[t.inputs[2]])
            if len(self.rets) > 1:
                b.declare("$which", INT, lambda: b.const(0))
                b.write("$which", blk, b.const(self.rets.index(pb)))
            self.end[pb] = blk.ctrl
        elif tt is Raise:
            r = b.raw(Raise, blk.ctrl, b.read("mem", blk), exc=t.exc, message=t.message)
            self.g.stop.add_input(r)
        else:
            if pb in self.live:  # (a CProj successor records its exit itself)
                self._exit_record(pb, pb.succs[0], blk)
                self._edge_record(pb, blk)
            self.end[pb] = blk.ctrl
            s = pb.succs[0]
            if s.is_loop_header and s.preds[1] is pb:
                b.close_loop(self.FB[s], blk, blk.ctrl)

"""Reverse mode on the node graph: ``grad_graph(graph, argnums, with_value)``.

The result is one ordinary graph with the same parameters as the primal: a forward
sweep (the primal, cloned block by block, recording what the backward sweep needs)
followed by a backward sweep (the adjoint of every block, in reverse), returning
``g_1, ..., g_k`` or ``value, g_1, ..., g_k``.  Loops are reversed as loops, never
unrolled (Innes, "Don't Unroll Adjoint"; Tangent's stacks).

**Blocks.**  ``son.schedule`` of (a copy of) the primal gives the blocks in reverse
postorder, each block's ordered nodes, the loop tree and dominators.  Blocks that
cannot reach a Return (raises, their guards) take no part in the backward sweep.
Both sweeps are built with the SSA builder of ``son.grad.ssa`` (Braun et al.): the
memory state, the two tapes, adjoint accumulators, recorded values and selectors are
builder variables, so every merge and loop gets the Phis it needs and no more.

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

**Arrays.**  Arrays come in *families* (``_families``): an array, the array Phis that
choose it and the ``TapeGrow``s that grow it (the same array while it has room, else
a copy with more).  A family that an active value reaches gets one adjoint array of
zeros when it has one root, a float64 parameter or a float64 ``NewArray`` outside
loops in a block dominating every Return: allocated next to the root, of its length.
``y = a[i]`` adds ``ybar`` to ``abar[i]``; ``a[i] = v`` moves ``abar[i]`` into
``vbar`` and zeroes it, so arrays written and read again are handled.  The backward
sweep reads a primal array only to re-load a value no later Store into its family can
have changed (``_reloadable``; the family is the alias class).
Other active arrays (allocated in loops or branches, a Phi of two allocations) are
refused with a ``SonError`` naming the construct.

**Reverse over reverse** (``grad(grad(f))`` through loops).  The primal is then a
gradient whose loops push on and pop from tapes (``son.grad.tape``): a ``NewArray`` at
entry, threaded through loop Phis and ``TapeGrow``s, one family per tape.  A push is a
Store of a value at the count, a pop a Load at count - 1, so the rules above are their
adjoints: a push's is ``vbar += tbar[n]; tbar[n] = 0``, a pop's ``tbar[n-1] += ybar``
(the float tape's values are active; the int tape never is).  A ``TapeGrow`` that
copies is the identity on the elements that existed, and the tape discipline uses
versions linearly (once grown, the old version is never read or written again: the
tape is one builder variable, and only ``son.grad.tape`` and ``_reserve`` make
``TapeGrow``), so one adjoint array serves every version of a tape, indexed alike.
It must be as long as the largest version: the forward sweep keeps the family's
largest capacity in a builder variable (``$cap``: ``max($cap, len(grown))`` after each
``TapeGrow``, O(1)) and the backward sweep allocates the adjoint tape, zeroed, at its
start (``_build_J``).  Nothing else changes: the inner tape's Stores, Loads and counts
are recorded and replayed like any array access (an index that is an induction
variable is rebuilt, others are taped on the outer gradient's own tapes), and the
result can be differentiated again (third derivatives).  Cost: O(1) nodes per
``TapeGrow``; at run time one int ``max`` per grow, and an adjoint tape of 8 bytes per
slot of the largest inner tape, allocated and zeroed once (O(slots)).

Costs: forward sweep O(N), backward sweep O(N) nodes built (plus O(k) branches for a
k-way merge and O(exits) for a loop's dispatch), each variable read of the SSA builder
O(log) amortized (see ``son.grad.ssa``; blocks are built in a loop-contiguous
topological order for it); analyses O(N + E) (``_reloadable``: O(B + E) per array
alias class; ``_recomp_info`` memoized, ``_leaf`` O(_RECOMPUTE_LIMIT) per value;
``_fold_phi_webs`` O(phis); ``_families`` a union-find over array Phis and
``TapeGrow``s, O(N) near-linear).  At run time the gradient does a constant amount of work
per primal operation (at most ``_RECOMPUTE_LIMIT`` rebuilt nodes per recorded value
saved), and tape memory is 8 bytes per recorded value per iteration (recorded: the
partials and array indices of active nodes that are neither available nor
recomputable, one predecessor index per merge reached in a loop, and one trip count
per execution of a loop nested in another; a value is recorded once per block).
``tape_plan`` lists them per block: a dot product ``s += a[i]*b[i]`` records nothing
(``i`` is an induction variable, ``a[i]`` and ``b[i]`` are re-loaded, the trip count
stays in ``$trip``; it recorded 40 bytes per iteration before); ``h = tanh(w*h +
xs[i])`` records 16 (``h`` and ``1 - tanh^2``); ``if s > 3: s = s*x else: s = s +
sin(x)`` in a while loop records 16 bytes on the true side (the partial ``s``, the
merge index) and 8 on the false side (``cos(x)`` is computed once, outside the
loop); nested loops add 8 bytes per inner loop execution (its trip count).

Not yet differentiable (``SonError`` naming the construct): active arrays allocated
in loops or branches, or chosen by a Phi between two different arrays (two
allocations, two parameters, or one of each).  A value is active when it depends on a
differentiated parameter and can reach the result (through data, and from a Load to
the values stored into its array).
"""

from __future__ import annotations

from .. import config
from ..errors import SonError
from ..nodes import (
    EQ,
    LT,
    Add,
    ArrayLen,
    ArrayType,
    Compare,
    Constant,
    CProj,
    Div,
    Graph,
    IEEEDiv,
    If,
    Load,
    Max,
    Min,
    Mul,
    Neg,
    NewArray,
    Node,
    Not,
    Phi,
    Proj,
    Raise,
    Region,
    Return,
    Store,
    Sub,
    ToFloat,
)
from ..nodes.memory import TapeGrow
from ..nodes.types import BOTTOM, FLOAT, INT, MEM
from ..peephole import Peephole
from .rules import PARTIALS, is_differentiable, product
from .ssa import Block, Builder
from .tape import DTYPES, Tapes

__all__ = ["grad_graph", "tape_plan"]

#: pure nodes the backward sweep rebuilds rather than tapes (with Compare subclasses)
_CHEAP = (Add, Sub, Mul, Neg, ToFloat, Not, IEEEDiv)
#: the most nodes a recomputed value may take to rebuild
_RECOMPUTE_LIMIT = 8
#: the most tape elements reserved at once before a counted loop (32 MiB)
_RESERVE_MAX = 1 << 22

_NOT_PAYLOAD = frozenset({"graph", "nid", "inputs", "outputs", "type", "_gvn_key", "_pins"})


def grad_graph(graph: Graph, argnums: tuple[int, ...] = (0,), with_value: bool = False) -> Graph:
    """The reverse-mode gradient of ``graph`` with respect to parameters ``argnums``
    as a new graph (``graph`` is untouched); see the module docstring."""
    return _Reverse(graph, tuple(argnums), with_value).run()


def tape_plan(graph: Graph, argnums: tuple[int, ...] = (0,)) -> dict[int, int]:
    """Bytes each block of ``son.schedule(graph)`` pushes on the tapes per execution
    in ``grad_graph(graph, argnums)`` (blocks that push nothing are left out): for a
    loop, the bytes per iteration are the sum over the blocks an iteration runs."""
    r = _Reverse(graph, tuple(argnums), False)
    r.run()
    return {pb.id: 8 * k for pb, k in r.pushed.items() if k}


def _cheap(n: Node) -> bool:
    """Pure arithmetic the backward sweep rebuilds rather than tapes; a float division
    whose zero guard passed in the forward sweep is rebuilt as ``IEEEDiv``."""
    t = type(n)
    if t is Div:
        return n.inputs[1].type.kind == "float" and n.inputs[2].type.kind == "float"
    return n.inputs[0] is None and (t in _CHEAP or isinstance(n, Compare))


def _is_zero(n: Node) -> bool:
    return type(n) is Constant and n.type.is_con(0.0)


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


def _where(g: Graph, n: Node) -> str:
    src = f" ({g.source[0]}:{g.source[1]})" if g.source else ""
    return f"{n.label} node %{n.nid} of {g.name}{src}"


class _Reverse:
    """One reverse-mode transform (see the module docstring)."""

    def __init__(self, graph: Graph, argnums: tuple[int, ...], with_value: bool):
        self.src = graph
        self.argnums = argnums
        self.with_value = with_value

    # ================================================================ analysis
    def run(self) -> Graph:
        from ..schedule import schedule

        self.P = P = self.src.copy()
        self.S = schedule(P)
        self._check_signature()
        self._analyse()
        g = self.g = Graph(f"{P.name}_grad", P.params)
        g.source = P.source
        self.b = Builder(g)
        self.tapes = Tapes(self.b)
        self._forward()
        self._reserve()
        self.sums: list[tuple] = []
        self._backward()
        self._drop_zero_sums()
        self.b.finish()
        Peephole(g).iterate(g.nodes())
        g.dce()
        if config.debug:
            g.verify()
        return g

    def _check_signature(self) -> None:
        P = self.P
        for i in self.argnums:
            if not 0 <= i < len(P.params):
                raise SonError(f"grad of {P.name}: argnum {i} out of range ({len(P.params)} parameters)")
            name, t = P.params[i]
            if not (t.kind == "float" or (isinstance(t, ArrayType) and t.dtype == "float64")):
                raise SonError(f"grad of {P.name}: cannot differentiate with respect to parameter "
                               f"{name!r} of type {t}; only float and float64-array parameters "
                               "carry derivatives")
        self.rets = [b for b in self.S.blocks if type(b.term) is Return]
        if not self.rets:
            raise SonError(f"grad of {P.name}: the function never returns")
        for b in self.rets:
            vals = b.term.inputs[2:]
            if len(vals) != 1 or vals[0].type.kind not in ("float", "number"):
                what = f"{len(vals)} values" if len(vals) != 1 else f"a {vals[0].type}"
                raise SonError(f"grad of {P.name}: the function returns {what}; a gradient needs "
                               "a float result")

    def _analyse(self) -> None:
        """Backward-live blocks, global blocks, active nodes, arrays needing adjoints."""
        S, P = self.S, self.P
        live = set(self.rets)
        work = list(self.rets)
        while work:
            for p in work.pop().preds:
                if p not in live:
                    live.add(p)
                    work.append(p)
        self.live = live
        self.glob = {b for b in S.blocks
                     if b.depth == 0 and all(S.dominates(b, r) for r in self.rets)}
        self._families()
        act: set[Node] = set()
        work: list[Node] = []

        def activate(x: Node) -> None:
            for m in self.members.get(self.fam.get(x), (x,)):
                if m not in act:
                    act.add(m)
                    work.append(m)

        for i in self.argnums:
            if (p := P.param(i)) is not None:
                activate(p)
        while work:
            n = work.pop()
            for u in n.outputs:
                if u in act or u.is_cfg:
                    continue
                t = type(u)
                if t is Store:
                    if u.inputs[4] is n and is_differentiable(n):
                        activate(u.inputs[2])
                    if u.inputs[2] is n or u.inputs[4] is n:
                        act.add(u)
                    continue
                if t is Load and u.inputs[2] is not n:
                    continue
                if u.type is MEM or not (is_differentiable(u) or isinstance(u.type, ArrayType)):
                    continue
                if isinstance(u.type, ArrayType):
                    activate(u)
                    continue
                act.add(u)
                work.append(u)
        # the Stores into active arrays (an array may become active after its Stores were seen)
        work_stores = {u for n in act if isinstance(n.type, ArrayType)
                       for u in n.outputs if type(u) is Store and u.inputs[2] is n}
        act &= self._reaching()  # a Store reaches nothing by itself: kept with its array
        self.active = act | {n for n in work_stores if n.inputs[2] in act}
        self.arrays: dict[Node, Node | None] = {}  # active primal array -> its adjoint (later)
        self.grown: list[Node] = []  # roots of active families with a TapeGrow (adjoint at J)
        for rep in {self.fam[n] for n in act if isinstance(n.type, ArrayType)}:
            self._check_family(rep)
            for m in self.members[rep]:
                self.arrays[m] = None

    def _families(self) -> None:
        """Group the primal's arrays into *families*: an array and the arrays made from it
        by ``TapeGrow`` (the same array, or a copy of it with more room) and by array
        Phis (one of their inputs) -- union-find, O(N) near-linear.  ``self.fam`` maps
        every array to its family's representative, ``self.members`` a representative to
        the family, ``self.roots`` to the family's allocations and parameters."""
        parent: dict[Node, Node] = {}

        def find(x: Node) -> Node:
            root = x
            while parent[root] is not root:
                root = parent[root]
            while parent[x] is not root:  # path compression
                parent[x], x = root, parent[x]
            return root

        arrays = [n for n in self.P.nodes() if n.type is not MEM and isinstance(n.type, ArrayType)]
        for n in arrays:
            parent[n] = n
        for n in arrays:
            if type(n) is Phi:
                ins = [x for x in n.inputs[1:] if x is not None]
            elif type(n) is TapeGrow:
                ins = [n.inputs[2]]
            else:
                continue
            for x in ins:
                if x in parent:
                    ra, rb = find(n), find(x)
                    if ra is not rb:
                        parent[ra] = rb
        self.fam = {n: find(n) for n in arrays}
        self.members: dict[Node, list[Node]] = {}
        self.roots: dict[Node, list[Node]] = {}
        for n in arrays:
            rep = self.fam[n]
            self.members.setdefault(rep, []).append(n)
            if type(n) not in (Phi, TapeGrow):
                self.roots.setdefault(rep, []).append(n)

    def _check_family(self, rep: Node) -> None:
        """An active family needs one adjoint array for all its members: it must have
        exactly one root, a parameter or a float64 ``NewArray`` outside loops in a block
        dominating every Return (a ``TapeGrow`` family: a ``NewArray``), else ``SonError``
        naming the construct.  A family with a ``TapeGrow`` (a tape of an inner gradient)
        gets its adjoint at the start of the backward sweep (``_build_J``), with the
        largest capacity the tape reached."""
        P, S = self.P, self.S
        roots = self.roots.get(rep, [])
        members = self.members[rep]
        grows = any(type(m) is TapeGrow for m in members)
        if len(roots) != 1:
            n = next((m for m in members if type(m) is Phi), members[0])
            what = ("an array chosen by control flow (a Phi of arrays)" if type(n) is Phi
                    else f"an array made by {n.label}")
            raise SonError(f"grad of {P.name}: not yet differentiable: {what}, "
                           f"{_where(P, n)}; allocate float arrays before any loop or branch")
        (n,) = roots
        t = type(n)
        ok = ((t is Proj and n.inputs[0] is P.start and not grows)
              or (t is NewArray and S.block_of[n] in self.glob))
        if not ok or n.type.dtype != "float64":
            what = ("an array allocated inside a loop or a branch" if t is NewArray else
                    f"an array of dtype {n.type.dtype}" if ok else f"an array made by {n.label}")
            raise SonError(f"grad of {P.name}: not yet differentiable: {what}, "
                           f"{_where(P, n)}; allocate float arrays before any loop or branch")
        if grows:
            self.grown.append(n)

    def _reaching(self) -> set[Node]:
        """Float values (and arrays) whose derivative can reach a returned value: backward
        over the inputs of float nodes, and from a Load of an array to every array of its
        family (``_families``) and every value stored into them.  O(N + E)."""
        seen: set[Node] = set()
        fams: set[Node] = set()
        work = [r.term.inputs[2] for r in self.rets]
        while work:
            n = work.pop()
            if n in seen or n.is_cfg or n.type is MEM or not (
                    is_differentiable(n) or isinstance(n.type, ArrayType)):
                continue  # ints and bools pass no derivative on
            seen.add(n)
            work.extend(x for x in n.inputs[1:] if x is not None)
            rep = self.fam.get(n.inputs[2]) if type(n) is Load else None
            if rep is not None and rep not in fams:  # every value stored into the family
                fams.add(rep)
                for arr in self.members[rep]:
                    work.append(arr)
                    work.extend(u.inputs[4] for u in arr.outputs if type(u) is Store and u.inputs[2] is arr)
        return seen

    # ================================================================ forward sweep
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
            if type(n) is Store:
                self._stores.setdefault(self._alias_class(n.inputs[2]), []).append(n)
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
        if n.type is MEM and type(n) is not Store:
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
        c = b.pin(clone_node(self.g, n, ins))
        self.fm[n] = c
        self.home[c] = pb
        self.orig[c] = n
        if type(n) is Store or c.type is MEM:
            b.write("mem", blk, c)
        if n not in self.arrays:
            return
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

    def _reloadable(self, load: Node) -> bool:
        """Does primal Load ``load`` read what its array holds when the function returns
        (so the backward sweep may load it again)?  Yes when no Store that may write the
        array is reachable from the Load's block (the block itself included).  Stores
        are grouped by ``_alias_class``: a Store into a parameter may write any
        parameter (one array may be passed twice), a Store into an array whose family
        has no single root may write anything; a ``NewArray`` is written only through
        its family (itself, its Phis, its grown copies: a tape).  Per array: one
        backward walk from the blocks of its Stores, O(B + E)."""
        arr = self._alias_class(load.inputs[2])
        reach = self._store_reach.get(arr)
        if reach is None:
            S, stores = self.S, self._stores
            kinds = list(stores) if arr == "other" else [arr, "other"]
            work = [S.block_of[st] for k in kinds for st in stores.get(k, ())]
            reach = set(work)
            while work:
                for p in work.pop().preds:
                    if p not in reach:
                        reach.add(p)
                        work.append(p)
            self._store_reach[arr] = reach
        return self.S.block_of[load] not in reach

    def _alias_class(self, arr: Node):
        """The alias class of a primal array: the ``NewArray`` its family
        (``_families``: through ``TapeGrow`` and array Phis) comes from, 'param' for a
        family of parameters, or 'other' (a family with several roots, or another kind
        of root)."""
        roots = self.roots.get(self.fam.get(arr), ())
        if roots and all(type(r) is Proj and r.inputs[0] is self.P.start for r in roots):
            return "param"
        if len(roots) == 1 and type(roots[0]) is NewArray:
            return roots[0]
        return "other"

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
            elif t in (Proj, Constant, NewArray, Phi, TapeGrow):
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
            partial = t is not Load and t is not Store
            for i, v in wanted:
                b.pin(v)
                need.append((i, v if self._available(v) else self._slot(v, pb, blk, seen, slots, partial)))
            self.needs[n] = need

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

    # ================================================================ backward sweep
    def _loops_of(self, x) -> list:
        out, h = [], x.loop
        while h is not None:
            out.append(h)
            h = h.outer
        return out

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

    # ---------------------------------------------------------------- adjoint blocks
    def _build_J(self) -> None:
        b = self.b
        blk = b.start_block("J", [(self.FB[r], self.end[r]) for r in self.rets], in_loop=False,
                            barrier=b.chain[-1])
        b.add_barrier(blk)
        self.J = blk
        zero = b.const(0.0)
        for var in self.adj_vars.values():
            b.write(var, blk, zero)
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

    def _accumulate(self, x: Node, blk: Block, v: Node) -> None:
        """``xbar += v`` (``0.0 + v`` is written ``v``: a zero gradient may lose its sign)."""
        b, var = self.b, self.adj_vars[x]
        old = b.read(var, blk)
        if type(v) is Constant and v.type.is_con(0.0):
            return
        if type(old) is Constant and old.type.is_con(0.0):
            b.write(var, blk, v)
        else:
            s = b.node(Add, old, v)
            if Phi in (type(old), type(v)):  # it may turn out to be 0.0 once sealed
                self.sums.append((s, old, v))
            b.write(var, blk, s)

    def _fold_phi_webs(self, roots: list[Node]) -> None:
        """Replace a web of Phis that reach, through Phi operands, a single other value
        by that value (Braun et al.'s redundant Phi SCCs: an adjoint zeroed on every
        path of a loop is ``phi(0.0, phi(..., 0.0))``).  Each Phi is walked at most
        once: O(phis + their operands)."""
        b, done = self.b, set()
        for root in roots:
            root = b.resolve(root)
            if root in done or type(root) is not Phi or root.inputs is None:
                continue
            web, leaves, work = {root}, set(), [root]
            while work and len(leaves) < 2:
                for x in work.pop().inputs[1:]:
                    x = b.resolve(x) if x is not None else None
                    if type(x) is Phi and x.inputs is not None:
                        if x not in web:
                            web.add(x)
                            work.append(x)
                    else:
                        leaves.add(x)
            done |= web
            if len(leaves) != 1 or None in leaves or work:
                continue
            (same,) = leaves
            for x in web:
                b.replaced[x] = same
                x.subsume(same)

    def _drop_zero_sums(self) -> None:
        """``old + v`` where ``old`` or ``v`` was an incomplete Phi that turned out
        trivial, a 0.0, becomes the other operand (as ``_accumulate`` writes ``0.0 + v``
        as ``v`` and skips ``+ 0.0``: adjoints do not keep the sign of a zero).  O(sums)."""
        b = self.b
        self._fold_phi_webs([x for _, old, v in self.sums for x in (old, v) if type(x) is Phi])
        for s, old, v in self.sums:
            old, v = b.resolve(old), b.resolve(v)
            if s.inputs is None or set(s.inputs[1:]) != {old, v}:
                continue
            for zero, other in ((old, v), (v, old)):
                if _is_zero(zero) and other is not s:
                    b.replaced[s] = other
                    s.subsume(other)
                    break
            else:
                merged = self._merge_sum(old, v)
                if merged is not None:
                    b.replaced[s] = merged
                    s.subsume(merged)

    def _merge_sum(self, x: Node, y: Node) -> Node | None:
        """``phi(a1, 0.0) + phi(a2, b2)`` over one (non-loop) Region is ``phi(a1, a2 +
        b2)``: an adjoint moved along one edge and zeroed along another; the additions
        move to the edges that need them (no path runs more than before, the one
        through a zero runs none).  None unless some pair has a zero."""
        if type(x) is not Phi or type(y) is not Phi or x.inputs[0] is not y.inputs[0] \
                or type(x.inputs[0]) is not Region:
            return None
        pairs = list(zip(x.inputs[1:], y.inputs[1:]))
        if any(p is None or q is None for p, q in pairs) or \
                not any(_is_zero(p) or _is_zero(q) for p, q in pairs):
            return None
        b = self.b
        vals = [q if _is_zero(p) else p if _is_zero(q) else b.node(Add, p, q) for p, q in pairs]
        phi = Phi(self.g, x.inputs[0], *vals, assumed=FLOAT)
        phi.type = phi.compute()
        return self.b.pin(phi)

    def _adjoint(self, n: Node, blk: Block, got: dict) -> None:
        """Propagate the adjoint of active node ``n`` to its inputs, in ``blk``."""
        b, t = self.b, type(n)
        if t in (Proj, Constant, NewArray, Phi) or (n.type is not MEM and isinstance(n.type, ArrayType)):
            return
        vbar = None
        if n in self.adj_vars:
            vbar = b.read(self.adj_vars[n], blk)
            b.write(self.adj_vars[n], blk, b.const(0.0))
        need = [(i, got[v] if type(v) is tuple else v) for i, v in self.needs.get(n, ())]
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
            if isinstance(t, ArrayType):
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


"""The ``Schedule``: a graph's nodes placed in ordered basic blocks.

This is the contract between the scheduler (``son.schedule.gcm``) and the code
generator.  A ``Block`` starts at a CFG head (Start, a CProj of a two-way If, a
Region or a Loop), lists its CFG nodes in control order, its Phis, the other
nodes it computes in an executable order, and its terminator.  Blocks are in
reverse postorder from the entry; a Region's ``preds[i]`` is the block that
ends in ``head.inputs[i + 1]``, so Phi input ``i + 1`` is copied in on the
edge ``preds[i] -> block`` (``Schedule.moves``).

``check()`` re-derives every property the code generator relies on and raises
``AssertionError`` naming the first violation.  Costs: ``dominates`` O(1)
(pre/post numbers of the dominator tree), ``moves`` O(phis), ``check``
O(N + E) plus O(L * S) for L loads and S stores reading one memory state,
``str`` O(N + E).
"""

from __future__ import annotations

from .._util import gc_paused
from ..nodes import (
    Binary,
    Constant,
    CProj,
    Graph,
    If,
    Loop,
    Node,
    Phi,
    Proj,
    Raise,
    Region,
    Return,
    Start,
    Stop,
    Unary,
    XCtrl,
)


class Block:
    """A basic block; see the module docstring and the attribute comments."""

    __slots__ = ("id", "head", "cfg", "phis", "nodes", "term", "succs", "preds", "idom", "depth",
                 "loop", "outer", "dom_depth", "dom_pre", "dom_post")

    def __init__(self, head: Node):
        self.id = -1  # position in Schedule.blocks (reverse postorder)
        self.head = head  # Start, a CProj of a two-way If, a Region or a Loop
        self.cfg: list[Node] = [head]  # CFG nodes in control order, head first, term last
        self.phis: list[Phi] = []  # the head's Phis (Region/Loop heads only), by id
        self.nodes: list[Node] = []  # every other node placed here, in execution order
        self.term: Node = head  # If, Return, Raise, or the node falling into the next block
        self.succs: list[Block] = []  # If: [true, false]; Return/Raise: []; else [the next block]
        self.preds: list[Block] = []  # Region/Loop: preds[i] ends in head.inputs[i + 1]
        self.idom: Block | None = None  # immediate dominator (None for the entry)
        self.depth = 0  # loop nesting depth
        self.loop: Block | None = None  # header of the innermost enclosing loop (itself for a header)
        self.outer: Block | None = None  # for a loop header: the header of the enclosing loop
        self.dom_depth = 0  # depth in the dominator tree (entry: 0)
        self.dom_pre = 0  # preorder number in the dominator tree
        self.dom_post = 0  # largest preorder number in this block's dominator subtree

    @property
    def name(self) -> str:
        return f"B{self.id}"

    @property
    def is_loop_header(self) -> bool:
        return type(self.head) is Loop

    def __repr__(self) -> str:
        return f"<Block B{self.id} {self.head!r}>"


class Schedule:
    """The blocks of ``graph`` in reverse postorder and the block of every live node.
    ``son.viz`` adds the Jupyter hook ``_repr_svg_`` (the block CFG).

    ``block_of`` maps every live node except Stop to its block (XCtrl, never
    executed, maps to the entry block and is listed nowhere).
    """

    __slots__ = ("graph", "blocks", "block_of", "_pred_index")

    def __init__(self, graph: Graph, blocks: list[Block], block_of: dict[Node, Block]):
        self.graph = graph
        self.blocks = blocks
        self.block_of = block_of
        #: (pred, succ) -> i such that succ.preds[i] is pred
        self._pred_index: dict[tuple[Block, Block], int] = {}
        for b in blocks:
            for i, p in enumerate(b.preds):
                self._pred_index[(p, b)] = i

    # ------------------------------------------------------------------ queries
    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def dominates(self, a: Block, b: Block) -> bool:
        """Does ``a`` dominate ``b`` (every block dominates itself)?  O(1)."""
        return a.dom_pre <= b.dom_pre <= a.dom_post

    def moves(self, pred: Block, succ: Block) -> list[tuple[Phi, Node]]:
        """The parallel copies ``phi <- value`` on edge ``pred -> succ``, by phi id.

        All values are read before any phi is written.  A phi that keeps its own
        value on this edge (``phi <- phi``) needs no copy and is left out.
        """
        i = self._pred_index.get((pred, succ))
        if i is None:
            raise KeyError(f"no edge B{pred.id} -> B{succ.id}")
        out = []
        for p in succ.phis:
            v = p.inputs[i + 1]
            if v is not p:
                out.append((p, v))
        return out

    # ------------------------------------------------------------------ check
    def check(self) -> None:
        """Raise ``AssertionError`` naming the first violated property of the schedule."""
        with gc_paused():
            _check(self)

    # ------------------------------------------------------------------ listing
    def __str__(self) -> str:
        return _format(self)

    def __repr__(self) -> str:
        n = sum(len(b.nodes) + len(b.phis) for b in self.blocks)
        return f"<Schedule {self.graph.name}: {len(self.blocks)} blocks, {n} nodes>"


# ====================================================================== listing
def _atom(n: Node | None) -> str:
    if n is None:
        return "_"
    t = type(n)
    if t is Constant:
        return n.label
    if t is Proj and type(n.inputs[0]) is Start:
        return n.name
    return f"%{n.nid}"


def instruction(n: Node) -> str:
    """One node as a line of the listing: ``%12 = (%10+1)``, ``%9 = Load(mem, a, %7)``."""
    t = type(n)
    if t is Constant or (t is Proj and type(n.inputs[0]) is Start):
        return f"%{n.nid} = {_atom(n)}"
    a = [_atom(x) for x in n.inputs[1:]]
    if isinstance(n, Binary) and not n.label.isalpha():
        op = " % " if n.label == "%" else n.label
        text = f"({a[0]}{op}{a[1]})"
    elif isinstance(n, Unary) and not n.label[-1].isalpha():
        text = f"({n.label}{a[0]})"
    else:
        text = f"{n.label}({', '.join(a)})"
    return f"%{n.nid} = {text}"


def _terminator(b: Block) -> str:
    t = b.term
    if type(t) is If and len(b.succs) == 2:
        return f"if {_atom(t.pred)} -> B{b.succs[0].id} else B{b.succs[1].id}"
    if type(t) is Return:
        return f"return {', '.join(_atom(v) for v in t.values)}  [mem {_atom(t.inputs[1])}]"
    if type(t) is Raise:
        return f"raise {t.exc.__name__}({t.message!r})"
    return f"goto B{b.succs[0].id}" if b.succs else f"end {t!r}"


def _format(s: Schedule) -> str:
    g = s.graph
    params = ", ".join(f"{n}: {t}" for n, t in g.params)
    lines = [f"schedule {g.name}({params}): {len(s.blocks)} blocks"]
    for b in s.blocks:
        head = f"{type(b.head).__name__} %{b.head.nid}"
        if type(b.head) is CProj:
            head = f"{b.head.label} %{b.head.nid} of %{b.head.inputs[0].nid}"
        info = f"B{b.id} ({head}, depth {b.depth})"
        if b.preds:
            info += " preds " + " ".join(f"B{p.id}" for p in b.preds)
        if b.succs:
            info += " succs " + " ".join(f"B{x.id}" for x in b.succs)
        if b.idom is not None:
            info += f" idom B{b.idom.id}"
        lines.append(info)
        for p in b.phis:
            lines.append(f"  %{p.nid} = phi({', '.join(_atom(v) for v in p.inputs[1:])})")
        for n in b.nodes:
            lines.append("  " + instruction(n))
        lines.append("  " + _terminator(b))
        for x in b.succs:
            mv = s.moves(b, x)
            if mv:
                copies = ", ".join(f"%{p.nid} <- {_atom(v)}" for p, v in mv)
                lines.append(f"  moves B{b.id}->B{x.id}: {copies}")
    return "\n".join(lines)


# ====================================================================== check
def _check(s: Schedule) -> None:
    """See ``Schedule.check``.  Each failure names the node or block at fault."""
    blocks, block_of, dom = s.blocks, s.block_of, s.dominates
    assert blocks, "a schedule has at least the entry block"
    assert type(blocks[0].head) is Start and blocks[0].idom is None and not blocks[0].preds, \
        "blocks[0] must be the entry block (head Start, no idom, no preds)"
    pos: dict[Node, int] = {}
    for i, b in enumerate(blocks):
        assert b.id == i, f"block at position {i} has id {b.id}"
        assert b.cfg and b.cfg[0] is b.head and b.cfg[-1] is b.term, f"B{i}: cfg must run from head to term"
        if i:
            assert b.idom is not None and b.idom.id < i, f"B{i}: idom must be an earlier block"
            assert b.preds, f"B{i}: a block other than the entry needs a predecessor"
        for x in b.succs:
            assert b in x.preds, f"B{i} -> B{x.id}: edge missing from the successor's preds"
            if x.id <= i:
                assert dom(x, b) and type(x.head) is Loop, \
                    f"B{i} -> B{x.id}: retreating edge is not a loop back edge"
        for p in b.preds:
            assert b in p.succs, f"B{p.id} -> B{i}: edge missing from the predecessor's succs"
        if isinstance(b.head, Region):
            ins = b.head.inputs[1:]
            assert len(b.preds) == len(ins), f"B{i}: {len(b.preds)} preds for {len(ins)} region inputs"
            for k, (p, c) in enumerate(zip(b.preds, ins)):
                assert p.term is c, f"B{i}: preds[{k}] = B{p.id} does not end in region input {c!r}"
        t = type(b.term)
        want = 2 if t is If else 0 if t in (Return, Raise) else 1
        assert len(b.succs) == want, \
            f"B{i}: terminator {b.term!r} needs {want} successors, has {len(b.succs)}"
        if t is If:
            for k, x in enumerate(b.succs):
                assert type(x.head) is CProj and x.head.inputs[0] is b.term and x.head.index == k, \
                    f"B{i}: succs[{k}] must start with projection {k} of {b.term!r}"
        if b.loop is not None:
            assert dom(b.loop, b) and type(b.loop.head) is Loop, \
                f"B{i}: loop header B{b.loop.id} is not a Loop dominating it"
        for c in b.cfg:
            assert block_of.get(c) is b, f"{c!r} is listed in B{i} but block_of says otherwise"
        for p in b.phis:
            assert type(p) is Phi and p.inputs[0] is b.head, f"{p!r} listed in B{i} is not a phi of its head"
            assert block_of.get(p) is b, f"{p!r} listed in B{i} but block_of says otherwise"
        for k, n in enumerate(b.nodes):
            assert not n.is_cfg and type(n) is not Phi, f"{n!r} in B{i}.nodes must be a data node"
            assert n not in pos, f"{n!r} is listed twice"
            assert block_of.get(n) is b, f"{n!r} listed in B{i} but block_of says otherwise"
            pos[n] = k
    live = s.graph.live()
    for n in live:
        if type(n) is Stop:
            continue
        b = block_of.get(n)
        assert b is not None, f"{n!r} is live but not scheduled"
        if type(n) is XCtrl:
            continue
        if n.is_cfg:
            assert n in b.cfg, f"{n!r} not in the cfg list of its block B{b.id}"
        elif type(n) is Phi:
            assert n in b.phis, f"{n!r} not in the phis of its block B{b.id}"
        else:
            assert n in pos, f"{n!r} not in the nodes of its block B{b.id}"
    for n in live:
        b = block_of.get(n)
        if b is None or type(n) is XCtrl:
            continue
        if type(n) is Phi:
            for k, v in enumerate(n.inputs[1:]):
                if v is None:
                    continue
                p = b.preds[k]
                assert dom(block_of[v], p), \
                    f"{n!r} input {k + 1} {v!r} (B{block_of[v].id}) is not available at the end of " \
                    f"pred B{p.id}"
            continue
        if not n.is_cfg:
            c = n.inputs[0]
            if c is not None:
                assert block_of[c] is b, f"{n!r} is pinned to {c!r} (B{block_of[c].id}) but placed in B{b.id}"
        for x in n.inputs[1:] if not isinstance(n, Region) else ():
            if x is None or x.is_cfg:
                continue
            bx = block_of[x]
            assert dom(bx, b), f"{n!r} in B{b.id} uses {x!r} from B{bx.id}, which does not dominate it"
            if bx is b and n in pos and x in pos:
                assert pos[x] < pos[n], f"{n!r} is ordered before its input {x!r} in B{b.id}"
    for st in live:
        if not st.writes_memory:
            continue
        bs = block_of[st]
        for ld in st.inputs[1].outputs:
            if not ld.reads_memory or ld not in live or ld.inputs[1] is not st.inputs[1]:
                continue
            bl = block_of[ld]
            if bs is bl:
                assert pos[ld] < pos[st], f"{ld!r} reads the memory {st!r} overwrites but is ordered after it"
            else:
                assert not dom(bs, bl), \
                    f"{ld!r} (B{bl.id}) reads the memory {st!r} overwrites, but the store's " \
                    f"B{bs.id} dominates it"


__all__ = ["Block", "Schedule", "instruction"]

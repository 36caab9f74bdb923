"""Click's Global Code Motion (PLDI'95): place every live node in a block, then order blocks.

Pinned nodes stay where the graph says: CFG nodes in their own block, Phis in
their Region's block, Start's projections and constants in the entry block,
and every node with a control input (``inputs[0]``: Loads, Stores, NewArrays,
and divisions, shifts, powers and casts under their fault guards) in the
block of that control node, so nothing that can fault ever rises above its
guard.  The other ("floating") nodes are pure and, by the frontend's
contract, cannot fault; each goes to

* *early*: the deepest (in the dominator tree) of its inputs' blocks;
* *late*: the dominator-tree LCA of its uses' blocks, where a Phi's use of
  value ``i`` counts in the Phi block's ``preds[i - 1]``; a floating Load
  (none come from the frontend) also counts the Stores that overwrite the
  memory it reads, so it is placed before them (Click's anti-dependences);
* the block on the dominator path from late up to early with the smallest
  loop depth, the deepest such block on ties: loop-invariant code leaves its
  loops, and nothing moves further than that.

A floating node that could still fault on its input types (e.g. a division
by a value not known to be non-zero, should a pass ever drop its guard) is
not hoisted: it stays at its late block.

Within a block the nodes are ordered topologically (data inputs first, and a
Load before a Store in the same block that overwrites the memory state the
Load reads), taking the ready node of smallest id first so listings are
stable.

Cost: O(N + E) for the placement walks; per floating node one LCA walk in
the dominator tree (between its uses' blocks of smallest and largest preorder
number, so O(tree distance) rather than O(uses * depth)) and at most
loop-depth jumps to choose its block; O(n log n) per block of n nodes for the
ordering.  Measured growth is linear (about 10x per 10x nodes up to 10^5).
All walks use explicit stacks; the cyclic GC is paused while scheduling.
"""

from __future__ import annotations

import heapq

from .. import config
from .._util import gc_paused
from ..errors import SonError
from ..nodes import (
    Div,
    FloorDiv,
    Graph,
    Mod,
    Node,
    Phi,
    Pow,
    Proj,
    Shl,
    Shr,
    Start,
    ToInt,
    XCtrl,
)
from .blocks import Block, Schedule
from .dom import build_blocks, dominator_lca

_DIVISIONS = (Div, FloorDiv, Mod)


def _may_fault(n: Node) -> bool:
    """Could ``n`` raise for some run-time values of inputs of its types?"""
    t = type(n)
    if n.reads_memory:
        return True
    if t in _DIVISIONS:
        r = n.inputs[2].type
        return not (r.is_constant and r.con != 0)
    if t is Shl or t is Shr or t is Pow:
        a, r = n.inputs[1].type, n.inputs[2].type
        if t is Pow and "float" in (a.kind, r.kind):
            return True  # overflow, or a negative base to a fractional power
        return not (r.is_constant and r.kind in ("int", "bool") and r.con >= 0)
    if t is ToInt:
        return n.inputs[1].type.kind not in ("int", "bool")
    return False


def pin_nodes(graph: Graph, live: set[Node], entry: Block, block_of: dict[Node, Block]) -> list[Node]:
    """Place the pinned nodes of ``live`` (see the module docstring) into ``block_of``,
    which ``dom.build_blocks`` filled with the CFG nodes; return the floating nodes
    (in id order).  Raise ``SonError`` for a Phi off a live Region or a node under
    dead control.  O(N)."""
    floating = []
    for n in sorted(live, key=lambda n: n.nid):
        t = type(n)
        if n.is_cfg:
            if t is XCtrl:
                block_of[n] = entry  # a constant of the control lattice; never executed
            continue
        if t is Phi:
            b = block_of.get(n.inputs[0])
            if b is None or b.head is not n.inputs[0]:
                raise SonError(f"cannot schedule: {n!r} does not sit on a live Region")
            b.phis.append(n)
            block_of[n] = b
            continue
        c = n.inputs[0]
        if c is None:
            floating.append(n)
            continue
        if t is Proj and type(c) is Start:
            b = entry
        else:
            b = block_of.get(c)
            if b is None or type(c) is XCtrl:
                raise SonError(f"cannot schedule: {n!r} hangs from dead control {c!r} but is still used "
                               "(run the 'peephole' or 'dce' pass first)")
        block_of[n] = b
        b.nodes.append(n)
    return floating


def schedule_early(floating: list[Node], entry: Block, block_of: dict[Node, Block]) -> dict[Node, Block]:
    """The earliest legal block of each floating node (``pin_nodes``' result, placed by
    ``block_of``): the deepest, in the dominator tree, of its inputs' blocks.  O(N + E)."""
    early: dict[Node, Block] = {}
    on_stack: set[Node] = set()
    for root in floating:
        if root in early:
            continue
        stack = [root]
        on_stack.add(root)
        while stack:
            n = stack[-1]
            pending = None
            for x in n.inputs:
                if x is not None and x not in block_of and x not in early:
                    pending = x
                    break
            if pending is not None:
                if pending in on_stack:
                    raise SonError(f"cannot schedule: {pending!r} depends on itself without a Phi")
                on_stack.add(pending)
                stack.append(pending)
                continue
            stack.pop()
            on_stack.discard(n)
            best = entry
            for x in n.inputs:
                if x is not None:
                    bx = block_of[x] if x in block_of else early[x]
                    if bx.dom_depth > best.dom_depth:
                        best = bx
            early[n] = best
    return early


class _Span:
    """The blocks of a set by smallest and largest dominator-tree preorder number: the set's
    dominator LCA is the LCA of those two (a subtree is a contiguous preorder interval)."""

    __slots__ = ("lo", "hi")

    def __init__(self):
        self.lo: Block | None = None
        self.hi: Block | None = None

    def add(self, b: Block) -> None:
        if self.lo is None:
            self.lo = self.hi = b
        elif b.dom_pre < self.lo.dom_pre:
            self.lo = b
        elif b.dom_pre > self.hi.dom_pre:
            self.hi = b

    def add_use(self, n: Node, u: Node, block_of: dict[Node, Block]) -> None:
        """The block(s) where ``u`` uses ``n``: a Phi uses its i-th value at the end of preds[i-1]."""
        b = block_of[u]
        if type(u) is not Phi:
            self.add(b)
            return
        for i, x in enumerate(u.inputs):
            if x is n and i:
                self.add(b.preds[i - 1])

    def lca(self) -> Block | None:
        return dominator_lca(self.lo, self.hi)


def _add_anti_dependences(ld: Node, early: Block, span: _Span, live: set[Node],
                          block_of: dict[Node, Block]) -> None:
    """A floating Load must stay above the Stores (and memory Phi edges) that overwrite the
    memory it reads: their blocks below its early block join its uses."""
    mem = ld.inputs[1]
    for u in mem.outputs:
        if u is ld or u not in live or u not in block_of or not (u.writes_memory or type(u) is Phi):
            continue
        sub = _Span()
        sub.add_use(mem, u, block_of)
        b = sub.lca()
        if early.dom_pre <= b.dom_pre <= early.dom_post:  # early dominates b
            span.add(b)


def _shallower(blocks: list[Block]) -> dict[Block, Block | None]:
    """Each block's nearest strict dominator of smaller loop depth (None if none).
    O(B * loop nesting depth): each step jumps to a strictly shallower block."""
    out: dict[Block, Block | None] = {}
    for b in blocks:  # RPO: a block's dominators come first
        c = b.idom
        while c is not None and c.depth >= b.depth:
            c = out[c]
        out[b] = c
    return out


def _schedule_late(floating: list[Node], early: dict[Node, Block], live: set[Node],
                   blocks: list[Block], block_of: dict[Node, Block]) -> None:
    """Place each floating node between its late and early blocks (see the module doc).
    Users are placed first (post-order over uses).  The late block is one LCA walk per node;
    choosing the block jumps from shallower block to shallower block, at most the loop depth."""
    shallower = _shallower(blocks)
    for root in floating:
        if root in block_of:
            continue
        stack = [root]
        while stack:
            n = stack[-1]
            if n in block_of:
                stack.pop()
                continue
            pending = [u for u in n.outputs if u in early and u not in block_of and u in live]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            span = _Span()
            for u in n.outputs:
                if u in live:
                    span.add_use(n, u, block_of)
            first = early[n]
            if n.reads_memory:
                _add_anti_dependences(n, first, span, live, block_of)
            late = span.lca()
            if late is None or not (first.dom_pre <= late.dom_pre <= first.dom_post):
                raise SonError(f"cannot schedule: the inputs of {n!r} do not dominate its uses "
                               "(malformed graph)")
            best = late
            if not _may_fault(n):
                up = shallower[best]
                while up is not None and first.dom_pre <= up.dom_pre <= first.dom_post:
                    best = up
                    up = shallower[best]
            block_of[n] = best
            best.nodes.append(n)


def _order_block(b: Block, block_of: dict[Node, Block]) -> None:
    """Topological order of ``b.nodes``: inputs first, Loads before the Stores that overwrite
    what they read; the ready node of smallest id first.  O(n log n + edges)."""
    members = b.nodes
    if len(members) < 2:
        return
    here = set(members)
    indeg: dict[Node, int] = dict.fromkeys(members, 0)
    after: dict[Node, list[Node]] = {}
    for n in members:
        for x in n.inputs:
            if x is not None and x in here:
                indeg[n] += 1
                after.setdefault(x, []).append(n)
        if n.writes_memory:  # anti-dependences: reads of the memory it overwrites
            for ld in n.inputs[1].outputs:
                if ld.reads_memory and ld in here and ld.inputs[1] is n.inputs[1]:
                    indeg[n] += 1
                    after.setdefault(ld, []).append(n)
    ready = [(n.nid, n) for n in members if indeg[n] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, n = heapq.heappop(ready)
        order.append(n)
        for u in after.get(n, ()):
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, (u.nid, u))
    if len(order) != len(members):
        stuck = sorted((n for n in members if indeg[n]), key=lambda n: n.nid)
        raise SonError(f"cannot schedule B{b.id}: a cycle of dependences among {stuck[:5]!r} "
                       "(a Load would have to come both before and after a Store)")
    b.nodes = order


def schedule(graph: Graph) -> Schedule:
    """Schedule ``graph`` with Global Code Motion; the result's ``check()`` runs when
    ``son.debug`` is on.  O(N + E) plus the LCA walks (see the module docstring)."""
    with gc_paused():  # many small objects: the cyclic collector would make this superlinear
        live = graph.live()
        blocks, block_of = build_blocks(graph, live)
        floating = pin_nodes(graph, live, blocks[0], block_of)
        early = schedule_early(floating, blocks[0], block_of)
        _schedule_late(floating, early, live, blocks, block_of)
        for b in blocks:
            b.phis.sort(key=lambda p: p.nid)
            _order_block(b, block_of)
        s = Schedule(graph, blocks, block_of)
    if config.debug:
        s.check()
    return s

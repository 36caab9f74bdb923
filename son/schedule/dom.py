"""Basic blocks, the dominator tree and the loop tree of a graph's CFG.

``build_blocks(graph, live)`` cuts the live CFG nodes into basic blocks, orders
them in reverse postorder from Start, and fills in each block's ``preds``,
``succs``, ``idom``, dominator-tree numbering, loop ``depth`` and innermost
``loop`` header.

* Blocks: a block starts at Start, a Region/Loop, or a projection of an If
  whose two projections are both live; it follows the single control successor
  until an If, a Return/Raise, or a node feeding a Region.  An If with only one
  live projection (a pass removed the other side) is no branch: control falls
  through into that projection inside the same block.  O(N).
* Dominators: Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm"
  (iterate ``idom = intersect(preds)`` over reverse postorder to a fixpoint).
  O(B * E) in the worst case, and d + 3 sweeps for a reducible CFG of loop
  nesting d in practice.  The tree is numbered by an iterative preorder so
  that ``dominates`` is O(1).
* Loops: each Loop header's natural loop is found by walking backwards from the
  back edge, inner loops first (headers in reverse RPO); a block already
  claimed by an inner loop is skipped over by jumping to that loop's outermost
  known header (union-find with path compression), so the whole loop forest is
  O(B + E) (times the inverse Ackermann function).

Errors the user can cause (a graph left with unreachable but attached control,
an irreducible loop) are ``SonError``; all walks are iterative.
"""

from __future__ import annotations

from ..errors import SonError
from ..nodes import CProj, Graph, If, Loop, Node, Raise, Region, Return, Start, Stop, XCtrl
from .blocks import Block


def _malformed(what: str) -> SonError:
    return SonError(f"cannot schedule: {what} (run the 'peephole' or 'dce' pass first, or fix the pass "
                    "that produced this graph)")


def _cfg_successors(live: set[Node]) -> dict[Node, list[Node]]:
    """Control successors of each live CFG node (If: its projections by index).  O(N)."""
    succ: dict[Node, list[Node]] = {}
    for c in live:
        if not c.is_cfg:
            continue
        t = type(c)
        if t is Start or t is Stop or t is XCtrl:
            continue
        if isinstance(c, Region):
            for k, p in enumerate(c.inputs[1:], 1):
                if p is None:
                    raise _malformed(f"{c!r} input {k} is missing (a loop without its back edge)")
                if type(p) is XCtrl:
                    raise _malformed(f"{c!r} input {k} is dead control")
                succ.setdefault(p, []).append(c)
        else:
            p = c.inputs[0]
            if p is None or type(p) is XCtrl:
                raise _malformed(f"{c!r} hangs from dead control")
            succ.setdefault(p, []).append(c)
    for c, ss in succ.items():
        if type(c) is If:
            ss.sort(key=lambda x: x.index)
    return succ


def _starts_block(c: Node, succ: dict[Node, list[Node]]) -> bool:
    t = type(c)
    return t is Start or isinstance(c, Region) or (t is CProj and type(c.inputs[0]) is If
                                                   and len(succ.get(c.inputs[0], ())) == 2)


def _cut_blocks(graph: Graph, live: set[Node]) -> tuple[list[Block], dict[Node, Block]]:
    """Cut the live CFG into blocks (in discovery order) with preds/succs.  O(N)."""
    succ = _cfg_successors(live)
    block_of: dict[Node, Block] = {}
    entry = Block(graph.start)
    block_of[graph.start] = entry
    blocks, work = [entry], [entry]
    pending_succs: dict[Block, list[Node]] = {}
    while work:
        b = work.pop()
        c = b.head
        while True:
            ss = succ.get(c, [])
            t = type(c)
            if t is Return or t is Raise:
                nexts = []
                break
            if t is If and len(ss) == 2:
                nexts = ss
                break
            if len(ss) != 1:
                raise _malformed(f"control {'ends' if not ss else 'forks'} at {c!r}")
            n = ss[0]
            if _starts_block(n, succ):
                nexts = ss
                break
            c = n
            b.cfg.append(c)
            block_of[c] = b
        b.term = c
        pending_succs[b] = nexts
        for n in nexts:
            if n not in block_of:
                nb = Block(n)
                block_of[n] = nb
                blocks.append(nb)
                work.append(nb)
    for b in blocks:
        b.succs = [block_of[n] for n in pending_succs[b]]
        if len(set(b.succs)) != len(b.succs):
            raise _malformed(f"{b.term!r} reaches {b.succs[0].head!r} along two edges")
        h = b.head
        if isinstance(h, Region):
            b.preds = []
            for k, c in enumerate(h.inputs[1:], 1):
                p = block_of.get(c)
                if p is None or p.term is not c:
                    raise _malformed(f"{h!r} input {k} ({c!r}) cannot be reached from Start")
                b.preds.append(p)
        elif type(h) is not Start:
            b.preds = [block_of[h.inputs[0]]]
    for c in live:
        if c.is_cfg and c not in block_of and type(c) not in (Stop, XCtrl):
            raise _malformed(f"control node {c!r} cannot be reached from Start")
    return blocks, block_of


def _reverse_postorder(entry: Block) -> list[Block]:
    """Blocks reachable from ``entry`` in reverse postorder (iterative DFS).  O(B + E)."""
    order: list[Block] = []
    seen = {entry}
    stack = [(entry, iter(entry.succs))]
    while stack:
        b, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(s.succs)))
                break
        else:
            stack.pop()
            order.append(b)
    order.reverse()
    return order


def _dominators(blocks: list[Block]) -> None:
    """Cooper-Harvey-Kennedy on ``blocks`` (in RPO, ids set); fills ``idom`` and the numbering."""
    entry = blocks[0]
    idom: list[int] = [-1] * len(blocks)
    idom[0] = 0
    changed = True
    while changed:
        changed = False
        for b in blocks[1:]:
            new = -1
            for p in b.preds:
                q = p.id
                if idom[q] == -1:
                    continue
                if new == -1:
                    new = q
                    continue
                while q != new:  # intersect: walk the deeper (later in RPO) finger up
                    while q > new:
                        q = idom[q]
                    while new > q:
                        new = idom[new]
            if idom[b.id] != new:
                idom[b.id] = new
                changed = True
    children: list[list[Block]] = [[] for _ in blocks]
    for b in blocks[1:]:
        b.idom = blocks[idom[b.id]]
        children[b.idom.id].append(b)
    entry.idom = None
    counter = 0
    stack: list[tuple[Block, bool]] = [(entry, False)]
    while stack:
        b, done = stack.pop()
        if done:
            b.dom_post = counter - 1
            continue
        b.dom_pre = counter
        counter += 1
        b.dom_depth = 0 if b.idom is None else b.idom.dom_depth + 1
        stack.append((b, True))
        stack.extend((c, False) for c in reversed(children[b.id]))


def dominator_lca(a: Block | None, b: Block | None) -> Block | None:
    """The deepest block dominating both ``a`` and ``b`` (None counts as 'no block yet').
    O(depth of the dominator tree)."""
    if a is None:
        return b
    if b is None:
        return a
    while a.dom_depth > b.dom_depth:
        a = a.idom
    while b.dom_depth > a.dom_depth:
        b = b.idom
    while a is not b:
        a, b = a.idom, b.idom
    return a


def _dominates(a: Block, b: Block) -> bool:
    return a.dom_pre <= b.dom_pre <= a.dom_post


def _loops(blocks: list[Block]) -> None:
    """The loop forest: ``loop``, ``outer`` and ``depth`` of every block (see the module doc)."""
    rep: dict[Block, Block] = {}  # union-find: a claimed block -> a header containing it

    def find(x: Block) -> Block:
        root = x
        while root in rep:
            root = rep[root]
        while x is not root:  # path compression
            nxt = rep[x]
            rep[x] = root
            x = nxt
        return root

    headers = [b for b in blocks if type(b.head) is Loop]
    for h in reversed(headers):  # inner loops come later in RPO: they are claimed first
        h.loop = h
        back = h.preds[1]
        if not _dominates(h, back):
            raise SonError(f"cannot schedule: the back edge of {h.head!r} does not come from inside "
                           "the loop (irreducible control flow)")
        stack = [back]
        while stack:
            x = find(stack.pop())
            if x is h:
                continue
            if type(x.head) is Loop and x.loop is x:  # an inner loop: nest it, go on from its entry
                x.outer = h
                rep[x] = h
                stack.append(x.preds[0])
                continue
            x.loop = h
            rep[x] = h
            stack.extend(x.preds)
    for b in blocks:  # RPO: an enclosing header comes before everything in its loop
        if b.loop is b:
            b.depth = 1 if b.outer is None else b.outer.depth + 1
        elif b.loop is not None:
            b.depth = b.loop.depth
    for b in blocks:
        for s in b.succs:
            if s.id <= b.id and not (type(s.head) is Loop and s.preds[1] is b):
                why = "a cycle must be closed by a Loop node's back edge (input 2)" if _dominates(s, b) \
                    else "irreducible control flow (a loop with two entries)"
                raise SonError(f"cannot schedule: edge B{b.id} -> B{s.id} ({b.term!r} -> {s.head!r}) "
                               f"goes backwards: {why}")


def build_blocks(graph: Graph, live: set[Node]) -> tuple[list[Block], dict[Node, Block]]:
    """The blocks of ``graph`` in reverse postorder with dominators and loops, and the block
    of every live CFG node.  O(N + B * E) (see the module docstring)."""
    blocks, block_of = _cut_blocks(graph, live)
    blocks = _reverse_postorder(blocks[0])
    for i, b in enumerate(blocks):
        b.id = i
    _dominators(blocks)
    _loops(blocks)
    return blocks, block_of

"""Apply an optimistic solution to the graph: constants, dead control, congruence.

An optimistic analysis (``son.sccp.sccp`` or Click's combined analysis) leaves
its result in ``node.type`` of every live node: a data node's type is its
value on every execution that reaches it (a constant, or its kind), a CFG
node's type says whether control can reach it (``CTRL``/``XCTRL``; an ``If``
has the tuple of its two sides, ``IF_NEITHER`` when unreachable).  ``apply``
turns that solution into a smaller graph:

1. *congruence* (optional ``leader`` map): a value node congruent to its
   class leader is replaced by the leader (``subsume``).  Only value-numberable
   data nodes are merged (not CFG nodes, ``Store`` or ``NewArray``), and only
   when the leader is a constant, hangs from the same control (same Region for
   Phis), or floats and is available where the replaced node is (its early
   block, as Global Code Motion computes it, dominates the replaced node's: a
   pure node computed from an inner loop's Phi is not available after that
   loop).
2. *infinite loops*: a reachable loop from which Stop can no longer be reached
   once dead control is cut (every exit proven dead) gets Click's never-taken
   exit, ``If(Never) -> Raise RuntimeError`` on its back edge, as the parser
   gives a ``while True`` loop; so the loop stays live and keeps looping.
3. *dead control*: a dead projection becomes ``XCtrl``, an ``If`` with one
   dead side is replaced by its control, Regions drop dead predecessors (and
   the matching Phi values) and collapse to their single predecessor, a Loop
   whose back edge is dead becomes its entry, and Stop forgets unreachable
   Returns and Raises.  These are the peephole rules ``proj_dead``,
   ``proj_if_fold``, ``region_dead_input``, ``region_collapse``,
   ``loop_dead`` and ``stop_dead_exit``, called directly on the nodes (the
   types already tell them what is dead); then ``Graph.dce`` sweeps dead
   cycles.
4. *constants*: every remaining data node whose type is a constant is replaced
   by a ``Constant`` (the nodes the peephole engine folds: not CFG nodes,
   parameters, loads, stores or allocations).

Every replacement keeps the replaced node's type on the replacing one, so the
types stay a sound (exact) solution; after congruence, where a leader's type
may differ, the users' types are recomputed downward on a worklist.

Cost: O(N + E) for N live nodes and E edges (a few walks over the live graph,
each replacement O(users); finding the memory state for a new loop exit walks
up the CFG once per CFG node, memoized).
"""

from __future__ import annotations

from typing import Iterable

from ..errors import SonError
from ..nodes import (
    Call,
    CallMem,
    CallOut,
    Constant,
    CProj,
    Graph,
    If,
    Loop,
    Never,
    Node,
    Phi,
    Proj,
    PyOut,
    PyRegion,
    PyRegionMem,
    Raise,
    Refine,
    Region,
    Start,
    Stop,
    XCtrl,
)
from ..nodes.types import CTRL, IF_NEITHER, MEM, XCTRL, TupleType, widen_range
from ..peephole.engine import current_tracer
from ..peephole.rules import (
    loop_dead,
    proj_dead,
    proj_if_fold,
    region_collapse,
    region_dead_input,
    stop_dead_exit,
)
from ..schedule import build_blocks, pin_nodes, schedule_early

#: data nodes never replaced by a constant (the peephole engine's folding rule):
#: parameters and memory nodes have an identity or an effect beyond their value, and a
#: refinement merges back into the value it refines (``phi_same``)
_NOT_FOLDED = (Constant, Proj, Refine, CallMem, CallOut, PyRegionMem, PyOut)


def apply(graph: Graph, leader: dict[Node, Node] | None = None, *,
          nodes: list[Node] | None = None) -> tuple[dict, list[Node]]:
    """Rewrite ``graph`` in place by the solution in ``node.type`` (see the module docstring).

    ``leader`` maps a node to the representative of its congruence class.  ``nodes``
    may pass the live nodes in id order (``in_id_order(graph.live())``) when
    the caller has them already.  Returns ``({"constants": k, "dead_cfg": m,
    "congruent": c}, touched)``: ``k`` data nodes proven constant in the reachable
    graph (all replaced by Constants), ``m`` unreachable CFG nodes cut off, ``c``
    nodes replaced by their leader; ``touched`` are the live nodes whose inputs
    changed or that were created, the seeds for a peephole cleanup.  The graph
    verifies afterwards.  O(N + E).
    """
    touched: list[Node] = []
    stats = {"constants": 0, "dead_cfg": 0, "congruent": 0}
    if nodes is None:
        nodes = in_id_order(graph.live())
    if leader:
        stats["congruent"] = _merge_congruent(graph, nodes, leader, touched)
    stats["dead_cfg"] = sum(1 for n in nodes if n.inputs is not None and is_dead_cfg(n))
    if stats["dead_cfg"]:  # else every exit the parse made is still reachable
        _keep_infinite_loops(graph, nodes, touched)
        _cut_dead_control(graph, nodes, touched)
    if stats["dead_cfg"] or stats["congruent"]:
        graph.dce()  # cut-off code may hold cycles (loop Phis) that no use count frees
    # cutting control creates no data node: the survivors of ``nodes`` are the live data
    stats["constants"] = _fold_constants(graph, [n for n in nodes if n.inputs is not None], touched)
    if stats["constants"]:
        graph.dce()  # a folded node may have been the last use of a cycle (a counter Phi)
    touched = [n for n in dict.fromkeys(touched) if n.inputs is not None]
    _repair_types(touched)
    return stats, touched


def is_proven_constant(n: Node) -> bool:
    """A data node the solution says is a constant and that may become a ``Constant``."""
    return (not n.is_cfg and type(n) not in _NOT_FOLDED and n.type.is_constant
            and not (n.reads_memory or n.writes_memory or n.allocates))


def in_id_order(nodes: Iterable[Node]) -> list[Node]:
    """``nodes`` sorted by id in O(N + ids) (a bucket per id): the rewrite visits nodes
    in a fixed order, so the new nodes' ids, and the printed IR, do not depend on the
    order a set happens to iterate in."""
    nodes = list(nodes)
    slots: list[Node | None] = [None] * (1 + max((n.nid for n in nodes), default=0))
    for n in nodes:
        slots[n.nid] = n
    return [n for n in slots if n is not None]


def is_reachable(n: Node) -> bool:
    """Control can reach CFG node ``n`` according to its type."""
    t = n.type
    return t is CTRL or (isinstance(t, TupleType) and t != IF_NEITHER)


def is_dead_cfg(n: Node) -> bool:
    """An unreachable CFG node of the program (the dead-control constant does not count)."""
    t = type(n)
    return n.is_cfg and t is not XCtrl and t is not Stop and not is_reachable(n)


# ---------------------------------------------------------------- congruence
class _Availability:
    """Where a value is first available: a pinned node's block, a floating node's *early*
    block (Global Code Motion's: the deepest of its inputs' blocks), computed once on the
    graph as it is before any replacement (dead control still in: that only adds paths,
    so every dominance found holds).  A floating leader ``m`` may replace ``n`` only if
    ``m``'s block dominates ``n``'s: a pure node whose input is a Phi of an inner loop is
    not available after that loop although it has no control input.  O(N + E) once."""

    def __init__(self, graph: Graph):
        try:
            live = graph.live()
            blocks, self.block_of = build_blocks(graph, live)
            self.early = schedule_early(pin_nodes(graph, live, blocks[0], self.block_of), blocks[0],
                                        self.block_of)
        except SonError:  # a shape the scheduler refuses: merge no floating leader
            self.block_of, self.early = None, None

    def dominates(self, m: Node, n: Node) -> bool:
        if self.block_of is None:
            return False
        bm = self.block_of.get(m) or self.early.get(m)
        bn = self.block_of.get(n) or self.early.get(n)
        if bm is None or bn is None:
            return False
        while bn is not None and bn.dom_depth > bm.dom_depth:
            bn = bn.idom
        return bn is bm


def _merge_congruent(graph: Graph, nodes: list[Node], leader: dict[Node, Node], touched: list[Node]) -> int:
    count = 0
    avail: _Availability | None = None
    for n in nodes:
        if n.inputs is None or n.is_cfg or not n.is_gvn:
            continue
        m = leader.get(n)
        seen = 0
        while m is not None and m is not n and leader.get(m, m) is not m and seen < 64:
            m = leader[m]  # follow a chain to the class representative
            seen += 1
        if m is None or m is n or m.inputs is None or m.is_cfg or not m.is_gvn:
            continue
        c = m.inputs[0] if m.inputs else None
        if not (c is None or type(m) is Constant or c is n.inputs[0]):
            continue  # pinned elsewhere: it may not dominate n's uses
        if c is None and type(m) is not Constant:
            if avail is None:
                avail = _Availability(graph)
            if not avail.dominates(m, n):
                continue  # floating, but its inputs are not all available where n is
        _replace(n, m, touched, "congruent")
        count += 1
    return count


# ---------------------------------------------------------------- infinite loops
def _cfg_preds(n: Node) -> list[Node]:
    """The CFG nodes control comes from: Stop's exits, a Region's predecessors,
    otherwise the control input."""
    t = type(n)
    if t is Stop:
        return n.inputs
    if isinstance(n, Region):
        return n.inputs[1:]
    if t is Start:
        return []
    return n.inputs[:1]


def _keep_infinite_loops(graph: Graph, nodes: list[Node], touched: list[Node]) -> None:
    """Give every reachable loop that can no longer reach Stop a never-taken exit.

    Marks the reachable CFG nodes from which Stop is reachable over reachable
    edges (a walk backwards from Stop); a reachable node left unmarked loops
    forever, and its cycle runs through the back edge of an unmarked Loop.
    Loops are fixed in id order (an outer loop before the loops it contains),
    each new exit marking everything above it.  O(N + E).
    """
    marked: set[Node] = set()

    def mark(root: Node) -> None:
        stack = [root]
        while stack:
            n = stack.pop()
            if n in marked:
                continue
            marked.add(n)
            for p in _cfg_preds(n):
                if p is not None and p not in marked and is_reachable(p):
                    stack.append(p)

    mark(graph.stop)
    memo: dict[Node, Node] = {}
    for n in nodes:
        if type(n) is Loop and n.inputs is not None and n not in marked and is_reachable(n) \
                and n.back is not None and is_reachable(n.back):
            r = _never_exit(graph, n, memo)
            touched.append(r)
            mark(r)
    for n in nodes:
        if n.inputs is not None and n.is_cfg and is_reachable(n) and n not in marked:
            raise AssertionError(f"{n!r} is reachable but cannot reach Stop through any loop")


def _never_exit(graph: Graph, loop: Loop, memo: dict[Node, Node]) -> Raise:
    """Put ``If(Never) -> Raise RuntimeError`` on ``loop``'s back edge; return the Raise."""
    back = loop.back
    mem = _memory_at(graph, back, memo)
    iff = If(graph, back, Never(graph))
    t, f = CProj(graph, iff, 0), CProj(graph, iff, 1)
    loop.set_input(2, f)
    r = Raise(graph, t, mem, RuntimeError, "left an infinite loop")
    graph.stop.add_input(r)
    return r


def _memory_at(graph: Graph, c: Node, memo: dict[Node, Node]) -> Node:
    """The memory state current when control leaves CFG node ``c``: the last Store
    pinned to it, else its memory Phi (a Region), else the state it inherits from
    its control predecessor (Start's memory at the top).  Walks up the CFG;
    ``memo`` makes the total over all queries O(N + E)."""
    path = []
    while True:
        m = memo.get(c)
        if m is not None:
            break
        path.append(c)
        m = _memory_defined_at(c)
        if m is not None:
            break
        if type(c) is CProj and type(c.inputs[0]) is Start:
            m = _start_memory(graph)
            break
        if isinstance(c, Region):
            preds = [p for p in c.inputs[1:] if p is not None]
            c = next((p for p in preds if is_reachable(p)), preds[0])
        else:
            c = c.inputs[0]
    for p in path:
        memo[p] = m
    return m


#: effects whose memory state after them is a node of its own
_STATE_AFTER = {Call: CallMem, PyRegion: PyRegionMem}
_AFTER = frozenset(_STATE_AFTER.values())


def _memory_defined_at(c: Node) -> Node | None:
    stores = [u for u in c.outputs if u.writes_memory and type(u) not in _STATE_AFTER and u.inputs[0] is c]
    stores += [m for u in c.outputs if type(u) in _STATE_AFTER and u.inputs[0] is c  # the state after a call
               for m in u.outputs if type(m) is _STATE_AFTER[type(u)]]
    if stores:
        overwritten = {s.inputs[1] for s in stores if type(s) not in _AFTER}
        overwritten |= {m.inputs[1].inputs[1] for m in stores if type(m) in _AFTER}
        for s in stores:
            if s not in overwritten:
                return s
    if isinstance(c, Region):
        for u in c.outputs:
            if type(u) is Phi and u.type is MEM:
                return u
    return None


def _start_memory(graph: Graph) -> Node:
    for u in graph.start.outputs:
        if type(u) is Proj and u.index == 1:
            return u
    return Proj(graph, graph.start, 1, "mem")


# ---------------------------------------------------------------- dead control
def _replace(old: Node, new: Node, touched: list[Node], why: str) -> None:
    """Replace ``old`` by ``new`` for reason ``why`` (reported to the tracer of the
    enclosing ``rewrite_context``: ``son.trace``'s)."""
    tracer = current_tracer()
    if tracer is not None:
        tracer(why, old, new)
    touched.extend(old.outputs)
    old.subsume(new)
    touched.append(new)


def _cut_dead_control(graph: Graph, nodes: list[Node], touched: list[Node]) -> None:
    """Cut unreachable control off with the peephole's control rules (types decide)."""
    for n in nodes:  # projections first: Regions then see XCtrl or the If's control
        if type(n) is CProj and n.inputs is not None and type(n.inputs[0]) is If:
            rule = proj_dead if n.type is XCTRL else proj_if_fold
            x = rule(n)
            if x is not None:
                _replace(n, x, touched, rule.__name__)
    for n in nodes:
        if n.inputs is None:
            continue
        t = type(n)
        if t is Loop:
            rule = loop_dead
        elif t is Region:
            if region_dead_input(n) is not None:
                touched.append(n)
                touched.extend(n.phis())
            rule = region_collapse
        else:
            continue
        x = rule(n)
        if x is not None and x is not n:
            _replace(n, x, touched, rule.__name__)
    if stop_dead_exit(graph.stop) is not None:
        touched.append(graph.stop)


# ---------------------------------------------------------------- constants
def _fold_constants(graph: Graph, nodes: list[Node], touched: list[Node]) -> int:
    """Replace every data node typed a constant by a ``Constant``; returns how many such
    nodes the (reachable) graph held, whether replaced or killed by an earlier
    replacement (a ``2 - x`` whose only user, the constant Phi ``x``, went first)."""
    consts = {n.value_type: n for n in nodes if type(n) is Constant}
    proven = [n for n in nodes if is_proven_constant(n)]
    for n in proven:
        if n.inputs is None:
            continue
        c = consts.get(n.type)
        if c is None or c.inputs is None:
            c = consts[n.type] = Constant(graph, n.type)
        _replace(n, c, touched, "proven-constant")
    return len(proven)


# ---------------------------------------------------------------- types
def _repair_types(seeds: list[Node]) -> None:
    """Lower, to a fixpoint, every type that ``compute()`` no longer justifies (after
    a congruence merge changed an input's type); types only go down, a loop phi's int
    range to the int64 limits at once (``widen_range``: a cycle cannot lower it one
    value per trip).  O(changes)."""
    work = list(seeds)
    while work:
        n = work.pop()
        if n.inputs is None:
            continue
        t = n.compute()
        if t.meet(n.type) != n.type:
            old, t = n.type, n.type.meet(t)
            if type(n) is Phi and type(n.inputs[0]) is Loop:
                t = widen_range(old, t)
            n.type = t
            work.extend(n.outputs)

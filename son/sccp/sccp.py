"""Sparse conditional constant propagation (Wegman & Zadeck) on the Sea of Nodes.

The analysis is optimistic: every data node starts at ``TOP`` ("no value
yet") and every CFG node at dead control (``XCTRL``; an ``If`` at
``IF_NEITHER``), except Start, whose control is reachable.  Two worklists,
one for CFG nodes and one for values, hold nodes whose inputs changed; a
visit sets ``node.type = compute()``, the same transfer function the
peephole uses, and on a change pushes the node's users.  Reachability flows
through ``If`` (a constant predicate makes one side reachable), its
projections, Regions and Loops (a Loop is entered only through its entry);
a Phi meets only the values on reachable paths (``Phi.compute`` skips
``XCTRL`` predecessors), so values computed only in unreachable code never
reach a merge, and a loop Phi whose back edge carries the value it already
has stays constant — what the pessimistic peephole cannot see.  When a
predecessor of a Region becomes reachable the Region's Phis are revisited
even if the Region's own type does not change.

Types only go down: a new type is met with the old one, so each node is
lowered at most as often as the lattice is high (TOP, constant, kind,
number, bottom: 4 steps; control: 1 step; an If: 2) — except that int
ranges make the int part of the lattice 2**64 levels high, so a loop phi
``i = phi(0, i + 1)`` would climb one value per visit.  Widening stops it: a
loop phi whose range has grown ``WIDEN_AFTER`` times has each moving end
pushed to the nearest of the program's int constants beyond it the first
THRESHOLD_WIDENINGS times (``types.widening_thresholds``: ``k = min(k + 1, 10)``
stops at 10), to its int64 limit after that (``types.widen_range``), after
which it can only fall to ``INT`` and below, so it changes at most
WIDEN_AFTER + THRESHOLD_WIDENINGS + 2 + 4 times.
(``i + 1`` on ``[0, max]`` may wrap, so that phi ends at ``INT``: sound;
proving ``0 <= i`` needs the loop test's refinement of ``i`` — son never
assumes that an increment does not overflow.)  Then a *narrowing* phase
(``_narrow``) raises types back to ``compute()`` from the widened phis on,
a loop phi's range only as ``types.narrowing_accepted`` allows (at most
FREE_NARROWINGS + 64 times): ``k = (k + 1) & 7`` widens to ``[0, max]`` and
narrows back to ``[0, 7]``.  Every state of both phases is sound (each type
at most as precise as ``compute()`` of its inputs).

``sccp`` then applies the solution (``son.sccp.rewrite.apply``: constants,
dead control, infinite loops kept) and, when ``cleanup`` is on, runs the
peephole to a fixpoint on a worklist seeded with the nodes the rewrite
touched, then sweeps dead cycles.

Cost: O((N + E) * h) node visits for N live nodes, E def-use edges and h
the most changes of one node's type (each visit costs one ``compute()``,
O(arity), plus one push per user; a Region's Phis are pushed once per change
of a predecessor).  h is 4 without int ranges; a loop phi changes at most
WIDEN_AFTER + THRESHOLD_WIDENINGS + 6 times going down and
FREE_NARROWINGS + 64 times narrowing, and any other node only when an input changes, so h is bounded by the
changes of the loop phis upstream of a node (a handful in practice); the
rewrite is O(N + E) and the cleanup visits only what changed.
"""

from __future__ import annotations

import random
from collections import deque

from .. import config
from .._util import gc_paused
from ..nodes import Graph, If, Loop, Node, Phi, Region, Start, Stop
from ..nodes.types import (
    IF_NEITHER,
    THRESHOLD_WIDENINGS,
    TOP,
    WIDEN_AFTER,
    XCTRL,
    narrowing_accepted,
    widen_range,
    widening_thresholds,
)
from ..peephole import Peephole
from .rewrite import apply, in_id_order, is_dead_cfg, is_proven_constant


def analyze(graph: Graph, order: random.Random | None = None) -> dict:
    """Run the optimistic analysis; leave its solution in ``node.type`` of every live node.

    ``order``, a seeded ``random.Random``, makes the worklists hand out nodes in a
    shuffled order (the solution is the same for every order).  Returns
    ``{"proven": data nodes proven constant (not Constants, parameters or memory
    nodes; branch predicates and values in code found unreachable included),
    "unreachable": CFG nodes proven unreachable, "visits": node visits}``.
    O((N + E) * h), see the module docstring.
    """
    return _analyze(graph, in_id_order(graph.live()), order)


def _analyze(graph: Graph, nodes: list[Node], order: random.Random | None) -> dict:
    thresholds = widening_thresholds(nodes)  # before the types are reset
    for n in nodes:
        t = type(n)
        if not n.is_cfg:
            n.type = TOP
        elif t is Start or t is Stop:
            n.type = n.compute()
        else:
            n.type = IF_NEITHER if t is If else XCTRL
    # Seeds: every node once, lowest id first (inputs are mostly older than their users,
    # so most nodes see their inputs' final types on this first visit); later pushes go
    # to the control or the value worklist by kind, control first.
    cfg_work: list[Node] = []
    val_work = nodes[::-1]
    if order is not None:
        order.shuffle(val_work)
    queued = set(nodes)
    visits = 0
    growths: dict[Node, int] = {}
    widened: dict[Node, None] = {}
    while cfg_work or val_work:
        work = cfg_work if cfg_work else val_work
        if order is not None:
            i = order.randrange(len(work))
            work[i], work[-1] = work[-1], work[i]
        n = work.pop()
        queued.discard(n)
        visits += 1
        old = n.type
        t = n.compute()
        if t is old:
            continue
        if old is TOP:
            if t is TOP:
                continue
        else:
            if t == old or (t := old.meet(t)) == old:  # only down, even were a compute() not monotone
                continue
            if t.kind == "int" and type(n) is Phi and type(n.inputs[0]) is Loop:
                k = growths[n] = growths.get(n, 0) + 1
                if k > WIDEN_AFTER:  # a loop phi climbing one step per trip: widen
                    limits = thresholds if k <= WIDEN_AFTER + THRESHOLD_WIDENINGS else None
                    t = widen_range(old, t, limits)
                    widened[n] = None
        n.type = t
        is_cfg = n.is_cfg
        for u in n.outputs:
            if u not in queued:
                queued.add(u)
                (cfg_work if u.is_cfg else val_work).append(u)
            if is_cfg and isinstance(u, Region):
                # a predecessor of u changed: u's Phis meet a different set of values
                for p in u.outputs:
                    if type(p) is Phi and p not in queued:
                        queued.add(p)
                        val_work.append(p)
    if widened:
        visits += _narrow(list(widened))
    return {"proven": sum(1 for n in nodes if is_proven_constant(n)),
            "unreachable": sum(1 for n in nodes if is_dead_cfg(n)), "visits": visits}


def _narrow(seeds: list[Node]) -> int:
    """Narrowing after widening: from the widened solution (where every type is at most as
    precise as ``compute()``), raise types to ``compute()`` again on a worklist, users
    after a change, a loop phi's range only as far as ``narrowing_accepted`` allows.
    Each step keeps the solution sound (``compute`` is monotone: a node raised to its
    ``compute()`` stays below what its users compute).  Returns the visits."""
    work = deque(seeds)
    queued = set(seeds)
    narrowed: dict[Node, int] = {}
    visits = 0
    while work:
        n = work.popleft()
        queued.discard(n)
        visits += 1
        old = n.type
        t = n.compute()
        if t == old or not t.isa(old):
            continue
        if type(n) is Phi and type(n.inputs[0]) is Loop:
            k = narrowed.get(n, 0)
            if not narrowing_accepted(old, t, k):
                continue
            narrowed[n] = k + 1
        n.type = t
        for u in n.outputs:
            if u not in queued:
                queued.add(u)
                work.append(u)
            if n.is_cfg and isinstance(u, Region):
                for p in u.outputs:
                    if type(p) is Phi and p not in queued:
                        queued.add(p)
                        work.append(p)
    return visits


def sccp(graph: Graph, cleanup: bool = True, order: random.Random | None = None) -> dict:
    """Sparse conditional constant propagation on ``graph``, in place.

    Analyses (``analyze``), rewrites by the solution (``rewrite.apply``) and, if
    ``cleanup``, runs the peephole to a fixpoint over the nodes the rewrite touched
    and removes dead cycles.  ``order`` shuffles the worklists (for testing that
    the result does not depend on it).  Returns ``analyze``'s counts (``proven``,
    ``unreachable``, ``visits``) and ``constants``, the data nodes left in the
    reachable graph that the rewrite replaced by Constants.  The graph verifies afterwards
    (checked when ``son.debug`` is on).  O((N + E) * h) for the analysis.
    """
    with gc_paused():
        nodes = in_id_order(graph.live())
        info = _analyze(graph, nodes, order)
        stats, touched = apply(graph, nodes=nodes)
        if cleanup:
            hits = sum(graph.rule_hits.values())
            Peephole(graph).iterate(touched)
            if sum(graph.rule_hits.values()) != hits:  # a rewrite may have orphaned a cycle
                graph.dce()
    if config.debug:
        graph.verify()
    return {**info, "constants": stats["constants"]}

"""Inlining: a ``Call`` of another graph of the module replaced by a copy of that graph.

``son.parse(f, inline=False)`` keeps each call of a module-level helper a ``Call`` whose
``target`` is the helper's graph (son/frontend/recursion.py); this pass puts the body
back where the call stands, so that the caller's passes see through it.  A call is
inlined when its callee

- does not call itself, directly or through the graphs it calls (a recursive helper
  stays a call: inlining it would only unroll it once);
- returns at all (a callee that only raises or never ends is left a call); and
- is small (at most ``INLINE_SIZE`` live nodes) or is called from one place of the
  caller (then inlining never grows the module).

Inlining one call.  ``Call(K, mem, args)`` hangs from control ``K`` and runs where it
stands in K's block; the callee's body is a CFG of its own.  The copy's Start is the
call's inputs (its control projection is ``K``, its memory projection the call's memory,
parameter k the call's argument k); its Raises join the caller's Stop; its Returns give
the control ``R`` after the call (a Region when there are several, with a Phi for the
memory and for each value).  Then everything that came after the call in K's block moves
below ``R``: the CFG successors of ``K`` (the block's end: an If, a Return, a Region's or
a Loop's input) and the nodes pinned to ``K`` that depend on the call through data or
memory (a Load after it, the next Call).  Nodes pinned to ``K`` that do not depend on the
call stay above it: only memory orders effects, so a node that does not depend on the
call's memory does not come after it.  Last, the call's result, its ``CallOut`` and its
``CallMem`` take the Returns' values and memory, and the peephole runs over the copy with
the caller's constants (interprocedural constant propagation for free).

Cost: O(N + N_callee) per inlined call (the pass walks the caller to find the next call;
the copy and the split touch the callee and the part of K's block that depends on the
call), plus the peephole over the copy; at most ``MAX_INLINED`` calls per pass, so a
chain of helpers calling helpers cannot blow up the graph exponentially.
``propagate_constant_arguments`` is O(size of the module).  Iterative throughout."""

from __future__ import annotations

from ..nodes import (
    Call,
    CallMem,
    CallOut,
    Constant,
    CProj,
    Graph,
    Node,
    Phi,
    Proj,
    Region,
    Return,
    unrefined,
)
from ..nodes.node import copy_slots
from .engine import Peephole

#: a callee of at most this many live nodes is inlined at every call site
INLINE_SIZE = 80
#: at most this many calls are inlined by one run of the pass
MAX_INLINED = 200


def recursive(callee: Graph) -> bool:
    """Does ``callee`` call itself, directly (a Call of no target or of itself) or
    through the graphs it calls?  O(size of its module)."""
    if callee in callee.callees():
        return True
    return any(type(n) is Call and n.target is None for n in callee.nodes())


def inline_calls(graph: Graph, size: int = INLINE_SIZE) -> dict:
    """Inline the calls of ``graph`` that the heuristic above allows (also those that an
    inlining brings in); the counts of calls inlined and kept."""
    inlined = 0
    verdict: dict[Graph, bool] = {}
    while inlined < MAX_INLINED:
        calls = [n for n in graph.nodes() if type(n) is Call and n.target is not None]
        sites: dict[Graph, int] = {}
        for c in calls:
            sites[c.target] = sites.get(c.target, 0) + 1
        todo = None
        for c in calls:
            t = c.target
            if t not in verdict:
                verdict[t] = bool(t.returns()) and not recursive(t)
            if verdict[t] and (sites[t] == 1 or len(t) <= size):
                todo = c
                break
        if todo is None:
            break
        inline_call(graph, todo)
        inlined += 1
    if inlined:
        graph.dce()  # what the peephole over the copies cut off (a loop a raise always leaves)
    left = sum(1 for n in graph.nodes() if type(n) is Call and n.target is not None)
    return {"inlined": inlined, "calls": left}


def inline_call(graph: Graph, call: Call) -> list[Node]:
    """Replace ``call`` (of a target graph) by a copy of its target's body, as the module
    docstring says; the nodes made (the copy), which the peephole has visited."""
    callee = call.target
    k_ctrl, mem, args = call.inputs[0], call.inputs[1], call.args
    after = _dependents(call)
    made, copies = _copy_body(graph, call, callee, k_ctrl, mem, args)
    rets = [made[r] for r in callee.returns()]
    ctrl, mem_out, values, merge = _merge_returns(graph, rets)
    # everything after the call in K's block moves below the copy's end
    made_here = set(copies).union(merge)
    for u in list(k_ctrl.outputs):
        if u in made_here or type(u) in (Phi, CProj) or not (u.is_cfg or u in after):
            continue
        for i, x in enumerate(u.inputs):
            if x is k_ctrl and (i > 0 or not isinstance(u, Region)):
                u.set_input(i, ctrl)
    for u in list(call.outputs):
        if type(u) is CallMem:
            u.subsume(mem_out)
        elif type(u) is CallOut:
            u.subsume(values[u.index])
    if call.outputs:
        call.subsume(values[0])
    else:
        call.kill()
    for r in rets:
        r.release()
    new = [n for n in copies + merge if not n.dead]
    Peephole(graph).iterate(new + sorted((n for n in after if not n.dead), key=lambda n: n.nid))
    return [n for n in new if not n.dead]


class _Ret:
    """A Return of the callee, copied as its inputs only: (ctrl, mem, values)."""

    __slots__ = ("inputs",)

    def __init__(self, inputs: list[Node]):
        self.inputs = inputs
        for x in inputs:
            x.keep()

    def release(self) -> None:
        for x in self.inputs:
            x.unkeep()
            if x.is_unused():
                x.kill()


def _dependents(call: Call) -> set[Node]:
    """The nodes that depend on ``call`` through data or memory without passing a Phi or
    a CFG node (those start other blocks): what must come after it.  O(their count)."""
    seen: set[Node] = set()
    work = [call]
    while work:
        n = work.pop()
        for u in n.outputs:
            if u not in seen and not u.is_cfg and type(u) is not Phi:
                seen.add(u)
                work.append(u)
    return seen


def _copy_body(graph: Graph, call: Call, callee: Graph, k_ctrl: Node, mem: Node,
               args: list[Node]) -> tuple[dict, list[Node]]:
    """Copies of the callee's live nodes in ``graph`` (new ids, the call's line), its
    Start's projections mapped to the call's inputs, its Returns to ``_Ret`` records and
    the rest of what ends in its Stop (Raises) hung from the caller's Stop; the map from
    the callee's nodes and the copies, in id order."""
    start = callee.start
    made: dict = {start: k_ctrl}
    old = [n for n in callee.nodes() if n is not start and n is not callee.stop]
    for n in old:
        if type(n) is CProj and n.inputs[0] is start:
            made[n] = k_ctrl
        elif type(n) is Proj and n.inputs[0] is start:
            made[n] = mem if n.index == 1 else args[n.index - 2]
    pairs: list[tuple[Node, Node]] = []
    line, graph.line = graph.line, graph.lines.get(call.nid)
    try:
        for n in old:
            if n in made or type(n) is Return:
                continue
            c = object.__new__(type(n))
            copy_slots(n, c)
            c.graph, c.nid, c.inputs, c.outputs, c._gvn_key, c._pins = graph, graph.new_id(), [], {}, None, 0
            made[n] = c
            pairs.append((n, c))
    finally:
        graph.line = line
    for n, c in pairs:
        for x in n.inputs:
            c.add_input(None if x is None else made[x])
    for n in old:
        if type(n) is Return:
            made[n] = _Ret([made[x] for x in n.inputs])
    for s in callee.stop.inputs:
        if type(s) is not Return:
            graph.stop.add_input(made[s])
    return made, [c for _, c in pairs]


def _merge_returns(graph: Graph, rets: list[_Ret]) -> tuple[Node, Node, list[Node], list[Node]]:
    """The control, memory and values after the copied Returns ``rets``: theirs when
    there is one, else a Region and Phis merging them; and the nodes made."""
    if len(rets) == 1:
        r = rets[0].inputs
        return r[0], r[1], list(r[2:]), []
    region = Region(graph, *[r.inputs[0] for r in rets])
    made: list[Node] = [region]
    merged = []
    for i in range(1, len(rets[0].inputs)):
        phi = Phi(graph, region, *[r.inputs[i] for r in rets])
        made.append(phi)
        merged.append(phi)
    return region, merged[0], merged[1:], made


def propagate_constant_arguments(graph: Graph) -> list[Graph]:
    """Interprocedural constant propagation over ``graph``'s module: a parameter of a
    callee that every call from the module's graphs passes the same constant, and that
    the callee's calls of itself pass on unchanged (a lifted closure's captured value),
    becomes that constant inside the callee.  The callees changed, for their passes to
    run again.  O(size of the module)."""
    module = [graph, *graph.callees()]
    sites: dict[Graph, list[Call]] = {g: [] for g in module[1:]}
    own: dict[Graph, list[Call]] = {g: [] for g in module[1:]}
    for g in module:
        for n in g.nodes():
            if type(n) is not Call:
                continue
            target = n.target or g
            if target is g and g in own:
                own[g].append(n)
            elif target in sites:
                sites[target].append(n)
    changed = []
    for g, calls in sites.items():
        folded = False
        for k in range(len(g.params)):
            p = g.param(k)
            args = [c.inputs[2 + k] for c in calls]
            if p is None or not args or any(type(a) is not Constant or a.type != args[0].type for a in args):
                continue
            if any(unrefined(c.inputs[2 + k]) is not p for c in own[g]):
                continue
            p.subsume(Constant(g, args[0].type))
            folded = True
        if folded:
            changed.append(g)
    return changed


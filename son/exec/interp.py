"""The reference interpreter: runs any graph with the semantics of DESIGN.md.

It walks the CFG from Start.  Entering a Region through its k-th input
assigns every Phi its k-th value (all read before any is written, so phis
that read each other swap correctly).  Memory nodes (Load, Store, NewArray)
run eagerly when control reaches the CFG node they hang from, in an order
that respects their data, memory and anti-dependences; pure data nodes are
evaluated on demand and memoized until control next enters a Region (the
only place a Phi, and so any pure value, can change).  Every node's value
comes from its own ``eval``, the same function the folder uses.

Cost: O(N + E) to plan, then O(1) per executed node.  All walks are iterative.
"""

from __future__ import annotations

import sys

import numpy as np

from .. import config
from ..errors import SonError
from ..nodes import (
    Call,
    CFGNode,
    Constant,
    CProj,
    Graph,
    If,
    ListLen,
    ListOp,
    Load,
    Loop,
    NewArray,
    NewList,
    Node,
    PairwiseSum,
    Phi,
    Proj,
    PyRegion,
    Raise,
    Region,
    Return,
    Start,
    Stop,
    Store,
)
from ..nodes.control import flatten, rebuild
from ..nodes.lists import list_converter
from ..nodes.memory import TapeGrow
from ..nodes.opaque import enter_call
from ..nodes.rows import written_back
from ..nodes.types import INT64_MAX, INT64_MIN, ArrayType, ListType

_EAGER = (Load, Store, NewArray, TapeGrow, Call, NewList, ListLen, ListOp, PyRegion, PairwiseSum)
#: Python frames one level of a recursive call takes in the interpreter (an upper bound)
_FRAMES_PER_CALL = 4


class _Plan:
    """What the interpreter precomputes about a graph: successors, phis, effects."""

    def __init__(self, g: Graph, module: dict | None = None):
        #: the plans of the graphs this run calls (the module's), made on first call
        self.module: dict[Graph, _Plan] = {} if module is None else module
        self.module[g] = self
        self.succ: dict[Node, list[tuple[Node, int]]] = {}
        self.proj: dict[tuple[Node, int], Node] = {}
        self.phis: dict[Node, list[Phi]] = {}
        eager: dict[Node, list[Node]] = {}
        self.entry = None
        for n in g.nodes():
            t = type(n)
            if isinstance(n, Region):
                for k, c in enumerate(n.inputs):
                    if k and c is not None:
                        self.succ.setdefault(c, []).append((n, k))
                self.phis[n] = sorted(n.phis(), key=lambda p: p.nid)
            elif t is CProj:
                self.proj[(n.inputs[0], n.index)] = n
                if type(n.inputs[0]) is Start:
                    self.entry = n
            elif isinstance(n, CFGNode) and t not in (Start, Stop) and n.inputs and n.inputs[0] is not None:
                self.succ.setdefault(n.inputs[0], []).append((n, 0))
            elif t in _EAGER:
                eager.setdefault(n.inputs[0], []).append(n)
        self.eager = {c: _effect_order(ns) for c, ns in eager.items()}

    def callee(self, g: Graph) -> _Plan:
        plan = self.module.get(g)
        return plan if plan is not None else _Plan(g, self.module)


def _effect_order(nodes: list[Node]) -> list[Node]:
    """Topological order of the memory nodes hanging from one CFG node.

    Edges: an effect that (through pure nodes) feeds another comes first, and a
    Load comes before a Store that overwrites the memory state it reads.
    """
    members = set(nodes)
    before: dict[Node, set[Node]] = {n: set() for n in nodes}
    for n in nodes:
        stack, seen = [x for x in n.inputs[1:] if x is not None], set()
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            if x in members:
                before[n].add(x)
            elif not x.is_cfg and type(x) not in (Phi, Proj, Constant) and type(x) not in _EAGER:
                stack.extend(y for y in x.inputs[1:] if y is not None)
    for s in nodes:
        if s.writes_memory:  # a call may write the arrays it is given
            for ld in nodes:
                if ld.reads_memory and ld.inputs[1] is s.inputs[1]:
                    before[s].add(ld)
    order, done = [], set()
    for n in sorted(nodes, key=lambda n: n.nid):
        stack = [n]
        while stack:
            x = stack[-1]
            if x in done:
                stack.pop()
                continue
            pending = [y for y in before[x] if y not in done]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            done.add(x)
            order.append(x)
    return order


def _check_args(g: Graph, args) -> list:
    if g.arg_forms is not None:
        args = flatten(g.arg_forms, args, g.name)
    if len(args) != len(g.params):
        raise SonError(f"{g.name}() takes {len(g.params)} arguments ({len(args)} given)")
    out = []
    for (name, t), a in zip(g.params, args):
        if isinstance(t, ArrayType):
            if not (isinstance(a, np.ndarray) and a.ndim == 1 and str(a.dtype) == t.dtype):
                raise SonError(f"{g.name}(): argument {name!r} must be a 1-D {t.dtype} numpy array, "
                               f"got {type(a).__name__}")
            out.append(a)
            continue
        if isinstance(t, ListType):
            out.append(list_converter(f"{g.name}(): argument {name!r}", t)(a))
            continue
        if isinstance(a, np.generic):
            a = a.item()
        if t.kind == "float" and type(a) is int:
            a = float(a)
        if type(a) not in (int, float, bool) or (t.kind == "int" and type(a) is float) or \
                (t.kind == "bool" and type(a) is not bool):
            raise SonError(f"{g.name}(): argument {name!r} must be {t}, got {type(a).__name__} {a!r}")
        if type(a) is int and not INT64_MIN <= a <= INT64_MAX:
            raise SonError(f"{g.name}(): argument {name!r} = {a} does not fit in int64")
        out.append(a)
    return out


def interpret(g: Graph, *args):
    """Run graph ``g`` on ``args``; returns its value (a tuple where the Return has several)
    or raises what it raises.  A recursive ``Call`` runs the graph again, RecursionError
    past ``config.recursion_limit`` calls deep; a ``Call`` of another graph (a recursive
    helper's) runs that graph.  Fallback regions (``PyRegion``) of the
    call share one frame for the variables only they use.  Omitted trailing arguments
    take the Python function's defaults (``Graph.defaults``)."""
    n = len(g.arg_forms) if g.arg_forms is not None else len(g.params)
    if len(args) < n and all(i in g.defaults for i in range(len(args), n)):  # omitted: the defaults
        args = (*args, *(g.defaults[i] for i in range(len(args), n)))
    with enter_call(), written_back(g.arg_forms, args, g.name):  # lists of tuples: son/nodes/rows.py
        return _interpret(g, args)


def _interpret(g: Graph, args: tuple):
    plan = _Plan(g)
    if not any(type(n) is Call for n in g.nodes()):
        return _run(g, plan, _check_args(g, args), 0)
    need = _FRAMES_PER_CALL * (config.recursion_limit + 2) + 200
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, need + len(_frames())))
    try:
        return _run(g, plan, _check_args(g, args), 0)
    finally:
        sys.setrecursionlimit(old)


def _frames() -> list:
    out, f = [], sys._getframe()
    while f is not None:
        out.append(f)
        f = f.f_back
    return out


def _run(g: Graph, plan: _Plan, args: list, depth: int):
    vals: dict[Node, object] = {}  # phis, parameters, memory effects: changed only by control
    memo: dict[Node, object] = {}  # pure values, valid until control enters a Region
    for u in g.start.outputs:
        if type(u) is Proj and u.index == 1:
            vals[u] = None  # the memory state is a token; arrays change in place
    for i, a in enumerate(args):
        p = g.param(i)
        if p is not None:
            vals[p] = a

    def value(root: Node):
        if root in vals:
            return vals[root]
        stack = [root]
        while stack:
            n = stack[-1]
            if n in memo or n in vals:
                stack.pop()
                continue
            if type(n) is Phi or type(n) in _EAGER or n.is_cfg:
                raise SonError(f"interpreter: {n!r} used before control reached it (malformed graph)")
            pending = [x for x in n.inputs[1:] if x is not None and x not in memo and x not in vals]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            memo[n] = n.eval(*[vals[x] if x in vals else memo[x] for x in n.inputs[1:]])
        return memo[root]

    c = plan.entry
    if c is None:
        raise SonError(f"{g.name}: the graph has no entry")
    while True:
        for e in plan.eager.get(c, ()):
            if type(e) is Call:
                if depth >= config.recursion_limit:
                    raise RecursionError("maximum recursion depth exceeded")
                callee = e.target or g
                vals[e] = _run(callee, plan.callee(callee), [value(x) for x in e.inputs[2:]], depth + 1)
                continue
            vals[e] = e.eval(*[value(x) for x in e.inputs[1:]])
        t = type(c)
        if t is Return:
            if c.form is not None and depth == 0:  # a Call's are its flat values (a view's four)
                return rebuild(c.form, [value(v) for v in c.inputs[2:]])
            if len(c.inputs) == 3:
                return value(c.inputs[2])
            return tuple(value(v) for v in c.inputs[2:])  # a multi-value Return
        if t is Raise:
            raise c.exc(c.message)
        if t is If:
            taken = 0 if value(c.inputs[1]) else 1
            nxt = plan.proj.get((c, taken))
            if nxt is None:
                raise SonError(f"interpreter: {c!r} has no projection for the side taken")
            c = nxt
            continue
        succ = plan.succ.get(c)
        if not succ:
            raise SonError(f"interpreter: control stops at {c!r} (malformed graph)")
        nxt, k = succ[0]
        if isinstance(nxt, (Region, Loop)):
            phis = plan.phis[nxt]
            new = [value(p.inputs[k]) for p in phis]
            for p, v in zip(phis, new):
                vals[p] = v
            memo.clear()
        c = nxt

"""The graph verifier: the invariants every stage must keep.  O(N + E).

1. edges are symmetric (def-use and use-def agree, with multiplicity);
2. no dead node is still attached (every attached node is live from Stop);
3. control is well formed: control inputs are CFG nodes, a Phi sits on a
   Region and has one value per Region input, an If has at most one
   projection per side, Return/Raise feed Stop, every Return returns as many values;
4. types are sound: a node's type is never more precise than ``compute()``
   says its inputs justify.
"""

from __future__ import annotations

from .control import CFGNode, CProj, If, Loop, Phi, Raise, Region, Return, Stop
from .node import Node
from .types import NONE


class VerifyError(AssertionError):
    pass


def _returns_none(r: Return) -> bool:
    return len(r.values) == 1 and r.values[0].type is NONE


def _fail(n: Node, what: str) -> None:
    raise VerifyError(f"{n!r}: {what}")


def verify(g) -> None:
    live = g.live()
    for n in g.attached():
        if n not in live:
            _fail(n, "dead node still attached (no path to Stop)")
    for n in live:
        if n.inputs is None:
            _fail(n, "killed node still used")
        for x in n.inputs:
            if x is not None and x.outputs.get(n, 0) != n.inputs.count(x):
                _fail(n, f"input {x!r} does not list it as a user the right number of times")
        for u, k in n.outputs.items():
            if u.inputs is None or u.inputs.count(n) != k:
                _fail(n, f"user {u!r} does not use it {k} times")
        _check_control(n)
        t = n.compute()
        if t.meet(n.type) != n.type:
            _fail(n, f"type {n.type} is more precise than compute() = {t}")


def _check_control(n: Node) -> None:
    t = type(n)
    if isinstance(n, Region):
        for c in n.inputs[1:]:
            if c is not None and not c.is_cfg:
                _fail(n, f"control input {c!r} is not a CFG node")
        if t is Loop and len(n.inputs) != 3:
            _fail(n, "a Loop has exactly an entry and a back edge")
    elif t is Phi:
        r = n.inputs[0]
        if not isinstance(r, Region):
            _fail(n, f"Phi on {r!r}, not on a Region")
        if len(n.inputs) != len(r.inputs):
            _fail(n, f"Phi has {len(n.inputs) - 1} values for {len(r.inputs) - 1} paths")
    elif t is Stop:
        # one arity per graph, but for Returns of None alone (a tuple or None as the result)
        arity = {len(c.inputs) for c in n.inputs if type(c) is Return and not _returns_none(c)} or {3}
        for c in n.inputs:
            if type(c) not in (Return, Raise):
                _fail(n, f"Stop input {c!r} is not a Return or Raise")
            if type(c) is Return and len(arity) > 1:
                _fail(c, f"Returns of one graph return {sorted(k - 2 for k in arity)} values")
            if type(c) is Return and any(v is None or v.is_cfg for v in c.values):
                _fail(c, "a returned value is missing or is control")
    elif isinstance(n, CFGNode) and n.inputs:
        c = n.inputs[0]
        if c is not None and not c.is_cfg and t is not CProj:
            _fail(n, f"control input {c!r} is not a CFG node")
    elif n.inputs and n.inputs[0] is not None and not n.inputs[0].is_cfg:
        _fail(n, f"control input {n.inputs[0]!r} is not a CFG node")
    if t is If:
        idx = [u.index for u in n.outputs if type(u) is CProj]
        if len(idx) != len(set(idx)):
            _fail(n, "two projections of the same side")

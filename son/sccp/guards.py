"""Guard elimination: a test decided by the tests that dominate it is folded.

``assert b != 0`` followed by ``a // b`` tests ``b == 0`` twice; ``for i in
range(len(a)): a[i]`` tests ``i < len(a)`` in the loop header and again,
as ``out_of_bounds(i, len(a))``, at the access.  On every path to the second
test the first one's outcome is known, so the second branch is dead.  A local
peephole cannot see this (the two tests are far apart in the CFG); the
dominator tree can:

* The blocks of the graph (``son.schedule.build_blocks``) are walked down the
  dominator tree, depth first, with a scoped table of *facts*: entering a block
  whose head is a projection of ``If(p)``, ``p`` is known true (projection 0) or
  false, in that block and in every block it dominates.
* A branch condition is looked up under the facts (``decide``): the same node;
  its negation (``not p``); the same comparison written another way (``x != y``
  under ``x == y``, ``b > a`` under ``a < b``; for ints also ``a >= b`` under
  ``a < b``, which NaN breaks for floats); an order implied by one known
  (``a < b`` decides ``a == b``); a truth test ``bool(x)`` / ``x != 0``; and
  ``out_of_bounds(i, n)``, false where ``i < n`` is known and ``i >= 0`` is
  known or follows from ``i``'s type.
* Each decided ``If`` gets the constant condition; the peephole then removes
  the dead side, and ``dce`` what hung from it.

A fact is sound for every block it is recorded in because the operands of a
condition are values (not re-evaluated): the same node has the same value on
every path through the dominating test.  Operands are compared without their
refinements (``Refine``, son/nodes/refine.py, is its input's value).

Cost: blocks and dominators O(B * E) worst case (near linear in practice), the
walk O(N + E) with O(1) work per condition (a bounded chain of ``not``), plus
the peephole's cleanup.
"""

from __future__ import annotations

from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Constant,
    CProj,
    Graph,
    If,
    Node,
    Not,
    OutOfBounds,
    ToBool,
    unrefined,
)
from ..nodes.types import bounds, constant
from ..peephole import Peephole, current_tracer
from ..schedule import build_blocks

__all__ = ["eliminate_guards"]

#: int comparisons as (key kind, swap operands?, polarity): a < b is ("lt", a, b)
_ORDER = {LT: (False, True), GT: (True, True), LE: (True, False), GE: (False, False)}


def _is_int(n: Node) -> bool:
    return n.type.kind in ("int", "bool")


def truth_key(p: Node) -> tuple[tuple, bool]:
    """``(key, polarity)``: condition ``p`` holds exactly when the condition named by
    ``key`` has truth ``polarity``.  Keys: ``("nz", x)``: ``x`` is truthy (``bool(x)``,
    ``x != 0``; true for NaN too); ``("eq", a, b)``: ``a == b``, operands ordered by id
    (``!=`` is its negation, NaN included); ``("lt", a, b)``: ``a < b`` for ints (``>``,
    ``<=``, ``>=`` rewritten into it); else ``("node", p)``.  O(chain of ``not``)."""
    pol = True
    while type(p) is Not:
        p, pol = p.inputs[1], not pol
    t = type(p)
    if t is ToBool:
        return ("nz", unrefined(p.inputs[1])), pol
    if t in (EQ, NE):
        a, b = unrefined(p.inputs[1]), unrefined(p.inputs[2])
        for x, z in ((a, b), (b, a)):
            if type(z) is Constant and z.type.is_con(0) and _is_int(x):
                return ("nz", x), pol if t is NE else not pol
        return _eq_key(a, b), pol if t is EQ else not pol
    if t in _ORDER and _is_int(p.inputs[1]) and _is_int(p.inputs[2]):
        swap, positive = _ORDER[t]
        a, b = unrefined(p.inputs[1]), unrefined(p.inputs[2])
        if swap:
            a, b = b, a
        return ("lt", a, b), pol if positive else not pol
    return ("node", p), pol


def _eq_key(a: Node, b: Node) -> tuple:
    return ("eq", a, b) if a.nid <= b.nid else ("eq", b, a)


def _implied(key: tuple, truth: bool) -> list[tuple[tuple, bool]]:
    """The facts that ``key``'s truth implies besides itself (ints)."""
    kind = key[0]
    if kind == "lt" and truth:
        a, b = key[1], key[2]
        return [(("lt", b, a), False), (_eq_key(a, b), False)]
    if kind == "eq" and truth and _is_int(key[1]) and _is_int(key[2]):
        a, b = key[1], key[2]
        return [(("lt", a, b), False), (("lt", b, a), False)]
    return []


class _Facts:
    """A scoped table: key -> truth (and ``("lo", x)`` -> a lower bound of int ``x``),
    with an undo log per open scope."""

    def __init__(self):
        self.known: dict[tuple, object] = {}
        self.log: list[tuple[tuple, object]] = []

    def _set(self, key: tuple, value) -> None:
        self.log.append((key, self.known.get(key)))
        self.known[key] = value

    def add(self, key: tuple, truth: bool) -> None:
        for k, v in [(key, truth), *_implied(key, truth)]:
            if k not in self.known:
                self._set(k, v)
        if key[0] == "lt":  # a bound against a constant: a >= c, or b > c
            a, b = key[1], key[2]
            if not truth and type(b) is Constant:
                self._raise_lower(a, int(b.type.con))
            elif truth and type(a) is Constant:
                self._raise_lower(b, int(a.type.con) + 1)

    def _raise_lower(self, x: Node, lo: int) -> None:
        old = self.known.get(("lo", x))
        if old is None or lo > old:
            self._set(("lo", x), lo)

    def lower(self, x: Node) -> int | None:
        """The greatest lower bound of int ``x`` that its type (a refinement's included)
        or the facts about its value show."""
        r = bounds(x.type)
        known = [v for v in (r[0] if r else None, self.known.get(("lo", unrefined(x)))) if v is not None]
        return max(known) if known else None

    def mark(self) -> int:
        return len(self.log)

    def undo(self, mark: int) -> None:
        while len(self.log) > mark:
            k, old = self.log.pop()
            if old is None:
                del self.known[k]
            else:
                self.known[k] = old

    def decide(self, p: Node) -> bool | None:
        """The truth of condition ``p`` under the facts, or None if unknown."""
        key, pol = truth_key(p)
        v = self.known.get(key)
        if v is not None:
            return v if pol else not v
        if key[0] == "node" and type(key[1]) is OutOfBounds:
            i, n = key[1].inputs[1], key[1].inputs[2]
            lo = self.lower(i) if _is_int(i) else None
            if lo is not None and lo >= 0 and self.known.get(("lt", unrefined(i), unrefined(n))) is True:
                return not pol  # in bounds: out_of_bounds(i, n) is false
        return None


def eliminate_guards(graph: Graph) -> dict:
    """Fold every ``If`` whose condition the dominating tests decide; then clean up with
    the peephole and ``dce``.  Returns ``{"decided": k, "dead": d}``.  See the module
    docstring for the cost."""
    live = graph.live()
    blocks, _ = build_blocks(graph, live)
    if not blocks:
        return {"decided": 0, "dead": 0}
    children: dict[int, list] = {}
    for b in blocks:
        if b.idom is not None and b.idom is not b:
            children.setdefault(id(b.idom), []).append(b)
    facts = _Facts()
    decided: list[tuple[If, bool]] = []
    stack: list[tuple[object, int | None]] = [(blocks[0], None)]
    while stack:
        b, mark = stack.pop()
        if mark is not None:  # leaving b's subtree
            facts.undo(mark)
            continue
        m = facts.mark()
        head = b.head
        if type(head) is CProj and type(head.inputs[0]) is If:
            key, pol = truth_key(head.inputs[0].inputs[1])
            facts.add(key, pol if head.index == 0 else not pol)
        for c in b.cfg:
            if type(c) is If and type(c.inputs[1]) is not Constant:
                v = facts.decide(c.inputs[1])
                if v is not None:
                    decided.append((c, v))
        stack.append((b, m))
        stack.extend((k, None) for k in reversed(children.get(id(b), ())))
    tracer = current_tracer()
    for iff, v in decided:
        c = Constant(graph, constant(v))
        if tracer is not None:
            tracer("guard_decided", iff.inputs[1], c)  # son.trace shows each decided test
        iff.set_input(1, c)
    dead = 0
    if decided:
        Peephole(graph).iterate(graph.nodes())
        dead = graph.dce()
    return {"decided": len(decided), "dead": dead}

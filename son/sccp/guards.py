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
  ``out_of_bounds(i, n)``, false where ``i < n`` and ``i >= 0`` are known.
* An order ``a < b`` that no single fact states is proven by a short chain of
  *difference bounds* ``x <= y + k`` (``upper_bound``): from the facts (``j < m``
  is ``j <= m - 1``), a refinement's relation (``Refine(i, n, "lt")``), ``x + c``
  and ``x - d`` where the operands' ranges show the sum cannot wrap, a merge phi
  (every input bounded), a loop phi whose back edge never grows it (a count
  down is bounded by its first value), ``min``, and ``len(np.zeros(n))``, which
  is ``n``.  So ``for j in range(n - 1 - i): a[j + 1]`` with ``n = len(a)``
  and ``i >= 0`` needs no bounds check: ``j + 1 <= n - 1 - i <= n - 1``.
* Each decided ``If`` gets the constant condition; the peephole then removes
  the dead side, and ``dce`` what hung from it.
* With ``halve`` (kernels, ``son.driver.passes.kernel_graph``, after loop versioning,
  which looks for whole checks), a bounds check with one half proven tests the other
  only: ``i >= n`` where
  ``i >= 0`` is known, ``i < -n`` where ``i < n`` is (``k = min(int(x * m), m - 1)``
  may still be negative).  ``n`` is a length, so ``-n`` does not wrap.
* The same walk reuses loads: a ``Load`` of the same array and index from the
  same memory state as a load in a dominating block (or earlier in its block) is
  that load's value (``if a[0] > m: m = a[0]`` reads ``a[0]`` once).  The same
  memory node means no store between them; a load pinned further down (below a
  bounds check) is only ever replaced by one that already ran.

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
    Add,
    ArrayLen,
    Constant,
    CProj,
    Graph,
    If,
    ListLen,
    Load,
    Loop,
    Max,
    Min,
    Neg,
    NewArray,
    Node,
    Not,
    OutOfBounds,
    Phi,
    Refine,
    Sub,
    ToBool,
    unrefined,
)
from ..nodes.lists import fixed_length
from ..nodes.types import XCTRL, bounds, constant
from ..peephole import Peephole, current_tracer
from ..schedule import build_blocks

__all__ = ["eliminate_guards"]

#: int comparisons as (key kind, swap operands?, polarity): a < b is ("lt", a, b)
_ORDER = {LT: (False, True), GT: (True, True), LE: (True, False), GE: (False, False)}


#: how many nodes one difference-bound proof may visit, and how deep its chain may go
_PROOF_BUDGET = 64
_PROOF_DEPTH = 6
#: difference bounds kept per node (the latest ones)
_UPPER_FACTS = 8
_I64 = (-(1 << 63), (1 << 63) - 1)


def _is_int(n: Node) -> bool:
    return n.type.kind in ("int", "bool")


def canonical(n: Node) -> Node:
    """The node that names ``n``'s value in facts: ``n`` without its refinements, and
    ``n`` for ``len(np.zeros(n))`` and for ``len([v] * n)`` of a list nothing lengthens
    or shortens (an array or such a list that exists has the length it was made
    with).  O(chain of refinements)."""
    n = unrefined(n)
    if type(n) is ArrayLen and type(n.inputs[1]) is NewArray:
        length = n.inputs[1].inputs[1]
        if length.type.kind in ("int", "bool"):
            return unrefined(length)
    if type(n) is ListLen:
        length = fixed_length(n)
        if length is not None:
            return unrefined(length)
    return n


def _no_wrap(lo: int, hi: int) -> bool:
    return _I64[0] <= lo and hi <= _I64[1]


def truth_key(p: Node) -> tuple[tuple, bool]:
    """``(key, polarity)``: condition ``p`` holds exactly when the condition named by
    ``key`` has truth ``polarity``.  Keys: ``("nz", x)``: ``x`` is truthy (``bool(x)``,
    ``x != 0`` and ``x != 0.0``, of an int, a bool or a float; true for NaN too);
    ``("eq", a, b)``: ``a == b``, operands ordered by id (``!=`` is its negation, NaN
    included); ``("lt", a, b)``: ``a < b`` for ints (``>``,
    ``<=``, ``>=`` rewritten into it); else ``("node", p)``.  O(chain of ``not``)."""
    pol = True
    while type(p) is Not:
        p, pol = p.inputs[1], not pol
    t = type(p)
    if t is ToBool:
        return ("nz", canonical(p.inputs[1])), pol
    if t in (EQ, NE):
        a, b = canonical(p.inputs[1]), canonical(p.inputs[2])
        for x, z in ((a, b), (b, a)):
            if _is_zero(z) and x.type.kind in ("int", "bool", "float"):
                return ("nz", x), pol if t is NE else not pol
        return _eq_key(a, b), pol if t is EQ else not pol
    if t in _ORDER and _is_int(p.inputs[1]) and _is_int(p.inputs[2]):
        swap, positive = _ORDER[t]
        a, b = canonical(p.inputs[1]), canonical(p.inputs[2])
        if swap:
            a, b = b, a
        return ("lt", a, b), pol if positive else not pol
    return ("node", p), pol


def _is_zero(z: Node) -> bool:
    """A constant int, bool or float zero (``x == 0.0`` is ``not x`` for a float too:
    ``-0.0`` is falsy and equal to 0, NaN truthy and unequal)."""
    t = z.type
    return type(z) is Constant and t.is_constant and t.kind in ("int", "bool", "float") and t.con == 0


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
    """A scoped table: key -> truth (and ``("lo", x)`` -> a lower bound of int ``x``,
    ``("up", x)`` -> the difference bounds ``((y, k), ...)``, ``x <= y + k``, the facts
    give), with an undo log per open scope."""

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
            if truth:
                self._add_upper(a, b, -1)  # a <= b - 1
            else:
                self._add_upper(b, a, 0)  # b <= a
        elif key[0] == "eq" and truth and _is_int(key[1]) and _is_int(key[2]):
            self._add_upper(key[1], key[2], 0)
            self._add_upper(key[2], key[1], 0)

    def _add_upper(self, x: Node, y: Node, k: int) -> None:
        """Record ``x <= y + k``: the latest ``_UPPER_FACTS`` per node (a constant's lower
        bounds are ``("lo", y)`` facts instead), so recording is O(1) however many tests
        a long chain of blocks makes on one value."""
        if type(x) is Constant:
            return
        old = self.known.get(("up", x), ())
        self._set(("up", x), (*old[-(_UPPER_FACTS - 1):], (y, k)))

    def _raise_lower(self, x: Node, lo: int) -> None:
        old = self.known.get(("lo", x))
        if old is None or lo > old:
            self._set(("lo", x), lo)

    def lower(self, x: Node) -> int | None:
        """The greatest lower bound of int ``x`` that its type (a refinement's included)
        or the facts about its value show."""
        r = bounds(x.type)
        known = [v for v in (r[0] if r else None, self.known.get(("lo", canonical(x)))) if v is not None]
        return max(known) if known else None

    def upper_bound(self, x: Node, t: Node, k: int) -> bool:
        """Whether ``x <= t + k`` is proven (ints; ``t`` canonical) by a chain of at most
        ``_PROOF_DEPTH`` difference bounds (see the module docstring), visiting at most
        ``_PROOF_BUDGET`` nodes."""
        self._budget = _PROOF_BUDGET
        return self._le(x, t, k, _PROOF_DEPTH, True)

    def _le(self, x: Node, t: Node, k: int, depth: int, facts: bool) -> bool:
        """``x <= t + k``, also where ``t`` is ``max(a, b)`` and ``x <= a + k`` (or b)."""
        if self._le_to(x, t, k, depth, facts):
            return True
        return type(t) is Max and _is_int(t) and depth > 0 and self._budget > 0 and \
            any(self._le(x, canonical(y), k, depth - 1, facts) for y in t.inputs[1:])

    def _le_to(self, x: Node, t: Node, k: int, depth: int, facts: bool) -> bool:
        """``x <= t + k``; with ``facts`` false only from what holds wherever ``x`` is
        computed (types, refinements, arithmetic), not from the tests dominating the
        current block, which speak of a loop phi's value there, not in every iteration."""
        self._budget -= 1
        if canonical(x) is t:
            return k >= 0
        xb = bounds(x.type)
        lo_t = self.lower(t) if facts else (bounds(t.type) or (None,))[0]
        if xb is not None and lo_t is not None and xb[1] <= lo_t + k:
            return True
        if depth == 0 or self._budget <= 0:
            return False
        depth -= 1
        while type(x) is Refine:  # x op y holds for this value
            y, op = x.inputs[2], x.op
            slack = 1 if op == "lt" else 0  # x < y is x <= y - 1
            if op in ("lt", "le", "eq") and _is_int(y) and self._le(y, t, k + slack, depth, facts):
                return True
            x = x.inputs[1]
        x = canonical(x)
        for y, ky in self.known.get(("up", x), ()) if facts else ():
            if self._le(y, t, k - ky, depth, facts):
                return True
        kind = type(x)
        if kind is Add or kind is Sub:
            a, b = x.inputs[1], x.inputs[2]
            ab, bb = bounds(a.type), bounds(b.type)
            if ab is None or bb is None:
                return False
            if kind is Add and _no_wrap(ab[0] + bb[0], ab[1] + bb[1]):
                return self._le(a, t, k - bb[1], depth, facts) or self._le(b, t, k - ab[1], depth, facts)
            if kind is Sub and _no_wrap(ab[0] - bb[1], ab[1] - bb[0]):
                return self._le(a, t, k + bb[0], depth, facts)
            return False
        if kind is Min:
            return self._le(x.inputs[1], t, k, depth, facts) or self._le(x.inputs[2], t, k, depth, facts)
        if kind is Phi and _is_int(x):
            region = x.inputs[0]
            paths = zip(region.inputs[1:], x.inputs[1:])
            live = [v for c, v in paths if c is not None and c.type is not XCTRL]
            if not live or any(v is None for v in live):
                return False
            if type(region) is Loop:  # bounded by its first value if the back edge never grows it
                entry, back = x.inputs[1], x.inputs[2:]
                return (self._le(entry, t, k, depth, facts)
                        and all(self._le(v, x, 0, depth, False) for v in back))
            return all(self._le(v, t, k, depth, facts) for v in live)
        return False

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
        if key[0] == "lt":
            a, b = key[1], key[2]
            if self.upper_bound(a, b, -1):
                return pol
            if self.upper_bound(b, a, 0):
                return not pol
        if key[0] == "node" and type(key[1]) is OutOfBounds:
            i, n = key[1].inputs[1], key[1].inputs[2]
            lo = self.lower(i) if _is_int(i) else None
            if lo is not None and lo >= 0 and _is_int(n) and self.upper_bound(i, canonical(n), -1):
                return not pol  # in bounds: out_of_bounds(i, n) is false
        return None


    def narrowed(self, p: Node) -> tuple[Node, Node, bool] | None:
        """For a bounds check ``out_of_bounds(i, n)`` with one half proven, ``(i, n,
        upper)``: the half left to test is ``i >= n`` (upper) or ``i < -n``."""
        if type(p) is not OutOfBounds:
            return None
        i, n = p.inputs[1], p.inputs[2]
        if not (_is_int(i) and _is_int(n)):
            return None
        lo = self.lower(i)
        if lo is not None and lo >= 0:
            return i, n, True
        if self.upper_bound(i, canonical(n), -1):
            return i, n, False
        return None


def eliminate_guards(graph: Graph, halve: bool = False) -> dict:
    """Fold every ``If`` whose condition the dominating tests decide; with ``halve``, also
    cut bounds checks with one half proven to the other half (a lowering for kernels,
    after loop versioning, which looks for whole checks); then clean up with the
    peephole and ``dce``.  Returns ``{"decided": k, "loads": l, "halved": h, "dead":
    d}``.  See the module docstring for the cost."""
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
    loads: dict[int, list[Load]] = {}  # control node id -> the loads pinned to it
    for n in live:
        if type(n) is Load:
            loads.setdefault(id(n.inputs[0]), []).append(n)
    redundant: list[tuple[Load, Load]] = []
    halved: list[tuple[If, tuple[Node, Node, bool]]] = []
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
            for ld in loads.get(id(c), ()):
                key = ("load", ld.mem, ld.array, unrefined(ld.index))
                first = facts.known.get(key)
                if first is None:
                    facts._set(key, ld)
                else:
                    redundant.append((ld, first))
            if type(c) is If and type(c.inputs[1]) is not Constant:
                v = facts.decide(c.inputs[1])
                if v is not None:
                    decided.append((c, v))
                elif halve and (half := facts.narrowed(c.inputs[1])) is not None:
                    halved.append((c, half))
        stack.append((b, m))
        stack.extend((k, None) for k in reversed(children.get(id(b), ())))
    tracer = current_tracer()
    for iff, v in decided:
        c = Constant(graph, constant(v))
        if tracer is not None:
            tracer("guard_decided", iff.inputs[1], c)  # son.trace shows each decided test
        iff.set_input(1, c)
    for iff, (i, n, upper) in halved:
        test = GE(graph, i, n) if upper else LT(graph, i, Neg(graph, n))
        if tracer is not None:
            tracer("bounds_check_halved", iff.inputs[1], test)
        iff.set_input(1, test)
    for ld, first in redundant:
        if tracer is not None:
            tracer("load_reused", ld, first)
        ld.subsume(first)
    dead = 0
    if decided or redundant or halved:
        Peephole(graph).iterate(graph.nodes())
        dead = graph.dce()
    return {"decided": len(decided), "loads": len(redundant), "halved": len(halved), "dead": dead}

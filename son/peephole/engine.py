"""The peephole engine: type, fold, rewrite, value-number one node; iterate to a fixpoint.

``Peephole.peep(n)`` is the pessimistic local optimizer Click runs while
parsing: it sets ``n.type = n.compute()`` (unknown inputs are simply their
kind's bottom), replaces a node whose type is a constant by a ``Constant``,
tries the rules registered for ``type(n)`` in order (the first that returns a
node wins), and finally value-numbers ``n`` by hash-consing its key into
``graph.gvn``.  A rule that returns a new node has that node peeped in turn;
a rule that returns ``n`` itself changed ``n`` in place (an operand swap).

``Peephole.iterate(nodes)`` runs ``peep`` over a worklist until nothing
changes; when a node is replaced or changes type its users (and its inputs,
whose use counts changed) are revisited.  Each visit is O(rules for the class
+ arity); a rewrite chain longer than ``MAX_REWRITES`` on one node raises
``SonError`` naming the rules that cycle.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..errors import SonError
from ..nodes import Constant, Load, NewArray, Node, Proj, Store
from .rules import RULES

#: bound on successive rewrites of one node before we call it a cycle
MAX_REWRITES = 100

Tracer = Callable[[str, Node, Node], None]


def _foldable(n: Node) -> bool:
    t = type(n)
    return not (n.is_cfg or t is Constant or t is Proj or t is Load or t is Store or t is NewArray)


class Peephole:
    """Local optimizer for one graph.  ``enabled=False`` only computes types."""

    def __init__(self, graph, enabled: bool = True, tracer: Tracer | None = None):
        self.graph = graph
        self.enabled = enabled
        #: called as tracer(rule, old, new) for every rewrite; defaults to the graph's
        #: own ``tracer`` attribute, which ``son.trace`` sets while passes run
        self.tracer = tracer if tracer is not None else getattr(graph, "tracer", None)
        self._work: dict[Node, None] | None = None

    # ------------------------------------------------------------------ one node
    def peep(self, n: Node) -> Node:
        """Optimize ``n`` locally; return the node to use in its place."""
        if not self.enabled:
            n.type = n.compute()
            return n
        fired: list[str] = []
        while len(fired) < MAX_REWRITES:
            n.type = n.compute()
            if None in n.inputs[1:]:
                return n  # incomplete (a loop phi before its back edge): nothing to do yet
            x = self._rewrite(n, fired)
            if x is None:
                other = self._value_number(n)
                if other is n:
                    return n
                x = self._hit("gvn", n, other, fired)
            if x is not n:
                self._replace(n, x)
                n = x
            self._touch(n)
        raise SonError(f"peephole rules cycle on {n!r}: " + " -> ".join(fired[-12:]))

    def _peep_fresh_inputs(self, x: Node, first_new_id: int) -> None:
        """Peephole, inputs first, the nodes a rule built below its result (a new
        constant, say): those with ids from ``first_new_id`` on.  Iterative."""
        order, stack, seen = [], [(x, False)], set()
        while stack:
            n, done = stack.pop()
            if done:
                order.append(n)
                continue
            if n in seen or n.inputs is None:
                continue
            seen.add(n)
            stack.append((n, True))
            stack.extend((i, False) for i in n.inputs if i is not None and i.nid >= first_new_id)
        for n in order:
            if n is not x and n.inputs is not None:
                self.peep(n)

    def _rewrite(self, n: Node, fired: list[str]) -> Node | None:
        """Fold to a constant or apply the first rule that fires; None if none does."""
        if n.type.is_constant and _foldable(n):
            return self._hit("fold", n, Constant(self.graph, n.type), fired)
        for r in RULES.get(type(n), ()):
            first_new_id = self.graph._next_id
            x = r(n)
            if x is not None:
                if x is not n:
                    self._peep_fresh_inputs(x, first_new_id)
                return self._hit(r.__name__, n, x, fired)
        return None

    def _value_number(self, n: Node) -> Node:
        """The existing node equal to ``n``, or ``n`` after entering it in the table."""
        if not n.is_gvn:
            return n
        key = n.key()
        other = self.graph.gvn.get(key)
        if other is not None and other is not n and other.inputs is not None:
            return other
        self.graph.gvn[key] = n
        n._gvn_key = key
        return n

    def _hit(self, name: str, old: Node, new: Node, fired: list[str]) -> Node:
        fired.append(name)
        self.graph.rule_hits[name] += 1
        if self.tracer is not None:
            self.tracer(name, old, new)
        return new

    def _replace(self, old: Node, new: Node) -> None:
        if old.inputs is None:
            return
        if old.outputs:
            old.subsume(new)
        elif old.is_unused():
            new.keep()
            old.kill()
            new.unkeep()

    # ------------------------------------------------------------------ worklist
    def _touch(self, n: Node) -> None:
        """While iterating, revisit the users and inputs of a node that changed."""
        work = self._work
        if work is None or n.inputs is None:
            return
        for u in n.outputs:
            work[u] = None
        for x in n.inputs:
            if x is not None:
                work[x] = None

    def iterate(self, nodes: Iterable[Node]) -> None:
        """Peephole ``nodes`` and everything their changes affect, to a fixpoint."""
        if not self.enabled:
            return
        outer, self._work = self._work, dict.fromkeys(nodes)
        work = self._work
        try:
            while work:
                n, _ = work.popitem()
                if n.inputs is None:
                    continue
                old_type = n.type
                x = self.peep(n)
                if x is not n or x.type != old_type:
                    self._touch(x)
        finally:
            self._work = outer

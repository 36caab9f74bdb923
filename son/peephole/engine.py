"""The peephole engine: type, fold, rewrite, value-number one node; iterate to a fixpoint.

``Peephole.peep(n)`` is the pessimistic local optimizer Click runs while
parsing: it sets ``n.type = n.compute()`` (unknown inputs are simply their
kind's bottom), replaces a node whose type is a constant by a ``Constant``,
tries the rules registered for ``type(n)`` in order (the first that returns a
node wins), and finally value-numbers ``n`` by hash-consing its key into
``graph.gvn``.  A rule that returns a new node has that node peeped in turn;
a rule that returns ``n`` itself changed ``n`` in place (an operand swap).

``Peephole.iterate(nodes)`` runs ``peep`` over a first-in first-out worklist
until nothing changes: a node that changes type has its users revisited, one
changed in place its users and inputs, and when a node is replaced, the users
that move to the replacement and the inputs that lose a use (never all the
replacement's users: that made chains of folded guards quadratic).  Each
visit is O(rules for the class + arity); a graph whose rewrites are local
settles in O(N + E) visits.

Termination.  The successive rewrites of one node form a *chain*: each step
changes the node in place, builds a new node, or replaces it by an older one.
Replacing a node by an older one kills it, so such steps are bounded by the
graph's size (a chain of folded guards, ``phi(phi(...))``: legitimately
long).  The other two kinds can cycle, so ``_Chain`` records the state each
step reaches (the node's value-numbering key: class, payload, input ids) and
raises ``SonError`` naming the rules between the two visits the moment a
state repeats (``a*b -> b*a -> a*b``); while iterating, a node's record
survives between its visits, so a cycle through two nodes' rules is caught
too.  Terms that grow without repeating are stopped by a bound: at most
``MAX_REWRITES`` in-place rewrites of one node in one visit, and at most
``MAX_REWRITES`` plus the graph's node count of new nodes built by one chain
(a legitimate chain, such as reassociating ``((a+1)+2)+...``, consumes one
existing node per new one).  Bookkeeping is O(1) per rewrite.

Death march.  Int ranges make the lattice 2**64 levels high over the ints.
A pessimistic loop phi starts at its kind's bottom (``INT``) and narrows when
its back edge turns out narrower; narrowing ``i = phi(0, max(i - 1, -10))``
would go ``[-10, max]``, ``[-10, max - 1]``, ... one value per trip around the
loop.  So a closed loop phi's range rises only as ``types.narrowing_accepted``
allows (FREE_NARROWINGS narrowings per engine, then only those that at least
halve the range: at most 66 in all), and a range that falls has its moving
ends pushed to the int64 limits (``types.widen_range``: at most twice).
Keeping the older, wider type is sound: it is at most as precise as
``compute()``.  Each loop phi thus changes type O(1) times per engine, and
every cycle of the graph passes through a loop phi, so type changes alone
cannot keep the worklist going.

Rules and tracing are parameters: ``Peephole(graph, rules, tracer=fn)`` tries
the rules of the ``RuleSet`` ``rules`` and calls ``fn(rule, old, new)`` for
every rewrite.  Engines a pass builds inside itself (SCCP's cleanup) are not
given them by their caller: they take the ones of the enclosing
``rewrite_context(rules, tracer)``, which ``son.optimize`` opens around each
pass (default: ``DEFAULT_RULES``, no tracer).  The context is a
``contextvars`` value, so it ends with the ``with`` block and never leaks
into a later parse.
"""

from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterable, Iterator

from ..errors import SonError
from ..nodes import Constant, Loop, Node, Phi, Proj, Refine, Region
from ..nodes.node import copy_slots
from ..nodes.types import Type, narrowing_accepted, widen_range
from .rules import DEFAULT_RULES
from .ruleset import RuleSet

#: in-place rewrites of one node in one visit, and (plus the graph's size) new nodes
#: built by one chain of rewrites, before the rules are declared not to terminate
MAX_REWRITES = 100

Tracer = Callable[[str, Node, Node], None]

#: the rules and tracer of engines built without them: see ``rewrite_context``
_CONTEXT: ContextVar[tuple[RuleSet, Tracer | None]] = ContextVar("son_rewrite_context",
                                                                 default=(DEFAULT_RULES, None))


@contextmanager
def rewrite_context(rules: RuleSet | None = None, tracer: Tracer | None = None) -> Iterator[None]:
    """Within the block, engines built without ``rules`` or ``tracer`` use these (None keeps
    the enclosing block's).  ``son.optimize(g, p, rules=..., tracer=...)`` opens one around
    each pass, so that the engines a pass builds inside itself see them too."""
    outer_rules, outer_tracer = _CONTEXT.get()
    token = _CONTEXT.set((outer_rules if rules is None else rules,
                          outer_tracer if tracer is None else tracer))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def current_tracer() -> Tracer | None:
    """The tracer of the enclosing ``rewrite_context`` (None outside one); passes that
    rewrite without the engine report their rewrites to it."""
    return _CONTEXT.get()[1]


def _foldable(n: Node) -> bool:
    t = type(n)
    # a Refine keeps its place even when its type is one value: a merge of it with the
    # value it refines is that value (phi_same), which a Constant would hide
    return not (n.is_cfg or t is Constant or t is Proj or n.reads_memory or n.writes_memory
                or n.allocates or t is Refine)  # a call runs (and may write, or raise) whatever it gives


class _Chain:
    """The rewrites of one node so far (see the module docstring, Termination)."""

    __slots__ = ("origin", "first_new_id", "fresh_limit", "fired", "states", "in_place", "fresh")

    def __init__(self, n: Node, first_new_id: int, fired: list[str]):
        """A record for ``n``, whose visit began when the graph's next id was ``first_new_id``."""
        self.origin = f"{n!r} ({type(n).__name__})"
        self.first_new_id = first_new_id
        self.fresh_limit = MAX_REWRITES + first_new_id
        self.fired = fired
        #: state -> number of rules fired when it was reached (a node's state before its
        #: first rewrite is not recorded, so a cycle is caught one step later)
        self.states: dict[tuple, int] = {("at", n.nid): 0}
        self.in_place = 0
        self.fresh = 0

    def step(self, old: Node, new: Node) -> None:
        """Rule ``self.fired[-1]`` rewrote ``old`` to ``new``: check for a cycle and the bounds."""
        if new is old:
            self.in_place += 1
            state = ("key", new.key())
        elif new.nid >= self.first_new_id:
            self.fresh += 1
            self.in_place = 0
            state = ("key", new.key())
        else:
            self.in_place = 0
            state = ("at", new.nid)
        seen = self.states.get(state)
        if seen is not None:
            rules = self.fired[seen:]
            raise SonError(f"peephole rules cycle on {self.origin}: {' -> '.join(rules)} brought "
                           f"{new!r} back to a form it had before; change or remove "
                           f"rule{'s' if len(set(rules)) > 1 else ''} {', '.join(sorted(set(rules)))}")
        self.states[state] = len(self.fired)
        if self.in_place > MAX_REWRITES or self.fresh > self.fresh_limit:
            what = (f"{self.in_place} in-place rewrites of {new!r}" if self.in_place > MAX_REWRITES
                    else f"{self.fresh} new nodes built")
            last = self.fired[-12:]
            raise SonError(f"peephole rules do not settle on {self.origin}: {what} without reaching a "
                           f"fixpoint; the last rules: {' -> '.join(last)} (rules involved: "
                           f"{', '.join(sorted(set(last)))})")

    def merged(self, other: Node) -> None:
        """Value numbering replaced the node by an equal one: progress (the node dies)."""
        self.in_place = 0
        self.states.setdefault(("at", other.nid), len(self.fired))


class Peephole:
    """Local optimizer for one graph with the rules of ``rules`` (a ``RuleSet``; default:
    the enclosing ``rewrite_context``'s, ``DEFAULT_RULES``).  ``enabled=False`` only
    computes types."""

    def __init__(self, graph, rules: RuleSet | None = None, *, enabled: bool = True,
                 tracer: Tracer | None = None):
        context_rules, context_tracer = _CONTEXT.get()
        self.graph = graph
        self.enabled = enabled
        self.rules = context_rules if rules is None else rules
        #: node class -> rules: the set's own table (a dict of lists), so dispatch is one
        #: lookup and later changes to the set are seen
        self._table = self.rules.table
        #: called as tracer(rule, old, new) for every rewrite (default: the context's)
        self.tracer = context_tracer if tracer is None else tracer
        #: while iterating: the queue of nodes to visit, and the same nodes as a set
        self._queue: deque[Node] = deque()
        self._work: dict[Node, None] | None = None
        #: while iterating: the rewrite record of each node that a rule changed
        self._chains: dict[Node, _Chain] | None = None
        #: closed loop phi -> narrowings of its int range so far (Death march)
        self._narrowings: dict[Node, int] = {}

    # ------------------------------------------------------------------ one node
    def peep(self, n: Node) -> Node:
        """Optimize ``n`` locally; return the node to use in its place."""
        if not self.enabled:
            n.type = n.compute()
            return n
        chain = self._chains.pop(n, None) if self._chains is not None else None
        if chain is not None:
            chain.in_place = 0  # a new visit: the in-place budget is per visit
        fired = chain.fired if chain is not None else []
        first_new_id = self.graph._next_id
        while True:
            old_type = n.type
            t = n.compute()
            if t != old_type and type(n) is Phi and type(n.inputs[0]) is Loop and None not in n.inputs:
                t = self._loop_phi_type(n, old_type, t)
            n.type = t
            if t != old_type:
                self._revisit(n.outputs)  # the users' types may change
            if None in n.inputs[1:]:
                return n  # incomplete (a loop phi before its back edge): nothing to do yet
            x = self._rewrite(n, fired)
            if x is None:
                other = self._value_number(n)
                if other is n:
                    if chain is not None and self._chains is not None:
                        self._chains[n] = chain
                    return n
                x = self._hit("gvn", n, other, fired)
            if chain is None:
                chain = _Chain(n, first_new_id, fired)
            if fired[-1] == "gvn":
                chain.merged(x)
            else:
                chain.step(n, x)
            if x is n:
                self._revisit(n.outputs)  # changed in place: its users' rules may fire now
                self._revisit(n.inputs)
            else:
                # only the users that move to ``x`` and the inputs that lose a use changed;
                # ``x``'s own users did not (touching them made a chain of folded guards
                # quadratic: each fold moves every node pinned below it up one guard)
                moved, ins = (list(n.outputs), list(n.inputs)) if self._work is not None else ((), ())
                self._replace(n, x)
                self._revisit(moved)
                self._revisit(ins)
                n = x

    def _loop_phi_type(self, n: Phi, old: Type, t: Type) -> Type:
        """The type a closed loop phi takes when ``compute()`` gives ``t`` instead of ``old``
        (see the module docstring, Death march)."""
        if old.kind != "int" or t.kind != "int":
            return t
        if t.isa(old):
            k = self._narrowings.get(n, 0)
            if not narrowing_accepted(old, t, k):
                return old
            self._narrowings[n] = k + 1
            return t
        return widen_range(old, old.meet(t))

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
        rules = self._table.get(type(n), ())
        # a Region's rules may replace its Phis (``_drop_phis``): their users change too
        phi_users = ([u for p in n.phis() for u in p.outputs]
                     if rules and self._work is not None and isinstance(n, Region) else ())
        before = list(n.inputs) if self.tracer is not None and rules else None
        for r in rules:
            first_new_id = self.graph._next_id
            x = r(n)
            if x is not None:
                if x is not n:
                    self._peep_fresh_inputs(x, first_new_id)
                self._revisit(phi_users)
                # a rule that changed ``n`` in place (an operand swap): the tracer hears the
                # node as it was, a detached copy with the inputs it had
                old = _detached(n, before) if x is n and before is not None else n
                return self._hit(r.__name__, old, x, fired)
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
    def _revisit(self, nodes: Iterable[Node | None]) -> None:
        """While iterating, queue ``nodes`` (live ones not queued yet) for another visit."""
        work = self._work
        if work is None:
            return
        queue = self._queue
        for u in nodes:
            if u is not None and u not in work and u.inputs is not None:
                work[u] = None
                queue.append(u)

    def iterate(self, nodes: Iterable[Node]) -> None:
        """Peephole ``nodes`` and everything their changes affect, to a fixpoint."""
        if not self.enabled:
            return
        outer = self._work, self._queue, self._chains
        self._queue = queue = deque(dict.fromkeys(nodes))
        self._work = work = dict.fromkeys(queue)  # the queued nodes
        self._chains = {}
        try:
            while queue:  # first in, first out: the caller's order (id order: defs first)
                n = queue.popleft()
                del work[n]
                if n.inputs is not None:
                    self.peep(n)
        finally:
            self._work, self._queue, self._chains = outer


def _detached(n: Node, inputs: list) -> Node:
    """A copy of ``n`` with ``inputs``, in no def-use edge and no graph's tables: what a
    tracer is shown of a node as it was before a rule changed it in place."""
    copy = object.__new__(type(n))
    copy_slots(n, copy)
    copy.inputs = list(inputs)
    copy.outputs = {}
    return copy

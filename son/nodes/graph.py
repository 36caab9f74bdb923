"""The ``Graph``: one function as a Sea of Nodes, from ``start`` to ``stop``.

Live nodes are those reachable from ``stop`` through inputs (plus ``start``);
every walk here is iterative and O(nodes + edges).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from .control import Proj, Return, Start, Stop  # noqa: F401
from .node import Node, copy_slots
from .types import CTRL, TOP, TupleType, Type


class Graph:
    """A function graph.  ``params`` is a list of ``(name, Type)``.

    ``son.viz`` (imported by ``import son``) adds ``to_networkx(schedule=None)``
    and the Jupyter hook ``_repr_svg_``; nothing here imports it."""

    def __init__(self, name: str, params: list[tuple[str, Type]]):
        self.name = name
        self.params = list(params)
        #: None, or per Python parameter its ``control.flatten`` form when a parameter is a
        #: tuple or a complex number (then ``params`` are the flat values)
        self.arg_forms: list | None = None
        #: position of a Python parameter -> its default value (``son.interpret`` passes it
        #: for an omitted argument, as CPython does)
        self.defaults: dict[int, object] = {}
        #: a recursive helper's graph: the result type its callers' ``Call`` nodes assume
        #: (kept when passes specialize the graph until it never returns)
        self.result: Type | None = None
        self._next_id = 0
        #: value-numbering table owned by the peephole engine: key -> node
        self.gvn: dict[tuple, Node] = {}
        #: peephole rule name -> number of times it fired on this graph
        self.rule_hits: Counter[str] = Counter()
        #: (filename, first line) of the source, for messages
        self.source: tuple[str, int] | None = None
        #: the file line of the function's own statement the frontend is building (None
        #: outside a parse); every node made meanwhile gets it in ``lines`` (node id ->
        #: line), which the explorer shows.  Nodes of inlined callees get the call's line;
        #: nodes that passes make have none.
        self.line: int | None = None
        self.lines: dict[int, int] = {}
        self.start = Start(self, [t for _, t in self.params]).keep()
        self.start.type = self.start.compute()
        self.stop = Stop(self).keep()
        self.stop.type = CTRL

    def new_id(self) -> int:
        n = self._next_id
        self._next_id += 1
        if self.line is not None:
            self.lines[n] = self.line
        return n

    # ------------------------------------------------------------------ walks
    def live(self) -> set[Node]:
        """Nodes reachable from ``stop`` through inputs, and ``start``."""
        seen = {self.stop, self.start}
        stack = [self.stop]
        while stack:
            for x in stack.pop().inputs or ():
                if x is not None and x not in seen:
                    seen.add(x)
                    stack.append(x)
        return seen

    def attached(self) -> set[Node]:
        """Every node still connected to start or stop (live or not)."""
        seen = set()
        stack = [self.start, self.stop]
        while stack:
            n = stack.pop()
            if n in seen or n.inputs is None:
                continue
            seen.add(n)
            stack.extend(n.outputs)
            stack.extend(x for x in n.inputs if x is not None)
        return seen

    def nodes(self) -> list[Node]:
        """Live nodes in id order (a stable order for printing and tests)."""
        return sorted(self.live(), key=lambda n: n.nid)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes())

    def __len__(self) -> int:
        return len(self.live())

    def returns(self) -> list[Return]:
        return [r for r in self.stop.inputs if type(r) is Return]

    def callees(self) -> list[Graph]:
        """The other graphs this one calls, directly or through them (the recursive
        helpers' graphs its ``Call`` nodes target), in the order they are first reached;
        with this graph, its module.  O(N + E) per graph of the module, iterative."""
        from .memory import Call

        seen, out, work = {self}, [], [self]
        while work:
            g = work.pop()
            for n in g.nodes():
                if type(n) is Call and n.target is not None and n.target not in seen:
                    seen.add(n.target)
                    out.append(n.target)
                    work.append(n.target)
        return out

    @property
    def return_type(self) -> Type:
        """The meet of the returned values' types; a ``TupleType`` (one meet per position)
        when the Returns return several values."""
        ts: list[Type] | None = None
        for r in self.returns():
            vs = r.values
            if ts is None:
                ts = [TOP] * len(vs)
            ts = [t.meet(v.type) for t, v in zip(ts, vs)]
        if ts is None:
            return TOP
        return ts[0] if len(ts) == 1 else TupleType(ts)

    def param(self, index: int) -> Proj | None:
        """The projection of argument ``index`` if the graph still uses it."""
        for u in self.start.outputs:
            if type(u) is Proj and u.index == 2 + index:
                return u
        return None

    # ------------------------------------------------------------------ edits
    def dce(self) -> int:
        """Detach every node that is not live (dead cycles included); O(N+E)."""
        live = self.live()
        dead = [n for n in self.attached() if n not in live]
        for n in dead:
            n.forget_key()
            for x in n.inputs:
                if x is not None and x.inputs is not None:
                    x._del_use(n)
        for n in dead:
            n.inputs = None
            n.outputs = {}
        return len(dead)

    def drop_unread_stores(self) -> int:
        """Drop the Stores into every new array that nothing reads: its users are Stores
        into it and ``len`` only (a Phi, a Load, a call, a return or a region reads or
        passes it on).  Each such Store's users take its memory input instead; call
        ``dce`` after.  The count of Stores dropped; O(N + E)."""
        from .memory import ArrayLen, NewArray, Store

        dropped = 0
        for a in self.nodes():
            if type(a) is not NewArray or not a.outputs:
                continue
            if all(type(u) is ArrayLen or (type(u) is Store and u.inputs[2] is a and u.inputs[4] is not a)
                   for u in a.outputs):
                for u in list(a.outputs):
                    if type(u) is Store:
                        u.subsume(u.inputs[1])
                        dropped += 1
        return dropped

    def copy(self) -> Graph:
        """A deep copy with the same node ids (so diffs match nodes by id)."""
        g = Graph.__new__(Graph)
        g.name, g.params, g.source, g.arg_forms = self.name, list(self.params), self.source, self.arg_forms
        g.result, g.defaults = self.result, self.defaults
        g._next_id = self._next_id
        g.line, g.lines = None, dict(self.lines)
        g.gvn = {}
        g.rule_hits = Counter(self.rule_hits)
        old = self.nodes()
        clone: dict[Node, Node] = {}
        for n in old:
            c = object.__new__(type(n))
            copy_slots(n, c)
            c.graph, c.outputs, c._gvn_key = g, {}, None
            clone[n] = c
        for n in old:
            c = clone[n]
            c.inputs = [clone[x] if x is not None else None for x in n.inputs]
            for x in c.inputs:
                if x is not None:
                    x._add_use(c)
            if n._gvn_key is not None:
                c._gvn_key = n._gvn_key
                g.gvn[n._gvn_key] = c
        g.start, g.stop = clone[self.start], clone[self.stop]
        return g

    # ------------------------------------------------------------------ views
    def verify(self) -> None:
        """Check the invariants; raise ``AssertionError`` naming the first broken one."""
        from .verifier import verify

        verify(self)

    def __str__(self) -> str:
        from .printer import format_graph

        return format_graph(self)

    def __repr__(self) -> str:
        return f"<Graph {self.name}: {len(self)} nodes>"

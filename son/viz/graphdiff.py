"""What a pass changed: one drawing of the union of two graphs, nodes matched by id.

``diff(before, after)`` is meant for ``after = son.optimize(before, ...)[0]``
(or any ``before.copy()`` edited afterwards): ``Graph.copy`` keeps node ids,
and new nodes get fresh ids, so a node id present in both graphs with the same
node class is the same node.  A node is

* *removed* when its id is live only in ``before`` (drawn red, dashed),
* *added* when its id is live only in ``after`` (green),
* *retyped* when it is in both with a different lattice type (orange; its
  label shows ``old -> new``),
* otherwise unchanged (grey).

An id live in both graphs under different node classes (two unrelated
parses) counts as one removed and one added node.  Edges are matched by
(definition, user, input index): removed edges are red, added ones green,
the others grey; each keeps its class style (control bold, memory dashed).

Cost: O(N + E) over both graphs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from ..nodes import Graph, Node
from .dot import HEADER, attr_list, edge_attrs, node_attrs, node_text, phi_ranks, pipe, quote, write

RED, GREEN, ORANGE, GREY = '"#c62828"', '"#2e7d32"', '"#e67e00"', '"#9e9e9e"'

_STATE_STYLE: dict[str, dict[str, str]] = {
    "removed": {"color": RED, "fontcolor": RED, "style": '"dashed,filled"', "fillcolor": '"#fde2e2"'},
    "added": {"color": GREEN, "fontcolor": GREEN, "style": '"bold,filled"', "fillcolor": '"#e3f6e3"'},
    "retyped": {"color": ORANGE, "fontcolor": '"#8a4b00"', "style": '"bold,filled"',
                "fillcolor": '"#fff0d9"'},
    "unchanged": {"color": GREY, "fontcolor": '"#616161"'},
}


def node_changes(before: Mapping[int, tuple[str, str]],
                 after: Mapping[int, tuple[str, str]]) -> tuple[set[int], set[int], set[int]]:
    """The removed, added and retyped node ids (see the module docstring) of two graphs
    given as node id -> (class name, type text): ``Diff`` and the explorer's diff mode
    (``son.explore``) decide by this one function.  O(N)."""
    same = {i for i, (cls, _t) in before.items() if i in after and after[i][0] == cls}
    return (set(before) - same, set(after) - same, {i for i in same if before[i][1] != after[i][1]})


class Diff:
    """The difference between two graphs (see the module docstring).

    ``removed``, ``added`` and ``retyped`` are sets of node ids; ``to_dot()``
    draws the union, ``svg()``/``render()`` through Graphviz, and Jupyter shows
    it inline through ``_repr_svg_``.
    """

    __slots__ = ("before", "after", "removed", "added", "retyped", "_b", "_a")

    def __init__(self, before: Graph, after: Graph):
        self.before = before
        self.after = after
        self._b = {n.nid: n for n in before.nodes()}
        self._a = {n.nid: n for n in after.nodes()}
        removed, added, retyped = node_changes(
            {i: (type(n).__name__, str(n.type)) for i, n in self._b.items()},
            {i: (type(n).__name__, str(n.type)) for i, n in self._a.items()})
        #: ids of nodes live only in ``before`` (or under another class in ``after``)
        self.removed: set[int] = removed
        #: ids of nodes live only in ``after``
        self.added: set[int] = added
        #: ids of nodes in both whose lattice type changed
        self.retyped: set[int] = retyped

    # ------------------------------------------------------------------ naming
    def _name(self, n: Node, side: str) -> str:
        """The dot name of ``n`` from graph ``side`` ('b' or 'a'): ``n<id>`` unless the
        id names different nodes on the two sides."""
        clash = n.nid in self.removed and n.nid in self.added
        return f"{side}{n.nid}" if clash else f"n{n.nid}"

    def state(self, nid: int, side: str = "a") -> str:
        """'removed', 'added', 'retyped' or 'unchanged' for id ``nid`` on ``side``."""
        if side == "b" and nid in self.removed:
            return "removed"
        if side == "a" and nid in self.added:
            return "added"
        return "retyped" if nid in self.retyped else "unchanged"

    # ------------------------------------------------------------------ drawing
    def to_dot(self, types: bool = False) -> str:
        """The dot source of the union of both graphs, coloured by change."""
        title = (f"{self.before.name}: {len(self.removed)} removed, {len(self.added)} added, "
                 f"{len(self.retyped)} retyped")
        out = [f"digraph {quote(self.before.name + ' diff')} {{", *HEADER,
               f"  label={quote(title)}; labelloc=t; fontname=\"Helvetica\";"]
        nodes: list[tuple[str, Node, str]] = []  # (side, node, dot name) in id order
        for i in sorted(set(self._b) | set(self._a)):
            if i in self._b and (i not in self._a or i in self.removed):
                nodes.append(("b", self._b[i], self._name(self._b[i], "b")))
            if i in self._a:
                nodes.append(("a", self._a[i], self._name(self._a[i], "a")))
        for side, n, name in nodes:
            st = self.state(n.nid, side)
            attrs = node_attrs(n, types)
            if st == "retyped":
                attrs["label"] = quote(f"%{n.nid} {n.label}\n{self._b[n.nid].type} -> {n.type}")
            elif st == "removed" and types:
                attrs["label"] = quote(node_text(n, True))
            attrs.update(_STATE_STYLE[st])
            if st == "unchanged" and n.is_cfg:
                attrs.update(style='"bold,filled"', fillcolor='"#f2f2f2"')
            out.append(f"  {name} [{attr_list(attrs)}];")
        ranks: dict[tuple[str, ...], None] = {}
        for graph, side in ((self.before, "b"), (self.after, "a")):
            for group in phi_ranks(graph.nodes()):
                ranks[tuple(self._name(x, side) for x in group)] = None
        out.extend("  { rank=same; " + " ".join(f"{x};" for x in g) + " }" for g in ranks)
        edges_b = self._edges(self.before, "b")
        edges_a = self._edges(self.after, "a")
        for key, attrs in {**edges_b, **edges_a}.items():
            if key not in edges_a:
                attrs.update(color=RED, fontcolor=RED)
            elif key not in edges_b:
                attrs.update(color=GREEN, fontcolor=GREEN)
            else:
                attrs.update(color=GREY)
            out.append(f"  {key[0]} -> {key[1]} [{attr_list(attrs)}];")
        out.append("}")
        return "\n".join(out) + "\n"

    def _edges(self, graph: Graph, side: str) -> dict[tuple[str, str, int], dict[str, str]]:
        found = {}
        for n in graph.nodes():
            for i, x in enumerate(n.inputs):
                if x is not None:
                    found[(self._name(x, side), self._name(n, side), i)] = edge_attrs(x, n, i)
        return found

    def svg(self, types: bool = False) -> str:
        """The drawing as an SVG document (text)."""
        return pipe(self.to_dot(types), "svg").decode("utf-8")

    def render(self, path: str | Path, format: str = "svg", types: bool = False) -> Path:
        """Write the drawing in ``format`` (svg, png, pdf, dot, ...) to ``path``."""
        return write(self.to_dot(types), path, format)

    def _repr_svg_(self) -> str | None:
        from .jupyter import inline_svg

        return inline_svg(self.to_dot(), len(self._b) + len(self._a))

    def __repr__(self) -> str:
        return (f"<Diff {self.before.name}: -{len(self.removed)} +{len(self.added)} "
                f"~{len(self.retyped)}>")

    def __str__(self) -> str:
        def ids(s: set[int]) -> str:
            return " ".join(f"%{i}" for i in sorted(s)) or "-"

        return "\n".join([f"removed: {ids(self.removed)}", f"added:   {ids(self.added)}",
                          f"retyped: {ids(self.retyped)}"])


def diff(before: Graph, after: Graph) -> Diff:
    """What changed from ``before`` to ``after`` (nodes matched by id; see ``Diff``)."""
    return Diff(before, after)

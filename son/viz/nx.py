"""networkx export: a Graph (optionally with its Schedule) as a ``networkx.MultiDiGraph``.

Nodes are keyed by node id and carry ``kind`` (the node class name), ``label``
(as printed), ``type`` (the lattice type as text), ``is_cfg``, and ``block``
(the scheduled block's id, or None) when a schedule is given.  Edges run from
a definition to its user, one per input slot (so ``x * x`` gives two parallel
edges), keyed and attributed by ``index`` (the input index) and ``cls``
("control", "data" or "memory", as ``son.viz.edge_class`` draws them).  The
graph attribute ``name`` is the function's name, ``start`` and ``stop`` the
ids of Start and Stop.

The CFG is ``G.subgraph(n for n, d in G.nodes(data=True) if d["is_cfg"])``:
its edges are the control flow, from Start to Stop.  O(N + E).

The graph attribute ``call_graph`` is the module's call graph (``call_graph``): a
``networkx.DiGraph`` over the functions, ``graph`` first; a ``Call`` node's
``callee`` attribute names the function it calls there.
"""

from __future__ import annotations

from typing import Any

from ..nodes import Call, Graph
from .dot import edge_class


def to_networkx(graph: Graph, schedule: Any = None):
    """``graph`` as a ``networkx.MultiDiGraph`` (see the module docstring)."""
    import networkx as nx

    G = nx.MultiDiGraph(name=graph.name, start=graph.start.nid, stop=graph.stop.nid)
    nodes = graph.nodes()
    block_of = schedule.block_of if schedule is not None else None
    calls = call_graph(graph)
    G.graph["call_graph"] = calls
    for n in nodes:
        attrs = {"kind": type(n).__name__, "label": n.label, "type": str(n.type), "is_cfg": n.is_cfg}
        if type(n) is Call:
            attrs["callee"] = function_key(n.target or graph)
        if block_of is not None:
            b = block_of.get(n)
            attrs["block"] = b.id if b is not None else None
        G.add_node(n.nid, **attrs)
    for n in nodes:
        for i, x in enumerate(n.inputs):
            if x is not None:
                G.add_edge(x.nid, n.nid, key=i, index=i, cls=edge_class(x, n))
    return G


def function_key(g: Graph) -> str:
    """A function of the module as the call graph names it: ``power(float, int)``."""
    return f"{g.name}({', '.join(str(t) for _, t in g.params)})"


def call_graph(graph: Graph):
    """The call graph of ``graph``'s module as a ``networkx.DiGraph``: a node per
    function (``function_key``; attributes ``name`` and ``entry``), an edge from caller to
    callee with ``sites``, the ids of its Call nodes.  O(N + E) over the module."""
    import networkx as nx

    C = nx.DiGraph()
    for k, g in enumerate([graph, *graph.callees()]):
        C.add_node(function_key(g), name=g.name, entry=k == 0)
        for n in g.nodes():
            if type(n) is Call:
                a, b = function_key(g), function_key(n.target or g)
                if not C.has_edge(a, b):
                    C.add_edge(a, b, sites=[])
                C.edges[a, b]["sites"].append(n.nid)
    return C

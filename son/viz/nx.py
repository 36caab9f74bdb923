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
"""

from __future__ import annotations

from typing import Any

from ..nodes import Graph
from .dot import edge_class


def to_networkx(graph: Graph, schedule: Any = None):
    """``graph`` as a ``networkx.MultiDiGraph`` (see the module docstring)."""
    import networkx as nx

    G = nx.MultiDiGraph(name=graph.name, start=graph.start.nid, stop=graph.stop.nid)
    nodes = graph.nodes()
    block_of = schedule.block_of if schedule is not None else None
    for n in nodes:
        attrs = {"kind": type(n).__name__, "label": n.label, "type": str(n.type), "is_cfg": n.is_cfg}
        if block_of is not None:
            b = block_of.get(n)
            attrs["block"] = b.id if b is not None else None
        G.add_node(n.nid, **attrs)
    for n in nodes:
        for i, x in enumerate(n.inputs):
            if x is not None:
                G.add_edge(x.nid, n.nid, key=i, index=i, cls=edge_class(x, n))
    return G

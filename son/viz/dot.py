"""Graphviz dot for a Graph, and SVG/PDF/PNG rendering through the ``dot`` binary.

Conventions (DESIGN.md, Visualization): an edge runs from a definition to its
user; it is bold when the definition is a CFG node (control, including the
edges that pin Phis and constants to their control), dashed when the
definition is a memory state, thin otherwise (data).  CFG nodes are boxes,
each Phi shares a rank with its Region, constants are small.  Every node
shows ``%id label`` and, with ``types=True``, its lattice type.  Where a
user's operand order matters (``a - b``, a Phi's values, a Region's
predecessors) each edge into it carries the input index as a head label.

``to_dot`` is pure text and needs neither the ``graphviz`` package nor the
binary; ``render`` and ``svg`` need both.  One pass over the live nodes and
their inputs: O(N + E).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import SonError
from ..nodes import Constant, Graph, Node, Phi, Proj, Region, Stop, Store
from ..nodes.types import MEM

#: edge class -> dot attributes
EDGE_STYLE = {
    "control": 'style=bold, color="#1f3a93"',
    "memory": 'style=dashed, color="#2e7d32"',
    "data": "style=solid, penwidth=0.8",
}

_MISSING_DOT = ("the Graphviz 'dot' binary is not on PATH; install it with "
                "'bash scripts/setup.sh' or 'apt-get install graphviz'")


def quote(text: str) -> str:
    """``text`` as a dot double-quoted string that shows it verbatim (newlines break lines)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "")
    return '"' + text.replace("\n", "\\n") + '"'


def _produces_memory(x: Node) -> bool:
    """True for a node whose value is the memory state (not an array, not control)."""
    if x.type == MEM or type(x) is Store:
        return True
    if type(x) is Proj:
        return x.index == 1 and x.inputs[0] is x.graph.start
    if type(x) is Phi:
        # a memory Phi whose type is not MEM (only dead paths reach it): look at its values
        return any(v is not None and (v.type == MEM or type(v) is Store) for v in x.inputs[1:])
    return False


def edge_class(x: Node) -> str:
    """'control', 'memory' or 'data': how every edge out of definition ``x`` is drawn."""
    if x.is_cfg:
        return "control"
    if _produces_memory(x):
        return "memory"
    return "data"


def _node_attrs(n: Node, types: bool) -> str:
    text = f"%{n.nid} {n.label}"
    if types and str(n.type) != n.label:  # a constant's label is already its type
        text += f"\n{n.type}"
    attrs = [f"label={quote(text)}"]
    if n.is_cfg:
        attrs.append('shape=box, style="bold,filled", fillcolor="#e8eefc"')
    elif type(n) is Constant:
        attrs.append("shape=ellipse, fontsize=9, height=0.25, margin=0.02")
    elif type(n) is Phi:
        attrs.append('shape=ellipse, style=filled, fillcolor="#fff4cc"')
    else:
        attrs.append("shape=ellipse")
    return ", ".join(attrs)


def _ordered(user: Node) -> bool:
    """Label the edges into ``user`` with their input index: it has several operands
    whose order matters (Stop's inputs are an unordered set of exits)."""
    return type(user) is not Stop and sum(x is not None for x in user.inputs[1:]) > 1


def to_dot(graph: Graph, types: bool = False) -> str:
    """The dot source of ``graph`` (a ``digraph``; draw it with ``render`` or ``svg``)."""
    nodes = graph.nodes()
    live = set(nodes)
    out = [f"digraph {quote(graph.name)} {{",
           "  ordering=in;",
           '  node [fontname="Helvetica", fontsize=11];',
           '  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];']
    for n in nodes:
        out.append(f"  n{n.nid} [{_node_attrs(n, types)}];")
    for n in nodes:
        if isinstance(n, Region):
            phis = sorted((p for p in n.phis() if p in live), key=lambda p: p.nid)
            if phis:
                out.append("  { rank=same; " + " ".join(f"n{x.nid};" for x in (n, *phis)) + " }")
    for n in nodes:
        ordered = _ordered(n)
        for i, x in enumerate(n.inputs):
            if x is None:
                continue
            attrs = EDGE_STYLE[edge_class(x)]
            if ordered and i > 0:
                attrs += f', headlabel="{i}"'
            out.append(f"  n{x.nid} -> n{n.nid} [{attrs}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _pipe(graph: Graph, fmt: str, types: bool) -> bytes:
    import graphviz

    if fmt not in graphviz.FORMATS:
        raise SonError(f"unknown output format {fmt!r}; use svg, png, pdf or dot, say")
    if shutil.which("dot") is None:
        raise SonError(_MISSING_DOT)
    try:
        return graphviz.Source(to_dot(graph, types)).pipe(format=fmt)
    except graphviz.ExecutableNotFound as e:
        raise SonError(_MISSING_DOT) from e
    except graphviz.CalledProcessError as e:  # e.g. a format this build of dot lacks
        stderr = (e.stderr or b"").decode(errors="replace").strip()
        raise SonError(f"'dot -T{fmt}' failed: {stderr}") from e


def render(graph: Graph, path: str | Path, format: str = "svg", types: bool = False) -> Path:
    """Write ``graph`` drawn by ``dot`` in ``format`` to ``path`` (parent folders are
    created); return the path."""
    path = Path(path)
    data = _pipe(graph, format, types)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def svg(graph: Graph, types: bool = False) -> str:
    """``graph`` as an SVG document (text): what a Jupyter ``_repr_svg_`` hook returns."""
    return _pipe(graph, "svg", types).decode("utf-8")

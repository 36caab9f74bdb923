"""Graphviz dot for a Graph, and SVG/PDF/PNG rendering through the ``dot`` binary.

Conventions (DESIGN.md, Visualization): an edge runs from a definition to its
user; it is bold between CFG nodes (control flow), dotted from a CFG node
into a node that is not one (an *anchor*: the control input that places a
constant, a parameter, a Phi, a load or a store, which is no control flow),
dashed when the definition is a memory state, thin otherwise (data).  CFG
nodes are boxes, each Phi shares a rank with its Region, constants are small.
Every node shows ``%id label`` and, with ``types=True``, its lattice type; an
operator whose symbol starts with ``%`` (modulo) is labelled by name (``mod``)
so that it never reads as a node id.  Where a user's operand order matters
(``a - b``, a Phi's values, a Region's predecessors) each edge into it carries
the input index as a head label.  ``legend=True`` adds a key to these
conventions below the drawing (a graph label: it does not move any node); the
Jupyter display and the ``son dot`` command draw it, ``legend()`` is the key
drawn on its own.

Options of ``to_dot`` (and of ``render``/``svg``, which pass them on):
``hide_constants`` leaves out Constant nodes and their edges,
``cfg_only`` keeps only CFG nodes and the control edges between them, and
``schedule`` (a ``son.schedule`` Schedule of this graph) draws one cluster
``cluster_B<id>`` per scheduled block, labelled with the block id and loop
depth; nodes the schedule does not place stay outside every cluster.

``to_dot`` is pure text and needs neither the ``graphviz`` package nor the
binary; ``render`` and ``svg`` need both, and stop ``dot`` after ``timeout``
seconds (``RENDER_TIMEOUT`` by default) with a ``SonError`` giving the size
of the drawing and the options that shrink it.  One pass over the live nodes and
their inputs: O(N + E).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ..errors import SonError
from ..nodes import Constant, Graph, Node, Phi, Proj, PyRegion, Region, Stop, Store
from ..nodes.types import MEM

#: edge class -> dot attributes
EDGE_ATTRS: dict[str, dict[str, str]] = {
    "control": {"style": "bold", "color": '"#1f3a93"'},
    "anchor": {"style": "dotted", "color": '"#6b7fb3"', "penwidth": "0.8"},
    "memory": {"style": "dashed", "color": '"#2e7d32"'},
    "data": {"style": "solid", "penwidth": "0.8"},
}

#: edge class -> dot attributes as text
EDGE_STYLE = {cls: ", ".join(f"{k}={v}" for k, v in attrs.items()) for cls, attrs in EDGE_ATTRS.items()}

#: seconds ``dot`` may take for one drawing before ``render``/``svg`` give up (a few
#: hundred nodes take seconds; thousands can take many minutes)
RENDER_TIMEOUT = 60.0

_MISSING_DOT = ("the Graphviz 'dot' binary is not on PATH; install it with "
                "'bash scripts/setup.sh' or 'apt-get install graphviz'")

#: the graph attributes every drawing starts with.  ``nslimit`` bounds dot's network
#: simplex passes: without it a 430-node graph takes 30 s to lay out, with it 2 s
HEADER = ("  ordering=in; nslimit=2; nslimit1=2;",
          '  node [fontname="Helvetica", fontsize=11];',
          '  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];')


def quote(text: str) -> str:
    """``text`` as a dot double-quoted string that shows it verbatim (newlines break lines)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "")
    return '"' + text.replace("\n", "\\n") + '"'


def attr_list(attrs: dict[str, str]) -> str:
    """``{"shape": "box"}`` as dot's ``shape=box`` (values are already dot text)."""
    return ", ".join(f"{k}={v}" for k, v in attrs.items())


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


def edge_class(x: Node, user: Node | None = None) -> str:
    """'control', 'anchor', 'memory' or 'data': how the edge from definition ``x`` into
    ``user`` is drawn (without ``user``: an edge out of ``x`` into a CFG node).  An edge
    out of a CFG node is control flow only into another CFG node; into any other node it
    is an anchor (Start's edges to constants and parameters, a Region's to its Phis)."""
    if x.is_cfg:
        return "control" if user is None or user.is_cfg else "anchor"
    if _produces_memory(x):
        return "memory"
    return "data"


#: labels that would read as a node id after ``%id``: drawn by name
_LABEL_NAMES = {"%": "mod"}


def node_text(n: Node, types: bool) -> str:
    """What a node shows: ``%id label`` and, with ``types``, its lattice type below."""
    text = f"%{n.nid} {_LABEL_NAMES.get(n.label, n.label)}"
    if types and str(n.type) != n.label:  # a constant's label is already its type
        text += f"\n{n.type}"
    return text


#: the fill of a fallback region (code CPython runs), in drawings and the legend
_PYTHON_FILL = "#fde2e2"


def node_attrs(n: Node, types: bool) -> dict[str, str]:
    """The dot attributes of node ``n`` by the conventions (label, shape, fill)."""
    attrs = {"label": quote(node_text(n, types))}
    if n.is_cfg:
        attrs.update(shape="box", style='"bold,filled"', fillcolor='"#e8eefc"')
    elif type(n) is Constant:
        attrs.update(shape="ellipse", fontsize="9", height="0.25", margin="0.02")
    elif type(n) is Phi:
        attrs.update(shape="ellipse", style="filled", fillcolor='"#fff4cc"')
    elif type(n) is PyRegion:  # code CPython runs: a box with the statements' first line
        lines = [x.strip() for x in n.code.text.splitlines()]
        first = " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]  # `try: r = x / y`
        text = node_text(n, types) + "\n" + (first if len(first) <= 40 else first[:37] + "...")
        attrs.update(label=quote(text), shape="note", style="filled", fillcolor=f'"{_PYTHON_FILL}"')
    else:
        attrs.update(shape="ellipse")
    return attrs


def ordered(user: Node) -> bool:
    """Label the edges into ``user`` with their input index: it has several operands
    whose order matters (Stop's inputs are an unordered set of exits)."""
    return type(user) is not Stop and sum(x is not None for x in user.inputs[1:]) > 1


def edge_attrs(x: Node, user: Node, i: int) -> dict[str, str]:
    """The dot attributes of the edge from ``x`` into input ``i`` of ``user``."""
    attrs = dict(EDGE_ATTRS[edge_class(x, user)])
    if i > 0 and ordered(user):
        attrs["headlabel"] = f'"{i}"'
        # operands meet at one point of their user: turn odd and even labels to either
        # side of their edges so that "1" and "2" do not print over each other
        attrs["labelangle"] = "35" if i % 2 else "-35"
        attrs["labeldistance"] = "1.3"
    return attrs


def shown_nodes(graph: Graph, hide_constants: bool = False, cfg_only: bool = False) -> list[Node]:
    """The live nodes a drawing with these options shows, in id order."""
    nodes = graph.nodes()
    if cfg_only:
        return [n for n in nodes if n.is_cfg]
    if hide_constants:
        return [n for n in nodes if type(n) is not Constant]
    return nodes


def phi_ranks(nodes: list[Node]) -> list[list[Node]]:
    """Each Region that has Phis among ``nodes``, followed by those Phis (id order)."""
    shown = set(nodes)
    groups = []
    for n in nodes:
        if isinstance(n, Region):
            phis = sorted((p for p in n.phis() if p in shown), key=lambda p: p.nid)
            if phis:
                groups.append([n, *phis])
    return groups


def rank_line(group: list[Node], indent: str = "  ", prefix: str = "n") -> str:
    return indent + "{ rank=same; " + " ".join(f"{prefix}{x.nid};" for x in group) + " }"


_SWATCH = '<TD WIDTH="18" BGCOLOR="{}" BORDER="1" STYLE="{}"></TD>'


def legend_label() -> str:
    """The key to the conventions as a Graphviz HTML label (for a graph's ``label=``)."""
    def line(color: str, glyph: str, what: str) -> str:
        return f'<TD ALIGN="LEFT"><FONT COLOR="{color}">{glyph}</FONT> {what}</TD>'

    edges = [line("#1f3a93", "<B>━━━</B>", "control flow"),
             line("#6b7fb3", "┈┈┈", "anchor (a control input that places a node)"),
             line("#2e7d32", "╌╌╌", "memory"), line("#000000", "───", "data; n: input index")]
    nodes = [(_SWATCH.format("#e8eefc", "ROUNDED") + '<TD ALIGN="LEFT">CFG node (box)</TD>'),
             (_SWATCH.format("#fff4cc", "ROUNDED") + '<TD ALIGN="LEFT">Phi</TD>'),
             (_SWATCH.format("#ffffff", "ROUNDED") + '<TD ALIGN="LEFT">data node; small: constant</TD>'),
             '<TD></TD><TD ALIGN="LEFT">%id label (mod: the % operator)</TD>']
    rows = "".join(f"<TR>{e}<TD> </TD>{n}</TR>" for e, n in zip(edges, nodes, strict=True))
    return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="1">{rows}</TABLE>>')


def legend_lines() -> list[str]:
    """The graph attributes that put the key below a drawing."""
    return [f"  label={legend_label()}; labelloc=b; labeljust=l; fontsize=9; fontname=\"Helvetica\";"]


def legend() -> str:
    """The key on its own, drawn with real edges and nodes: dot text (``svg``-able with
    ``son.viz.dot.pipe(legend(), "svg")``)."""
    out = ["digraph legend {", '  rankdir=LR; node [fontname="Helvetica", fontsize=10]; '
           'edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];']
    samples = [("control", "CFG node", {"shape": "box", "style": '"bold,filled"', "fillcolor": '"#e8eefc"'}),
               ("anchor", "constant", {"shape": "ellipse", "fontsize": "9"}),
               ("memory", "memory state", {"shape": "ellipse"}),
               ("data", "data node", {"shape": "ellipse"})]
    for k, (cls, what, attrs) in enumerate(samples):
        out.append(f'  s{k} [label="", shape=point, width=0.05];')
        out.append(f"  t{k} [label={quote(what)}, {attr_list(attrs)}];")
        out.append(f"  s{k} -> t{k} [label={quote(cls)}, {EDGE_STYLE[cls]}];")
    out.append('  phi [label="Phi", shape=ellipse, style=filled, fillcolor="#fff4cc"];')
    out.append(f'  py [label="code CPython runs", shape=note, style=filled, fillcolor="{_PYTHON_FILL}"];')
    out.append("}")
    return "\n".join(out) + "\n"


def to_dot(graph: Graph, types: bool = False, hide_constants: bool = False, cfg_only: bool = False,
           schedule: Any = None, legend: bool = False) -> str:
    """The dot source of ``graph`` (a ``digraph``; draw it with ``render`` or ``svg``).

    ``schedule`` is a ``son.schedule(graph)`` result: nodes are then clustered by block.
    ``legend`` puts the key to the drawing's conventions below it.  A graph that calls
    other graphs (``Graph.callees``) is drawn with them, unscheduled: one cluster per
    function and a bold dashed edge from each ``Call`` to the Start it calls.
    """
    out = [f"digraph {quote(graph.name)} {{", *HEADER]
    if legend:
        out.extend(legend_lines())
    callees = graph.callees() if schedule is None else []
    if callees:
        out.extend(_module_lines(graph, callees, types, hide_constants, cfg_only))
        out.append("}")
        return "\n".join(out) + "\n"
    nodes = shown_nodes(graph, hide_constants, cfg_only)
    shown = set(nodes)
    if schedule is None:
        for n in nodes:
            out.append(f"  n{n.nid} [{attr_list(node_attrs(n, types))}];")
        out.extend(rank_line(g) for g in phi_ranks(nodes))
    else:
        # with clusters, dot 2.43 under ordering=in may run for minutes (a 24-node loop
        # did), and rank=same groups crash it (merge_chain assertion): clustered drawings
        # use neither; a Phi stays inside its Region's cluster, head labels give the order
        out[1] = out[1].replace("ordering=in; ", "")
        out.extend(_clustered(nodes, types, schedule))
    for n in nodes:
        for i, x in enumerate(n.inputs):
            if x is not None and x in shown:
                out.append(f"  n{x.nid} -> n{n.nid} [{attr_list(edge_attrs(x, n, i))}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _module_lines(graph: Graph, callees: list[Graph], types: bool, hide_constants: bool,
                  cfg_only: bool) -> list[str]:
    """The clusters of a graph and the graphs it calls, and the call edges: O(N + E)
    over the module."""
    from ..nodes import Call

    prefix = {graph: "n", **{g: f"f{k}n" for k, g in enumerate(callees, 1)}}
    out, calls = [], []
    for k, g in enumerate([graph, *callees]):
        p = prefix[g]
        nodes = shown_nodes(g, hide_constants, cfg_only)
        shown = set(nodes)
        sig = ", ".join(f"{n}: {t}" for n, t in g.params)
        out.append(f"  subgraph cluster_fn{k} {{")
        out.append(f'    label={quote(f"def {g.name}({sig})")}; labeljust=l; style="rounded"; '
                   'color="#4a6fa5"; fontname="Helvetica"; fontsize=11;')
        out.extend(f"    {p}{n.nid} [{attr_list(node_attrs(n, types))}];" for n in nodes)
        out.extend(rank_line(grp, "    ", p) for grp in phi_ranks(nodes))
        out.append("  }")
        for n in nodes:
            for i, x in enumerate(n.inputs):
                if x is not None and x in shown:
                    out.append(f"  {p}{x.nid} -> {p}{n.nid} [{attr_list(edge_attrs(x, n, i))}];")
            if type(n) is Call:
                t = n.target or g
                calls.append(f"  {p}{n.nid} -> {prefix[t]}{t.start.nid} "
                             '[style="dashed,bold", color="#4a6fa5", constraint=false, label="calls"];')
    return out + calls


def block_title(block: Any) -> str:
    """``B3  depth 1``: how a scheduled block is named in drawings."""
    return f"B{block.id}  depth {block.depth}"


def _clustered(nodes: list[Node], types: bool, schedule: Any) -> list[str]:
    """Node lines grouped into one cluster per scheduled block: O(N + blocks)."""
    block_of = schedule.block_of
    members: dict[int, list[Node]] = {b.id: [] for b in schedule.blocks}
    loose: list[Node] = []
    for n in nodes:
        b = block_of.get(n)
        if b is None or b.id not in members:
            loose.append(n)
        else:
            members[b.id].append(n)
    out = []
    for b in schedule.blocks:
        inside = members[b.id]
        if not inside:
            continue
        out.append(f"  subgraph cluster_B{b.id} {{")
        out.append(f'    label={quote(block_title(b))}; labeljust=l; style="rounded,dashed"; '
                   'color="#7a7a7a"; fontname="Helvetica"; fontsize=10;')
        out.extend(f"    n{n.nid} [{attr_list(node_attrs(n, types))}];" for n in inside)
        out.append("  }")
    out.extend(f"  n{n.nid} [{attr_list(node_attrs(n, types))}];" for n in loose)
    return out


def pipe(dot: str, fmt: str, timeout: float | None = None) -> bytes:
    """Run ``dot -T<fmt>`` on the dot text; ``fmt="dot"`` returns the text itself.

    ``dot`` is stopped after ``timeout`` seconds (default ``RENDER_TIMEOUT``) with a
    ``SonError`` that gives the drawing's size and how to draw less."""
    import graphviz

    if fmt == "dot":
        return dot.encode()
    if fmt not in graphviz.FORMATS:
        raise SonError(f"unknown output format {fmt!r}; use svg, png, pdf or dot, say")
    exe = shutil.which("dot")
    if exe is None:
        raise SonError(_MISSING_DOT)
    timeout = RENDER_TIMEOUT if timeout is None else timeout
    try:
        r = subprocess.run([exe, f"-T{fmt}"], input=dot.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SonError(_timeout_message(dot, timeout)) from None
    except OSError as e:
        raise SonError(f"cannot run Graphviz 'dot' ({exe}): {e}") from e
    if r.returncode != 0:  # e.g. a format this build of dot lacks
        stderr = r.stderr.decode(errors="replace").strip()
        raise SonError(f"'dot -T{fmt}' failed: {stderr}")
    return r.stdout


def _timeout_message(dot: str, timeout: float) -> str:
    """What to tell a user whose drawing took longer than ``timeout`` seconds."""
    m = re.match(r'\s*(?:di)?graph\s+("(?:[^"\\]|\\.)*"|\w+)', dot)
    name = m.group(1).strip('"') if m else "the graph"
    lines = dot.splitlines()
    edges = sum(" -> " in ln for ln in lines)
    nodes = sum(1 for ln in lines if "[" in ln and " -> " not in ln and "label=" in ln
                and not ln.lstrip().startswith(("label=", "node ", "edge ", "graph ")))
    return (f"Graphviz 'dot' did not finish drawing {name} ({nodes} nodes, {edges} edges) within "
            f"{timeout:g} s: its layout time grows much faster than the graph. Draw less with "
            "cfg_only=True or hide_constants=True (son dot: --cfg-only, --hide-constants), draw the "
            "schedule's blocks (schedule_dot), or allow more time with timeout=")


def write(dot: str, path: str | Path, format: str, timeout: float | None = None) -> Path:
    """Draw the dot text in ``format`` into ``path`` (parent folders are created); ``dot``
    gets ``timeout`` seconds (default ``RENDER_TIMEOUT``)."""
    path = Path(path)
    data = pipe(dot, format, timeout)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as e:
        raise SonError(f"cannot write {str(path)!r}: {e.strerror}") from e
    return path


def render(graph: Graph, path: str | Path, format: str = "svg", types: bool = False,
           timeout: float | None = None, **options: Any) -> Path:
    """Write ``graph`` drawn by ``dot`` in ``format`` (svg, png, pdf, ..., or ``dot`` for
    the source text) to ``path``, parent folders created; return the path.  ``options``
    are those of ``to_dot``; ``dot`` gets ``timeout`` seconds (default ``RENDER_TIMEOUT``)
    and a ``SonError`` says so when it runs out."""
    return write(to_dot(graph, types, **options), path, format, timeout)


def svg(graph: Graph, types: bool = False, timeout: float | None = None, **options: Any) -> str:
    """``graph`` as an SVG document (text): what a Jupyter ``_repr_svg_`` hook returns.
    ``options`` are those of ``to_dot``; ``timeout`` as for ``render``."""
    return pipe(to_dot(graph, types, **options), "svg", timeout).decode("utf-8")

"""The explorer's page (``son.explore``): graphs as records, and one self-contained HTML file.

The driver (``son/driver/explorer.py``) decides the phases; this module turns each
phase's nodes into plain records (JSON) and writes the page around them: the data in
a ``<script type="application/json">`` element, the script and the style of
``explorer_script.py`` inline, nothing fetched from the network.  The browser lays out
whatever subset the filters leave (a layered drawing computed in the page), so a filter
never needs Python or Graphviz.

A node's record: ``id``, ``label`` (``mod`` for ``%``, as in dot drawings), ``cls``,
``type``, ``kind`` (``cfg``, ``phi``, ``const`` or ``data``: the dot conventions' node
classes), ``in`` (``[input id, input index, edge class]`` per drawn input, the edge
class of ``son.viz.dot.edge_class``), ``ordered`` (label the inputs by index, as dot
does), and where known ``line`` (the source line, ``Graph.lines``), ``block`` and
``loops`` (from a schedule: the block id, and the ids of the Loop nodes heading the
loops around the node, innermost first).

Cost: O(N + E) per phase; the page is O(total records) characters.
"""

from __future__ import annotations

import html
import json
from typing import Any, Iterable, Mapping

from ..nodes import Constant, Node, Phi
from .dot import _LABEL_NAMES, EDGE_ATTRS, block_title, edge_class, ordered
from .explorer_script import SCRIPT, STYLE
from .graphdiff import GREEN, ORANGE, RED

#: the look of the four edge classes in the page, from the dot conventions (EDGE_ATTRS)
_DASH = {"bold": "", "dotted": "2,3", "dashed": "6,4", "solid": ""}


def edge_styles() -> dict[str, dict[str, Any]]:
    """Edge class -> ``{"color", "width", "dash"}`` for the page, read from ``EDGE_ATTRS``."""
    out = {}
    for cls, attrs in EDGE_ATTRS.items():
        style = attrs.get("style", "solid")
        width = 2.0 if style == "bold" else float(attrs.get("penwidth", "1"))
        out[cls] = {"color": attrs.get("color", '"#333333"').strip('"'), "width": width,
                    "dash": _DASH.get(style, "")}
    return out


def node_kind(n: Node) -> str:
    """'cfg', 'phi', 'const' or 'data': how the page draws ``n`` (box, yellow, small, plain)."""
    if n.is_cfg:
        return "cfg"
    if type(n) is Phi:
        return "phi"
    return "const" if type(n) is Constant else "data"


def node_records(nodes: Iterable[Node], lines: Mapping[int, int], schedule: Any = None) -> list[dict]:
    """One record per node of ``nodes`` (see the module docstring), in id order; edges only
    between these nodes.  ``schedule`` (a ``son.schedule`` Schedule of these nodes' graph)
    adds ``block`` and ``loops``."""
    nodes = sorted(nodes, key=lambda n: n.nid)
    shown = set(nodes)
    block_of = schedule.block_of if schedule is not None else {}
    out = []
    for n in nodes:
        rec: dict[str, Any] = {
            "id": n.nid, "label": _LABEL_NAMES.get(n.label, n.label), "cls": type(n).__name__,
            "type": str(n.type), "kind": node_kind(n), "ordered": ordered(n),
            "in": [[x.nid, i, edge_class(x, n)] for i, x in enumerate(n.inputs)
                   if x is not None and x in shown]}
        if n.nid in lines:
            rec["line"] = lines[n.nid]
        b = block_of.get(n)
        if b is not None:
            rec["block"] = b.id
            loops, h = [], b.loop
            while h is not None:
                loops.append(h.head.nid)
                h = h.outer
            if loops:
                rec["loops"] = loops
        out.append(rec)
    return out


def schedule_records(schedule: Any) -> tuple[list[dict], list[dict]]:
    """The blocks (``id``, ``title``, ``nodes`` in execution order) and the loops (``id``:
    the Loop node, ``title``, ``depth``) of a Schedule, for the page's filters."""
    blocks, loops = [], []
    for b in schedule.blocks:
        members = [*b.cfg, *b.phis, *b.nodes]
        blocks.append({"id": b.id, "title": block_title(b), "nodes": [n.nid for n in members]})
        if b.is_loop_header:
            loops.append({"id": b.head.nid, "title": f"loop %{b.head.nid} (B{b.id}, depth {b.depth})",
                          "depth": b.depth})
    return blocks, loops


def page(data: dict, title: str) -> str:
    """The whole explorer as one HTML document: ``data`` (the phases, the source; see
    ``son/driver/explorer.py``) embedded as JSON, with the page's own script and style."""
    data = dict(data, styles=edge_styles(),
                colors={"removed": RED.strip('"'), "added": GREEN.strip('"'), "retyped": ORANGE.strip('"')})
    # "</" inside the JSON would end the script element early
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>\n"
            f"<style>{STYLE}</style></head>\n<body>\n"
            f"<script type=\"application/json\" id=\"son-data\">{payload}</script>\n"
            f"<script>{SCRIPT}</script>\n</body></html>\n")


def iframe(document: str, height: int = 760) -> str:
    """``document`` inside an ``<iframe srcdoc>``: how Jupyter shows the page inline, its
    script and ids apart from the notebook's and from other explorers'."""
    return (f'<iframe srcdoc="{html.escape(document, quote=True)}" '
            f'style="width:100%; height:{height}px; border:1px solid #ccc;"></iframe>')

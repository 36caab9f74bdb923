"""Inline display in Jupyter: the ``_repr_svg_`` hooks of Graph, Diff and Schedule.

A hook returns SVG text, or ``None`` so that Jupyter falls back to the text
repr: when the Graphviz ``dot`` binary is missing, or when the drawing has
more than ``INLINE_LIMIT`` nodes (dot's layout grows much faster than
linearly: about 2 s at 430 nodes, 30 s at 1100; draw large graphs on purpose
with ``son.viz.render`` or with ``cfg_only``/``hide_constants``), or when
``dot`` takes longer than ``INLINE_TIMEOUT`` seconds.
"""

from __future__ import annotations

import shutil
from typing import Any

from ..errors import SonError
from ..nodes import Graph
from .dot import pipe, to_dot

#: the largest drawing (in nodes) shown inline
INLINE_LIMIT = 400

#: seconds ``dot`` may take for an inline drawing before the text repr is shown instead
INLINE_TIMEOUT = 20.0


def inline_svg(dot: str, size: int) -> str | None:
    """SVG for the dot text of a drawing of ``size`` nodes, or None (see module docstring)."""
    if size > INLINE_LIMIT or shutil.which("dot") is None:
        return None
    try:
        return pipe(dot, "svg", INLINE_TIMEOUT).decode("utf-8")
    except SonError:
        return None


def graph_svg(graph: Graph) -> str | None:
    """``Graph._repr_svg_``: the graph with types, or None."""
    live = graph.live()
    if len(live) > INLINE_LIMIT:
        return None
    return inline_svg(to_dot(graph, types=True), len(live))


def schedule_svg(schedule: Any) -> str | None:
    """``Schedule._repr_svg_``: the block CFG of ``schedule_dot``, or None."""
    from .schedule import schedule_dot

    size = sum(len(b.phis) + len(b.nodes) + 1 for b in schedule.blocks)
    if size > 10 * INLINE_LIMIT:  # blocks lay out fast; beyond this the listing is unreadable
        return None
    return inline_svg(schedule_dot(schedule), len(schedule.blocks))

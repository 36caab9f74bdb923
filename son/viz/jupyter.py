"""Inline display in Jupyter: the ``_repr_svg_`` hooks of Graph, Diff and Schedule.

The core never imports ``son.viz``: ``install_hooks`` (run when ``son.viz`` is
imported, which ``import son`` does) adds the drawing methods to ``Graph`` and
``Schedule``.

A hook returns SVG text, or ``None`` so that Jupyter falls back to the text
repr: when the Graphviz ``dot`` binary is missing, or when the drawing has
more than ``INLINE_LIMIT`` nodes (dot's layout grows much faster than
linearly: about 2 s at 430 nodes, 30 s at 1100; draw large graphs on purpose
with ``son.viz.render`` or with ``cfg_only``/``hide_constants``), or when
``dot`` takes longer than ``INLINE_TIMEOUT`` seconds.
"""

from __future__ import annotations

import shutil

from ..errors import SonError
from ..nodes import Graph
from ..schedule import Schedule
from .dot import pipe, to_dot
from .nx import to_networkx

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
    """``Graph._repr_svg_``: the graph with types and the key to its conventions, or None."""
    live = graph.live()
    if len(live) > INLINE_LIMIT:
        return None
    return inline_svg(to_dot(graph, types=True, legend=True), len(live))


def schedule_svg(schedule: Schedule) -> str | None:
    """``Schedule._repr_svg_``: the block CFG of ``schedule_dot``, or None."""
    from .schedule import schedule_dot

    size = sum(len(b.phis) + len(b.nodes) + 1 for b in schedule.blocks)
    if size > 10 * INLINE_LIMIT:  # blocks lay out fast; beyond this the listing is unreadable
        return None
    return inline_svg(schedule_dot(schedule), len(schedule.blocks))


def install_hooks() -> None:
    """Give the core's classes their drawing methods: ``Graph._repr_svg_`` (the graph
    inline in Jupyter), ``Graph.to_networkx(schedule=None)`` (see ``son.viz.nx``) and
    ``Schedule._repr_svg_`` (the block CFG).  Idempotent."""
    Graph._repr_svg_ = graph_svg
    Graph.to_networkx = to_networkx
    Schedule._repr_svg_ = schedule_svg

"""Drawing graphs: Graphviz dot text, and SVG/PDF/PNG through the ``dot`` binary."""

from .dot import edge_class, render, svg, to_dot

__all__ = ["edge_class", "render", "svg", "to_dot"]

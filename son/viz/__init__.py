"""Drawing graphs and schedules: Graphviz dot text, SVG/PDF/PNG through the ``dot``
binary, graph diffs, networkx export and the Jupyter display hooks."""

from .diff import Diff, diff
from .dot import edge_class, render, svg, to_dot
from .nx import to_networkx
from .schedule import schedule_dot

__all__ = ["Diff", "diff", "edge_class", "render", "schedule_dot", "svg", "to_dot", "to_networkx"]

"""Drawing graphs and schedules: Graphviz dot text, SVG/PDF/PNG through the ``dot``
binary, graph diffs, networkx export, tables of statistics (text and HTML) and the
Jupyter display hooks.

Importing this package (``import son`` does) installs ``Graph._repr_svg_``,
``Graph.to_networkx`` and ``Schedule._repr_svg_`` (see ``jupyter.install_hooks``):
viz sits above the core, which never imports it."""

from .dot import edge_class, legend, render, svg, to_dot
from .graphdiff import Diff, diff
from .jupyter import install_hooks
from .nx import to_networkx
from .schedule import schedule_dot
from .tables import html_table, text_table

install_hooks()

__all__ = ["Diff", "diff", "edge_class", "html_table", "install_hooks", "legend", "render", "schedule_dot",
           "svg", "text_table", "to_dot", "to_networkx"]

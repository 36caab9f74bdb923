"""Tables of statistics as aligned text and as HTML for Jupyter: what ``son.optimize``'s
``PipelineStats``, ``son.compare``'s ``Comparison`` and ``son.trace``'s ``Trace`` print
and display.  Every cell is already text.  O(cells)."""

from __future__ import annotations

from html import escape
from typing import Sequence


def text_table(columns: Sequence[str], rows: list[tuple[str, ...]]) -> str:
    """``rows`` under a header of ``columns``: the first column left-aligned, the others
    right-aligned, each as wide as its widest cell."""
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(columns)]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def html_table(columns: Sequence[str], rows: list[tuple[str, ...]], caption: str | None = None) -> str:
    """``rows`` as an HTML ``<table>`` (cells escaped) with an optional caption."""
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

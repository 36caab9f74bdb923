"""``son.compare``: one function through several pipelines, side by side.

    cmp = son.compare(f)                  # none, peephole, sccp, combined
    print(cmp)                            # nodes, CFG nodes, constants, phis, loops, branches, ms
    cmp["sccp"]                           # that pipeline's graph
    cmp.to_pandas()                       # the same table as a pandas.DataFrame

The table prints as aligned text and renders as HTML in Jupyter.  Cost: one
parse and one pipeline per row, plus a census (O(N + E)) each.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, fields
from typing import Callable, Sequence

from ..nodes import Graph
from ..viz.tables import html_table, text_table
from .passes import Census, PipelineStats, pandas
from .pipeline import Pipeline

__all__ = ["Comparison", "Row", "compare"]


@dataclass
class Row:
    pipeline: str
    census: Census
    seconds: float
    graph: Graph
    stats: PipelineStats


class Comparison:
    """``son.compare``'s table: one row per pipeline; ``cmp["sccp"]`` is that graph."""

    COLUMNS = ("pipeline", "nodes", "cfg", "constants", "phis", "loops", "branches", "ms")

    def __init__(self, name: str, rows: list[Row]):
        self.name = name
        self.rows = rows

    def __getitem__(self, pipeline: str) -> Graph:
        for r in self.rows:
            if r.pipeline == pipeline:
                return r.graph
        raise KeyError(pipeline)

    @property
    def graphs(self) -> dict[str, Graph]:
        return {r.pipeline: r.graph for r in self.rows}

    def table(self) -> list[tuple[str, ...]]:
        out = []
        for r in self.rows:
            c = r.census
            out.append((r.pipeline, *(str(getattr(c, f.name)) for f in fields(Census)),
                        f"{r.seconds * 1e3:.2f}"))
        return out

    def __str__(self) -> str:
        return text_table(self.COLUMNS, self.table())

    def __repr__(self) -> str:
        return f"<Comparison of {self.name}: {', '.join(r.pipeline for r in self.rows)}>"

    def _repr_html_(self) -> str:
        return html_table(self.COLUMNS, self.table(), caption=self.name)

    def to_pandas(self):
        """A ``pandas.DataFrame``, one row per pipeline: ``function``, ``pipeline``, the
        census (``nodes``, ``cfg``, ``constants``, ``phis``, ``loops``, ``branches``),
        ``seconds`` and ``rule_hits`` (the peephole rewrites made, while parsing and in the
        passes); concatenate several functions' tables for a corpus-wide comparison."""
        pd = pandas()
        rows = [{"function": self.name, "pipeline": r.pipeline, **asdict(r.census), "seconds": r.seconds,
                 "rule_hits": sum(r.graph.rule_hits.values())} for r in self.rows]
        return pd.DataFrame(rows, columns=["function", "pipeline", *(f.name for f in fields(Census)),
                                           "seconds", "rule_hits"])


def compare(fn: Callable | str, pipelines: Sequence = ("none", "peephole", "sccp", "combined"),
            argtypes=None, args=None, fallback: str = "error") -> Comparison:
    """Parse ``fn`` once per pipeline and tabulate nodes, CFG nodes, constants,
    phis, loops and branches left, and the time taken (parse included).

    A pipeline is anything ``Pipeline.of`` takes: a name from ``PIPELINES`` (``none``
    is the raw parse, ``peephole`` the peephole, ``sccp``/``combined`` the optimistic
    pass after it), a pass string run on the raw parse (``"peephole,sccp"``) or a
    ``Pipeline``.  ``fn`` may also be a source text (its last function is compared).
    ``fallback="region"`` parses as ``son.parse`` does with it (fallback regions).
    """
    rows = []
    for spec in pipelines:
        p = Pipeline.of(spec)
        t0 = time.perf_counter()
        g = p.parse(fn, argtypes=argtypes, args=args, fallback=fallback)
        g, stats = p.optimize(g, inplace=True)
        rows.append(Row(str(spec) if isinstance(spec, str) else p.name, Census.of(g),
                        time.perf_counter() - t0, g, stats))
    title = rows[0].graph.name if rows else getattr(fn, "__name__", "function")
    return Comparison(title, rows)

"""Passes, pipelines and the pessimistic-vs-optimistic comparison.

A *pass* is a named callable ``fn(graph) -> dict | None`` that changes the
graph in place and may return pass-specific counts (``{"proven": 3}``).  The
registry maps names to passes; ``register_pass`` adds user passes, so a
pipeline is just a comma-separated string of names::

    g2, stats = son.optimize(g, "peephole,sccp")
    print(stats)                      # one row per pass: nodes, constants, phis, ...

``optimize`` works on a copy unless ``inplace=True``, measures each pass
(wall time, a census of the graph before and after, peephole rule hits) and,
when ``son.debug`` is on, runs the verifier after every pass.

``compare(fn)`` parses ``fn`` once per pipeline and tabulates the result;
the table prints as aligned text and renders as HTML in Jupyter.

Cost: a census is one walk over the live nodes, O(N + E); the passes state
their own complexity.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Callable, Iterable, Sequence

from . import config
from .errors import SonError
from .nodes import Constant, Graph, If, Loop, Phi
from .peephole.engine import rewrite_context
from .viz.tables import html_table, text_table

PassFn = Callable[[Graph], "dict | None"]

#: the pipeline ``son.jit`` runs by default on the parse-time-peepholed graph
DEFAULT_PIPELINE = "sccp"


@dataclass(frozen=True)
class Pass:
    """A registered pass: its name, the function, one line saying what it does."""

    name: str
    fn: PassFn
    doc: str = ""

    def __call__(self, graph: Graph) -> dict | None:
        return self.fn(graph)


PASSES: dict[str, Pass] = {}


def register_pass(name: str, fn: PassFn | None = None, *, doc: str | None = None, replace: bool = False):
    """Register ``fn`` as pass ``name`` (usable as a decorator).

    ``fn(graph)`` changes ``graph`` in place and returns a dict of counts or
    None.  Registering an existing name raises unless ``replace=True``.
    """

    def add(f: PassFn) -> PassFn:
        if not name or "," in name or name != name.strip():
            raise SonError(f"invalid pass name {name!r}: use a word without commas or spaces")
        if name in PASSES and not replace:
            raise SonError(f"a pass named {name!r} is already registered (pass replace=True to override)")
        first_line = ((f.__doc__ or "").strip().splitlines() or [""])[0]
        PASSES[name] = Pass(name, f, doc if doc is not None else first_line)
        return f

    return add if fn is None else add(fn)


# ---------------------------------------------------------------- built-in passes
@register_pass("peephole")
def _peephole(graph: Graph) -> dict:
    """Pessimistic local rewrites (folding, algebra, value numbering) to a fixpoint."""
    from .peephole.engine import Peephole

    Peephole(graph).iterate(graph.nodes())
    return {"dead": graph.dce()}


@register_pass("dce")
def _dce(graph: Graph) -> dict:
    """Detach nodes that no longer reach Stop (dead cycles included)."""
    return {"dead": graph.dce()}


@register_pass("sccp")
def _sccp(graph: Graph) -> dict:
    """Wegman-Zadeck sparse conditional constant propagation, rewrite, peephole cleanup."""
    from .sccp.sccp import sccp

    return sccp(graph)


@register_pass("sccp-only")
def _sccp_only(graph: Graph) -> dict:
    """SCCP and its rewrite, without the cleanup peephole (what the analysis alone proves)."""
    from .sccp.sccp import sccp

    return sccp(graph, cleanup=False)


@register_pass("combined")
def _combined(graph: Graph) -> dict:
    """Click's combined analysis (constants + reachability + congruence), rewrite, cleanup."""
    from .sccp.combined import combined

    return combined(graph)


@register_pass("combined-only")
def _combined_only(graph: Graph) -> dict:
    """The combined analysis and its rewrite, without the cleanup peephole."""
    from .sccp.combined import combined

    return combined(graph, cleanup=False)


def parse_pipeline(pipeline: str | Sequence[str | Pass | PassFn]) -> list[Pass]:
    """The passes of ``pipeline``: a comma-separated string of registered names, or a
    sequence of names, ``Pass`` objects and plain functions.  ``""`` is no pass."""
    items: Iterable = pipeline.split(",") if isinstance(pipeline, str) else pipeline
    out: list[Pass] = []
    for p in items:
        if isinstance(p, Pass):
            out.append(p)
        elif isinstance(p, str):
            name = p.strip()
            if not name:
                continue
            if name not in PASSES:
                raise SonError(f"unknown pass {name!r}; registered passes: {', '.join(sorted(PASSES))}")
            out.append(PASSES[name])
        elif callable(p):
            out.append(Pass(getattr(p, "__name__", "pass"), p))
        else:
            raise SonError(f"a pipeline holds pass names, Pass objects or functions, not {p!r}")
    return out


# ---------------------------------------------------------------- statistics
@dataclass(frozen=True)
class Census:
    """What a graph holds: the numbers the comparison is about."""

    nodes: int
    cfg: int
    constants: int
    phis: int
    loops: int
    branches: int

    @classmethod
    def of(cls, graph: Graph) -> Census:
        live = graph.live()
        c = Counter(type(n) for n in live)
        return cls(nodes=len(live), cfg=sum(1 for n in live if n.is_cfg), constants=c[Constant],
                   phis=c[Phi], loops=c[Loop], branches=c[If])


@dataclass
class PassStats:
    """One pass of a pipeline: the census before and after, what it reported, its time."""

    name: str
    before: Census
    after: Census
    seconds: float
    rule_hits: Counter = field(default_factory=Counter)
    info: dict = field(default_factory=dict)

    @property
    def removed(self) -> dict[str, int]:
        """Nodes, phis, branches and loops removed (negative: added)."""
        return {k: getattr(self.before, k) - getattr(self.after, k)
                for k in ("nodes", "phis", "branches", "loops")}


class PipelineStats(list):
    """The ``PassStats`` of a pipeline, in order; prints as a table."""

    COLUMNS = ("pass", "nodes", "constants", "phis", "branches", "loops", "rule hits", "ms")

    def rows(self) -> list[tuple[str, ...]]:
        out = []
        for s in self:
            b, a = s.before, s.after
            out.append((s.name, f"{b.nodes} -> {a.nodes}", f"{b.constants} -> {a.constants}",
                        f"{b.phis} -> {a.phis}", f"{b.branches} -> {a.branches}", f"{b.loops} -> {a.loops}",
                        str(sum(s.rule_hits.values())), f"{s.seconds * 1e3:.2f}"))
        return out

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self)

    def __str__(self) -> str:
        return text_table(self.COLUMNS, self.rows())

    def _repr_html_(self) -> str:
        return html_table(self.COLUMNS, self.rows())


def optimize(graph: Graph, pipeline: str | Sequence = DEFAULT_PIPELINE,
             inplace: bool = False, *, rules=None, tracer=None) -> tuple[Graph, PipelineStats]:
    """Run ``pipeline`` (see ``parse_pipeline``) on ``graph`` or, unless ``inplace``,
    on a copy with the same node ids; return the graph and per-pass statistics.

    Every peephole engine the passes build uses the ``RuleSet`` ``rules`` (default:
    ``son.peephole.DEFAULT_RULES``) and reports each rewrite to ``tracer(rule, old,
    new)``, through ``son.peephole.rewrite_context``."""
    passes = parse_pipeline(pipeline)
    g = graph if inplace else graph.copy()
    stats = PipelineStats()
    for p in passes:
        before = Census.of(g)
        hits = Counter(g.rule_hits)
        t0 = time.perf_counter()
        with rewrite_context(rules, tracer):
            info = p(g)
        seconds = time.perf_counter() - t0
        if config.debug:
            g.verify()
        stats.append(PassStats(p.name, before, Census.of(g), seconds,
                               g.rule_hits - hits, dict(info or {})))
    return g, stats


# ---------------------------------------------------------------- comparison
#: named pipelines of ``compare``: (peephole while parsing?, passes run afterwards)
PIPELINES: dict[str, tuple[bool, str]] = {
    "none": (False, ""),
    "peephole": (True, ""),
    "sccp": (True, "sccp"),
    "combined": (True, "combined"),
}


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


def compare(fn: Callable | str, pipelines: Sequence[str] = ("none", "peephole", "sccp", "combined"),
            argtypes=None, args=None) -> Comparison:
    """Parse ``fn`` once per pipeline and tabulate nodes, CFG nodes, constants,
    phis, loops and branches left, and the time taken (parse included).

    A pipeline is a name from ``PIPELINES`` (``none`` is the raw parse,
    ``peephole`` the parse-time peephole, ``sccp``/``combined`` the optimistic
    pass after it) or a pass string run on the raw parse (``"peephole,sccp"``).
    ``fn`` may also be a source text (its last function is compared).
    """
    from .frontend import parse, parse_source

    def build(peephole: bool) -> Graph:
        if isinstance(fn, str):
            return parse_source(fn, peephole=peephole, argtypes=argtypes, args=args)
        return parse(fn, peephole=peephole, argtypes=argtypes, args=args)

    rows = []
    for name in pipelines:
        peep, passes = PIPELINES.get(name, (False, name))
        t0 = time.perf_counter()
        g = build(peep)
        g, stats = optimize(g, passes, inplace=True)
        rows.append(Row(name, Census.of(g), time.perf_counter() - t0, g, stats))
    title = rows[0].graph.name if rows else getattr(fn, "__name__", "function")
    return Comparison(title, rows)


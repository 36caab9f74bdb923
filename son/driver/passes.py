"""Passes: the registry, the built-in passes and the statistics of a run.

A *pass* is a named callable ``fn(graph) -> dict | None`` that changes the
graph in place and may return pass-specific counts (``{"proven": 3}``).  The
registry maps names to passes; ``register_pass`` adds user passes, so a list of
passes can be written as a comma-separated string of names (see
``son.driver.pipeline.Pipeline``, which also says how the graph is parsed and
with which rules)::

    g2, stats = son.optimize(g, "peephole,sccp")
    print(stats)                      # one row per pass: nodes, constants, phis, ...

``run_passes`` measures each pass (wall time, a census of the graph before and
after, peephole rule hits) and, when ``son.config.debug`` is on, runs the
verifier after every pass.

Cost: a census is one walk over the live nodes, O(N + E); the passes state
their own complexity.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Callable, Sequence

from .. import config
from ..errors import SonError
from ..nodes import Constant, CProj, Graph, If, Loop, OutOfBounds, Phi, Raise
from ..nodes.mathfn import MATH_FAULTS
from ..nodes.types import constant
from ..peephole.engine import Peephole, rewrite_context
from ..viz.tables import html_table, text_table

PassFn = Callable[[Graph], "dict | None"]

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
    from ..peephole.engine import Peephole

    Peephole(graph).iterate(graph.nodes())
    return {"dead": graph.dce()}


@register_pass("inline")
def _inline(graph: Graph) -> dict:
    """Inline the calls of other graphs that are small or called once, never recursive ones
    (a parse with ``inline=False`` keeps calls), then the peephole over each copy."""
    from ..peephole.inline import inline_calls

    return inline_calls(graph)


@register_pass("dce")
def _dce(graph: Graph) -> dict:
    """Detach nodes that no longer reach Stop (dead cycles included)."""
    return {"dead": graph.dce()}


@register_pass("sccp")
def _sccp(graph: Graph) -> dict:
    """Wegman-Zadeck sparse conditional constant propagation, rewrite, peephole cleanup."""
    from ..sccp.sccp import sccp

    return sccp(graph)


@register_pass("sccp-only")
def _sccp_only(graph: Graph) -> dict:
    """SCCP and its rewrite, without the cleanup peephole (what the analysis alone proves)."""
    from ..sccp.sccp import sccp

    return sccp(graph, cleanup=False)


@register_pass("combined")
def _combined(graph: Graph) -> dict:
    """Click's combined analysis (constants + reachability + congruence), rewrite, cleanup."""
    from ..sccp.combined import combined

    return combined(graph)


@register_pass("combined-only")
def _combined_only(graph: Graph) -> dict:
    """The combined analysis and its rewrite, without the cleanup peephole."""
    from ..sccp.combined import combined

    return combined(graph, cleanup=False)


@register_pass("guards")
def _guards(graph: Graph) -> dict:
    """Fold the tests that dominating tests decide (repeated guards, bounds checks of a
    loop's own counter), then clean up with the peephole."""
    from ..sccp.guards import eliminate_guards

    return eliminate_guards(graph)


def _fold_checks(graph: Graph, preds: list, guards: list) -> dict:
    """Make every test in ``preds`` false and every If in ``guards`` never taken, then
    clean up with the peephole.  O(N) plus the peephole."""
    if not preds and not guards:
        return {"dropped": 0}
    false = Constant(graph, constant(False)).keep()
    for n in preds:
        n.subsume(false)
    for n in guards:
        n.set_input(1, false)
    Peephole(graph).iterate(graph.nodes())
    false.unkeep()
    if false.is_unused():
        false.kill()
    return {"dropped": len(preds) + len(guards), "dead": graph.dce()}


@register_pass("drop-bounds-checks")
def drop_bounds_checks(graph: Graph) -> dict:
    """Make every array access unchecked (numba.njit's default): each ``OutOfBounds``
    test is false, so no ``IndexError`` is raised.  O(N) plus the peephole's cleanup."""
    return _fold_checks(graph, [n for n in graph.nodes() if type(n) is OutOfBounds], [])


@register_pass("drop-math-checks")
def drop_math_checks(graph: Graph) -> dict:
    """Never take a guard that raises one of ``MATH_FAULTS``: math functions give their
    IEEE values (numba.njit's), ``int(x)`` of NaN or of a float outside int64 an
    unspecified int.  O(N) plus the peephole's cleanup."""
    guards = []
    for n in graph.nodes():
        if type(n) is Raise and (n.exc, n.message) in MATH_FAULTS:
            proj = n.inputs[0]
            if type(proj) is CProj and type(proj.inputs[0]) is If and proj.index == 0:
                guards.append(proj.inputs[0])
    return _fold_checks(graph, [], guards)


@register_pass("version-loops")
def version_loops(graph: Graph) -> dict:
    """Give each innermost counted loop whose bounds checks one test before it can prove
    a copy without them, chosen by that test (son/sccp/versioning.py).  O(N + E) per
    versioned loop plus the copies."""
    from ..sccp.versioning import version_loops as run

    return run(graph)


def kernel_graph(graph: Graph, boundscheck: bool = True, math_errors: bool = True) -> Graph:
    """The graph a kernel is compiled from: a copy of ``graph`` without the checks
    numba.njit does not make (without ``boundscheck`` the ``drop-bounds-checks`` pass,
    without ``math_errors`` the ``drop-math-checks`` pass), or, with ``boundscheck``, with
    its loops versioned where one of their checks tests an index that may be negative
    (the ``version-loops`` pass, ``signed_only``: such a loop runs a copy without
    its checks when one test before it proves them; an effect-free loop whose indices
    are non-negative is predicated instead: one test before it raises), then every
    check with one half
    proven cut to the other half (``eliminate_guards(halve=True)``: ``i < -n`` alone
    where the dominating tests prove ``i < n``); ``graph`` itself where nothing
    changes.  O(N) plus the passes.

    Versioning costs Numba's compile a second copy of each versioned loop (~25 ms
    each).  Where an index may be negative it gains the checks and numba's per-access
    negative-index test, which the copy's proven-non-negative indices skip
    (benchmarks/kernels.py side by side: matmul 2.17x numba.njit's time without it,
    1.03x with it); a check of an index already known non-negative is one predictable
    compare (dot, saxpy: 1.03-1.06x either way), so those loops are left alone."""
    if boundscheck:
        if not any(type(n) is OutOfBounds for n in graph.nodes()):
            if math_errors:
                return graph
            g = graph.copy()
        else:
            from ..sccp.guards import eliminate_guards
            from ..sccp.versioning import version_loops as version

            g = graph.copy()
            version(g, signed_only=True)
            eliminate_guards(g, halve=True)  # a check with one half proven tests the other
    else:
        g = graph.copy()
        drop_bounds_checks(g)
    if not math_errors:
        drop_math_checks(g)
    return g


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

    def to_pandas(self):
        """A ``pandas.DataFrame``, one row per pass in order: ``pass``, each census number
        before and after (``nodes_before``, ``nodes_after``, ...), ``rule_hits``, ``seconds``
        and what the pass reported (its ``info`` counts, one column each, ``info_KEY``)."""
        pd = pandas()
        census = [f.name for f in fields(Census)]
        rows, info = [], []
        for s in self:
            row = {"pass": s.name}
            for k in census:
                row[f"{k}_before"], row[f"{k}_after"] = getattr(s.before, k), getattr(s.after, k)
            row["rule_hits"], row["seconds"] = sum(s.rule_hits.values()), s.seconds
            for k, v in s.info.items():
                if isinstance(v, (int, float, str, bool)):
                    row[f"info_{k}"] = v
                    info += [f"info_{k}"] if f"info_{k}" not in info else []
            rows.append(row)
        columns = ["pass", *(f"{k}_{w}" for k in census for w in ("before", "after")), "rule_hits", "seconds"]
        return pd.DataFrame(rows, columns=columns + info)


def pandas():
    """The pandas module, or a ``SonError`` saying how to install it (tables' ``to_pandas``)."""
    try:
        import pandas
    except ImportError as e:
        raise SonError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


def run_passes(graph: Graph, passes: Sequence[Pass], *, rules=None, tracer=None) -> PipelineStats:
    """Run ``passes`` on ``graph`` in place; the statistics of each.  Every peephole engine
    the passes build uses the ``RuleSet`` ``rules`` (None: the enclosing context's,
    ``son.peephole.DEFAULT_RULES``) and reports each rewrite to ``tracer(rule, old,
    new)``, through ``son.peephole.rewrite_context``."""
    stats = PipelineStats()
    for p in passes:
        before = Census.of(graph)
        hits = Counter(graph.rule_hits)
        t0 = time.perf_counter()
        with rewrite_context(rules, tracer):
            info = p(graph)
        seconds = time.perf_counter() - t0
        if config.debug:
            graph.verify()
        stats.append(PassStats(p.name, before, Census.of(graph), seconds,
                               graph.rule_hits - hits, dict(info or {})))
    return stats

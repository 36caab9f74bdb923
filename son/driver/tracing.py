"""``son.trace``: every rewrite of a pipeline, and the graph after each one.

    t = son.trace(f, "sccp")
    print(t)              # step, pass, rule, node before -> node after
    t.graph(3)            # the graph right after step 3 (renders inline in Jupyter)
    t.widget()            # an ipywidgets slider over the steps, when ipywidgets is installed

Parse-time rewrites are recorded as steps of the pass ``parse`` without a
graph of their own (the graph is still being built); their result is the
parsed graph.  Every later rewrite gets a snapshot: a copy of the graph with
the same node ids, so ``son.viz.diff(t.graph(i - 1), t.graph(i))`` shows one
step.  A snapshot costs O(N), so a trace costs O(steps * N): meant for the
functions one looks at, not for 10^5-node graphs (``snapshots=False`` keeps
only the steps; ``snapshots="passes"`` keeps one graph per pass, in ``trace.passes``).
``watch(step, graph)``, if given, hears each step as it is recorded, with the graph
it rewrote: during the parse, the graph still being built (the explorer,
``son.explore``, draws it at that moment).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..nodes import Constant, Graph, Node
from .pipeline import Pipeline


def _describe(n: Node) -> str:
    """``%7 Add(%3, 1)``: the node and its operands one level deep (constants by value)."""
    if type(n) is Constant:
        return n.label
    args = ", ".join("_" if x is None else x.label if type(x) is Constant else f"%{x.nid}"
                     for x in n.inputs[1:])
    return f"%{n.nid} {n.label}({args})"


@dataclass
class Step:
    """One rewrite: in ``pass_name``, rule ``rule`` replaced ``before`` by ``after``."""

    index: int
    pass_name: str
    rule: str
    before: str
    after: str
    #: the graph right after this step (None for parse-time steps and without snapshots)
    graph: Graph | None = None


class Trace:
    """The steps of a traced pipeline; ``trace.graph(i)`` is the graph after step i."""

    def __init__(self, name: str, steps: list[Step], parsed: Graph, final: Graph,
                 passes: list[tuple[str, Graph]] | None = None):
        self.name = name
        self.steps = steps
        self.parsed = parsed
        self.final = final
        #: (pass name, the graph right after it) for each pass (empty without snapshots)
        self.passes = passes or []

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, i: int) -> Step:
        return self.steps[i]

    def graph(self, i: int) -> Graph:
        """The graph after step ``i`` (negative counts from the end); a parse-time step
        shows the parsed graph."""
        step = self.steps[i]
        if step.graph is not None:
            return step.graph
        if step.pass_name == "parse":
            return self.parsed
        raise ValueError("this trace was recorded with snapshots=False")

    def rows(self) -> list[tuple[str, ...]]:
        return [(str(s.index), s.pass_name, s.rule, s.before, s.after) for s in self.steps]

    def __str__(self) -> str:
        from ..viz.tables import text_table

        return text_table(("step", "pass", "rule", "before", "after"), self.rows())

    def __repr__(self) -> str:
        return f"<Trace of {self.name}: {len(self.steps)} steps>"

    def _repr_html_(self) -> str:
        from ..viz.tables import html_table

        return html_table(("step", "pass", "rule", "before", "after"), self.rows(),
                          caption=f"{self.name}: {len(self.steps)} rewrites")

    def widget(self):
        """An ipywidgets slider that shows the graph after the chosen step."""
        try:
            import ipywidgets
            from IPython.display import SVG, display
        except ImportError as e:  # pragma: no cover - depends on the environment
            from ..errors import SonError

            raise SonError("Trace.widget() needs ipywidgets and IPython: pip install ipywidgets") from e
        from ..viz import svg

        def show(step: int) -> None:
            s = self.steps[step]
            print(f"step {s.index} [{s.pass_name}] {s.rule}: {s.before} -> {s.after}")
            display(SVG(svg(self.graph(step))))

        return ipywidgets.interact(show, step=ipywidgets.IntSlider(min=0, max=max(len(self) - 1, 0)))


def trace(fn: Callable | str, pipeline: str | Sequence | Pipeline | None = "sccp",
          snapshots: bool | str = True, argtypes=None, args=None,
          watch: Callable[[Step, Graph], None] | None = None, fallback: str = "error") -> Trace:
    """Parse ``fn`` and run ``pipeline`` (see ``Pipeline.of``) on it, recording every
    rewrite, those of the parse-time peephole included.

    ``fn`` may be a function or a source text (its last function).  ``snapshots``:
    True, a graph after every step and after every pass; ``"passes"``, after every
    pass only; False, none.  ``watch(step, graph)`` hears each step as it is recorded.
    ``fallback`` is ``son.parse``'s (``"region"``: fallback regions).
    """
    if snapshots not in (True, False, "passes"):
        from ..errors import SonError

        raise SonError(f"snapshots is True, False or 'passes', not {snapshots!r}")
    every_step = snapshots is True
    p = Pipeline.of(pipeline)
    steps: list[Step] = []
    current = ["parse"]
    holder: list[Graph] = []

    def record(rule: str, old: Node, new: Node) -> None:
        if rule == "gvn" and type(old) is Constant:
            return  # hash-consing a literal is bookkeeping, not a rewrite
        before, after = _describe(old), _describe(new)
        if before == after:
            return  # nothing visible changed (a gvn of a node to itself included)
        if every_step and holder and steps and steps[-1].pass_name == current[0]:
            steps[-1].graph = holder[0].copy()  # the state the previous step left
        steps.append(Step(len(steps), current[0], rule, before, after))
        if watch is not None:
            watch(steps[-1], old.graph)

    g = p.parse(fn, argtypes=argtypes, args=args, tracer=record, fallback=fallback)
    parsed = g.copy()
    holder.append(g)
    passes: list[tuple[str, Graph]] = []
    for one in p.passes:
        current[0] = one.name
        p.but(passes=(one,)).optimize(g, inplace=True, tracer=record)
        if snapshots:
            passes.append((one.name, g.copy()))
        if every_step and steps and steps[-1].pass_name == one.name and steps[-1].graph is None:
            steps[-1].graph = passes[-1][1]
    return Trace(g.name, steps, parsed, g, passes)

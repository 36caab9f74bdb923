"""``son.explore``: every phase of one compilation in one interactive page.

    x = son.explore(f, "sccp")        # shows inline in Jupyter
    x.save("f.html")                  # one self-contained file: open it in a browser
    son explore prog.py:f -o f.html   # the same from the command line

The phases, in order (each a graph, save the last):

1. ``raw parse``: the literal translation, parsed without the peephole (a parse of its
   own, so its node ids are not the later phases': no diff against it);
2. ``parse: line L`` for each batch of parse-time rewrites, a batch being the rewrites
   made while the function's statement on line L was built (``son.trace`` records them,
   ``Graph.line`` says where the parse was).  Its graph is the graph still being built,
   as it stood when the next batch began (the last batch: the parsed graph), so it shows
   the statements parsed so far.  Without the parse-time peephole there is no batch;
3. one phase per pass of the pipeline, the graph after it;
4. ``schedule``: the graph code generation starts from (``kernel_graph`` for the
   pipeline's semantics, refinements dropped) with its Global Code Motion blocks, and
   the block listing;
5. ``kernel``: the Python source son generates for Numba (not compiled here).

Every node record says which phase made it and, when a step of that phase's trace
names it as the result, the rule (``origin``), and the source line it comes from
(``Graph.lines``; a node a rule made inherits the line of the node it replaced).
Exploring a ``Graph`` (``son.explore(df.graph)`` for a gradient) starts from the graph
as given and runs only the passes.  The page itself is ``son.viz.explorer_page``.

Cost: the trace of ``son.trace(snapshots="passes")``, a copy of the graph per parse
batch and per pass, a schedule per phase: O(phases * (N + E)) besides the passes.
"""

from __future__ import annotations

import inspect
import linecache
import re
import textwrap
from pathlib import Path
from typing import Callable, Sequence

from ..errors import SonError
from ..nodes import Graph
from ..nodes.refine import without_refinements
from ..viz.explorer_page import iframe, node_records, page, schedule_records
from ..viz.graphdiff import node_changes
from .passes import kernel_graph
from .pipeline import Pipeline
from .tracing import Step, trace

_NODE_ID = re.compile(r"%(\d+) ")


def _schedule(graph: Graph):
    """The graph's schedule, or None where it cannot be scheduled (an unfinished parse)."""
    from ..schedule import schedule

    try:
        return schedule(graph)
    except Exception:  # noqa: BLE001 - a phase without blocks is still worth showing
        return None


def _phase(name: str, group: str, lineage: int, graph_or_nodes, steps: Sequence[Step] = (),
           note: str = "", sched=None) -> dict:
    """One phase's record; ``graph_or_nodes`` is a Graph (scheduled, unless ``sched`` is
    its schedule, for the block and loop filters) or the records of an unfinished graph."""
    out = {"name": name, "group": group, "lineage": lineage, "note": note,
           "steps": [[s.index, s.pass_name, s.rule, s.before, s.after] for s in steps],
           "blocks": [], "loops": []}
    if isinstance(graph_or_nodes, Graph):
        g = graph_or_nodes
        s = _schedule(g) if sched is None else sched
        out["nodes"] = node_records(g.nodes(), g.lines, s)
        if s is not None:
            out["blocks"], out["loops"] = schedule_records(s)
    else:
        out["nodes"] = graph_or_nodes
    return out


def _unfinished(graph: Graph) -> list[dict]:
    """The records of a graph the parse is still building: every node attached to it."""
    return node_records(graph.attached(), graph.lines)


def _annotate(phases: list[dict]) -> None:
    """Give each node its ``origin`` and, where the frontend recorded none but a rule
    made it from a node that has one, the replaced node's ``line``; and each phase its
    ``diff`` against the phase before it in its lineage (``node_changes``)."""
    previous: dict[int, dict] = {}
    origins: dict[int, dict[int, str]] = {}
    lines: dict[int, dict[int, int]] = {}
    for ph in phases:
        if ph.get("nodes") is None:
            continue
        lin = ph["lineage"]
        known, where = origins.setdefault(lin, {}), lines.setdefault(lin, {})
        made_by: dict[int, tuple[str, int | None]] = {}
        for _i, _p, rule, before, after in ph["steps"]:
            m, b = _NODE_ID.match(after + " "), _NODE_ID.match(before + " ")
            if m:
                made_by.setdefault(int(m.group(1)), (rule, int(b.group(1)) if b else None))
        for rec in ph["nodes"]:
            nid = rec["id"]
            if nid not in known:
                rule, old = made_by.get(nid, (None, None))
                known[nid] = ph["name"] + (f", rule {rule}" if rule else "")
                if "line" not in rec and old is not None and old in where:
                    where[nid] = where[old]
            rec["origin"] = known[nid]
            if "line" in rec:
                where[nid] = rec["line"]
            elif nid in where:
                rec["line"] = where[nid]
        before = previous.get(lin)
        if before is not None:
            old = {r["id"]: r for r in before["nodes"]}
            removed, added, retyped = node_changes({i: (r["cls"], r["type"]) for i, r in old.items()},
                                                   {r["id"]: (r["cls"], r["type"]) for r in ph["nodes"]})
            ph["diff"] = {"against": before["name"], "removed": [old[i] for i in sorted(removed)],
                          "added": sorted(added), "retyped": {str(i): old[i]["type"] for i in retyped}}
        previous[lin] = ph


def _source_of(fn, graph: Graph | None) -> tuple[str, int, str]:
    """(the function's source text, the file line of its first line, the file name)."""
    if isinstance(fn, str):
        return fn, 1, "<string>"
    if callable(fn) and hasattr(fn, "__code__"):
        try:
            lines, first = inspect.getsourcelines(fn)
            return "".join(lines), max(first, 1), fn.__code__.co_filename
        except (OSError, TypeError):
            pass
    if graph is not None and graph.source is not None:
        filename, first = graph.source
        lines = linecache.getlines(filename)
        if lines and 0 < first <= len(lines):
            return "".join(inspect.getblock(lines[first - 1:])), first, filename
    return "", 1, ""


class Explorer:
    """The phases of one compilation as an interactive page (``son.explore``).

    ``phases`` are the records the page shows (name, group, nodes, steps, diff; see
    ``son.viz.explorer_page``); ``html()`` is the page, ``save(path)`` writes it and
    Jupyter shows it inline (``_repr_html_``)."""

    def __init__(self, name: str, pipeline: str, phases: list[dict], source: str, first_line: int,
                 filename: str):
        self.name = name
        self.pipeline = pipeline
        self.phases = phases
        self.source = source
        self.first_line = first_line
        self.filename = filename

    def phase(self, name: str) -> dict:
        """The first phase called ``name``."""
        for ph in self.phases:
            if ph["name"] == name:
                return ph
        raise KeyError(f"no phase {name!r}; phases: {', '.join(p['name'] for p in self.phases)}")

    def html(self) -> str:
        """The explorer as one self-contained HTML document."""
        data = {"name": self.name, "pipeline": self.pipeline, "phases": self.phases,
                "source": self.source, "firstLine": self.first_line, "filename": self.filename}
        return page(data, f"son explore: {self.name}")

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path`` (parent folders are made); the path."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.html(), encoding="utf-8")
        except OSError as e:
            raise SonError(f"cannot write {str(path)!r}: {e.strerror}") from e
        return path

    def _repr_html_(self) -> str:
        return iframe(self.html())

    def __repr__(self) -> str:
        return (f"<son Explorer {self.name} ({self.pipeline}): "
                f"{', '.join(p['name'] for p in self.phases)}>")


def explore(fn: Callable | str | Graph, pipeline: str | Sequence | Pipeline | None = None, *,
            argtypes=None, args=None, fallback: str = "error") -> Explorer:
    """Every phase of compiling ``fn`` with ``pipeline`` (see ``Pipeline.of``; default
    ``DEFAULT_PIPELINE``) as an interactive page: see the module docstring.  ``fn`` is a
    function, a source text (its last function) or a ``Graph`` (then only the passes
    run); ``argtypes``/``args``/``fallback`` as for ``son.parse``."""
    p = Pipeline.of(pipeline)
    phases: list[dict] = []
    if isinstance(fn, Graph):
        final = fn.copy()
        phases.append(_phase("graph", "input", 1, final.copy(), note="the graph as given"))
        for one in p.passes:
            p.but(passes=(one,)).optimize(final, inplace=True)
            phases.append(_phase(one.name, "pass", 1, final.copy()))
        name = fn.name
    else:
        if p.peephole:
            raw = Pipeline.of("none", rules=p.rules).parse(fn, argtypes=argtypes, args=args,
                                                           fallback=fallback)
            phases.append(_phase("raw parse", "parse", 0, raw,
                                 note="parsed without the peephole: a parse of its own (other node ids)"))
        batches: list[dict] = []

        def watch(step: Step, graph: Graph) -> None:
            if step.pass_name != "parse":
                return
            if batches and batches[-1]["graph"] is not graph:
                batches.clear()  # the parse started again (a list learned its kind)
            if not batches or batches[-1]["line"] != graph.line:
                if batches:
                    batches[-1]["nodes"] = _unfinished(graph)
                batches.append({"line": graph.line, "steps": [], "graph": graph})
            batches[-1]["steps"].append(step)

        t = trace(fn, p, snapshots="passes", argtypes=argtypes, args=args, watch=watch, fallback=fallback)
        final = t.final
        if batches and batches[-1]["graph"] is not final:
            batches.clear()
        if not p.peephole:
            phases.append(_phase("raw parse", "parse", 1, t.parsed, note="parsed without the peephole"))
        elif not batches:
            phases.append(_phase("parse", "parse", 1, t.parsed, note="no parse-time rewrite fired"))
        for k, b in enumerate(batches):
            where = "line ?" if b["line"] is None else f"line {b['line']}"
            last = k == len(batches) - 1
            phases.append(_phase(f"parse: {where}", "parse", 1, t.parsed if last else b["nodes"], b["steps"],
                                 note="the parsed graph" if last else "the graph as the parse had built it"))
        for (pass_name, g), one in zip(t.passes, p.passes):
            phases.append(_phase(pass_name, "pass", 1, g, [s for s in t.steps if s.pass_name == one.name]))
        name = t.name
    _kernel_phases(phases, final, p, name)
    _annotate(phases)
    source, first, filename = _source_of(fn, final)
    return Explorer(name, p.name, phases, textwrap.dedent(source) if source else "", first, filename)


def _kernel_phases(phases: list[dict], final: Graph, p: Pipeline, name: str) -> None:
    """Append the schedule and the kernel source phases for ``final``."""
    from ..exec.codegen import generate
    from ..schedule import schedule

    g = without_refinements(kernel_graph(final, p.boundscheck, p.math_errors))
    try:
        s = schedule(g)
    except SonError as e:
        phases.append({"name": "schedule", "group": "schedule", "lineage": 1, "nodes": None, "steps": [],
                       "blocks": [], "loops": [], "note": "", "text": f"cannot schedule: {e}"})
        return
    ph = _phase("schedule", "schedule", 1, g, note="the graph code generation starts from, by block",
                sched=s)
    ph["text"] = str(s)
    phases.append(ph)
    try:
        text = generate(s, name if name.isidentifier() else "kernel", decorator="@njit")
    except SonError as e:
        text = f"# son cannot generate a kernel for this graph:\n# {e}"
    phases.append({"name": "kernel", "group": "kernel", "lineage": 1, "nodes": None, "steps": [],
                   "blocks": [], "loops": [], "note": "the Python source son hands to Numba",
                   "text": text})

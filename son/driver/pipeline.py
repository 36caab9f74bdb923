"""``Pipeline``: everything that decides which graph son builds and compiles, as one value.

A pipeline says how the function is parsed (with the parse-time peephole or
raw), which passes run afterwards, with which peephole ``RuleSet``, and the
kernel's semantics (son's exact checks, or numba.njit's).  Every user-facing
entry point takes one, resolved here and nowhere else (``Pipeline.of``):
``son.optimize``, ``son.compare``, ``son.trace``, ``son.jit``, ``son.grad`` and its
siblings, the CLI's ``--pipeline``, the fuzz oracle and the kernels' disk index.

A pipeline is written as

- a name of ``PIPELINES``: ``"none"`` (the raw parse), ``"peephole"`` (the
  parse-time peephole, then the peephole pass to a fixpoint), ``"sccp"`` and
  ``"combined"`` (the parse-time peephole, then the optimistic pass, then the
  elimination of tests that dominating tests decide, ``guards``);
- any other string: registered passes joined by commas, run on the raw parse
  (``"peephole,sccp"``; ``""`` is the raw parse and no pass);
- a sequence of pass names, ``Pass`` objects and plain functions (likewise);
- a ``Pipeline`` (``Pipeline.of("sccp").but(rules=my_rules, boundscheck=False)``);
- None: ``DEFAULT_PIPELINE``.

An unknown name fails everywhere with the same ``SonError``, which lists the
pipeline names and the registered passes.  On an already-built graph
(``son.optimize``) only the passes apply.

Cost: resolving is O(passes named); building is a parse plus the passes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..errors import SonError
from ..nodes import Graph
from .passes import PASSES, Pass, PassFn, PipelineStats, run_passes

__all__ = ["DEFAULT_PIPELINE", "PIPELINES", "Pipeline", "optimize"]

#: the pipeline ``son.jit``, ``son.grad`` and ``son.optimize`` run when given none
DEFAULT_PIPELINE = "sccp"

#: the named pipelines: name -> (parse with the peephole?, passes run afterwards)
PIPELINES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "none": (False, ()),
    "peephole": (True, ("peephole",)),
    "sccp": (True, ("sccp", "guards")),
    "combined": (True, ("combined", "guards")),
}


def _passes(items: Iterable) -> tuple[Pass, ...]:
    out: list[Pass] = []
    for p in items:
        if isinstance(p, Pass):
            out.append(p)
        elif isinstance(p, str):
            name = p.strip()
            if not name:
                continue
            if name not in PASSES:
                raise SonError(f"unknown pipeline or pass {name!r}; pipelines: {', '.join(PIPELINES)}; "
                               f"registered passes: {', '.join(sorted(PASSES))}")
            out.append(PASSES[name])
        elif callable(p):
            out.append(Pass(getattr(p, "__name__", "pass"), p))
        else:
            raise SonError(f"a pipeline holds pass names, Pass objects or functions, not {p!r}")
    return tuple(out)


@dataclass(frozen=True)
class Pipeline:
    """How son builds a function's graph and its kernel.

    ``name``: what it was written as; ``peephole``: fold while parsing; ``passes``: run
    after the parse, in order; ``rules``: the peephole's ``RuleSet`` for the parse and
    the passes (None: ``son.peephole.DEFAULT_RULES``); ``boundscheck``,
    ``math_errors``, ``wrap``: the kernel's semantics (all True: CPython's, exactly;
    see ``son.compile``); ``inline``: inline the calls of the user's helpers while
    parsing (the default), or keep each a ``Call`` of the helper's graph where it can
    (``son.parse(..., inline=False)``), for the ``inline`` pass or the kernel to call."""

    name: str
    peephole: bool
    passes: tuple[Pass, ...]
    rules: object = None
    boundscheck: bool = True
    math_errors: bool = True
    wrap: bool = True
    inline: bool = True

    @classmethod
    def of(cls, spec: str | Sequence | Pipeline | None = None, **changes) -> Pipeline:
        """The pipeline ``spec`` denotes (see the module docstring), with ``changes``
        (fields set to a value other than None) applied."""
        if spec is None:
            spec = DEFAULT_PIPELINE
        if isinstance(spec, Pipeline):
            p = spec
        elif isinstance(spec, str) and spec.strip() in PIPELINES:
            name = spec.strip()
            peephole, names = PIPELINES[name]
            p = cls(name, peephole, _passes(names))
        elif isinstance(spec, str):
            p = cls(spec, False, _passes(spec.split(",")))
        elif isinstance(spec, (list, tuple)):
            passes = _passes(spec)
            p = cls(",".join(x.name for x in passes), False, passes)
        else:
            raise SonError(f"a pipeline is a name ({', '.join(PIPELINES)}), a comma-separated string of "
                           f"passes, a sequence of passes or a son Pipeline, not {spec!r}")
        changes = {k: v for k, v in changes.items() if v is not None}
        return p.but(**changes) if changes else p

    def but(self, **changes) -> Pipeline:
        """A copy with ``changes`` applied (``p.but(boundscheck=False)``)."""
        return dataclasses.replace(self, **changes)

    def key(self) -> tuple:
        """What tells two pipelines apart, for the disk index: the parse, the pass names,
        the rules (by class and name, in order; None: son's default set), the semantics."""
        rules = None if self.rules is None else tuple(
            (tuple(c.__name__ for c in classes), r.__name__) for r, classes in self.rules.items())
        return (self.peephole, tuple(p.name for p in self.passes), rules, self.boundscheck,
                self.math_errors, self.wrap, self.inline)

    def is_son_own(self) -> bool:
        """True if every pass and rule it runs is son's own code (the disk index can
        fingerprint nothing else).  O(passes + rules)."""
        from ..peephole.rules import DEFAULT_RULES

        rules = DEFAULT_RULES if self.rules is None else self.rules
        return (all(getattr(p.fn, "__module__", "").startswith("son.") for p in self.passes)
                and all(getattr(r, "__module__", "").startswith("son.") for r in rules))

    # ------------------------------------------------------------------ running it
    def parse(self, fn: Callable | str, *, argtypes=None, args=None, tracer=None,
              deps: list | None = None, name: str | None = None, fallback: str = "error") -> Graph:
        """Parse ``fn`` (a function, or a source text: its function ``name``, default the
        last) as this pipeline says, without running the passes; ``fallback`` is
        ``son.parse``'s."""
        from ..frontend import parse, parse_source

        if isinstance(fn, str):
            return parse_source(fn, name, peephole=self.peephole, argtypes=argtypes, args=args,
                                tracer=tracer, rules=self.rules, fallback=fallback, inline=self.inline)
        return parse(fn, peephole=self.peephole, argtypes=argtypes, args=args, tracer=tracer, deps=deps,
                     rules=self.rules, fallback=fallback, inline=self.inline)

    def optimize(self, graph: Graph, inplace: bool = False, *, tracer=None) -> tuple[Graph, PipelineStats]:
        """Run the passes on ``graph`` (or, unless ``inplace``, on a copy with the same
        node ids); the graph and the statistics of each pass."""
        g = graph if inplace else graph.copy()
        return g, run_passes(g, self.passes, rules=self.rules, tracer=tracer)

    def build(self, fn: Callable | str, *, argtypes=None, args=None, deps: list | None = None,
              fallback: str = "error") -> Graph:
        """Parse ``fn`` and run the passes: the graph son compiles for it, and the graphs
        of the recursive helpers it calls (``Graph.callees``, fresh from this parse)."""
        g = self.parse(fn, argtypes=argtypes, args=args, deps=deps, fallback=fallback)
        return self.optimize_module(g)

    def optimize_module(self, graph: Graph) -> Graph:
        """Run the passes on ``graph`` and, first, on the graphs it calls (fresh from its
        parse), in place; then the constants every call passes into a callee
        (``propagate_constant_arguments``) and the passes again on the callees that
        changed.  ``graph``."""
        from ..peephole.inline import propagate_constant_arguments

        for callee in graph.callees():
            self.optimize(callee, inplace=True)
        self.optimize(graph, inplace=True)
        if self.passes:
            for callee in propagate_constant_arguments(graph):
                self.optimize(callee, inplace=True)
        return graph

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        semantics = "" if self.boundscheck and self.math_errors and self.wrap else (
            f", boundscheck={self.boundscheck}, math_errors={self.math_errors}, wrap={self.wrap}")
        if not self.inline:
            semantics += ", inline=False"
        rules = "" if self.rules is None else f", rules={self.rules!r}"
        return (f"<son Pipeline {self.name!r}: parse{' + peephole' if self.peephole else ''}"
                f"{''.join(' -> ' + p.name for p in self.passes)}{rules}{semantics}>")


def optimize(graph: Graph, pipeline: str | Sequence | Pipeline | None = None, inplace: bool = False, *,
             rules=None, tracer=None) -> tuple[Graph, PipelineStats]:
    """Run the passes of ``pipeline`` (see ``Pipeline.of``; default ``DEFAULT_PIPELINE``) on
    ``graph`` or, unless ``inplace``, on a copy with the same node ids; return the graph
    and per-pass statistics.  ``rules`` (a ``RuleSet``) replaces the pipeline's rules;
    ``tracer(rule, old, new)`` hears every rewrite."""
    return Pipeline.of(pipeline, rules=rules).optimize(graph, inplace, tracer=tracer)


def parse_pipeline(pipeline: str | Sequence[str | Pass | PassFn] | Pipeline) -> list[Pass]:
    """The passes of ``pipeline`` (see ``Pipeline.of``)."""
    return list(Pipeline.of(pipeline).passes)

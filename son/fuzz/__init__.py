"""Differential fuzzing of son: random programs of the subset, CPython as the oracle.

    from son.fuzz import generate, check, shrink
    p = generate(seed=1, index=0)        # a Program: source text and argument tuples
    r = check(p.source, p.args)          # CPython vs every stage; r.status, r.failures
    small, args, failure = shrink(p.source, p.args)   # a minimal program failing the same way
    totals = run(500, seed=1)            # a campaign in this process (jobs=J: J workers)

``python -m son.fuzz --n 20000 --seed 1 --jobs 2`` runs a campaign from the shell,
the gradient oracle included (``--no-grad`` leaves it out).  Modules: ``generator``
(programs and arguments), ``oracle`` (CPython with son's documented deviations,
every stage, outcomes), ``shrink`` (delta debugging over the syntax tree, regression
files), ``campaign`` (parallel runs and totals), ``grad`` (the gradient oracle:
reverse against forward mode, both against finite differences).
"""

from .campaign import Totals, run
from .generator import Program, generate
from .oracle import DEVIATIONS, PIPELINES, STAGES, Failure, Result, check
from .shrinker import shrink

__all__ = ["DEVIATIONS", "PIPELINES", "STAGES", "Failure", "Program", "Result", "Totals", "check",
           "generate", "run", "shrink"]

"""Every program the fuzzer found failing (``cases/*.py``, each shrunk by
``son.fuzz.shrinker`` and documented in its docstring: what failed, why, where it was
fixed) goes through CPython and every stage of son (``son.fuzz.check``: the raw and
peephole parses, each pipeline, the Numba kernel) and must agree everywhere.  A case
with ``ORACLE = 'grad'`` (a wrong gradient) also goes through the gradient oracle
(``son.fuzz.grad.check_grad``: reverse against forward mode and finite differences;
``'grad-kernel'``: with the gradient compiled by Numba too) and must pass it."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from son.fuzz import check
from son.fuzz.grad import check_grad

CASES = sorted((Path(__file__).parent / "cases").glob("*.py"))


def test_there_are_cases():
    assert len(CASES) >= 2


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_regression_agrees_with_cpython_in_every_stage(path):
    case = runpy.run_path(str(path))
    r = check(path.read_text(), case["ARGS"])
    oracle = case.get("ORACLE")
    # a gradient case may hold an int-or-float accumulator whose kernel son.compile refuses
    assert r.status == "ok" or (oracle and r.status == "refused"), \
        "\n".join(str(f) for f in r.failures) or r.detail
    if oracle:
        assert oracle in ("grad", "grad-kernel"), oracle
        g = check_grad(path.read_text(), case["ARGS"], compiled=oracle == "grad-kernel")
        assert g.status == "ok" and not g.failures, "\n".join(str(f) for f in g.failures) or g.detail

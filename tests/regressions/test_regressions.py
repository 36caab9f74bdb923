"""Every program the fuzzer found failing (``cases/*.py``, each shrunk by
``son.fuzz.shrink`` and documented in its docstring: what failed, why, where it was
fixed) goes through CPython and every stage of son (``son.fuzz.check``: the raw and
peephole parses, each pipeline, the Numba kernel) and must agree everywhere."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from son.fuzz import check

CASES = sorted((Path(__file__).parent / "cases").glob("*.py"))


def test_there_are_cases():
    assert len(CASES) >= 2


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_regression_agrees_with_cpython_in_every_stage(path):
    args = runpy.run_path(str(path))["ARGS"]
    r = check(path.read_text(), args)
    assert r.status == "ok", "\n".join(str(f) for f in r.failures) or r.detail

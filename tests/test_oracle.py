"""CPython is the oracle: every corpus function (``corpus.py``, the constructs of
the subset; ``corpus_suites.py``, programs in the style of other compilers' test
suites), parsed with and without the parse-time peephole and run by the reference
interpreter, gives the same value (or raises the same exception type) and leaves its array arguments with the
same contents as CPython does — on hypothesis inputs and on fixed edge inputs.
"""

from __future__ import annotations

import functools
import inspect

import corpus
import corpus_suites
import pytest
from conftest import run_python, run_son
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import son

CASES = corpus.CASES + corpus_suites.CASES

ORACLE_SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                           suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]
PEEPHOLE = [pytest.param(False, id="raw"), pytest.param(True, id="peephole")]


@functools.cache
def graph_of(fn, peephole: bool) -> son.Graph:
    """One parse per (function, peephole); ``son.debug`` verifies it."""
    return son.parse(fn, peephole=peephole)


def assert_agrees(fn, graph: son.Graph, args) -> None:
    expected = run_python(fn, args)
    got = run_son(graph, args)
    assert got == expected, f"{fn.__name__}{tuple(args)!r}: son {got} != CPython {expected}"


def test_corpus_is_well_formed():
    """Each case names a module-level function of a corpus and has one strategy
    per parameter; the function names are unique."""
    names = [c.id for c in CASES]
    assert len(names) == len(set(names))
    assert len(corpus.CASES) >= 45 and len(corpus_suites.CASES) >= 60
    for c in CASES:
        assert c.fn.__module__ in ("corpus", "corpus_suites") and c.fn.__qualname__ == c.fn.__name__
        n = len(inspect.signature(c.fn).parameters)
        assert len(c.strategies) == n, c.id
        for ex in c.examples:
            assert len(ex) == n, (c.id, ex)


@pytest.mark.parametrize("peephole", PEEPHOLE)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_graph_verifies(case, peephole):
    g = graph_of(case.fn, peephole)
    g.verify()
    assert g.stop.inputs, "every corpus function returns or raises on some path"


@pytest.mark.parametrize("peephole", PEEPHOLE)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_agrees_with_cpython(case, peephole):
    graph = graph_of(case.fn, peephole)  # a parse failure fails once, not per example

    @ORACLE_SETTINGS
    @given(st.tuples(*case.strategies))
    def check(args):
        assert_agrees(case.fn, graph, args)

    check()


@pytest.mark.parametrize("peephole", PEEPHOLE)
@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES if c.examples])
def test_agrees_with_cpython_on_edge_inputs(case, peephole):
    graph = graph_of(case.fn, peephole)
    for args in case.examples:
        assert_agrees(case.fn, graph, args)


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_peephole_never_grows_the_graph(case):
    """Counting computations: the peephole adds ``Refine`` nodes (a value's type on one arm
    of a branch, written as the value itself), and nothing else."""
    from son.nodes import Refine

    raw = graph_of(case.fn, False)
    opt = graph_of(case.fn, True)
    n = len(opt) - sum(type(x) is Refine for x in opt.live())
    assert n <= len(raw), f"{case.id}: {n} nodes with peephole, {len(raw)} without"


def test_int_power_with_negative_runtime_exponent_is_a_documented_difference():
    """DESIGN.md: a typed graph cannot give ``int ** negative int`` CPython's float;
    son raises NotImplementedError (its run-time refusal, which ``son.jit`` replays in
    CPython) where CPython returns 0.5."""
    from corpus import int_pow

    assert int_pow(2, -1) == 0.5
    for p in (False, True):
        with pytest.raises(NotImplementedError, match="negative"):
            son.interpret(graph_of(int_pow, p), 2, -1)

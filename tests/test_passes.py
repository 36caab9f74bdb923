"""The pass manager (``son.optimize``), the pass registry and ``son.compare``."""

from __future__ import annotations

import corpus
import corpus_suites
import pytest
from conftest import run_python, run_son
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import son
from son.driver.passes import PASSES, Census, PipelineStats, register_pass
from son.driver.pipeline import parse_pipeline
from son.examples import EXAMPLES, returned_constant
from son.nodes.types import wrap64

CASES = corpus.CASES + corpus_suites.CASES
FEW = settings(max_examples=6, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def flip_flop(n: int):
    x = 1
    while n > 0:
        x = 2 - x
        n -= 1
    return x


def straight(a: int):
    return (2 * 3 + a - a) * 1 + 0


# ---------------------------------------------------------------- optimize
def test_optimize_works_on_a_copy_unless_in_place():
    g = son.parse(straight, peephole=False)
    text = str(g)
    g2, _ = son.optimize(g, "peephole")
    assert str(g) == text and str(g2) == "def straight(a: int) -> 6:\n  return 6"
    g3, _ = son.optimize(g, "peephole", inplace=True)
    assert g3 is g and str(g) == str(g2)


def test_optimize_reports_a_census_before_and_after_each_pass():
    g = son.parse(straight, peephole=False)
    before = Census.of(g)
    _, stats = son.optimize(g, "peephole,dce")
    assert isinstance(stats, PipelineStats) and [s.name for s in stats] == ["peephole", "dce"]
    first, second = stats
    assert first.before == before and first.after.nodes < before.nodes
    assert first.after.constants == 1  # the 6
    assert second.before == first.after == second.after  # nothing left for dce
    assert first.rule_hits["fold"] >= 1 and sum(second.rule_hits.values()) == 0
    assert first.seconds >= 0 and stats.seconds == first.seconds + second.seconds
    assert first.removed["nodes"] == before.nodes - first.after.nodes


def test_stats_and_comparisons_export_pandas_tables():
    """One row per pass (the census before and after, what the pass reported) and one
    per compared pipeline, with the numbers the printed tables show."""
    g = son.parse(straight, peephole=False)
    _, stats = son.optimize(g, "peephole,sccp")
    df = stats.to_pandas()
    assert list(df["pass"]) == ["peephole", "sccp"]
    assert list(df["nodes_before"]) == [s.before.nodes for s in stats]
    assert df["nodes_before"][0] == len(g.live())
    assert df["nodes_after"][0] == df["nodes_before"][1] < df["nodes_before"][0]
    assert df["rule_hits"][0] == sum(stats[0].rule_hits.values()) > 0
    assert df["info_dead"][0] == stats[0].info["dead"] and df["info_visits"][1] == stats[1].info["visits"]
    cmp = son.compare(straight, ["none", "peephole"])
    t = cmp.to_pandas()
    assert list(t["pipeline"]) == ["none", "peephole"] and set(t["function"]) == {"straight"}
    assert list(t["nodes"]) == [Census.of(cmp[p]).nodes for p in ("none", "peephole")]
    assert t["constants"][1] == 1 and t["rule_hits"][0] == 0 < t["rule_hits"][1]


def test_stats_print_as_an_aligned_table_and_html():
    _, stats = son.optimize(son.parse(straight, peephole=False), "peephole")
    lines = str(stats).splitlines()
    assert lines[0].split()[:3] == ["pass", "nodes", "constants"]
    assert lines[2].startswith("peephole") and len({len(ln) for ln in lines}) == 1
    assert stats._repr_html_().startswith("<table>") and "<td>peephole</td>" in stats._repr_html_()


def test_the_verifier_runs_after_every_pass_in_debug_mode():
    def breaks_edges(graph):
        r = graph.returns()[0]
        r.inputs[2] = r.inputs[1]  # a one-sided edge: the verifier must see it

    g = son.parse(straight)
    with pytest.raises(AssertionError, match="dead node still attached|does not list it as a user"):
        son.optimize(g, [breaks_edges])


def test_user_passes_register_by_name_and_run_in_pipelines():
    seen = []

    @register_pass("test-count-returns", replace=True)
    def count_returns(graph):
        """Count returns (a test pass)."""
        seen.append(len(graph.returns()))
        return {"returns": len(graph.returns())}

    try:
        _, stats = son.optimize(son.parse(straight), "peephole, test-count-returns")
        assert seen == [1] and stats[1].info == {"returns": 1}
        assert PASSES["test-count-returns"].doc == "Count returns (a test pass)."
        with pytest.raises(son.SonError, match="already registered"):
            register_pass("test-count-returns", count_returns)
    finally:
        del PASSES["test-count-returns"]


def test_pipelines_accept_pass_objects_and_functions():
    calls = []
    passes = parse_pipeline([PASSES["dce"], "peephole", lambda g: calls.append(g)])
    assert [p.name for p in passes] == ["dce", "peephole", "<lambda>"]
    son.optimize(son.parse(straight), passes)
    assert len(calls) == 1


@pytest.mark.parametrize("bad, message", [
    ("peephole,nosuchpass", "unknown pipeline or pass 'nosuchpass'"),
    ([42], "pass names, Pass objects or functions"),
])
def test_bad_pipelines_are_clear_errors(bad, message):
    with pytest.raises(son.SonError, match=message):
        son.optimize(son.parse(straight), bad)


def test_invalid_pass_names_are_rejected():
    with pytest.raises(son.SonError, match="invalid pass name"):
        register_pass("a,b", lambda g: None)


def test_empty_pipeline_is_a_copy():
    g = son.parse(flip_flop)
    g2, stats = son.optimize(g, "")
    assert len(stats) == 0 and g2 is not g and str(g2) == str(g)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_peephole_pass_on_the_raw_parse_preserves_semantics(case):
    """The peephole as a pass over a finished graph (not while parsing) keeps the
    meaning of every corpus function and never grows it."""
    raw = son.parse(case.fn, peephole=False)
    g, _ = son.optimize(raw, "peephole")
    assert len(g) <= len(raw)

    @FEW
    @given(st.tuples(*case.strategies))
    def check(args):
        assert run_son(g, args) == run_python(case.fn, args)

    check()
    for args in case.examples:
        assert run_son(g, args) == run_python(case.fn, args)


# ---------------------------------------------------------------- compare
def test_compare_tabulates_each_pipeline_and_keeps_its_graph():
    cmp = son.compare(flip_flop, ["none", "peephole"])
    assert [r.pipeline for r in cmp.rows] == ["none", "peephole"]
    assert cmp["peephole"] is cmp.graphs["peephole"]
    assert Census.of(cmp["none"]).phis > Census.of(cmp["peephole"]).phis
    text = str(cmp).splitlines()
    assert text[0].split() == ["pipeline", "nodes", "cfg", "constants", "phis", "loops", "branches", "ms"]
    assert text[2].split()[:2] == ["none", str(len(cmp["none"]))]
    html = cmp._repr_html_()
    assert "<caption>flip_flop</caption>" in html and "<td>peephole</td>" in html
    with pytest.raises(KeyError):
        cmp["sccp"]


def test_compare_runs_user_pass_strings_on_the_raw_parse():
    cmp = son.compare(straight, ["none", "peephole,dce"])
    assert returned_constant(cmp["none"]) is None
    assert returned_constant(cmp["peephole,dce"]) == 6


def test_compare_accepts_source_text():
    cmp = son.compare("def g(a: int):\n    return a * 0 + 4\n", ["peephole"])
    assert returned_constant(cmp["peephole"]) == 4 and cmp.name == "g"


# ---------------------------------------------------------------- examples
def test_there_are_at_least_twelve_documented_examples():
    assert len(EXAMPLES) >= 12
    assert len({e.name for e in EXAMPLES}) == len(EXAMPLES)
    for e in EXAMPLES:
        assert len(e.doc) > 40, e.name
        assert getattr(son.examples, e.name) is e.fn


@pytest.mark.parametrize("example", [pytest.param(e, id=e.name) for e in EXAMPLES])
def test_each_example_proves_what_its_documentation_says(example):
    cmp = son.compare(example.fn, list(example.proves))
    for pipeline, expected in example.proves.items():
        got = returned_constant(cmp[pipeline])
        assert got == expected and type(got) is type(expected), (pipeline, str(cmp[pipeline]))


@pytest.mark.parametrize("example", [pytest.param(e, id=e.name) for e in EXAMPLES])
@pytest.mark.parametrize("pipeline", ["none", "peephole", "sccp", "combined", "sccp-only"])
def test_examples_agree_with_cpython_under_every_pipeline(example, pipeline):
    import inspect

    g = son.compare(example.fn, [pipeline])[pipeline]
    kinds = {"int": st.integers(-50, 50), "float": st.floats(allow_nan=True), "bool": st.booleans()}
    strategies = [kinds[p.annotation] for p in inspect.signature(example.fn).parameters.values()]

    @FEW
    @given(st.tuples(*strategies))
    def check(args):
        expected = run_python(example.fn, args)
        if expected[0] == "ok" and expected[1][0] == "int":  # int64 wraps (DESIGN.md, Semantics)
            expected = ("ok", ("int", wrap64(expected[1][1])), expected[2])
        assert run_son(g, args) == expected

    check()


@pytest.mark.parametrize("example", [pytest.param(e, id=e.name) for e in EXAMPLES])
def test_optimistic_pipelines_never_lose_to_the_pessimistic_one(example):
    """SCCP and the combined analysis start from the peephole's graph: they never
    leave more nodes, and the combined analysis never proves fewer constants."""
    cmp = son.compare(example.fn, ["peephole", "sccp", "combined"])
    peep, sccp, comb = (Census.of(cmp[p]) for p in ("peephole", "sccp", "combined"))
    assert sccp.nodes <= peep.nodes and comb.nodes <= peep.nodes
    assert comb.nodes <= sccp.nodes
    if returned_constant(cmp["sccp"]) is not None:
        assert returned_constant(cmp["combined"]) == returned_constant(cmp["sccp"])

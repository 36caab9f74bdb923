"""``son.trace``: every rewrite of a pipeline, with the graph after each step."""

from __future__ import annotations

import pytest

import son
from son.examples import returned_constant, twin_inductions


def flip(n: int):
    x = 1
    while n > 0:
        x = 2 - x
        n -= 1
    return x * 1 + 0


def test_trace_records_parse_time_rules_and_pass_rewrites_in_order():
    t = son.trace(flip, "sccp")
    rules = [(s.pass_name, s.rule) for s in t.steps]
    assert ("parse", "mul_one") in rules and ("parse", "add_zero") in rules
    assert rules[-1] == ("sccp", "proven-constant")
    assert [s.index for s in t.steps] == list(range(len(t)))
    last = t[-1]
    assert last.before.endswith("Phi(1, %" + last.before.split("%")[-1]) and last.after == "1"


def test_each_pass_step_has_the_graph_after_it():
    t = son.trace(flip, "sccp")
    parse_steps = [i for i, s in enumerate(t.steps) if s.pass_name == "parse"]
    assert t.graph(parse_steps[0]) is t.parsed
    assert returned_constant(t.parsed) is None
    assert returned_constant(t.graph(-1)) == 1 and str(t.graph(-1)) == str(t.final)


def test_snapshots_show_intermediate_states_of_one_pass():
    t = son.trace(twin_inductions, "combined")
    steps = [i for i, s in enumerate(t.steps) if s.pass_name == "combined"]
    assert len(steps) >= 2
    sizes = [len(t.graph(i)) for i in steps]
    assert sizes[0] >= sizes[-1] and len(set(map(str, (t.graph(i) for i in steps)))) > 1
    assert returned_constant(t.graph(steps[-1])) == 0


def test_trace_prints_as_a_table_and_html():
    t = son.trace(flip, "sccp")
    lines = str(t).splitlines()
    assert lines[0].split() == ["step", "pass", "rule", "before", "after"]
    assert len(lines) == len(t) + 2
    assert "<caption>flip:" in t._repr_html_()


def test_without_snapshots_only_steps_are_kept():
    t = son.trace(flip, "sccp", snapshots=False)
    assert t[-1].graph is None
    with pytest.raises(ValueError, match="snapshots=False"):
        t.graph(-1)


def test_tracing_leaves_no_tracer_on_the_graph():
    t = son.trace(flip, "peephole")
    assert not hasattr(t.final, "tracer")


def checked_div(a: int, b: int):
    assert b != 0
    return a // b


def test_guard_elimination_steps_are_named():
    """The ``guards`` pass reports each test it decides (``guard_decided``), then the
    peephole's cleanup of the dead side, as steps of its own pass."""
    t = son.trace(checked_div, "sccp")
    decided = [s for s in t.steps if s.rule == "guard_decided"]
    assert decided and all(s.pass_name == "guards" and s.after == "False" for s in decided)
    assert son.interpret(t.graph(decided[-1].index), 7, 2) == 3


def _swapped(a: int, b: int):
    x = 3 + a
    return x * b


def test_a_rule_that_changes_a_node_in_place_shows_it_before_and_after():
    # the commute rule swaps operands in place: the step used to show the swapped node twice
    t = son.trace(_swapped)
    commutes = [s for s in t.steps if s.rule == "commute"]
    assert commutes and all(s.before != s.after for s in commutes)
    first = commutes[0]  # %N +(3, %a) -> %N +(%a, 3)
    operand = first.after.split("(")[1].split(",")[0]
    assert first.before.endswith(f"(3, {operand})") and first.after.endswith(f"({operand}, 3)")
    assert all(s.before != s.after for s in t.steps)


@pytest.mark.parametrize("pipeline", ["peephole", "sccp", "combined"])
def test_no_step_of_any_example_leaves_its_node_as_it_was(pipeline):
    from son.examples import EXAMPLES

    for ex in EXAMPLES:
        t = son.trace(ex.fn, pipeline, snapshots=False)
        same = [(s.rule, s.before) for s in t.steps if s.before == s.after]
        assert not same, (ex.name, same)


def test_a_rule_that_fires_without_changing_its_node_is_not_a_step():
    from son.nodes import Mul
    from son.peephole import DEFAULT_RULES

    mine = DEFAULT_RULES.copy("idle")
    seen = set()

    @mine.rule(Mul, first=True)
    def idle(n):
        """Claims to fire once per node and changes nothing (what commute does on an ordered pair)."""
        if n.nid not in seen:
            seen.add(n.nid)
            return n

    t = son.trace(_swapped, son.Pipeline.of("peephole").but(rules=mine))
    assert seen and t.final.rule_hits["idle"] >= 1
    assert not [s for s in t.steps if s.rule == "idle"]
    assert [s for s in t.steps if s.rule == "commute"]


def test_trace_keeps_one_graph_per_pass_and_a_watcher_hears_every_step():
    from son.examples import flip_flop

    heard = []
    t = son.trace(flip_flop, "sccp", snapshots="passes", watch=lambda step, g: heard.append((step, g)))
    assert [name for name, _g in t.passes] == ["sccp", "guards"]
    assert all(s.graph is None for s in t.steps)  # no per-step copies
    assert [s for s, _g in heard] == t.steps
    # the parse's steps come with the graph it is building, which the passes then rewrite in place
    assert heard[0][0].pass_name == "parse" and all(g is t.final for _s, g in heard)
    assert son.trace(flip_flop, "sccp", snapshots=False).passes == []
    with pytest.raises(son.SonError, match="snapshots"):
        son.trace(flip_flop, snapshots="steps")

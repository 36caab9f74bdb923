"""Branch refinement (son/nodes/refine.py) with ranges and guard elimination: what each
pipeline proves, in the spirit of Simple's range and guard tests, and CPython as the
oracle at the int64 edges (a refinement must never let wrap-around be folded away)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import INT, Constant, OutOfBounds, Refine, implied_facts
from son.nodes.refine import refined
from son.nodes.types import INT64_MAX, INT64_MIN, Type, constant, int_range, wrap64

EDGE = st.one_of(st.integers(-4, 4), st.sampled_from([INT64_MIN, INT64_MIN + 1, INT64_MAX - 1, INT64_MAX]),
                 st.integers(INT64_MIN, INT64_MAX))


_BUILT: dict = {}


def _built(fn, pipeline: str, argtypes=None):
    """The graph of ``fn`` under ``pipeline``, built once per test session."""
    key = (fn, pipeline, tuple(argtypes or ()))
    if key not in _BUILT:
        _BUILT[key] = son.Pipeline.of(pipeline).build(fn, argtypes=argtypes)
    return _BUILT[key]


def _checks(fn, pipeline, argtypes) -> int:
    g = son.Pipeline.of(pipeline).build(fn, argtypes=argtypes)
    return sum(type(n) is OutOfBounds for n in g.live())


# ---------------------------------------------------------------- the lattice operation
@pytest.mark.parametrize("x, op, y, want", [
    (INT, "lt", constant(10), int_range(INT64_MIN, 9)),
    (INT, "ge", constant(0), int_range(0, INT64_MAX)),
    (int_range(0, 9), "gt", constant(3), int_range(4, 9)),
    (int_range(0, 9), "eq", int_range(5, 20), int_range(5, 9)),
    (int_range(0, 9), "ne", constant(0), int_range(1, 9)),
    (int_range(0, 9), "ne", constant(4), int_range(0, 9)),   # a hole is not a range
    (int_range(0, 9), "lt", constant(0), int_range(0, 9)),   # impossible: the arm is dead
    (INT, "lt", constant(INT64_MIN), INT),                  # impossible too
    (INT, "eq", constant(7), constant(7)),
])
def test_refined_meets_the_type_with_what_the_fact_implies(x, op, y, want):
    assert refined(x, op, y) == want


def test_floats_and_unknown_numbers_are_never_refined():
    from son.nodes.types import FLOAT, NUMBER

    for x in (FLOAT, NUMBER):
        assert refined(x, "eq", constant(3.0)) is x and refined(x, "lt", constant(1)) is x


@settings(max_examples=300, deadline=None)
@given(lo=EDGE, hi=EDGE, y=EDGE, v=EDGE, op=st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge"]))
def test_refinement_is_sound(lo, hi, y, v, op):
    """Every x in x's range that satisfies x op y lies in the refined range."""
    lo, hi = min(lo, hi), max(lo, hi)
    x = int_range(lo, hi) if (lo, hi) != (INT64_MIN, INT64_MAX) else INT
    holds = {"eq": v == y, "ne": v != y, "lt": v < y, "le": v <= y, "gt": v > y, "ge": v >= y}[op]
    if lo <= v <= hi and holds:
        r = refined(x, op, constant(y))
        assert r.lo <= v <= r.hi


def test_implied_facts_negate_int_tests_and_refine_both_operands():
    g = son.parse_source("def f(a: int, b: int):\n    return a < b\n", peephole=False)
    (lt,) = [n for n in g.live() if type(n).__name__ == "LT"]
    a, b = lt.inputs[1], lt.inputs[2]
    assert implied_facts(lt, True) == [(a, "lt", b), (b, "gt", a)]
    assert implied_facts(lt, False) == [(a, "ge", b), (b, "le", a)]


def test_float_tests_imply_nothing():
    g = son.parse_source("def f(a: float, b: float):\n    return a < b\n", peephole=False)
    (lt,) = [n for n in g.live() if type(n).__name__ == "LT"]
    assert implied_facts(lt, False) == []


# ---------------------------------------------------------------- folds, per pipeline
def exit_zero(n: int):
    while n != 0:
        n -= 1
    return n


def eq_three(x: int):
    if x == 3:
        return x * 2
    return 0


def bool_compared(a: int, b: int):
    return (a < b) < 3


def never_negative(x: int):
    b = 1 if x else 0
    if b < 0:
        return 10
    return b


def below_five(x: int):
    if x < 5:
        return x + 1 <= 5
    return True


def flag_twice(f: bool, x: int):
    if f:
        if f:
            return x
        return 99
    return 0


@pytest.mark.parametrize("fn, pessimistic, optimistic", [
    (exit_zero, 0, 0),                      # on the exit of `while n != 0`, n is 0
    (eq_three, int_range(0, 6), int_range(0, 6)),  # x is 3 on the true arm: phi(6, 0)
    (bool_compared, True, True),
    (never_negative, int_range(0, 1), int_range(0, 1)),  # b < 0 folded: phi(1, 0)
    (below_five, True, True),               # x < 5: x + 1 cannot wrap
])
def test_refinement_folds(fn, pessimistic, optimistic):
    for p, want in (("peephole", pessimistic), ("sccp", optimistic)):
        t = _built(fn, p).return_type
        assert t == (want if isinstance(want, Type) else constant(want)), (p, t)
    assert 10 not in _constants(_built(fn, "sccp"))


def _constants(g) -> set:
    return {n.type.con for n in g.live() if type(n) is Constant}


def test_a_bool_tested_twice_is_decided():
    assert 99 in _constants(son.Pipeline.of("none").build(flag_twice))
    assert 99 not in _constants(son.Pipeline.of("peephole").build(flag_twice))


def sum_all(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def sum_while(a):
    s = 0.0
    i = 0
    while i < len(a):
        s += a[i]
        i += 1
    return s


@pytest.mark.parametrize("fn", [sum_all, sum_while])
def test_a_loops_own_bounds_check_folds_only_optimistically(fn):
    """i = phi(0, i + 1) under i < len(a): the pessimistic peephole must assume the
    worst of the phi before its back edge (no lower bound); SCCP starts from 0, widens
    to [0, max] and proves the access in bounds."""
    assert _checks(fn, "peephole", ["float64[]"]) == 1
    assert _checks(fn, "sccp", ["float64[]"]) == 0
    assert _checks(fn, "combined", ["float64[]"]) == 0
    x = np.arange(5.0)
    assert son.jit(fn)(x) == fn(x) == 10.0


# ---------------------------------------------------------------- what must not fold
def wraps(x: int):
    if x > 0:
        return x + 1 > x  # False at INT64_MAX under int64 wrap-around
    return True


def countdown_by_three(n: int):
    s = 0
    while n > 0:
        s += n
        n -= 3
    return s, n


def step_and_break(a, k: int):
    t = 0.0
    for i in range(len(a) - 1, -1, -2):
        if i < k:
            break
        t += a[i]
    return t


def refined_then_indexed(a, i: int):
    if i < len(a):
        return a[i]   # i may be below -len(a): the check stays
    return -1.0


def test_wrap_around_is_never_folded_away():
    assert not _built(wraps, "sccp").return_type.is_constant
    assert son.jit(wraps)(INT64_MAX) is False
    assert son.interpret(son.Pipeline.of("combined").build(wraps), INT64_MAX) is False


@settings(max_examples=200, deadline=None)
@given(x=EDGE)
def test_edges_agree_with_the_unoptimized_graph_and_cpython(x):
    """At the int64 edges the oracle is the raw parse (son's int64 semantics: ``x + 1 >
    x`` is False at max); away from them, CPython itself."""
    for fn in (exit_zero, eq_three, never_negative, below_five, wraps):
        if fn is exit_zero and not 0 <= x <= 50:  # below 0 it counts down through 2**64
            continue
        raw = run_son(_built(fn, "none"), (x,))
        if abs(x) < 2**62:
            want = run_python(fn, (x,))
            if want[0] == "ok" and want[1][0] == "int":
                want = ("ok", ("int", wrap64(want[1][1])), *want[2:])
            assert raw == want
        for p in ("peephole", "sccp", "combined"):
            assert run_son(_built(fn, p), (x,)) == raw, (fn.__name__, p, x)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(-20, 40))
def test_countdowns_by_steps_agree_with_cpython(n):
    for p in ("peephole", "sccp", "combined"):
        g = _built(countdown_by_three, p)
        assert run_son(g, (n,)) == run_python(countdown_by_three, (n,))


@settings(max_examples=60, deadline=None)
@given(size=st.integers(0, 7), k=st.integers(-3, 9), i=st.integers(-10, 10))
def test_loops_with_steps_and_breaks_and_negative_indices_agree_with_cpython(size, k, i):
    a = np.arange(float(size))
    for p in ("sccp", "combined"):
        g = _built(step_and_break, p, ["float64[]", "int"])
        assert run_son(g, (a.copy(), k)) == run_python(step_and_break, (a.copy(), k))
        g = _built(refined_then_indexed, p, ["float64[]", "int"])
        assert run_son(g, (a.copy(), i)) == run_python(refined_then_indexed, (a.copy(), i))
    assert _checks(refined_then_indexed, "combined", ["float64[]", "int"]) == 1


def test_kernels_write_a_refinement_as_its_value():
    k = son.jit(sum_all)
    assert k(np.arange(4.0)) == 6.0
    assert "refine" not in k.source.split("\"\"\"")[-1]  # below the header naming the file
    assert not any(type(n) is Refine for n in son.schedule(k.graph).block_of)
    assert any(type(n) is Refine for n in son.jit(sum_all).graph_for(["float64[]"]).live())


def toggles_forever(n: int):
    x = 1
    while x > 0:
        x = 2 - x  # refined by x > 0: 2 - x is 1, so x stays 1 and the loop never ends
        n += 1
    return n


def test_a_loop_proven_infinite_while_parsing_keeps_its_never_exit():
    """The back edge narrows x to 1 after the exit test was built, which decides the test:
    the parser gives the loop the never-taken exit of ``while True`` (without it Stop
    reached nothing and the function was an empty graph, as if it returned)."""
    from son.nodes import Loop, Never, Raise

    for p in ("peephole", "sccp", "combined"):
        g = _built(toggles_forever, p)
        assert g.returns() == [] and sum(type(n) is Loop for n in g.live()) == 1
        (r,) = g.stop.inputs
        assert type(r) is Raise and r.exc is RuntimeError
        assert sum(type(n) is Never for n in g.live()) == 1

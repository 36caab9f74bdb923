"""Guard elimination (son/sccp/guards.py): a test decided by dominating tests is folded,
and only then: every function keeps CPython's outcome (hypothesis, CPython the oracle)."""

from __future__ import annotations

import corpus
import corpus_suites
import numpy as np
import pytest
from conftest import run_both, run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import If, Load, OutOfBounds
from son.nodes.types import wrap64
from son.sccp.guards import eliminate_guards

INT64 = st.integers(-2**63, 2**63 - 1)
EDGY = st.one_of(st.integers(-3, 3), st.sampled_from([-2**63, -2**63 + 1, 2**63 - 2, 2**63 - 1]), INT64)


def _guards(fn, argtypes):
    g = son.parse(fn, argtypes=argtypes)
    h, stats = son.optimize(g, "sccp,guards")
    return h, stats[-1].info["decided"]


def _branches(g) -> int:
    return sum(type(n) is If for n in g.live())


# ---------------------------------------------------------------- what folds
def checked_div(a, b):
    assert b != 0
    return a // b + a % b


def twice_loaded(x, i):
    return x[i] * x[i] + x[i - 1]


def gcd(b, a):
    while b:
        a, b = b, a % b
    return a


def same_test_nested(x, y):
    if x == y:
        if y == x:
            return 1
        return 2
    if x != y:
        return 3
    return 4


def int_order(a, b):
    if a < b:
        if b > a:
            r = 1
        else:
            r = 2
        if a >= b:
            r += 10
        if a == b:
            r += 100
        return r
    if b <= a:
        return 5
    return 6


def const_bound(x, n):
    if n >= 0:
        if n < len(x):
            return x[n]
    return -1.0


def float_truth(n, d, x):
    """``1.0 / x`` tests ``x == 0.0``, which ``not x`` decided (for -0.0 and NaN too)."""
    r = 0.0
    if d != 0:
        r = n // d
    if not x:
        return r
    return r + 1.0 / x


@pytest.mark.parametrize("fn, argtypes, decided", [
    (float_truth, ["int", "int", "float"], 2),
    (checked_div, ["int", "int"], 2),
    (twice_loaded, ["float64[]", "int"], 1),
    (gcd, ["int", "int"], 1),
    (same_test_nested, ["int", "int"], 2),
    (int_order, ["int", "int"], 4),
    (const_bound, ["float64[]", "int"], 1),
])
def test_decided_tests_fold(fn, argtypes, decided):
    h, k = _guards(fn, argtypes)
    assert k == decided
    g, _ = son.optimize(son.parse(fn, argtypes=argtypes), ["sccp"])
    assert _branches(h) == _branches(g) - decided


def test_a_repeated_load_is_one_load_with_one_check():
    h, _ = _guards(twice_loaded, ["float64[]", "int"])
    live = h.live()
    assert sum(type(n) is Load for n in live) == 2  # x[i] once, x[i - 1]
    assert sum(type(n) is OutOfBounds for n in live) == 2


def running_max(a, m):
    for i in range(len(a)):
        if a[i] > m:
            m = a[i]  # the load the test made, reused
    return m


def reloaded_after_a_store(a, m):
    if a[0] > m:
        a[0] = m  # a store between: the next a[0] is a new load
        m = a[0] + 1.0
    return m, a[0]


def loaded_on_both_arms(a, p):
    if p:
        x = a[1]
    else:
        x = -a[1]
    return x + a[1]  # neither arm's load dominates this one


@pytest.mark.parametrize("fn, argtypes, loads, reused", [
    (running_max, ["float64[]", float], 1, 1),
    (reloaded_after_a_store, ["float64[]", float], 3, 0),
    (loaded_on_both_arms, ["float64[]", bool], 3, 0),
])
def test_a_load_dominated_by_the_same_load_is_reused(fn, argtypes, loads, reused):
    h, stats = son.optimize(son.parse(fn, argtypes=argtypes), "sccp,guards")
    assert stats[-1].info["loads"] == reused
    assert sum(type(n) is Load for n in h.live()) == loads

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.floats(allow_nan=True), max_size=4), st.one_of(st.floats(), st.booleans()))
    def agree(xs, x):
        a = np.array(xs, dtype=np.float64)
        arg = bool(x) if argtypes[1] is bool else float(x)
        assert run_son(h, (a.copy(), arg)) == run_python(fn, (a.copy(), arg))

    agree()


def test_a_bounds_check_under_its_own_test_folds():
    h, _ = _guards(const_bound, ["float64[]", "int"])
    assert not any(type(n) is OutOfBounds for n in h.live())


# ---------------------------------------------------------------- difference bounds
def triangle(a):
    n = len(a)
    s = 0.0
    for i in range(n):
        for j in range(n - 1 - i):  # j + 1 <= n - 1 - i <= n - 1
            s += a[j] * a[j + 1]
    return s


def neighbours(a):
    s = 0.0
    for i in range(1, len(a) - 1):
        s += a[i - 1] - a[i + 1]
    return s


def countdown(a):
    s = 0.0
    i = len(a) - 1
    while i >= 0:  # i <= len(a) - 1: its first value, and it only shrinks
        s += a[i]
        i -= 1
    return s


def clamped(x, nbins):
    h = np.zeros(nbins)
    k = int(x * nbins)
    if k >= nbins:
        k = nbins - 1
    if k >= 0:
        h[k] += 1.0  # k <= nbins - 1 on both arms, and len(h) is nbins
    return h


def shifted(a, lo):
    s = 0.0
    for j in range(lo, len(a) - 1):
        s += a[j + 1]  # j may be below -len(a): the check stays
    return s


def grows(a):
    s = 0.0
    i = 0
    while i <= len(a) - 1:
        s += a[i]
        i = i + 2 if s > 0 else i + 1  # i + 2 may wrap for len(a) near 2**63 (a broadcast
    return s                            # view): i >= 0 is not proven, the check stays


@pytest.mark.parametrize("fn, argtypes, halves", [
    (triangle, ["float64[]"], 0),
    (neighbours, ["float64[]"], 0),
    (countdown, ["float64[]"], 0),
    (clamped, ["float", "int"], 0),
    (shifted, ["float64[]", "int"], 1),
    (grows, ["float64[]"], 1),
])
def test_difference_bounds_prove_accesses_in_bounds(fn, argtypes, halves):
    """No check stays whole in a kernel's graph; ``halves`` test only ``i < -n``, their
    upper half proven (the ``guards`` pass itself keeps them whole for versioning)."""
    h, _ = son.optimize(son.parse(fn, argtypes=argtypes), "sccp,guards")
    assert sum(type(n) is OutOfBounds for n in h.live()) == halves
    assert eliminate_guards(h, halve=True)["halved"] == halves
    assert not any(type(n) is OutOfBounds for n in h.live())
    h.verify()


def test_halved_checks_raise_where_cpython_does_in_a_kernel():
    """``shifted`` and ``grows`` keep only ``i < -n`` in their kernels: a start far
    below the length still raises IndexError, a slightly negative one wraps."""
    ks, kg = son.jit(shifted, fallback="error"), son.jit(grows, fallback="error")
    for n in range(5):
        a = np.arange(n, dtype=np.float64) - 1.5
        for lo in (-2**63, -n - 2, -n - 1, -n, -1, 0, 2):
            assert run_python(ks, (a, lo)) == run_python(shifted, (a, lo))
        assert run_python(kg, (a,)) == run_python(grows, (a,))
    for k in (ks, kg):  # one half tested: no two-sided ``(i >= n) | (i < -n)``
        assert "raise IndexError" in k.source and ") | (" not in k.source


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 6), lo=EDGY, x=st.floats(-2.0, 2.0), nbins=st.integers(-2, 5))
def test_difference_bounds_agree_with_cpython(n, lo, x, nbins):
    a = np.linspace(-1.0, 1.0, n)
    for fn, args in ((triangle, (a,)), (neighbours, (a,)), (countdown, (a,)), (grows, (a,)),
                     (shifted, (a, lo)), (clamped, (x, nbins))):
        h, _ = _guards(fn, ["float64[]", "int"][:len(args)] if fn is not clamped else ["float", "int"])
        want, got = run_both(fn, tuple(v.copy() if isinstance(v, np.ndarray) else v for v in args), graph=h)
        assert want == got


# ---------------------------------------------------------------- what must not fold
def float_order(a, b):
    if a < b:
        return 1
    if a >= b:  # false for NaN: not decided by the first test
        return 2
    return 3


def different_operands(a, b, c):
    if a < b:
        if a < c:
            return 1
    return 0


def not_dominating(a, b):
    if a:
        r = 1
    else:
        r = 2
    if b == 0:
        r += 1
    if b == 0:  # dominated by the same test's *both* sides: not decided
        r += 10
    return r


def negative_index(x, i):
    if i < len(x):
        return x[i]  # i may be below -len(x)
    return 0.0


@pytest.mark.parametrize("fn, argtypes", [
    (float_order, ["float", "float"]),
    (different_operands, ["int", "int", "int"]),
    (not_dominating, ["int", "int"]),
    (negative_index, ["float64[]", "int"]),
])
def test_undecided_tests_stay(fn, argtypes):
    assert _guards(fn, argtypes)[1] == 0


def test_float_order_keeps_the_nan_answer():
    nan = float("nan")
    h, _ = _guards(float_order, ["float", "float"])
    assert son.interpret(h, nan, 1.0) == float_order(nan, 1.0) == 3


def test_negative_index_still_raises():
    h, _ = _guards(negative_index, ["float64[]", "int"])
    with pytest.raises(IndexError):
        son.interpret(h, np.arange(3.0), -4)


# ---------------------------------------------------------------- CPython is the oracle
@settings(max_examples=60, deadline=None)
@given(a=EDGY, b=EDGY)
def test_folded_int_functions_agree_with_cpython(a, b):
    for fn in (checked_div, gcd, same_test_nested, int_order, not_dominating):
        h, _ = _guards(fn, ["int", "int"])
        want, got = run_both(fn, (a, b), graph=h)
        if want[0] == "ok" and want[1][0] == "int":  # son's ints are int64 (DESIGN.md)
            want = ("ok", ("int", wrap64(want[1][1])), *want[2:])
        assert want == got


@settings(max_examples=60, deadline=None)
@given(n=EDGY, d=st.sampled_from([0, 1, -1, 3]),
       x=st.sampled_from([0.0, -0.0, float("nan"), 2.0, -float("inf")]))
def test_folded_float_truth_agrees_with_cpython(n, d, x):
    if n == -2**63 and d == -1:
        return  # n // d is 2**63 in CPython, INT64_MIN in son (int64 wrap-around, DESIGN.md)
    h, _ = _guards(float_truth, ["int", "int", "float"])
    want, got = run_both(float_truth, (n, d, x), graph=h)
    if want[0] == "ok" and want[1][0] == "int":  # son's ints are int64 (DESIGN.md)
        want = ("ok", ("int", wrap64(want[1][1])), *want[2:])
    assert want == got


@settings(max_examples=40, deadline=None)
@given(i=st.integers(-8, 8), n=st.integers(0, 5))
def test_folded_array_functions_agree_with_cpython(i, n):
    x = np.arange(float(n))
    for fn in (twice_loaded, const_bound, negative_index):
        h, _ = _guards(fn, ["float64[]", "int"])
        want, got = run_both(fn, (x.copy(), i), graph=h)
        assert want == got


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in corpus.CASES + corpus_suites.CASES])
def test_the_guards_pass_preserves_every_corpus_function(case):
    g, _ = son.optimize(son.parse(case.fn), "sccp,guards")

    @settings(max_examples=10, deadline=None)
    @given(st.tuples(*case.strategies))
    def check(args):
        assert run_son(g, args) == run_python(case.fn, args)

    check()
    for args in case.examples:
        assert run_son(g, args) == run_python(case.fn, args)

"""``t.index(x)`` and ``t.count(x)`` of a tuple (son/frontend/calls.py ``tuple_search``):
CPython's ``x is y or x == y`` per item in order, ValueError where ``index`` finds none.
Two NaNs are equal only if one object, which son cannot tell: NotImplementedError, son's
refusal where the call runs (never a guess).  CPython is the oracle in every stage."""

from __future__ import annotations

import math

import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son

ITEMS = st.sampled_from([0.0, -0.0, 1.0, 2.5, math.inf])


def counted(t, x: float, n: int):
    return t.count(x), (n, 1, True, n).count(1), (2, n, x).index(n)


def found(t, x: float):
    return t.index(x)


@pytest.mark.parametrize("fn", [counted, found])
def test_index_and_count_agree_with_cpython(fn):
    check_every_stage(fn, [("float", "float", "float"), "float", "int"][:2 if fn is found else 3],
                      st.tuples(st.tuples(ITEMS, ITEMS, ITEMS), ITEMS, st.integers(-1, 2)).map(
                          lambda a: a[:2] if fn is found else a), max_examples=40)


def missing(t, x: float):
    return t.index(x)


def test_index_of_a_missing_item_is_cpythons_value_error():
    args = ((1.0, 2.0), 3.0)
    assert run_python(son.jit(missing, fallback="error"), args) == run_python(missing, args)


def test_two_nans_are_refused_where_the_call_runs():
    nan = float("nan")
    with pytest.raises(NotImplementedError, match="NaNs"):
        son.jit(missing, fallback="error")((1.0, nan), nan)


def joined(a, b, x: float):
    s = 0.0
    for v in a + b:
        s += v
    return len(a), bool(a), a + b, a == b, s + x, 1 if b else 2


@pytest.mark.parametrize("n, m", [(0, 0), (0, 1), (2, 0)])
def test_empty_tuple_arguments_agree_with_cpython(n, m):
    """``()`` as an argument: a parameter of no values, the empty tuple where read."""
    check_every_stage(joined, [("float",) * n, ("float",) * m, "float"],
                      st.tuples(st.tuples(*[ITEMS] * n), st.tuples(*[ITEMS] * m), ITEMS), max_examples=10)

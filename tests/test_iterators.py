"""Iterator objects (son/frontend/iterators.py): ``iter``, ``next`` with and without a
default, loops, ``enumerate``, reductions and ``in`` over an iterator, each advancing one
position that every name for the iterator shares.  CPython is the oracle in every stage
(the raw parse, each pipeline, the kernel); gradients through ``next`` agree with forward
mode."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_reverse_against_forward
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

FLOATS = st.sampled_from([0.0, -0.0, 1.5, -2.5, 4.0, np.inf, np.nan])
SMALL = st.integers(-3, 6)


def pairs_of_an_array(a, n):
    """Two items a step, ``n`` steps, then what is left (StopIteration past the end)."""
    it = iter(a)
    s = 0.0
    for _ in range(n):
        s += next(it) * next(it)
    return s, next(it, -1.0), sum(it)


def resumed_loops(a):
    """A loop that breaks leaves the iterator after the item it took; the next loop and
    ``enumerate`` go on from there; ``in`` consumes up to the item it finds."""
    it = iter(a)
    first = 0.0
    for x in it:
        first += x
        if x > 1.0:
            break
    seen = 4.0 in it
    rest = 0.0
    for i, x in enumerate(it, 1):
        rest += i * x
    return first, seen, rest, next(it, None)


def lists_and_appends(xs: list[int], k):
    """A list iterator reads the length at each step (an append is seen) until it finds
    the end, then stays exhausted (an append is not); two names, one iterator."""
    it = iter(xs)
    alias = iter(it)
    a = next(alias, -1)
    xs.append(k)
    b = next(it, -1)
    taken = [x + 1 for x in it if x != k]
    xs.append(k + 1)
    return a, b, taken, next(alias, None), max(iter(xs))


def ranges_and_tuples(n, t: tuple[int, int, int]):
    """A range's items, a tuple's picked by the run-time position, ``any``/``min``."""
    r = iter(range(n))
    s = 0
    for i in r:
        s += i * next(r, 10)
    ti = iter(t)
    head = next(ti)
    return s, head, any(x > head for x in ti), min(iter(t)), next(ti, None)


def rows_of_a_matrix(m):
    it = iter(m)
    top = next(it)
    total = top.sum()
    for row in it:
        total += row[0]
    return total, [r.sum() for r in it], next(iter(m[1:]), top).sum()


CASES = [
    (pairs_of_an_array, ["float64[]", "int"],
     st.tuples(hnp.arrays(np.float64, st.integers(0, 6), elements=FLOATS), st.integers(0, 4))),
    (resumed_loops, ["float64[]"], st.tuples(hnp.arrays(np.float64, st.integers(0, 7), elements=FLOATS))),
    (lists_and_appends, [list[int], "int"], st.tuples(st.lists(SMALL, max_size=4), SMALL)),
    (ranges_and_tuples, ["int", ("int", "int", "int")], st.tuples(SMALL, st.tuples(SMALL, SMALL, SMALL))),
    (rows_of_a_matrix, ["float64[:, :]"],
     st.tuples(hnp.arrays(np.float64, st.tuples(st.integers(0, 3), st.integers(1, 3)), elements=FLOATS))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=30)


def nan_search(xs: list[float], x):
    return x in iter(xs)


def test_searching_a_list_iterator_for_nan_is_cpythons_or_son_refusal():
    """CPython's identity-or-== over a list's items: two NaNs meeting are son's run-time
    refusal (whether they are one object), anything else CPython's answer."""
    run = son.jit(nan_search, fallback="error")
    assert run([1.0, 2.0], 2.0) is True and run([1.0], 3.0) is False and run([np.nan, 2.0], 2.0) is True
    with pytest.raises(NotImplementedError, match="NaN"):
        run([1.0, np.nan], np.nan)


def loss(a, w: float):
    it = iter(a)
    s = next(it) * w
    for x in it:
        s = s * x + w
    return s


def test_gradients_go_through_next_and_loops_over_an_iterator():
    check_reverse_against_forward(loss, np.array([1.5, -0.5, 2.0, 0.25]), 0.75)


@pytest.mark.parametrize("src, message", [
    ("def f(a: 'float64[]'):\n    it = iter(a)\n    return [x for x, y in zip(it, a)]\n",
     "zip() of an iterator"),
    ("def f(a: 'float64[]'):\n    for x in reversed(iter(a)):\n        pass\n    return 0\n",
     "not reversible"),
    ("def f(x: float):\n    return next(x)\n", "not an iterator"),
    ("def f(x: float):\n    return iter(x)\n", "float"),
    ("def f(a: 'float64[]'):\n    return iter(a, 0.0)\n", "sentinel"),
    ("def f(m: 'float64[:, :]'):\n    return next(iter(m), None) is None\n", "default of another kind"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source(src, name="f")

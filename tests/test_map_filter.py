"""``map`` and ``filter`` over arrays, lists and ranges where something iterates them
(``sum``, ``min``, ``max``, ``any``, ``all``, ``math.prod``, ``list``, ``sorted``, a ``for``, a
comprehension's ``for``):
the generator expression that yields the same items (``Functions.as_generator``).
CPython is the oracle through every stage and the kernel, on hypothesis inputs."""

from __future__ import annotations

import functools
import math
import operator

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError


def _sq(x):
    return x * x


def reductions(a):
    return sum(map(_sq, a)) + max(map(abs, a), default=-1.0) + sum(filter(lambda x: x > 0, a))


def two_iterables(a, b):
    return sum(map(lambda x, y: x * y, a, b)) + len(list(filter(None, a))) + math.prod(map(abs, b))


def loops(a):
    s = 0.0
    for y in map(math.sqrt, map(abs, a)):
        s += y
    for z in filter(lambda v: v > 1.0, a):
        if z > 40.0:
            break
        s -= z
    else:
        s += 0.5
    return s + (sorted(map(abs, a))[0] if len(a) else 0.0)


def over_a_range(n: int):
    squares = sum(map(lambda i: i * i, range(n)))
    return squares + any(map(lambda i: i > 3, range(n))) + all(filter(None, range(n)))


def a_list(xs):
    return list(map(_sq, xs)) + sorted(filter(lambda x: x < 2.0, xs))


def in_comprehensions(a, n: int):
    """A map or filter iterated by a comprehension's ``for``, first or nested."""
    return ([x + 1.0 for x in map(abs, a)], sum(y * y for y in map(lambda v: v - 1, range(n)) if y % 2 == 0),
            [v for v in filter(None, a)],
            [(i, j) for i in range(n % 5) for j in map(abs, range(-i, 1)) if j > 0],
            any(x > 2.0 for x in filter(lambda t: t > 0, a)), max((p for p in map(_sq, a)), default=0.0))


FLOATS = st.floats(-50, 50, allow_nan=False)
FARR = st.lists(FLOATS, max_size=8).map(np.array)
CASES = [
    (reductions, ["float64[]"], st.tuples(FARR)),
    (two_iterables, ["float64[]", "float64[]"], st.tuples(FARR, FARR)),
    (loops, ["float64[]"], st.tuples(FARR)),
    (over_a_range, [int], st.tuples(st.integers(-3, 30))),
    (a_list, ["list[float]"], st.tuples(st.lists(FLOATS, max_size=8))),
    (in_comprehensions, ["float64[]", int], st.tuples(FARR, st.integers(-3, 12))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=30)


def test_a_map_son_cannot_make_a_generator_of_stays_the_old_refusal():
    def f(a):
        return sum(map(_sq(2.0).__add__, a))  # the function is an expression evaluated once

    with pytest.raises(SonSyntaxError):
        son.parse(f, argtypes=["float64[]"])


def test_a_local_named_map_is_called_not_iterated():
    def f(n: int):
        map = _sq  # noqa: A001 - shadows the builtin on purpose
        return sum([map(n)])

    assert son.jit(f)(7) == 49


def folds(a, n: int):
    xs = [i - 2 for i in range(n % 6)]
    return (functools.reduce(lambda acc, c: acc * 0.5 + c, a, 0.0), functools.reduce(max, a, -1.0),
            functools.reduce(operator.add, xs, 10), functools.reduce(lambda p, q: p * q - 1, xs))


def test_reduce_over_arrays_and_lists_is_the_left_fold_with_cpythons_type_error():
    """``functools.reduce`` over an array or a list is a loop (``reduce_items``); without an
    initial value an empty one is CPython's TypeError."""
    floats = st.lists(st.floats(-1e3, 1e3), max_size=6).map(np.array)
    check_every_stage(folds, ["float64[]", int], st.tuples(floats, st.integers(0, 12)), max_examples=30)

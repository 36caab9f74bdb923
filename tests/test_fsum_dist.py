"""``math.fsum``, ``math.dist``, ``math.ulp`` and ``math.remainder``
(son/frontend/pylib.py), against CPython.

``pylib.fsum`` is first checked as plain Python on many sums built to stress the
partials (cancelling huge values, tiny ones, infinities, NaN, signed zeros); then
the compiled forms over arrays, lists, tuples, ranges and generator expressions
through every pipeline and the kernel, hypothesis drawing the items.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import given, settings
from hypothesis import strategies as st

from son.frontend import pylib

EDGES = [0.0, -0.0, 1.0, -1.0, 1e16, -1e16, 1e-16, 1e308, -1e308, 5e-324, 0.1, math.inf, -math.inf,
         math.nan]
ITEMS = st.one_of(st.sampled_from(EDGES), st.floats(allow_nan=True, allow_infinity=True))
ARRAYS = st.lists(ITEMS, max_size=12).map(lambda xs: np.array(xs, dtype=np.float64))


def _outcome(f, *args):
    try:
        r = f(*args)
    except (ValueError, OverflowError) as e:
        return type(e).__name__
    return r.hex() if r == r else "nan"


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(ITEMS, st.integers(-2**62, 2**62)), max_size=10))
def test_pylib_fsum_is_cpythons_fsum(xs):
    assert _outcome(pylib.fsum, xs) == _outcome(math.fsum, xs)


def test_pylib_fsum_rounds_half_even_across_partials():
    for xs in ([1e-16, 1.0, 1e16], [1e16, 1.0, 1e-16], [0.1] * 10, [1e308, 1e308, -1e308], [-0.0, -0.0], []):
        assert _outcome(pylib.fsum, xs) == _outcome(math.fsum, xs), xs


@settings(max_examples=3000, deadline=None)
@given(ITEMS, ITEMS)
def test_pylib_remainder_and_ulp_are_cpythons(x, y):
    assert _outcome(pylib.remainder, x, y) == _outcome(math.remainder, x, y)
    assert _outcome(pylib.ulp, x) == _outcome(math.ulp, x)


def test_pylib_remainder_rounds_halfway_quotients_to_even():
    for x in range(-12, 13):
        for y in (2.0, 4.0, -2.0, 0.5, 3.0):
            assert _outcome(pylib.remainder, x + 0.0, y) == _outcome(math.remainder, x + 0.0, y)


def remainder_and_ulp(x, y):
    return math.remainder(x, y) + math.ulp(y) * 0.5


def fsum_array(a):
    return math.fsum(a)


def fsum_generator(a):
    return math.fsum(x * 3.0 for x in a if x == x)


def fsum_list(a, x):
    xs = [x, -x]
    for v in a:
        xs.append(v * 1e16)
    return math.fsum(xs)


def fsum_tuple_and_range(x, n):
    return math.fsum((x, 1e16, -x, 1.0)) + math.fsum(range(n % 50))


def dist_arrays(a, b):
    return math.dist(a, b)


def dist_tuples(x, y):
    return math.dist((x, y, 1), (y, 2.5, x))


@pytest.mark.parametrize("fn, argtypes, strategy", [
    (fsum_array, [np.ndarray], st.tuples(ARRAYS)),
    (fsum_generator, [np.ndarray], st.tuples(ARRAYS)),
    (fsum_list, [np.ndarray, float], st.tuples(ARRAYS, ITEMS)),
    (fsum_tuple_and_range, [float, int], st.tuples(ITEMS, st.integers(-100, 100))),
    (dist_arrays, [np.ndarray, np.ndarray], st.tuples(ARRAYS, ARRAYS)),
    (dist_arrays, [np.ndarray, np.ndarray], ARRAYS.map(lambda a: (a, a[::-1].copy()))),
    (dist_tuples, [float, float], st.tuples(ITEMS, ITEMS)),
    (remainder_and_ulp, [float, float], st.tuples(ITEMS, ITEMS)),
], ids=lambda v: getattr(v, "__name__", "") if callable(v) else "")
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy.map(list), max_examples=40)

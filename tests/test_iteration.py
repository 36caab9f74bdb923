"""Iteration (son/frontend/iteration.py): ``for`` over 1-D arrays and over ``enumerate``,
``zip`` and ``reversed`` of arrays, ranges and tuples; ``sum``, ``min``, ``max``,
``any``, ``all`` and ``math.prod`` of arrays, ranges and generator expressions (bound to
a name too, where the next statement passes it on at once), with
``key=``, ``default=`` and ``start``.  CPython is the oracle in every stage (the
interpreter on the raw parse and on each pipeline's graph, and the kernel); the
gradients through such loops are checked against the derivative written by hand."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from conftest import check_every_stage, run_both
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.5, 2.0, 3.25, math.nan, math.inf, -math.inf]),
                   st.floats(-1e3, 1e3))
INTS = st.one_of(st.integers(-5, 5), st.sampled_from([2 ** 62, -(2 ** 63), 2 ** 63 - 1]))
FARR = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(INTS, max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
F, I64 = "float64[]", "int64[]"


def for_each(a):
    s = 0.0
    n = 0
    for x in a:
        s += x
        n += 1
    return s, n


def enumerated_and_written(a):
    s = 0.0
    for i, x in enumerate(a, 2):
        s = s * 0.5 + i * x
        if i < len(a):
            a[i] = s  # seen by a later step: CPython reads a[k] when it gets there
    return s


def zipped_with_break(a, b):
    s = 0.0
    for x, y in zip(a, b):
        if x > y:
            break
        s += x * y
    else:
        s = -s
    return s


def zipped_with_a_range(a, n):
    s = 0
    for i, x in zip(range(n, 0, -1), a):
        s += i * x
    return s


def reversed_array(a):
    s = 0
    k = 1
    for x in reversed(a):
        s = s + x * k
        k += 1
    return s


def enumerate_reversed_range(n):
    s = 0
    for i, r in enumerate(reversed(range(1, n, 3))):
        s = s * 7 + i * r
    return s


def nested(a):
    n = 0
    for x in a:
        for y in a:
            if x < y:
                n += 1
    return n


def sums(a):
    return sum(a), sum(a, 10), sum(x * x for x in a if x > 0)


def extremes(a):
    if len(a) == 0:
        return min(a, default=-1), max(a, default=-1), 0, 0
    return min(a), max(a), max(a, key=abs), min(a, key=lambda v: (v - 1) * (v - 1))


def empty_min_raises(a):
    return min(x for x in a if x > 100)


def truths(a):
    return any(a), all(a), any(x > 2 for x in a), all(x > -3 for x in a)


def short_circuit(a):
    return any(1 // int(x) > 0 for x in a)  # stops before a zero that would raise


def products(a):
    return math.prod(a), math.prod(x + 1 for x in a)


def ranges(n):
    return sum(range(n)), sum(i * j for i in range(n) for j in range(i) if (i + j) % 3), \
        max((i * 7 % 5 for i in range(n)), default=None)


def targets_are_local(n):
    x = 5
    s = sum(x for x in range(n))
    t = 0
    for y in range(3):
        t += sum(y * z for z in range(n))
    return s + x, t + y


def tuple_key(x, y):
    return min((x, y), key=lambda v: -v), max(x, y, key=abs), min((x, y), default=0.0)


def over_a_tuple(a, b, c):
    return math.prod(x * x for x in (a, b, c)), any(v > 1 for v in (a, b, c)), \
        max((abs(v) for v in (a, b) if v < c), default=-1.0), \
        any(1 // int(v) for v in (b, 0.0, c))  # stops at a true item before the zero


def named_generators(a, k):
    """A generator expression bound to a name and passed at once to a reduction by the
    next statement: its items are made as the reduction asks, as in CPython."""
    big = (x * x for x in a if x > k)
    total = max(big, default=-1.0) + 1.0
    halves = (v / 2 for v in a)
    total += sum(halves)
    count = (1 for v in a if v < 0)
    return float(sum(count)) * total


def membership(a, x, n):
    return x in a, n in a, x not in a[1:], n in range(-3, 10, 3), n in range(9, -9, -2), 2 in a


def membership_at_the_int64_edges(a, b, c, x):
    return x in range(a, b, c)  # CPython's O(1) arithmetic, exact where b - a passes int64


CASES = [
    (membership, [F, float, int], st.tuples(FARR, FLOATS, st.integers(-10, 10))),
    (membership_at_the_int64_edges, [int, int, int, int],
     st.tuples(INTS, INTS, st.sampled_from([1, -1, 2, -3, 2 ** 63 - 1, -(2 ** 63), 2 ** 62]), INTS)),
    (over_a_tuple, [float, float, float], st.tuples(FLOATS, FLOATS, FLOATS).filter(
        lambda t: all(math.isfinite(x) for x in t))),
    (for_each, [F], st.tuples(FARR)),
    (for_each, [I64], st.tuples(IARR)),
    (enumerated_and_written, [F], st.tuples(FARR)),
    (zipped_with_break, [F, F], st.tuples(FARR, FARR)),
    (zipped_with_a_range, [I64, int], st.tuples(IARR, st.integers(-2, 9))),
    (reversed_array, [F], st.tuples(FARR)),
    (reversed_array, [I64], st.tuples(IARR)),
    (enumerate_reversed_range, [int], st.tuples(st.integers(-3, 20))),
    (nested, [F], st.tuples(FARR)),
    (sums, [F], st.tuples(FARR)),
    (sums, [I64], st.tuples(IARR)),
    (extremes, [F], st.tuples(FARR)),
    (extremes, [I64], st.tuples(IARR)),
    (empty_min_raises, [F], st.tuples(FARR)),
    (truths, [F], st.tuples(FARR)),
    (short_circuit, [I64], st.tuples(IARR)),
    (products, [F], st.tuples(FARR)),
    (ranges, [int], st.tuples(st.integers(-3, 12))),
    (targets_are_local, [int], st.tuples(st.integers(-2, 6))),
    (tuple_key, [float, float], st.tuples(FLOATS, FLOATS)),
    (named_generators, [F, float], st.tuples(FARR, FLOATS)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES,
                         ids=[f"{c[0].__name__}-{'-'.join(map(str, c[1]))}" for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    if fn is sums and F in argtypes and sys.version_info >= (3, 12):
        # CPython 3.12 adds floats compensated (Neumaier): son refuses rather than differ
        with pytest.raises(SonSyntaxError, match="compensated"):
            son.parse(fn, argtypes=argtypes)
        return
    check_every_stage(fn, argtypes, strategy, max_examples=60)


def test_a_key_on_a_tuple_is_used():
    # min((x, y), key=...) ignored its key before (a silent wrong answer)
    want, got = run_both(tuple_key, (1.0, 2.0), graph=son.parse(tuple_key, argtypes=[float, float]))
    assert want == got and want[1][1][0] == ("float", (2.0).hex())


def weighted(a, w):
    s = 0.0
    for i, x in enumerate(a):
        s += w * x * x + i
    return s + max((w * y for y in a if y > 0), default=0.0)


@pytest.mark.parametrize("interpret", [True, False])
def test_gradients_through_iteration(interpret):
    a = np.array([1.0, -2.0, 3.0])
    ga, gw = son.grad(weighted, argnums=(0, 1), interpret=interpret)(a, 2.0)
    np.testing.assert_allclose(ga, 2 * 2.0 * a + 2.0 * (a == 3.0))  # max picks w * a[2]
    assert gw == pytest.approx((a * a).sum() + 3.0)


@pytest.mark.parametrize("text, argtypes, message", [
    ("def f(a):\n    g = (x for x in a)\n    return 0\n", [F], "generator expression"),
    ("def f(a):\n    g = (x for x in a)\n    t = sum(g)\n    return t + sum(g)\n", [F],
     "generator expression"),
    ("def f(a):\n    g = (x for x in a)\n    a = a[1:]\n    return sum(g)\n", [F], "generator expression"),
    ("def f(a):\n    return len(x for x in a)\n", [F], "generator expression"),
    ("def f(a, t):\n    s = 0.0\n    for x, y in zip(a, (1, 2)):\n        s += x\n    return s\n",
     [F, int], "tuple iterated together"),
    ("def f(a):\n    s = 0\n    for i, x in reversed(enumerate(a)):\n        s += i\n    return s\n",
     [F], "not reversible"),
    ("def f(a):\n    return max(a, kee=abs)\n", [F], "unsupported keyword"),
    ("def f(a, b):\n    return max(a, b, default=0.0)\n", [float, float], "cannot specify a default"),
])
def test_refusals_are_located(text, argtypes, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source(text, argtypes=argtypes)

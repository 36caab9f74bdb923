"""numpy's array functions son compiles (son/frontend/arrayfns.py): ``*_like``,
``copy``, int ``arange``, ``argmax``/``argmin`` (first extreme, first NaN), ``any``/``all``,
``sum`` of int and bool arrays, ``prod``, ``cumsum``, ``diff``, ``var`` and ``std`` (with
``ddof=``), ``linspace``, ``full``, ``sort``, ``median``, as functions and methods, on
arrays and views, and ``a.shape``.  CPython (numpy) is the oracle in every stage; what
numpy does not define exactly is refused with a located error."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.5, 2.0, math.nan, math.inf, -math.inf]),
                   st.floats(-1e3, 1e3))
FARR = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(st.one_of(st.integers(-5, 5), st.sampled_from([2 ** 62, -(2 ** 63), 2 ** 63 - 1])),
                max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BARR = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
F, I64, B = "float64[]", "int64[]", "bool[]"


def likes(a):
    z, o = np.zeros_like(a), np.ones_like(a[1:])
    e = np.empty_like(a, dtype=np.int64)
    for i in range(len(e)):
        e[i] = i * 2
    return z, o, e, a.shape, len(a.shape)


def copies(a):
    b = a.copy()
    c = np.copy(a[::-1])
    if len(b) > 0:
        b[0] = 7.0  # the copy, not a
    return a, b, c


def extremes(a):
    if len(a) == 0:
        return -1, -1, -1
    return np.argmax(a), a.argmin(), a[::-1].argmax()


def empty_argmax_raises(a):
    return np.argmax(a[len(a):])


def truths(a):
    return np.any(a), a.all(), np.all(a[:0]), a[1:].any()


def int_sums(a):
    return np.sum(a), a.sum(), a[::2].sum(), np.argmin(a) if len(a) else -1


def products_and_cumsums(a):
    return np.prod(a), a[::-1].prod(), np.cumsum(a), a[1:].cumsum(), np.diff(a), np.diff(a[::2])


def variances(a):
    return np.var(a), a.std(), np.var(a[::-1], ddof=1), np.std(a, ddof=len(a)), a[::2].var()


def spaces(a, b, n):
    return (np.linspace(a, b, n), np.linspace(a, b, n, endpoint=False), np.linspace(a, b),
            np.linspace(0, n, num=3))


def fills(n, x, k, b):
    return (np.full(n, x), np.full((2, n), k), np.full(n, b), np.full(n, k, dtype=float),
            np.full((n, 2, 1), b, dtype=np.int64), np.full(n + 1, -0.0))


def sorts(a):
    return np.sort(a), np.sort(a[::-2]), np.median(a), np.median(a[1:])


def test_sort_of_zeros_of_both_signs_raises_instead_of_guessing():
    g = son.jit(sorts, fallback="error")
    with pytest.raises(NotImplementedError, match="0.0 and -0.0"):
        g(np.array([1.0, -0.0, 0.0]))
    assert son.jit(median_only, fallback="error")(np.array([0.0, -0.0])) == 0.0  # (sums erase the sign)


def median_only(a):
    return np.median(a)


def with_dtypes(a, i, b):
    """numpy's accumulator dtypes: ints and bools summed as floats in its buffers; the
    dtype a reduction has anyway changes nothing."""
    return (np.sum(i, dtype=np.float64), i.sum(dtype=float), np.mean(i, dtype=np.float64),
            np.sum(b, dtype=float), np.sum(b, dtype=np.int64), a.sum(dtype=np.float64),
            np.mean(a, dtype=float), i.sum(dtype=int))


def ranges(n, m, k):
    return np.arange(n), np.arange(n, m), np.arange(n, m, k)


def float_ranges(a, b, c):
    return np.arange(a, b, c), np.arange(b), np.arange(1, a)


CASES = [
    (likes, [F], st.tuples(FARR)),
    (copies, [F], st.tuples(FARR)),
    (extremes, [F], st.tuples(FARR)),
    (extremes, [I64], st.tuples(IARR)),
    (empty_argmax_raises, [F], st.tuples(FARR)),
    (truths, [F], st.tuples(FARR)),
    (int_sums, [I64], st.tuples(IARR)),
    (products_and_cumsums, [F], st.tuples(FARR)),
    (products_and_cumsums, [I64], st.tuples(IARR)),
    (products_and_cumsums, [B], st.tuples(BARR)),
    (variances, [F], st.tuples(FARR)),
    (variances, [I64], st.tuples(IARR)),
    (variances, [B], st.tuples(BARR)),
    (with_dtypes, [F, I64, B], st.tuples(FARR, IARR, BARR)),
    (spaces, [float, float, int], st.tuples(FLOATS | st.sampled_from([1e-320, 5e-324]), FLOATS,
                                            st.integers(-2, 40))),
    (fills, [int, float, int, bool], st.tuples(st.integers(-2, 4), FLOATS, st.integers(-2**63, 2**63 - 1),
                                               st.booleans())),
    (sorts, [F], st.tuples(FARR.map(lambda a: a + 0.0))),  # (no -0.0: the test above)
    (sorts, [I64], st.tuples(IARR)),
    (ranges, [int, int, int], st.tuples(st.integers(-6, 6), st.integers(-6, 9), st.integers(-3, 3))),
    (float_ranges, [float, float, float],
     st.tuples(st.floats(-5, 5), st.floats(-5, 5), st.one_of(st.floats(-2, 2).filter(lambda c: abs(c) > 0.05),
                                                              st.sampled_from([0.0, 0.1, 0.3, math.nan])))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES,
                         ids=[f"{c[0].__name__}-{'-'.join(map(str, c[1]))}" for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=50, kernel=fn not in SLOW_KERNELS)


#: functions whose kernel takes Numba minutes to compile: checked in the slow suite
SLOW_KERNELS = (variances,)


@pytest.mark.slow
@pytest.mark.parametrize("fn, argtypes, strategy", [c for c in CASES if c[0] in SLOW_KERNELS],
                         ids=[str(c[1][0]) for c in CASES if c[0] in SLOW_KERNELS])
def test_the_kernels_of_many_reductions_agree_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=50)


@pytest.mark.parametrize("text, argtypes, message", [
    ("def f(a):\n    return np.mean(a > 0.5, axis=1)\n", [F], "not a constant of this 1-D"),
    ("def f(a):\n    return np.arange(a)\n", [None], "may be ints or floats"),
    ("def f(a):\n    return np.argmax(a, out=a)\n", [F], "arguments other than the array"),
    ("def f(x):\n    return x.copy()\n", [float], "has no method copy"),
    ("def f(x):\n    return np.full(3, x, dtype=int)\n", [float], "converts only ints and bools"),
    ("def f(a):\n    return np.var(a, ddof=0.5)\n", [F], "ddof= of a float"),
    ("def f(a):\n    return a.std(axis=0, out=a)\n", [F], "arguments other than the array and axis="),
    ("def f(a):\n    return np.sum(a > 0, dtype=bool)\n", [F], "dtype=bool of a bool array"),
    ("def f(a):\n    return np.mean(a, dtype=int)\n", [F], "dtype=int64 of a float64"),
    ("def f(a):\n    return np.sum(a.reshape(2, -1) > 0, axis=0, dtype=float)\n", [F], "along an axis"),
])
def test_refusals_are_located(text, argtypes, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source("import numpy as np\n\n" + text, argtypes=argtypes)


def mean_of(a):
    return np.mean(a)


def mean_of_positive(a):
    return (a > 0.0).mean()


@pytest.mark.parametrize("n", [0, 1, 7, 8, 129, 8191, 8192, 8193, 20_001])
def test_mean_of_ints_and_bools_is_numpys_bit_for_bit(n):
    """numpy casts an int or bool array to floats in buffers of 8192 and adds each
    buffer's pairwise sum in order: son's mean is numpy's exactly, views included."""
    rng = np.random.default_rng(n)
    a = rng.integers(-2**62, 2**62, n)
    f = son.optimize(son.parse(mean_of, argtypes=["int64[]"]), "combined")[0]
    k = son.jit(mean_of)
    g = son.parse(mean_of_positive, argtypes=["float64[]"])
    x = rng.standard_normal(n)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        for arr in (a, a[::-1], a[1::3]):
            want = np.mean(arr)
            for got in (son.interpret(f, arr), k(arr)):
                assert got == want or math.isnan(got) and math.isnan(want), (len(arr), got, want)
        want = mean_of_positive(x)
        got = son.interpret(g, x)
        assert got == want or math.isnan(got) and math.isnan(want)
